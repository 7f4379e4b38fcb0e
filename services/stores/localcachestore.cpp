#include "services/stores/localcachestore.h"

#include "services/stores/procscan.h"
#include "services/stores/storewatcher.h"
#include "services/util/errnotext.h"
#include "services/util/names.h"
#include "services/util/saferemove.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <cstdio>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
// lupdate reads this context from the macro, so the .ts file and the lookups agree.
struct StoreText {
    Q_DECLARE_TR_FUNCTIONS(ingot::LocalCacheStore)
};

qint64 toMs(const struct timespec &ts)
{
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

void fillFromStat(StoreEntry &e, const struct stat &st)
{
    if (S_ISREG(st.st_mode))
        e.type = StoreEntry::Type::File;
    else if (S_ISDIR(st.st_mode))
        e.type = StoreEntry::Type::Dir;
    else if (S_ISLNK(st.st_mode))
        e.type = StoreEntry::Type::Symlink;
    else
        e.type = StoreEntry::Type::Other;
    e.size = e.type == StoreEntry::Type::Symlink ? 0 : qint64(st.st_size);
    e.allocated = e.type == StoreEntry::Type::Symlink ? 0 : qint64(st.st_blocks) * 512;
    e.mtimeMs = toMs(st.st_mtim);
    e.atimeMs = toMs(st.st_atim);
    e.ctimeMs = toMs(st.st_ctim);
}

}  // namespace

LocalCacheStore::LocalCacheStore(const QString &rootPath)
    : m_root(QDir::cleanPath(rootPath))
{
}

LocalCacheStore::~LocalCacheStore()
{
    dropCachedFd();
    if (m_rootFd >= 0)
        ::close(m_rootFd);
}

bool LocalCacheStore::open(QString *error)
{
    if (m_rootFd >= 0)
        return true;
    const QByteArray path = nameToBytes(m_root);
    struct stat st {};
    if (::stat(path.constData(), &st) != 0) {
        const int err = errno;
        *error = err == ENOENT ? StoreText::tr("The cache folder %1 does not exist.").arg(m_root)
                               : StoreText::tr("Cannot open the cache folder %1: %2.").arg(m_root, describeErrno(err));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        *error = StoreText::tr("%1 is not a folder, so it cannot be a compile cache.").arg(m_root);
        return false;
    }
    const int fd = ::open(path.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        *error = StoreText::tr("Cannot open the cache folder %1: %2.").arg(m_root, describeErrno(errno));
        return false;
    }
    // The root is resolved once, from the descriptor now held: every later call works below this very folder,
    // whatever a link on the way to it points to by then.
    struct stat held {};
    ::fstat(fd, &held);
    char buf[PATH_MAX];
    const QByteArray self = "/proc/self/fd/" + QByteArray::number(fd);
    const ssize_t len = ::readlink(self.constData(), buf, sizeof buf - 1);
    if (len > 0)
        m_real = QByteArray(buf, int(len));
    else if (::realpath(path.constData(), buf))
        m_real = QByteArray(buf);
    else
        m_real = path;
    m_identity = QStringLiteral("local:%1:%2").arg(quint64(held.st_dev)).arg(quint64(held.st_ino));
    m_rootFd = fd;
    return true;
}

void LocalCacheStore::dropCachedFd()
{
    if (m_cachedFd >= 0)
        ::close(m_cachedFd);
    m_cachedFd = -1;
    m_cachedRel.clear();
}

