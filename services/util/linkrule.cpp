#include "services/util/linkrule.h"

#include <QString>  // QStringBuilder: byte arrays joined with %

#include <cerrno>
#include <climits>
#include <fcntl.h>
#include <unistd.h>

namespace ingot {

bool isHubBlobPath(const QByteArray &path)
{
    return path.contains("/blobs/") && (path.contains("/models--") || path.contains("/datasets--"));
}

QByteArray pathOfFd(int fd)
{
    char buf[PATH_MAX];
    const QByteArray proc = "/proc/self/fd/" + QByteArray::number(fd);
    const ssize_t n = ::readlink(proc.constData(), buf, sizeof buf);
    if (n <= 0 || n >= ssize_t(sizeof buf))
        return {};
    const QByteArray p(buf, qsizetype(n));
    return p.startsWith('/') && !p.endsWith(" (deleted)") ? p : QByteArray();
}

VettedFile openVetted(int dirFd, const QByteArray &name, const QByteArray &realRoot)
{
    VettedFile v;
    const auto stop = [&](VettedFile::Verdict why, int err = 0) {
        if (v.fd >= 0)
            ::close(v.fd);
        v.fd = -1;
        v.verdict = why;
        v.error = err;
        return v;
    };
    struct stat lst {};
    if (::fstatat(dirFd, name.constData(), &lst, AT_SYMLINK_NOFOLLOW) != 0)
        return stop(errno == ENOENT ? VettedFile::Missing : VettedFile::Failed, errno);
    v.linked = S_ISLNK(lst.st_mode);
    if (v.linked) {
        // Only a link to a regular file is even opened (a fifo or device is never touched).
        struct stat target {};
        if (::fstatat(dirFd, name.constData(), &target, 0) != 0)
            return stop(VettedFile::BrokenLink, errno);
        if (!S_ISREG(target.st_mode))
            return stop(VettedFile::LinkNotRegular);
    } else if (!S_ISREG(lst.st_mode)) {
        return stop(VettedFile::NotRegular);
    }
    // A plain file is opened without following a link (one planted since the look above is refused, not read);
    // O_NONBLOCK: a fifo swapped in meanwhile never blocks the open.
    const int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (v.linked ? 0 : O_NOFOLLOW);
    v.fd = ::openat(dirFd, name.constData(), flags);
    if (v.fd < 0)
        return stop(errno == ELOOP ? VettedFile::BecameLink : VettedFile::Failed, errno);
    if (::fstat(v.fd, &v.st) != 0 || !S_ISREG(v.st.st_mode))
        return stop(VettedFile::NotRegular);
    if (v.linked) {
        // Judged by what was opened, not by the link's text: a link changed meanwhile cannot slip through.
        const QByteArray real = pathOfFd(v.fd);
        if (real.isEmpty() || !(real.startsWith(QByteArray(realRoot + '/')) || isHubBlobPath(real)))
            return stop(VettedFile::Outside);
    }
    // Reads block again (a regular file never would; the flag only guarded the open).
    ::fcntl(v.fd, F_SETFL, ::fcntl(v.fd, F_GETFL) & ~O_NONBLOCK);
    v.verdict = VettedFile::Opened;
    return v;
}

}  // namespace ingot
