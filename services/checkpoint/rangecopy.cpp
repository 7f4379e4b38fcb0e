#include "services/checkpoint/rangecopy.h"

#include "services/util/fdio.h"

#include "services/checkpoint/formats/filewriter.h"
#include "services/util/names.h"

#include <QCoreApplication>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
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

// All of `iov` from `offset` on through `io` (preadv or pwritev), IOV_MAX at a time, short transfers resumed where
// they stopped (a partial iovec trimmed); `failed` says why with the call's result (0: the file ended or took
// nothing more).
template <typename Io, typename Failed>
bool allOf(std::vector<iovec> &iov, qint64 offset, Io io, Failed failed)
{
    std::size_t first = 0;
    while (first < iov.size()) {
        const ssize_t k = io(iov.data() + first, int(std::min<std::size_t>(iov.size() - first, IOV_MAX)), off_t(offset));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return failed(k);
        offset += k;
        for (std::size_t left = std::size_t(k); left > 0;) {
            iovec &v = iov[first];
            const std::size_t n = std::min(left, v.iov_len);
            v.iov_base = static_cast<char *>(v.iov_base) + n;
            v.iov_len -= n;
            left -= n;
            if (v.iov_len == 0)
                ++first;
        }
        while (first < iov.size() && iov[first].iov_len == 0)
            ++first;
    }
    return true;
}

bool pwritevAll(const RangeCopier::Target &out, std::vector<iovec> &iov, qint64 offset, QString *error)
{
    return allOf(iov, offset, [&](const iovec *v, int n, off_t at) { return ::pwritev(out.fd, v, n, at); }, [&](ssize_t k) {
        *error = writeErrorText(k == 0 ? EIO : errno, out.path);
        return false;
    });
}

// The bytes are one range of the file.
bool preadvAll(const RangeCopier::Source &in, std::vector<iovec> &iov, qint64 offset, QString *error)
{
    return allOf(iov, offset, [&](const iovec *v, int n, off_t at) { return ::preadv(in.fd, v, n, at); }, [&](ssize_t k) {
        *error = k == 0 ? shortRead(in.path) : readError(in.path, errno);
        return false;
    });
}

qint64 alignDown(qint64 v)
{
    return v / RangeCopier::kDirectAlign * RangeCopier::kDirectAlign;
}
}  // namespace

void RangeCopier::FreeAligned::operator()(char *p) const
{
    std::free(p);
}

int RangeCopier::reopenForDirectWrites(int fd)
{
    struct stat a {}, b {};
    if (fd < 0 || ::fstat(fd, &a) != 0 || !S_ISREG(a.st_mode))
        return -1;
    const QByteArray self = "/proc/self/fd/" + QByteArray::number(fd);
    const int d = ::open(self.constData(), O_WRONLY | O_DIRECT | O_CLOEXEC);
    if (d < 0)
        return -1;
    if (::fstat(d, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
        ::close(d);
        return -1;
    }
    return d;
}

bool RangeCopier::copy(const Source &in, const Target &out, qint64 size, QString *error)
{
    // Past the page cache where the output allows it (see interleaveDirect(): one piece, one row).
    if (out.directFd >= 0 && m_directWrites && size >= 4 * kDirectAlign) {
        const std::vector<Source> one{in};
        return interleaveDirect({&one, 1, size}, out, error);
    }
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
    // Past the page cache where the file allows it and rows are long enough that a window is not millions of
    // iovecs; the output's unaligned first and last bytes go through the page cache.
    if (out.directFd >= 0 && m_directWrites && rowBytes >= 256 && rows * rowOut >= 4 * kDirectAlign)
        return interleaveDirect({&in, rows, rowBytes}, out, error);
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

bool RangeCopier::gather(const Rows &r, qint64 from, qint64 size, char *dst, QString *error)
{
    const qint64 n = qint64(r.in->size());
    const qint64 rowOut = n * r.rowBytes;
    const qint64 to = from + size;
    std::vector<iovec> iov;
    for (qint64 k = 0; k < n; ++k) {
        // Piece k's bytes in [from, to): rows first..last, clipped at both ends; one range of its file.
        iov.clear();
        qint64 inOffset = -1;
        for (qint64 row = from / rowOut; row * rowOut < to && row < r.rows; ++row) {
            const qint64 b = std::max(from, row * rowOut + k * r.rowBytes), e = std::min(to, row * rowOut + (k + 1) * r.rowBytes);
            if (b >= e)
                continue;
            if (inOffset < 0)
                inOffset = (*r.in)[std::size_t(k)].offset + row * r.rowBytes + (b - row * rowOut - k * r.rowBytes);
            iov.push_back({dst + (b - from), std::size_t(e - b)});
        }
        if (!iov.empty() && !preadvAll((*r.in)[std::size_t(k)], iov, inOffset, error))
            return false;
    }
    return true;
}

// Windows of the output aligned to kDirectAlign in the file, each gathered (one preadv per piece) and written with
// one O_DIRECT pwrite; the unaligned bytes at both ends through the page cache. A file system that refuses an
// O_DIRECT write (EINVAL) gets the rest through the page cache.
bool RangeCopier::interleaveDirect(const Rows &r, const Target &out, QString *error)
{
    const qint64 total = r.rows * qint64(r.in->size()) * r.rowBytes;
    if (!m_aligned) {
        void *p = nullptr;
        if (::posix_memalign(&p, std::size_t(kDirectAlign), std::size_t(kBufferBytes)) != 0)
            throw std::bad_alloc();
        m_aligned.reset(static_cast<char *>(p));
    }
    char *buf = m_aligned.get();
    // Relative to the output's first byte: [0, head) and [tail, total) through the page cache.
    const qint64 head = std::min(total, alignDown(out.offset + kDirectAlign - 1) - out.offset);
    const qint64 tail = std::max(head, alignDown(out.offset + total) - out.offset);
    const auto buffered = [&](qint64 from, qint64 size) {
        return size <= 0 || (gather(r, from, size, buf, error) &&
                             pwriteFully(out.fd, buf, std::size_t(size), std::uint64_t(out.offset + from), out.path, error));
    };
    if (!buffered(0, head) || !buffered(tail, total - tail))
        return false;
    for (qint64 from = head; from < tail;) {
        const qint64 size = std::min(kBufferBytes, tail - from);
        if (!gather(r, from, size, buf, error))
            return false;
        qint64 done = 0;
        while (m_directWrites && done < size) {
            const ssize_t k = ::pwrite(out.directFd, buf + done, std::size_t(size - done), off_t(out.offset + from + done));
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0 && errno == EINVAL && done == 0) {
                m_directWrites = false;  // alignment or O_DIRECT refused here: the page cache from now on
                break;
            }
            if (k <= 0 || k % kDirectAlign != 0) {
                if (k > 0)  // a short O_DIRECT write (the disk filled): the rest through the page cache says why
                    done += k;
                break;
            }
            done += k;
        }
        if (done < size && !pwriteFully(out.fd, buf + done, std::size_t(size - done), std::uint64_t(out.offset + from + done), out.path, error))
            return false;
        from += size;
    }
    return true;
}

}  // namespace ingot