int LocalCacheStore::openDir(const QString &rel, int *err)
{
    if (m_rootFd < 0) {
        *err = EBADF;
        return -1;
    }
    if (!isSafeRelativePath(rel)) {
        *err = EINVAL;
        return -1;
    }
    // A new open file description of the root, not dup(): a dup shares the offset, so a second listing of the
    // root through the same store read from where the first one ended and found nothing.
    int cur = ::openat(m_rootFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (cur < 0) {
        *err = errno;
        return -1;
    }
    if (rel.isEmpty())
        return cur;
    for (const auto &part : rel.split(QLatin1Char('/'))) {
        const int next = ::openat(cur, nameToBytes(part).constData(),
                                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        const int e = errno;
        ::close(cur);
        if (next < 0) {
            *err = e;
            return -1;
        }
        cur = next;
    }
    return cur;
}

int LocalCacheStore::dirFd(const QString &rel, int *err)
{
    if (m_cachedFd >= 0 && m_cachedRel == rel)
        return m_cachedFd;
    const int fd = openDir(rel, err);
    if (fd < 0)
        return -1;
    dropCachedFd();
    m_cachedFd = fd;
    m_cachedRel = rel;
    return fd;
}

static QPair<QString, QString> splitParent(const QString &rel)
{
    const int slash = rel.lastIndexOf(QLatin1Char('/'));
    if (slash < 0)
        return {QString(), rel};
    return {rel.left(slash), rel.mid(slash + 1)};
}

ListResult LocalCacheStore::list(const QString &rel)
{
    return listFolder(rel, false);
}

ListResult LocalCacheStore::listNames(const QString &rel)
{
    return listFolder(rel, true);
}

ListResult LocalCacheStore::listFolder(const QString &rel, bool namesOnly)
{
    ListResult r;
    int err = 0;
    int fd = -1;
    if (rel.isEmpty()) {
        fd = openDir(rel, &err);
    } else {
        // Open through the (cached) parent: one openat per folder, links never followed.
        const auto [parent, name] = splitParent(rel);
        const int pfd = dirFd(parent, &err);
        if (pfd >= 0) {
            const QByteArray n = nameToBytes(name);
            fd = ::openat(pfd, n.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0) {
                err = errno;
                struct stat lst {};
                if ((err == ENOTDIR || err == ELOOP) && ::fstatat(pfd, n.constData(), &lst, AT_SYMLINK_NOFOLLOW) == 0 &&
                    S_ISLNK(lst.st_mode))
                    err = ELOOP;  // say "a symbolic link", not "not a folder"
            }
        }
    }
    if (fd < 0) {
        r.vanished = err == ENOENT;
        r.error = StoreText::tr("Cannot read %1: %2.").arg(fullPath(rel), describeErrno(err));
        return r;
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0)
        fillFromStat(r.self, st);
    DIR *dir = ::fdopendir(fd);
    if (!dir) {
        r.error = StoreText::tr("Cannot read %1: %2.").arg(fullPath(rel), describeErrno(errno));
        ::close(fd);
        return r;
    }
    const int dfd = ::dirfd(dir);
    QByteArray absDir;  // built only when a symlink needs resolving
    errno = 0;
    while (struct dirent *de = ::readdir(dir)) {
        const char *n = de->d_name;
        if (n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0)))
            continue;
        StoreEntry e;
        e.name = nameFromBytes(n);
        if (namesOnly && de->d_type == DT_DIR) {
            e.type = StoreEntry::Type::Dir;  // the rest when it is asked for (statEntry)
            e.statted = false;
        } else if (!statAt(dfd, n, rel, absDir, e)) {
            continue;  // vanished between readdir and stat: it is simply gone
        }
        r.entries.append(std::move(e));
    }
    ::closedir(dir);
    r.ok = true;
    return r;
}

bool LocalCacheStore::statEntry(const QString &rel, StoreEntry *entry, bool *vanished, QString *error)
{
    int err = 0;
    const auto [parent, name] = splitParent(rel);
    *vanished = false;
    const int pfd = isSafeRelativePath(rel) && !name.isEmpty() ? dirFd(parent, &err) : (err = EINVAL, -1);
    if (pfd < 0) {
        *vanished = err == ENOENT;
        *error = StoreText::tr("Cannot read %1: %2.").arg(fullPath(rel), describeErrno(err));
        return false;
    }
    QByteArray absDir;
    entry->name = name;
    entry->statted = true;
    if (!statAt(pfd, nameToBytes(name).constData(), parent, absDir, *entry)) {
        *vanished = true;
        *error = StoreText::tr("Cannot read %1: %2.").arg(fullPath(rel), describeErrno(ENOENT));
        return false;
    }
    return true;
}

bool LocalCacheStore::statAt(int dfd, const char *n, const QString &rel, QByteArray &absDir, StoreEntry &e)
{
    struct stat st {};
    if (::fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT)
            return false;
        e.type = StoreEntry::Type::Other;
        return true;
    }
    fillFromStat(e, st);
    if (e.type == StoreEntry::Type::Symlink) {
        e.atimeMs = 0;  // reading a link updates its own atime: only the target's means anything
        struct stat tst {};
        if (::fstatat(dfd, n, &tst, 0) != 0) {
            e.linkBroken = true;
        } else {
            e.size = qint64(tst.st_size);
            e.linkTargetIsDir = S_ISDIR(tst.st_mode);
            e.linkId = (quint64(tst.st_dev) << 40) ^ quint64(tst.st_ino);
            e.atimeMs = toMs(tst.st_atim);
        }
        if (absDir.isEmpty())
            absDir = m_real + (rel.isEmpty() ? QByteArray() : '/' + nameToBytes(rel));
        char buf[PATH_MAX];
        const QByteArray linkPath = absDir + '/' + QByteArray(n);
        if (::realpath(linkPath.constData(), buf)) {
            const QByteArray real(buf);
            e.linkOutsideRoot = !real.startsWith(QByteArray(m_real + '/'));
            e.linkToHubBlob = isHubBlobPath(real);
        } else {
            // Broken or looping: judge by the written target.
            char tbuf[PATH_MAX];
            const ssize_t len = ::readlinkat(dfd, n, tbuf, sizeof tbuf - 1);
            const QByteArray t = len > 0 ? QByteArray(tbuf, int(len)) : QByteArray();
            const QByteArray abs = t.startsWith('/') ? t : absDir + '/' + t;
            const QByteArray clean = nameToBytes(QDir::cleanPath(nameFromBytes(abs)));
            e.linkOutsideRoot = !clean.startsWith(QByteArray(m_real + '/'));
            e.linkToHubBlob = isHubBlobPath(clean);
        }
    }
    return true;
}

