#include "services/transfer/entrystaging.h"

#include "services/transfer/transfertypes.h"
#include "services/util/errnotext.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QSet>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
struct StagingText {
    Q_DECLARE_TR_FUNCTIONS(ingot::IncomingEntry)
};

const QLatin1String kPrefix(".ingot-incoming-");
constexpr int kRandomLen = 6;  // mkdtemp's XXXXXX

// The staging name of a module: ".ingot-incoming-<MODULE>." + random; a module name too long for that gets its
// hash instead (NAME_MAX is 255 bytes).
QByteArray stagingPrefix(const QByteArray &module)
{
    const QByteArray plain = QByteArray(kPrefix.data()) + module + '.';
    if (plain.size() + kRandomLen <= NAME_MAX)
        return plain;
    return QByteArray(kPrefix.data()) + QCryptographicHash::hash(module, QCryptographicHash::Sha1).toHex() + '.';
}

mode_t currentUmask()
{
    static const mode_t mask = [] {
        const mode_t m = ::umask(0);
        ::umask(m);
        return m;
    }();
    return mask;
}

// Calls f(name, d_type) for every entry of the folder open at `fd` but "." and "..".
template<typename F>
bool forEachName(int fd, F &&f)
{
    const int dup = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (dup < 0)
        return false;
    DIR *d = ::fdopendir(dup);
    if (!d) {
        ::close(dup);
        return false;
    }
    ::rewinddir(d);
    while (dirent *e = ::readdir(d)) {
        const QByteArray n(e->d_name);
        if (n == "." || n == "..")
            continue;
        f(n);
    }
    ::closedir(d);
    return true;
}

// Removes `name` in `parentFd`, a folder with everything in it; links are removed, never followed.
bool removeTree(int parentFd, const QByteArray &name)
{
    const int fd = ::openat(parentFd, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return ::unlinkat(parentFd, name.constData(), 0) == 0 || errno == ENOENT;
    forEachName(fd, [&](const QByteArray &n) {
        struct stat st;
        if (::fstatat(fd, n.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
            removeTree(fd, n);
        else
            ::unlinkat(fd, n.constData(), 0);
    });
    ::close(fd);
    return ::unlinkat(parentFd, name.constData(), AT_REMOVEDIR) == 0 || errno == ENOENT;
}

// A leftover staging this process may adopt: a real folder (opened without following links) owned by us that
// nobody else may write into. Anything else is someone else's: its files would become our entry's.
bool isOwnStaging(int fd)
{
    struct stat st;
    return ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}
}  // namespace

IncomingEntry::~IncomingEntry()
{
    close();
}

IncomingEntry::IncomingEntry(IncomingEntry &&o) noexcept
{
    *this = std::move(o);
}

IncomingEntry &IncomingEntry::operator=(IncomingEntry &&o) noexcept
{
    if (this != &o) {
        close();
        m_root = std::move(o.m_root);
        m_key = std::move(o.m_key);
        m_stagingName = std::move(o.m_stagingName);
        m_versionFd = std::exchange(o.m_versionFd, -1);
        m_stagingFd = std::exchange(o.m_stagingFd, -1);
        m_leftovers = std::exchange(o.m_leftovers, nullptr);
    }
    return *this;
}

bool IncomingEntry::isStagingName(const QString &name)
{
    return name.startsWith(kPrefix);
}

QList<QByteArray> StagingLeftovers::namesWithPrefix(const QByteArray &version, int versionFd, const QByteArray &prefix)
{
    std::lock_guard lock(m_mutex);
    auto it = m_names.find(version);
    if (it == m_names.end()) {
        QSet<QByteArray> names;
        forEachName(versionFd, [&](const QByteArray &n) {
            if (n.startsWith(kPrefix.data()))
                names.insert(n);
        });
        it = m_names.insert(version, names);
    }
    QList<QByteArray> out;
    for (const QByteArray &n : std::as_const(*it))
        if (n.startsWith(prefix))
            out << n;
    return out;
}

void StagingLeftovers::remember(const QByteArray &version, const QByteArray &name)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_names.find(version);
    if (it != m_names.end())
        it->insert(name);
}

void StagingLeftovers::forget(const QByteArray &version, const QByteArray &name)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_names.find(version);
    if (it != m_names.end())
        it->remove(name);
}

