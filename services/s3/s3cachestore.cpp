#include "services/s3/s3cachestore.h"

#include "services/s3/hosts3access.h"
#include "services/stores/storefactory.h"
#include "services/util/names.h"

#include <QCoreApplication>

#include <algorithm>

namespace ingot::s3 {

namespace {

class S3StoreText
{
    Q_DECLARE_TR_FUNCTIONS(ingot::S3CacheStore)
};

QString parentOf(const QString &rel)
{
    const int slash = rel.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : rel.left(slash);
}

QString nameOf(const QString &rel)
{
    return rel.mid(rel.lastIndexOf(QLatin1Char('/')) + 1);
}

// The folders of a listing: key prefixes between slashes. A folder's times are those of the newest object under it.
class TreeBuilder
{
public:
    explicit TreeBuilder(QHash<QString, ListResult> *folders) : m_folders(*folders) { ensure(QString()); }

    void add(const QString &rel, const S3Object &o)
    {
        const qint64 t = o.lastModified.isValid() ? o.lastModified.toMSecsSinceEpoch() : 0;
        const bool marker = rel.endsWith(QLatin1Char('/'));  // a "folder" object some tools write
        const QString path = marker ? rel.chopped(1) : rel;
        if (path.isEmpty())
            return;
        if (marker) {
            ensure(path);
        } else {
            ensure(parentOf(path));
            StoreEntry e;
            e.name = nameOf(path);
            e.type = StoreEntry::Type::File;
            e.size = e.allocated = o.size;
            e.mtimeMs = e.atimeMs = e.ctimeMs = t;
            m_folders[parentOf(path)].entries.append(e);
        }
        for (QString f = marker ? path : parentOf(path);; f = parentOf(f)) {
            StoreEntry &self = m_folders[f].self;
            self.mtimeMs = self.atimeMs = self.ctimeMs = std::max(self.mtimeMs, t);
            if (f.isEmpty())
                break;
        }
    }

    // The folders' entries in their parents take the folders' own times.
    void finish()
    {
        for (auto it = m_dirIndex.cbegin(); it != m_dirIndex.cend(); ++it) {
            StoreEntry &e = m_folders[parentOf(it.key())].entries[it.value()];
            const StoreEntry &self = m_folders.value(it.key()).self;
            e.mtimeMs = e.atimeMs = e.ctimeMs = self.mtimeMs;
        }
    }

private:
    void ensure(const QString &folder)
    {
        if (m_folders.contains(folder))
            return;
        ListResult &l = m_folders[folder];
        l.ok = true;
        l.self.type = StoreEntry::Type::Dir;
        if (folder.isEmpty())
            return;
        ensure(parentOf(folder));
        StoreEntry e;
        e.name = nameOf(folder);
        e.type = StoreEntry::Type::Dir;
        QVector<StoreEntry> &siblings = m_folders[parentOf(folder)].entries;
        m_dirIndex.insert(folder, int(siblings.size()));
        siblings.append(e);
    }

    QHash<QString, ListResult> &m_folders;
    QHash<QString, int> m_dirIndex;
};

}  // namespace

struct S3CacheStore::Shared {
    explicit Shared(std::shared_ptr<S3Access> a) : access(std::move(a)), client(*access) {}
    std::shared_ptr<S3Access> access;
    const S3Access &client;
    std::mutex mutex;  // the tree
    QHash<QString, ListResult> folders;
    bool listed = false;  // open() made the tree
    QString shownRoot;  // s3://bucket/prefix, or host:s3://bucket/prefix
};

QString s3StoreKind()
{
    return QStringLiteral("s3");
}

bool isS3Location(const StoreLocation &location)
{
    return location.kind == s3StoreKind() || location.kind == hostS3StoreKind();
}

void registerS3Store()
{
    StoreFactory::instance().registerKind(s3StoreKind(), [](const StoreLocation &loc) -> std::unique_ptr<CacheStore> {
        S3Location where;
        QString error;
        if (!S3Location::parse(loc.path, &where, &error))
            return nullptr;
        return std::make_unique<S3CacheStore>(resolveAwsSettings(), where);
    });
}

S3CacheStore::S3CacheStore(const AwsSettings &settings, const S3Location &location)
    : S3CacheStore(std::make_shared<S3Client>(settings, location), location.url())
{
}

S3CacheStore::S3CacheStore(std::shared_ptr<S3Access> access, const QString &shownRoot)
    : m(std::make_shared<Shared>(std::move(access)))
{
    m->shownRoot = shownRoot;
}

S3CacheStore::S3CacheStore(std::shared_ptr<Shared> shared) : m(std::move(shared)) {}

std::unique_ptr<CacheStore> S3CacheStore::clone() const
{
    auto c = std::unique_ptr<S3CacheStore>(new S3CacheStore(m));
    c->m_clone = true;
    return c;
}

void S3CacheStore::setRetryPolicy(const RetryPolicy &p)
{
    if (auto *client = dynamic_cast<S3Client *>(m->access.get()))
        client->setRetryPolicy(p);
}

QString S3CacheStore::displayRoot() const
{
    return m->shownRoot;
}

QString S3CacheStore::rootIdentity() const
{
    return m->client.identity();
}

QString S3CacheStore::fullPath(const QString &rel) const
{
    return displayRoot() + (rel.isEmpty() ? QString() : QLatin1Char('/') + rel);
}

QString S3CacheStore::keyOf(const QString &rel) const
{
    return m->client.location().prefix + rel;
}

bool S3CacheStore::open(QString *error)
{
    // A clone (the scanner's other threads) shares the tree its store listed: opening it lists nothing again.
    if (m_clone) {
        std::lock_guard lock(m->mutex);
        if (m->listed)
            return true;
    }
    // One ListObjectsV2 pass over every page of the prefix: the whole tree, nothing read from any object (an entry's
    // flags, log and HLO are read when they are shown).
    const QString prefix = m->client.location().prefix;
    S3Listing all;
    if (!m->client.list(prefix, QString(), &all, error))
        return false;
    QHash<QString, ListResult> folders;
    TreeBuilder tree(&folders);
    for (const S3Object &o : std::as_const(all.objects))
        tree.add(o.key.mid(prefix.size()), o);
    tree.finish();
    std::lock_guard lock(m->mutex);
    m->folders = std::move(folders);
    m->listed = true;
    return true;
}

ListResult S3CacheStore::list(const QString &rel)
{
    std::lock_guard lock(m->mutex);
    const auto it = m->folders.constFind(rel);
    if (it != m->folders.cend())
        return *it;
    ListResult gone;
    gone.vanished = true;
    gone.error = S3StoreText::tr("%1 is not in the listing of %2.").arg(displayName(rel), displayName(displayRoot()));
    return gone;
}

QVector<qint64> S3CacheStore::runningCompilers(QString *error)
{
    *error = S3StoreText::tr("A compile on any machine may be writing %1, and that cannot be seen from here: its lock "
                             "objects are treated as live unless they are older than an age you give.").arg(displayName(displayRoot()));
    return {};
}

bool S3CacheStore::readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error)
{
    qint64 size = -1;
    {
        std::lock_guard lock(m->mutex);
        for (const StoreEntry &e : m->folders.value(parentOf(rel)).entries)
            if (e.name == nameOf(rel) && e.type == StoreEntry::Type::File)
                size = e.size;
    }
    if (size < 0) {
        *error = S3StoreText::tr("%1 is not in the listing of %2.").arg(displayName(rel), displayName(displayRoot()));
        return false;
    }
    out->clear();
    if (size == 0 || maxBytes <= 0)
        return true;  // nothing to read (a range of an empty object is refused by S3)
    const qint64 length = std::min(size, maxBytes);
    return m->client.get(keyOf(rel), fromEnd ? size - length : 0, length, out, error, length + 1);
}