bool LocalCacheStore::readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error)
{
    int err = 0;
    const auto [parent, name] = splitParent(rel);
    if (!isSafeRelativePath(rel) || name.isEmpty()) {
        *error = StoreText::tr("Refused to read %1: the path leaves the cache root.").arg(rel);
        return false;
    }
    const int pfd = dirFd(parent, &err);
    if (pfd < 0) {
        *error = StoreText::tr("Cannot read %1: %2.").arg(fullPath(rel), describeErrno(err));
        return false;
    }
    const QByteArray n = nameToBytes(name);
    // Reading a module's files must not make it look recently used: no atime update where allowed.
    int fd = ::openat(pfd, n.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOATIME);
    if (fd < 0 && errno == EPERM)
        fd = ::openat(pfd, n.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        *error = StoreText::tr("Cannot read %1: %2.").arg(fullPath(rel), describeErrno(errno));
        return false;
    }
    struct stat st {};
    ::fstat(fd, &st);
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        *error = StoreText::tr("%1 is not a regular file.").arg(fullPath(rel));
        return false;
    }
    const qint64 size = st.st_size;
    const qint64 want = std::min(size, maxBytes);
    const qint64 start = fromEnd ? size - want : 0;
    out->resize(int(want));
    qint64 got = 0;
    while (got < want) {
        const ssize_t k = ::pread(fd, out->data() + got, size_t(want - got), off_t(start + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += k;
    }
    out->resize(int(got));
    ::close(fd);
    return true;
}

QString LocalCacheStore::linkTarget(const QString &rel)
{
    int err = 0;
    const auto [parent, name] = splitParent(rel);
    if (!isSafeRelativePath(rel))
        return {};
    const int pfd = dirFd(parent, &err);
    if (pfd < 0)
        return {};
    char buf[PATH_MAX];
    const ssize_t len = ::readlinkat(pfd, nameToBytes(name).constData(), buf, sizeof buf - 1);
    return len > 0 ? nameFromBytes(QByteArray(buf, int(len))) : QString();
}

namespace {

// Whether a *.lock file lies anywhere under the open folder (a compile holds the entry).
bool holdsLock(int dfd, int depth = 0)
{
    const int copy = ::dup(dfd);
    DIR *dir = copy < 0 ? nullptr : ::fdopendir(copy);
    if (!dir) {
        if (copy >= 0)
            ::close(copy);
        return false;
    }
    ::rewinddir(dir);
    bool found = false;
    while (!found) {
        struct dirent *de = ::readdir(dir);
        if (!de)
            break;
        if (isDotOrDotDot(de->d_name))
            continue;
        const QByteArray n(de->d_name);
        struct stat st {};
        if (n.endsWith(".lock")) {
            found = true;
        } else if (depth < 8 && ::fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
            const int sub = ::openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                found = holdsLock(sub, depth + 1);
                ::close(sub);
            }
        }
    }
    ::closedir(dir);
    return found;
}

}  // namespace

