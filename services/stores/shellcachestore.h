// A compile cache reached through a RemoteShell (a trn host over SSH): the whole tree is listed in one round trip
// (one `find -printf` with NUL-separated records) when the root is listed, and every folder below is answered from
// that listing; file heads and tails are read on demand. Removal runs a small POSIX shell script there with the
// local store's rules: renamed aside first, looked at again for *.lock, never through a link, never outside the
// root, all or nothing. Nothing is installed on the host.
#pragma once

#include "services/stores/cachestore.h"
#include "services/stores/remoteshell.h"

#include <QHash>
#include <QMutex>

namespace ingot {

class ShellCacheStore final : public CacheStore
{
public:
    // `where`: how the host is named in paths shown ("trn1-dev"); `root`: the folder there.
    ShellCacheStore(std::shared_ptr<RemoteShell> shell, QString where, QString root);

    QString displayRoot() const override;
    bool open(QString *error) override;
    ListResult list(const QString &rel) override;
    bool readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error) override;
    QString linkTarget(const QString &rel) override;
    bool remove(const QString &rel, qint64 *freed, QString *error) override;
    RemoveResult removeEntry(const QString &rel, qint64 *freed, QString *error) override;
    QString rootIdentity() const override { return m_identity; }
    QVector<qint64> runningCompilers(QString *error) override;
    QString fullPath(const QString &rel) const override;
    bool isLocal() const override { return false; }

    // Parses what the listing script printed (for tests and fuzzing): the root's real path and identity, and every
    // folder's listing by its root-relative path.
    struct Tree {
        QByteArray real;
        QString identity;
        QHash<QString, ListResult> folders;
    };
    static bool parseListing(const QByteArray &out, Tree *tree, QString *error);
    static constexpr qint64 maxListingBytes = qint64(1) << 30;  // 1 GiB of records: ~5 M files

private:
    RemoveResult removeFolder(const QString &rel, bool refuseLocked, qint64 *freed, QString *error);
    QByteArray rootBytes() const;

    std::shared_ptr<RemoteShell> m_shell;
    QString m_where;
    QString m_root;
    QString m_identity;
    mutable QMutex m_mutex;  // the listing is shared by the scanner's threads
    Tree m_tree;
    bool m_listed = false;
};

}  // namespace ingot
