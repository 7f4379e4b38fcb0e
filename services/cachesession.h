// One open cache: scans it off the UI thread, hands out progressive deltas, and follows the disk while a
// compile writes into it (file watching, debounced, incremental rescans).
#pragma once

#include "cachescanner.h"

#include <QFuture>
#include <QObject>

#include <atomic>
#include <memory>

class QFileSystemWatcher;
class QTimer;

namespace ingot {

class CacheStore;

class CacheSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheSession)

public:
    explicit CacheSession(QObject *parent = nullptr);
    ~CacheSession() override;

    // Opens a local cache folder and starts a full scan.
    void setRoot(const QString &path);
    QString root() const { return m_root; }
    // Scans again; incremental (unchanged module folders are not listed) unless `full`.
    void rescan(bool full = false);
    void cancel();
    bool isScanning() const { return m_running; }
    // The last complete scan.
    const CacheSnapshot &snapshot() const { return m_snapshot; }
    // A fresh store for the current root (each thread uses its own).
    std::unique_ptr<CacheStore> makeStore() const;

    void setWatching(bool on);
    bool isWatching() const { return m_watching; }
    int watchedFolders() const;
    void setDebounceMs(int ms);

Q_SIGNALS:
    void rootChanged(const QString &root);  // views drop what they show
    void scanStarted(bool full);
    void delta(const ingot::ScanDelta &delta);
    void scanFinished(const ingot::ScanStats &stats, const QString &fatalError);
    void diskChanged();  // the watcher saw a change; an incremental rescan follows

private:
    void start(bool full);
    void finished(quint64 generation, CacheSnapshot snapshot, ScanStats stats);
    void updateWatches();

    QString m_root;
    CacheSnapshot m_snapshot;
    quint64 m_generation = 0;
    bool m_running = false;
    bool m_pending = false;
    bool m_pendingFull = false;
    bool m_watching = true;
    std::shared_ptr<std::atomic_bool> m_cancel;
    QFuture<void> m_future;
    QFileSystemWatcher *m_watcher = nullptr;
    QTimer *m_debounce = nullptr;
};

}  // namespace ingot
