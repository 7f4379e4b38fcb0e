// Watching a cache for changes is a capability of its store: a local folder is watched with inotify, a remote
// one may be polled, a Hub repo not at all (CacheStore::createWatcher returns nullptr). The session says what
// to watch, the watcher says when something there changed.
#pragma once

#include <QObject>
#include <QStringList>

class QFileSystemWatcher;

namespace ingot {

class StoreWatcher : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoreWatcher)

public:
    using QObject::QObject;
    ~StoreWatcher() override;

    // The folders to watch, root-relative ("" is the root); replaces what was watched before. listedSinceMs (ms since
    // the epoch, or -1) is when the listing these folders come from began: a folder newly watched that changed since
    // then changed between its listing and its watch, which no watch saw, so changed() is sent for it.
    virtual void watchFolders(const QStringList &rels, qint64 listedSinceMs = -1) = 0;
    // The root does not exist yet: report when it appears (watching its nearest existing parent).
    virtual void watchForRoot() = 0;
    virtual void clear() = 0;
    virtual int watchedCount() const = 0;

Q_SIGNALS:
    void changed();
};

// inotify (QFileSystemWatcher) on a local folder.
class LocalStoreWatcher final : public StoreWatcher
{
    Q_OBJECT

public:
    LocalStoreWatcher(const QString &root, QObject *parent);

    void watchFolders(const QStringList &rels, qint64 listedSinceMs = -1) override;
    void watchForRoot() override;
    void clear() override;
    int watchedCount() const override;

private:
    void setPaths(const QStringList &paths, qint64 listedSinceMs = -1);

    QString m_root;
    QFileSystemWatcher *m_watcher;
};

}  // namespace ingot
