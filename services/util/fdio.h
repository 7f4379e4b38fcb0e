// Writing all of a buffer to a file descriptor, and reading an exact range of one, across short transfers and EINTR. Header-only and plain POSIX, so the
// askpass helper (no Qt) shares it with the core.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <unistd.h>

namespace ingot {

// False (errno set) when the descriptor takes no more: a full disk, a closed pipe.
inline bool writeAll(int fd, const char *data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= std::size_t(n);
    }
    return true;
}

// Exactly `size` bytes at `offset` (pread, the file position untouched). False when they cannot be had: errno
// says why, or is 0 when the file ends first (it is shorter than it was, or than its header said).
inline bool readAllAt(int fd, char *dst, std::size_t size, std::uint64_t offset)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t k = ::pread(fd, dst + done, size - done, off_t(offset + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = 0;
            return false;
        }
        done += std::size_t(k);
    }
    return true;
}

}  // namespace ingot