IncomingEntry::Status IncomingEntry::open(const QString &root, const QString &key, IncomingEntry *out, QString *error,
                                          StagingLeftovers *leftovers)
{
    out->close();
    if (!isTransferableKey(key)) {
        *error = StagingText::tr("\"%1\" is not a cache entry (neuronxcc-<version>/MODULE_<...>).").arg(displayName(key));
        return Status::Failed;
    }
    const QByteArray version = nameToBytes(key.section(QLatin1Char('/'), 0, 0));
    const QByteArray module = nameToBytes(key.section(QLatin1Char('/'), 1));
    const QString versionPath = root + QLatin1Char('/') + nameFromBytes(version);
    // The root is the user's choice (it may be a link); below it nothing is followed.
    const int rootFd = ::open(QFile::encodeName(root).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rootFd < 0) {
        *error = StagingText::tr("Cannot open the cache folder %1: %2.").arg(displayName(root), describeErrno(errno));
        return Status::Failed;
    }
    int vfd = ::openat(rootFd, version.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (vfd < 0 && errno == ENOENT) {
        if (::mkdirat(rootFd, version.constData(), 0777) != 0 && errno != EEXIST) {
            const int e = errno;
            ::close(rootFd);
            *error = StagingText::tr("Cannot create %1: %2.").arg(displayName(versionPath), describeErrno(e));
            return Status::Failed;
        }
        vfd = ::openat(rootFd, version.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    const int openErr = errno;
    ::close(rootFd);
    if (vfd < 0) {
        *error = openErr == ELOOP || openErr == ENOTDIR
                     ? StagingText::tr("%1 is a symbolic link or not a folder; Ingot does not write through it.").arg(displayName(versionPath))
                     : StagingText::tr("Cannot open %1: %2.").arg(displayName(versionPath), describeErrno(openErr));
        return Status::Failed;
    }
    // One open() at a time per version folder (threads and processes alike): two transfers cannot each make a
    // staging folder for the same entry.
    while (::flock(vfd, LOCK_EX) != 0 && errno == EINTR) {
    }
    auto finish = [&](Status s) {
        ::flock(vfd, LOCK_UN);
        if (s == Status::Ready)
            out->m_versionFd = vfd;
        else
            ::close(vfd);
        return s;
    };
    struct stat st;
    if (::fstatat(vfd, module.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0)
        return finish(Status::Exists);
    if (errno != ENOENT) {
        *error = StagingText::tr("Cannot check %1: %2.").arg(displayName(versionPath + QLatin1Char('/') + nameFromBytes(module)), describeErrno(errno));
        return finish(Status::Failed);
    }
    const QByteArray prefix = stagingPrefix(module);
    int adopted = -1;
    QByteArray adoptedName;
    bool busy = false;
    auto consider = [&](const QByteArray &n) {
        if (!n.startsWith(prefix) || n.size() != prefix.size() + kRandomLen)
            return;
        const int fd = ::openat(vfd, n.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            return;  // a link or not a folder: not ours, left alone
        if (!isOwnStaging(fd)) {
            ::close(fd);  // someone else's (or one others may write into): left alone, a new one is made
            return;
        }
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            busy = true;
            ::close(fd);
        } else if (adopted < 0) {
            adopted = fd;
            adoptedName = n;
        } else {
            // A second leftover of the same entry: the adopted one carries on, this one goes.
            removeTree(vfd, n);
            ::close(fd);
        }
    };
    if (leftovers) {
        for (const QByteArray &n : leftovers->namesWithPrefix(version, vfd, prefix)) {
            consider(n);
            if (!busy)
                leftovers->forget(version, n);  // adopted or removed: no later open() takes it
        }
    } else {
        forEachName(vfd, consider);
    }
    if (busy) {
        closeFd(adopted);
        *error = StagingText::tr("Another transfer is writing %1 into this cache; nothing was done to it.").arg(displayName(key));
        return finish(Status::Busy);
    }
    if (adopted < 0) {
        QByteArray tmpl = "/proc/self/fd/" + QByteArray::number(vfd) + '/' + prefix + "XXXXXX";
        if (!::mkdtemp(tmpl.data())) {
            *error = StagingText::tr("Cannot create a staging folder in %1: %2.").arg(displayName(versionPath), describeErrno(errno));
            return finish(Status::Failed);
        }
        adoptedName = tmpl.mid(tmpl.lastIndexOf('/') + 1);
        adopted = ::openat(vfd, adoptedName.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (adopted < 0 || ::flock(adopted, LOCK_EX | LOCK_NB) != 0) {
            *error = StagingText::tr("Cannot open the staging folder in %1: %2.").arg(displayName(versionPath), describeErrno(errno));
            closeFd(adopted);
            removeTree(vfd, adoptedName);
            return finish(Status::Failed);
        }
        // mkdtemp makes it 0700, and so it stays while it is a staging (one writable by others is never adopted);
        // commit() gives it the mode of a folder the compiler made.
    }
    out->m_root = root;
    out->m_key = key;
    out->m_stagingName = nameFromBytes(adoptedName);
    out->m_stagingFd = adopted;
    out->m_leftovers = leftovers;
    return finish(Status::Ready);
}

QString IncomingEntry::stagingPath() const
{
    return m_root + QLatin1Char('/') + m_key.section(QLatin1Char('/'), 0, 0) + QLatin1Char('/') + m_stagingName;
}

QString IncomingEntry::entryPath() const
{
    return m_root + QLatin1Char('/') + m_key;
}

bool IncomingEntry::prune(const QStringList &keep, QString *error)
{
    if (!isOpen()) {
        *error = StagingText::tr("The staging folder is not open.");
        return false;
    }
    QSet<QByteArray> names;
    for (const QString &k : keep)
        names.insert(nameToBytes(k));
    bool ok = true;
    forEachName(m_stagingFd, [&](const QByteArray &n) {
        if (!names.contains(n) && !removeTree(m_stagingFd, n)) {
            ok = false;
            *error = StagingText::tr("Cannot remove %1 from %2: %3.").arg(displayName(nameFromBytes(n)), displayName(stagingPath()), describeErrno(errno));
        }
    });
    return ok;
}

IncomingEntry::Status IncomingEntry::commit(QString *error)
{
    if (!isOpen()) {
        *error = StagingText::tr("The staging folder is not open.");
        return Status::Failed;
    }
    // What the rename publishes must be on disk first: a crash right after it must not leave empty files.
    bool synced = true;
    forEachName(m_stagingFd, [&](const QByteArray &n) {
        const int fd = ::openat(m_stagingFd, n.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            return;  // a link (hub cache layout): nothing of ours to sync here
        if (::fsync(fd) != 0)
            synced = false;
        ::close(fd);
    });
    if (!synced || ::fsync(m_stagingFd) != 0) {
        *error = StagingText::tr("Could not write %1 to disk: %2.").arg(displayName(stagingPath()), describeErrno(errno));
        return Status::Failed;
    }
    // The entry it becomes should look like one the compiler made.
    if (::fchmod(m_stagingFd, 0777 & ~currentUmask()) != 0) {
        *error = StagingText::tr("Could not set the permissions of %1: %2.").arg(displayName(stagingPath()), describeErrno(errno));
        return Status::Failed;
    }
    const QByteArray from = nameToBytes(m_stagingName);
    const QByteArray to = nameToBytes(m_key.section(QLatin1Char('/'), 1));
    int rc = ::renameat2(m_versionFd, from.constData(), m_versionFd, to.constData(), RENAME_NOREPLACE);
    if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {
        // A file system without RENAME_NOREPLACE: a plain rename, after checking that nothing is there (a folder
        // would be replaced only if empty, a file or link not at all: rename refuses a folder onto them).
        struct stat st;
        if (::fstatat(m_versionFd, to.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0)
            errno = EEXIST, rc = -1;
        else
            rc = ::renameat(m_versionFd, from.constData(), m_versionFd, to.constData());
    }
    if (rc != 0) {
        if (errno == EEXIST || errno == ENOTEMPTY) {
            abandon();
            return Status::Exists;
        }
        *error = StagingText::tr("Could not move %1 into place: %2.").arg(displayName(entryPath()), describeErrno(errno));
        return Status::Failed;
    }
    ::fsync(m_versionFd);
    closeFds();  // the staging is the entry now
    return Status::Ready;
}

void IncomingEntry::abandon()
{
    if (m_versionFd >= 0 && !m_stagingName.isEmpty())
        removeTree(m_versionFd, nameToBytes(m_stagingName));
    closeFds();
}

void IncomingEntry::close()
{
    if (m_leftovers && m_stagingFd >= 0)  // left for later: a later open() of this transfer adopts it again
        m_leftovers->remember(nameToBytes(m_key.section(QLatin1Char('/'), 0, 0)), nameToBytes(m_stagingName));
    closeFds();
}

void IncomingEntry::closeFds()
{
    closeFd(m_stagingFd);
    closeFd(m_versionFd);
    m_stagingName.clear();
    m_leftovers = nullptr;
}

}  // namespace ingot
