// Copying tensor bytes from shard files straight into an output file at known offsets, never through a buffer the
// size of a tensor: copy_file_range where a piece is contiguous in both files (falling back to pread and pwrite
// where the kernel or the file systems cannot), and, where pieces interleave row by row (a tensor concatenated on
// a dim other than the first), pread of a bounded batch of rows from each piece and one pwritev per batch.
// Only pread and copy_file_range touch the inputs: a file that another process truncates meanwhile is a short read
// and an error, never a SIGBUS from a mapping.
#pragma once

#include <QString>

#include <memory>
#include <vector>

namespace ingot {

class RangeCopier final
{
    Q_DISABLE_COPY_MOVE(RangeCopier)

public:
    struct Source {
        int fd = -1;
        qint64 offset = 0;
        QString path;  // for the words when it cannot be read
    };
    struct Target {
        int fd = -1;
        qint64 offset = 0;
        QString path;
        // The same file opened again with O_DIRECT (-1: none). Interleaved rows are then gathered into aligned
        // windows of the output and written past the page cache: a copy less, and little left for the final fsync.
        int directFd = -1;
    };
    // useCopyFileRange false: pread and pwrite only (a test hook; the results are the same bytes).
    explicit RangeCopier(bool useCopyFileRange = true) : m_copyFileRange(useCopyFileRange) {}

    // `size` bytes from `in` to `out`.
    bool copy(const Source &in, const Target &out, qint64 size, QString *error);
    // `rows` rows of `rowBytes` from each of `in`, side by side: row r of in[k] goes to
    // out.offset + (r * in.size() + k) * rowBytes.
    bool interleave(const std::vector<Source> &in, qint64 rows, qint64 rowBytes, const Target &out, QString *error);

    // The buffer for pread and pwritev.
    static constexpr qint64 kBufferBytes = qint64(16) << 20;
    static constexpr qint64 kMaxIovecs = 65536;
    // Whether copy_file_range has been used (false once it was refused and pread took over).
    bool usedCopyFileRange() const { return m_copyFileRange; }
    // Whether O_DIRECT writes are still tried (false once the file system refused one).
    bool usesDirectWrites() const { return m_directWrites; }
    // O_DIRECT offsets, sizes and buffers are multiples of this (a page: every block size Linux file systems use).
    static constexpr qint64 kDirectAlign = 4096;
    // Reopens `fd` with O_DIRECT for Target::directFd (through /proc/self/fd: the same file, never a path looked up
    // again); -1 where the file system or /proc does not allow it.
    static int reopenForDirectWrites(int fd);

private:
    struct Rows {  // what interleave() copies
        const std::vector<Source> *in;
        qint64 rows, rowBytes;
    };
    bool copyByReading(const Source &in, const Target &out, qint64 size, QString *error);
    // The output bytes [from, from + size) of `r` (relative to the output's first byte) gathered into dst: one
    // preadv per piece, straight into place.
    bool gather(const Rows &r, qint64 from, qint64 size, char *dst, QString *error);
    bool interleaveDirect(const Rows &r, const Target &out, QString *error);
    bool m_copyFileRange;
    bool m_directWrites = true;
    std::vector<char> m_buf;
    struct FreeAligned {
        void operator()(char *p) const;
    };
    std::unique_ptr<char, FreeAligned> m_aligned;  // kBufferBytes, aligned for O_DIRECT
};

}  // namespace ingot
