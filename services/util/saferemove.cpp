#include "services/util/saferemove.h"

#include <QRandomGenerator>
#include <QString>

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

bool isDotOrDotDot(const char *n)
{
    return n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0));
}

// Whether everything under the open folder `dfd` can be removed by this process, without following a link:
// readable and writable folders, nothing immutable or append-only, no other file system mounted inside. Returns
// 0, or an errno for the first thing that would stop the removal, with its path below the folder in *where.
static int checkRemovable(int dfd, dev_t dev, const QByteArray &prefix, QByteArray *where, int depth = 0)
{
    if (depth > 64)
        return ELOOP;
    unsigned flags = 0;
    if (::ioctl(dfd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & (FS_IMMUTABLE_FL | FS_APPEND_FL)) != 0) {
        *where = prefix;
        return EPERM;
    }
    if (::faccessat(dfd, ".", R_OK | W_OK | X_OK, AT_EACCESS) != 0) {
        *where = prefix;
        return errno;
    }
    const int copy = ::dup(dfd);
    DIR *dir = copy < 0 ? nullptr : ::fdopendir(copy);
    if (!dir) {
        if (copy >= 0)
            ::close(copy);
        *where = prefix;
        return errno ? errno : EIO;
    }
    ::rewinddir(dir);  // a dup() shares the read position with whoever listed the folder before
    int result = 0;
    while (struct dirent *de = ::readdir(dir)) {
        if (isDotOrDotDot(de->d_name))
            continue;
        const QByteArray path = prefix.isEmpty() ? QByteArray(de->d_name) : prefix + '/' + de->d_name;
        struct stat st {};
        if (::fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;  // vanished: nothing to remove
        if (S_ISDIR(st.st_mode)) {
            if (st.st_dev != dev) {
                *where = path;
                result = EBUSY;  // a mount point
                break;
            }
            const int sub = ::openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) {
                *where = path;
                result = errno;
                break;
            }
            result = checkRemovable(sub, dev, path, where, depth + 1);
            ::close(sub);
        } else if (S_ISREG(st.st_mode)) {
            const int fd = ::openat(dfd, de->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOATIME);
            if (fd >= 0) {
                unsigned f = 0;
                if (::ioctl(fd, FS_IOC_GETFLAGS, &f) == 0 && (f & (FS_IMMUTABLE_FL | FS_APPEND_FL)) != 0) {
                    *where = path;
                    result = EPERM;
                }
                ::close(fd);
            }
        }
        if (result)
            break;
    }
    ::closedir(dir);
    return result;
}

// Removes everything under an open folder without following links. Returns the first error (0 if none).
int removeTreeAt(int dfd, qint64 *freed)
{
    DIR *dir = ::fdopendir(dfd);
    if (!dir) {
        const int e = errno;
        ::close(dfd);
        return e;
    }
    ::rewinddir(dir);
    int firstErr = 0;
    while (struct dirent *de = ::readdir(dir)) {
        const char *n = de->d_name;
        if (isDotOrDotDot(n))
            continue;
        struct stat st {};
        if (::fstatat(::dirfd(dir), n, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            const int sub = ::openat(::dirfd(dir), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) {
                firstErr = firstErr ? firstErr : errno;
                continue;
            }
            if (const int e = removeTreeAt(sub, freed))
                firstErr = firstErr ? firstErr : e;
            if (::unlinkat(::dirfd(dir), n, AT_REMOVEDIR) != 0)
                firstErr = firstErr ? firstErr : errno;
        } else if (::unlinkat(::dirfd(dir), n, 0) == 0) {
            if (!S_ISLNK(st.st_mode) && st.st_nlink <= 1)
                *freed += qint64(st.st_blocks) * 512;
        } else {
            firstErr = firstErr ? firstErr : errno;
        }
    }
    ::closedir(dir);
    return firstErr;
}

// A short, unpredictable name for a folder renamed aside: the entry's own name may be near the 255-byte limit.
static QByteArray asideName()
{
    return ".ingot-removing-" + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
}

// rename(2) that never replaces what is at `to`.
int renameNoReplace(int fromDir, const QByteArray &from, int toDir, const QByteArray &to)
{
    return ::renameat2(fromDir, from.constData(), toDir, to.constData(), RENAME_NOREPLACE) == 0 ? 0 : errno;
}

FolderRemoval removeFolderAt(int pfd, const QByteArray &n, qint64 *freed, const std::function<bool(int)> &refuse)
{
    FolderRemoval r;
    struct stat st {};
    if (::fstatat(pfd, n.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) {
        r.error = errno ? errno : ENOTDIR;
        return r;
    }
    r.aside = asideName();
    if (const int e = renameNoReplace(pfd, n, pfd, r.aside)) {
        r.error = e;
        return r;
    }
    auto putBack = [&] { r.putBack = renameNoReplace(pfd, r.aside, pfd, n) == 0; };
    const int dfd = ::openat(pfd, r.aside.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        r.step = FolderRemoval::NotOpened;
        r.error = errno;
        putBack();
        return r;
    }
    if (refuse && refuse(dfd)) {
        ::close(dfd);
        r.step = FolderRemoval::Refused;
        putBack();
        return r;
    }
    if (const int e = checkRemovable(dfd, st.st_dev, QByteArray(), &r.where)) {
        ::close(dfd);
        r.step = FolderRemoval::NotRemovable;
        r.error = e;
        putBack();
        return r;
    }
    int e = removeTreeAt(dfd, freed);
    if (e == 0 && ::unlinkat(pfd, r.aside.constData(), AT_REMOVEDIR) != 0)
        e = errno;
    if (e != 0) {
        // Something changed under us after the check: what is left goes back under its own name.
        r.step = FolderRemoval::Partly;
        r.error = e;
        putBack();
        return r;
    }
    r.step = FolderRemoval::Done;
    return r;
}

}  // namespace ingot
