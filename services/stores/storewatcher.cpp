#include "services/stores/storewatcher.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QSet>

#include <sys/stat.h>

namespace ingot {

StoreWatcher::~StoreWatcher() = default;

LocalStoreWatcher::LocalStoreWatcher(const QString &root, QObject *parent)
    : StoreWatcher(parent), m_root(root), m_watcher(new QFileSystemWatcher(this))
{
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &StoreWatcher::changed);
}

void LocalStoreWatcher::watchFolders(const QStringList &rels, qint64 listedSinceMs)
{
    QStringList paths;
    paths.reserve(rels.size());
    for (const QString &rel : rels)
        paths << (rel.isEmpty() ? m_root : m_root + QLatin1Char('/') + rel);
    setPaths(paths, listedSinceMs);
}

void LocalStoreWatcher::watchForRoot()
{
    // QDir::cdUp() refuses to move to a folder that does not exist, so walk the path itself.
    QString parent = QDir::cleanPath(QDir(m_root).absolutePath());
    if (QFileInfo::exists(parent)) {
        setPaths({});
        return;
    }
    do {
        parent = QFileInfo(parent).path();
    } while (!QFileInfo(parent).isDir() && parent != QLatin1String("/"));
    setPaths({parent});
}

void LocalStoreWatcher::clear()
{
    setPaths({});
}

int LocalStoreWatcher::watchedCount() const
{
    return int(m_watcher->directories().size());
}

void LocalStoreWatcher::setPaths(const QStringList &paths, qint64 listedSinceMs)
{
    QSet<QString> want(paths.begin(), paths.end());
    QStringList drop;
    for (const QString &d : m_watcher->directories())
        if (!want.remove(d))
            drop << d;
    if (!drop.isEmpty())
        m_watcher->removePaths(drop);
    if (want.isEmpty())
        return;
    const QStringList added(want.begin(), want.end());
    m_watcher->addPaths(added);
    if (listedSinceMs < 0)
        return;
    // A folder's time changes when an entry in it is created, removed or renamed (a compile's lock, neff, done). The
    // file system's clock is coarse (a tick behind the real time): a second of margin costs at most one more rescan.
    for (const QString &path : added) {
        struct stat st {};
        if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
            continue;
        const qint64 ms = qint64(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
        if (ms >= listedSinceMs - 1000) {
            QMetaObject::invokeMethod(this, &StoreWatcher::changed, Qt::QueuedConnection);
            return;
        }
    }
}

}  // namespace ingot