bool LocalCacheStore::remove(const QString &rel, qint64 *freed, QString *error)
{
    const auto [parent, name] = splitParent(rel);
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = StoreText::tr("Refused to remove \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return false;
    }
    int err = 0;
    const int pfd = dirFd(parent, &err);
    if (pfd < 0) {
        *error = StoreText::tr("Cannot remove %1: %2.").arg(displayName(fullPath(rel)), describeErrno(err));
        return false;
    }
    const QByteArray n = nameToBytes(name);
    struct stat st {};
    if (::fstatat(pfd, n.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        *error = StoreText::tr("Cannot remove %1: %2.").arg(displayName(fullPath(rel)), describeErrno(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode))
        return removeFolder(rel, false, freed, error) == RemoveResult::Removed;
    // A file or a symlink: unlink removes the link itself, never what it points to.
    if (::unlinkat(pfd, n.constData(), 0) != 0) {
        *error = StoreText::tr("Cannot remove %1: %2.").arg(displayName(fullPath(rel)), describeErrno(errno));
        return false;
    }
    if (!S_ISLNK(st.st_mode) && st.st_nlink <= 1)
        *freed += qint64(st.st_blocks) * 512;
    return true;
}

CacheStore::RemoveResult LocalCacheStore::removeEntry(const QString &rel, qint64 *freed, QString *error)
{
    if (rel.isEmpty() || !isSafeRelativePath(rel)) {
        *error = StoreText::tr("Refused to remove \"%1\": the path is outside the cache root.").arg(displayName(rel));
        return RemoveResult::Failed;
    }
    return removeFolder(rel, true, freed, error);
}

// Renames the folder aside in one step (the compiler never sees half an entry), looks again, checks that all of it
// can go, then empties it. Anything that stops it puts the folder back under its own name, untouched.
CacheStore::RemoveResult LocalCacheStore::removeFolder(const QString &rel, bool refuseLocked, qint64 *freed, QString *error)
{
    const auto [parent, name] = splitParent(rel);
    const QString shown = displayName(fullPath(rel));
    int err = 0;
    const int pfd = dirFd(parent, &err);
    if (pfd < 0) {
        *error = StoreText::tr("Cannot remove %1: %2.").arg(shown, describeErrno(err));
        return RemoveResult::Failed;
    }
    std::function<bool(int)> refuse;
    if (refuseLocked)
        refuse = [](int dfd) { return holdsLock(dfd); };
    const FolderRemoval r = removeFolderAt(pfd, nameToBytes(name), freed, refuse);
    const QString asidePath = displayName(fullPath(parent.isEmpty() ? nameFromBytes(r.aside) : parent + QLatin1Char('/') + nameFromBytes(r.aside)));
    const QString what = r.where.isEmpty() ? shown : shown + QLatin1Char('/') + displayName(nameFromBytes(r.where));
    switch (r.step) {
    case FolderRemoval::Done:
        return RemoveResult::Removed;
    case FolderRemoval::NotAside:
        *error = StoreText::tr("Cannot remove %1: %2.").arg(shown, describeErrno(r.error));
        return RemoveResult::Failed;
    case FolderRemoval::NotOpened:
        *error = r.putBack ? StoreText::tr("Cannot remove %1: %2.").arg(shown, describeErrno(r.error))
                           : StoreText::tr("Cannot remove %1: %2. It is now in %3.").arg(shown, describeErrno(r.error), asidePath);
        return RemoveResult::Failed;
    case FolderRemoval::Refused:
        // A compile may have taken the entry between the last look and the rename: looked at again once aside.
        *error = r.putBack ? StoreText::tr("%1 is locked now (a compile started); it was left as it is.").arg(shown)
                           : StoreText::tr("%1 is locked now (a compile started), and could not be put back: it is in %2.").arg(shown, asidePath);
        return RemoveResult::Locked;
    case FolderRemoval::NotRemovable:
        *error = r.putBack ? StoreText::tr("Cannot remove %1: %2 (%3). Nothing of it was removed.").arg(shown, describeErrno(r.error), what)
                           : StoreText::tr("Cannot remove %1: %2 (%3). Nothing of it was removed; it is now in %4.")
                                 .arg(shown, describeErrno(r.error), what, asidePath);
        return RemoveResult::Failed;
    case FolderRemoval::Partly:
        *error = r.putBack ? StoreText::tr("Could not fully remove %1: %2. What remains was left in place.").arg(shown, describeErrno(r.error))
                           : StoreText::tr("Could not fully remove %1: %2. What remains is in %3.").arg(shown, describeErrno(r.error), asidePath);
        return RemoveResult::Failed;
    }
    return RemoveResult::Failed;
}

QVector<qint64> LocalCacheStore::runningCompilers(QString *error)
{
    if (!QFile::exists(QStringLiteral("/proc/self"))) {
        *error = StoreText::tr("Cannot tell whether neuronx-cc is running: /proc is not available.");
        return {};
    }
    return findProcesses(QStringLiteral("neuronx-cc"));
}

StoreWatcher *LocalCacheStore::createWatcher(QObject *parent) const
{
    return new LocalStoreWatcher(m_root, parent);
}

QString LocalCacheStore::fullPath(const QString &rel) const
{
    return rel.isEmpty() ? m_root : m_root + QLatin1Char('/') + rel;
}

}  // namespace ingot
