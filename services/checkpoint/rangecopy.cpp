#include "services/checkpoint/rangecopy.h"

#include "services/util/fdio.h"

#include "services/checkpoint/formats/filewriter.h"
#include "services/util/names.h"

#include <QCoreApplication>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <sys/uio.h>
#include <unistd.h>

namespace ingot {

namespace {
struct RangeCopyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

QString shortRead(const QString &path)
{
    return RangeCopyText::tr("Cannot read %1: the file is shorter than it was (truncated while being read?).").arg(displayName(path));
}

QString readError(const QString &path, int err)
{
    return RangeCopyText::tr("Cannot read %1: %2").arg(displayName(path), QString::fromLocal8Bit(strerror(err)));
}

// Exactly `size` bytes at `offset`; false with words on a failure or a short read.
bool preadAll(const RangeCopier::Source &in, char *dst, qint64 size, qint64 offset, QString *error)
{
    if (readAllAt(in.fd, dst, std::size_t(size), std::uint64_t(offset)))
        return true;
    *error = errno == 0 ? shortRead(in.path) : readError(in.path, errno);
    return false;
}

// All of `iov` at `offset`, IOV_MAX at a time, short writes resumed where they stopped.
bool pwritevAll(const RangeCopier::Target &out, std::vector<iovec> &iov, qint64 offset, QString *error)
{
    std::size_t first = 0;
    while (first < iov.size()) {
        const int count = int(std::min<std::size_t>(iov.size() - first, IOV_MAX));
        const ssize_t k = ::pwritev(out.fd, iov.data() + first, count, off_t(offset));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            *error = writeErrorText(k == 0 ? EIO : errno, out.path);
            return false;
        }
        offset += k;
        for (std::size_t left = std::size_t(k); left > 0;) {
            iovec &v = iov[first];
            if (left >= v.iov_len) {
                left -= v.iov_len;
                ++first;
            } else {
                v.iov_base = static_cast<char *>(v.iov_base) + left;
                v.iov_len -= left;
                left = 0;
            }
        }
        while (first < iov.size() && iov[first].iov_len == 0)
            ++first;
    }
    return true;
}
}  // namespace

bool RangeCopier::copy(const Source &in, const Target &out, qint64 size, QString *error)
{
    qint64 done = 0;
    while (m_copyFileRange && done < size) {
        loff_t inOff = in.offset + done, outOff = out.offset + done;
        const ssize_t k = ::copy_file_range(in.fd, &inOff, out.fd, &outOff, std::size_t(std::min<qint64>(size - done, qint64(1) << 30)), 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP || errno == EBADF ||
                      errno == ETXTBSY || errno == EPERM)) {
            m_copyFileRange = false;  // this kernel or these file systems cannot: read and write from here on
            break;
        }
        if (k < 0) {
            // A failed read or a failed write: say which, as far as errno can tell.
            *error = errno == ENOSPC || errno == EFBIG || errno == EDQUOT ? writeErrorText(errno, out.path) : readError(in.path, errno);
            return false;
        }
        if (k == 0) {
            *error = shortRead(in.path);
            return false;
        }
        done += k;
    }
    if (done == size)
        return true;
    Source rest = in;
    rest.offset += done;
    Target to = out;
    to.offset += done;
    return copyByReading(rest, to, size - done, error);
}

bool RangeCopier::copyByReading(const Source &in, const Target &out, qint64 size, QString *error)
{
    m_buf.resize(std::size_t(std::min(size, kBufferBytes)));
    for (qint64 done = 0; done < size;) {
        const qint64 n = std::min(size - done, kBufferBytes);
        if (!preadAll(in, m_buf.data(), n, in.offset + done, error) ||
            !pwriteFully(out.fd, m_buf.data(), std::size_t(n), std::uint64_t(out.offset + done), out.path, error))
            return false;
        done += n;
    }
    return true;
}

bool RangeCopier::interleave(const std::vector<Source> &in, qint64 rows, qint64 rowBytes, const Target &out, QString *error)
{
    const qint64 n = qint64(in.size());
    if (n == 0 || rows == 0 || rowBytes == 0)
        return true;
    const qint64 rowOut = n * rowBytes;
    // Rows too long to batch: each row of each piece is one contiguous copy.
    if (rowOut > kBufferBytes) {
        for (qint64 r = 0; r < rows; ++r)
            for (qint64 k = 0; k < n; ++k) {
                Source s = in[std::size_t(k)];
                s.offset += r * rowBytes;
                Target t = out;
                t.offset += r * rowOut + k * rowBytes;
                if (!copy(s, t, rowBytes, error))
                    return false;
            }
        return true;
    }
    // Rows per batch: the buffer full, and at most kMaxIovecs pieces of rows (short rows would need millions).
    const qint64 batch = std::max<qint64>(1, std::min(kBufferBytes / rowOut, kMaxIovecs / n));
    m_buf.resize(std::size_t(std::min(rows, batch) * rowOut));
    std::vector<iovec> iov;
    for (qint64 r0 = 0; r0 < rows; r0 += batch) {
        const qint64 count = std::min(batch, rows - r0);
        // Piece k's rows [r0, r0 + count) are contiguous in its file: one pread each.
        for (qint64 k = 0; k < n; ++k)
            if (!preadAll(in[std::size_t(k)], m_buf.data() + k * count * rowBytes, count * rowBytes,
                          in[std::size_t(k)].offset + r0 * rowBytes, error))
                return false;
        iov.clear();
        for (qint64 r = 0; r < count; ++r)
            for (qint64 k = 0; k < n; ++k)
                iov.push_back({m_buf.data() + (k * count + r) * rowBytes, std::size_t(rowBytes)});
        if (!pwritevAll(out, iov, out.offset + r0 * rowOut, error))
            return false;
    }
    return true;
}

}  // namespace ingot
