// One open cache: scans it off the UI thread, hands out progressive deltas, and follows it while a compile writes
// into it (when its store can be watched: debounced, incremental rescans). Every store it uses comes from the
// StoreFactory, so a local folder and a remote host's cache are the same to the session and its views.
#pragma once

#include "services/cache/cachescanner.h"
#include "services/stores/storelocation.h"
#include "services/util/task.h"

#include <QObject>

#include <memory>

class QTimer;

namespace ingot {

class CacheStore;
class StoreWatcher;

class CacheSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheSession)

public:
    explicit CacheSession(QObject *parent = nullptr);
    ~CacheSession() override;

    // Opens a cache and starts a full scan.
    void setLocation(const StoreLocation &location);
    // Opens a local cache folder.
    void setRoot(const QString &path) { setLocation(StoreLocation::local(path)); }
    const StoreLocation &location() const { return m_location; }
    // The cache root as people see it (a path, or host:path).
    QString root() const { return m_location.display(); }
    // Scans again; incremental (unchanged module folders are not listed) unless `full`.
    void rescan(bool full = false);
    void cancel();
    bool isScanning() const { return m_running; }
    // The last complete scan.
    const CacheSnapshot &snapshot() const { return m_snapshot; }
    // A fresh store for the current location, from the factory (each thread uses its own).
    std::unique_ptr<CacheStore> makeStore() const;
    // Another handle on the store the last complete scan listed, where its kind can share what it listed (an S3
    // cache: its files are read by key, without listing the prefix again); nullptr where it cannot (then makeStore()).
    std::unique_ptr<CacheStore> listedStore() const;

    void setWatching(bool on);
    bool isWatching() const { return m_watching; }
    // False when the store cannot be watched (then only F5 looks for changes).
    bool canWatch() const { return m_watcher != nullptr; }
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
    void finished(CacheSnapshot snapshot, ScanStats stats);
    void updateWatches();

    StoreLocation m_location;
    CacheSnapshot m_snapshot;
    std::shared_ptr<CacheStore> m_listed;  // the last complete scan's store, where it can be cloned
    bool m_running = false;
    bool m_pending = false;
    bool m_pendingFull = false;
    qint64 m_scanStartedMs = -1;  // when the scan behind m_snapshot began
    bool m_watching = true;
    Task m_scan;
    StoreWatcher *m_watcher = nullptr;
    QTimer *m_debounce = nullptr;
};

}  // namespace ingot