bool S3CacheStore::listNow(const QString &rel, QList<S3Object> *objects, QString *error)
{
    objects->clear();
    S3Listing l;
    if (!m->client.list(keyOf(rel) + QLatin1Char('/'), QString(), &l, error))
        return false;
    *objects = l.objects;
    if (objects->isEmpty()) {  // not a folder: the file itself, if it is still there
        if (!m->client.list(keyOf(parentOf(rel)) + (parentOf(rel).isEmpty() ? QString() : QStringLiteral("/")),
                            QStringLiteral("/"), &l, error))
            return false;
        for (const S3Object &o : std::as_const(l.objects))
            if (o.key == keyOf(rel))
                objects->append(o);
    }
    return true;
}

void S3CacheStore::forget(const QString &rel)
{
    std::lock_guard lock(m->mutex);
    QVector<StoreEntry> &siblings = m->folders[parentOf(rel)].entries;
    siblings.erase(std::remove_if(siblings.begin(), siblings.end(), [&](const StoreEntry &e) { return e.name == nameOf(rel); }),
                   siblings.end());
    for (auto it = m->folders.begin(); it != m->folders.end();)
        it = it.key() == rel || it.key().startsWith(rel + QLatin1Char('/')) ? m->folders.erase(it) : std::next(it);
}

bool S3CacheStore::deleteListed(const QString &rel, const QList<S3Object> &objects, qint64 *freed, QString *error)
{
    QStringList keys;
    qint64 bytes = 0;
    for (const S3Object &o : objects)
        keys << o.key, bytes += o.size;
    QStringList failed;
    if (!m->client.remove(keys, &failed, error))
        return false;
    if (!failed.isEmpty()) {
        *error = S3StoreText::tr("S3 did not delete %1 of %2 objects of %3: %4")
                     .arg(failed.size()).arg(keys.size()).arg(displayName(rel), failed.first());
        return false;
    }
    if (freed)
        *freed += bytes;
    forget(rel);
    return true;
}

bool S3CacheStore::remove(const QString &rel, qint64 *freed, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = S3StoreText::tr("%1 is not inside %2.").arg(displayName(rel), displayName(displayRoot()));
        return false;
    }
    QList<S3Object> objects;
    return listNow(rel, &objects, error) && deleteListed(rel, objects, freed, error);
}

CacheStore::RemoveResult S3CacheStore::removeEntry(const QString &rel, qint64 *freed, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = S3StoreText::tr("%1 is not inside %2.").arg(displayName(rel), displayName(displayRoot()));
        return RemoveResult::Failed;
    }
    // Looked at again right before it goes: a lock object there means a compile is writing it.
    QList<S3Object> objects;
    if (!listNow(rel, &objects, error))
        return RemoveResult::Failed;
    for (const S3Object &o : std::as_const(objects)) {
        if (o.key.endsWith(QLatin1String(".lock"))) {
            *error = S3StoreText::tr("%1 holds %2: a compile may be writing it; it was left.").arg(displayName(rel), displayName(nameOf(o.key)));
            return RemoveResult::Locked;
        }
    }
    return deleteListed(rel, objects, freed, error) ? RemoveResult::Removed : RemoveResult::Failed;
}

}  // namespace ingot::s3
