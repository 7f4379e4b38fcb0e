// A compile cache reached through a RemoteShell (a trn host over SSH): the whole tree is listed in one round trip
// (one `find -printf` with NUL-separated records) when the root is listed, and every folder below is answered from
// that listing until the store is opened again; after open(), a folder below the root is listed anew on the host
// each time (a maintenance run re-checks each entry right before it goes). File heads and tails are read on demand.
// Removal runs a small POSIX shell script there with the local store's rules: the root must still be the folder
// opened, the path is entered folder by folder never through a link, the entry is renamed aside first, looked at
// again for *.lock, never outside the root, all or nothing, and counted only when the script says it is gone.
// Nothing is installed on the host.
#pragma once

#include "services/stores/cachestore.h"
#include "services/util/remoteshell.h"

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
    // `prefix`: the folder the listing was made in (its paths are relative to it), "" for the root. A listing of more
    // than maxListingRecords records is refused ("too large"), as is a field longer than maxListingField bytes: what
    // is kept stays within a bounded multiple of those (the fields are read in place, never copied one by one).
    static bool parseListing(const QByteArray &out, Tree *tree, QString *error, const QString &prefix = QString());
    static constexpr qint64 maxListingBytes = qint64(512) << 20;  // 512 MiB: more than 2 M real records take
    static constexpr qint64 maxListingRecords = 2000000;           // ~300 k modules
    static constexpr qint64 maxListingField = 16384;               // 4 PATH_MAX

private:
    RemoveResult removeFolder(const QString &rel, bool refuseLocked, qint64 *freed, QString *error);
    ListResult listNow(const QString &rel, Tree *tree);
    bool ensureOpen(QString *error);
    void forgetListing();
    QByteArray expectedRootId() const;
    QByteArray rootBytes() const;

    std::shared_ptr<RemoteShell> m_shell;
    QString m_where;
    QString m_root;
    QString m_identity;
    QByteArray m_rootId;  // the root's device:inode when opened: every script below the root checks it
    mutable QMutex m_mutex;  // the listing is shared by the scanner's threads
    Tree m_tree;
    bool m_listed = false;
};

}  // namespace ingot
