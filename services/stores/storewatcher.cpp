#include "services/stores/storewatcher.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QSet>

namespace ingot {

StoreWatcher::~StoreWatcher() = default;

LocalStoreWatcher::LocalStoreWatcher(const QString &root, QObject *parent)
    : StoreWatcher(parent), m_root(root), m_watcher(new QFileSystemWatcher(this))
{
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &StoreWatcher::changed);
}

void LocalStoreWatcher::watchFolders(const QStringList &rels)
{
    QStringList paths;
    paths.reserve(rels.size());
    for (const QString &rel : rels)
        paths << (rel.isEmpty() ? m_root : m_root + QLatin1Char('/') + rel);
    setPaths(paths);
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

void LocalStoreWatcher::setPaths(const QStringList &paths)
{
    QSet<QString> want(paths.begin(), paths.end());
    QStringList drop;
    for (const QString &d : m_watcher->directories())
        if (!want.remove(d))
            drop << d;
    if (!drop.isEmpty())
        m_watcher->removePaths(drop);
    if (!want.isEmpty())
        m_watcher->addPaths(QStringList(want.begin(), want.end()));
}

}  // namespace ingot
