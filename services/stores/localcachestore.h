// The cache on this machine's disk, read with openat()/fstatat() so that no symlink is ever followed
// out of the root and scanning costs about what find(1) costs.
#pragma once

#include "services/stores/cachestore.h"

namespace ingot {

class LocalCacheStore final : public CacheStore
{
public:
    explicit LocalCacheStore(const QString &rootPath);
    ~LocalCacheStore() override;
    LocalCacheStore(const LocalCacheStore &) = delete;
    LocalCacheStore &operator=(const LocalCacheStore &) = delete;

    QString displayRoot() const override { return m_root; }
    bool open(QString *error) override;
    ListResult list(const QString &rel) override;
    ListResult listNames(const QString &rel) override;
    bool statEntry(const QString &rel, StoreEntry *entry, bool *vanished, QString *error) override;
    bool readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error) override;
    QString linkTarget(const QString &rel) override;
    bool remove(const QString &rel, qint64 *freed, QString *error) override;
    RemoveResult removeEntry(const QString &rel, qint64 *freed, QString *error) override;
    QString rootIdentity() const override { return m_identity; }
    QVector<qint64> runningCompilers(QString *error) override;
    QString fullPath(const QString &rel) const override;
    bool isLocal() const override { return true; }
    std::unique_ptr<CacheStore> clone() const override { return std::make_unique<LocalCacheStore>(m_root); }
    StoreWatcher *createWatcher(QObject *parent) const override;

private:
    RemoveResult removeFolder(const QString &rel, bool refuseLocked, qint64 *freed, QString *error);
    int openDir(const QString &rel, int *err);  // a new fd the caller closes; -1 with *err on failure
    int dirFd(const QString &rel, int *err);    // borrowed fd, cached for the last parent
    void dropCachedFd();
    ListResult listFolder(const QString &rel, bool namesOnly);
    // One entry of the folder open as dfd (rel: that folder). False when it vanished; unreadable: Type::Other.
    bool statAt(int dfd, const char *name, const QString &rel, QByteArray &absDir, StoreEntry &e);

    QString m_root;      // as given, cleaned
    QByteArray m_real;   // the opened root's real path (from its descriptor), the boundary for symlink checks
    QString m_identity;  // "local:<dev>:<ino>" of the opened root
    int m_rootFd = -1;
    QString m_cachedRel;
    int m_cachedFd = -1;
};

}  // namespace ingot
