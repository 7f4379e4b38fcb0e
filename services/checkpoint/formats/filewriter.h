// Writing a file front to back with every byte accounted for, shared by the safetensors and torch writers: short
// writes are retried, a full disk is named as such, and every failure says which file it was.
#pragma once

#include <QString>
#include <QtGlobal>

#include <cstddef>
#include <cstdint>

namespace ingot {

// Writes all of `data` to `fd` (retrying short writes); a full disk or any other failure becomes words naming `path`.
bool writeFully(int fd, const char *data, std::size_t size, const QString &path, QString *error);
// The same at file offset `offset` (pwrite: the file position is neither used nor moved).
bool pwriteFully(int fd, const char *data, std::size_t size, std::uint64_t offset, const QString &path, QString *error);
// The words for a failed write of `path` with this errno (a full disk named as such).
QString writeErrorText(int err, const QString &path);

// One file opened for writing (created, or truncated by path); closes it when destroyed.
class FileWriter final
{
    Q_DISABLE_COPY_MOVE(FileWriter)

public:
    FileWriter() = default;
    ~FileWriter();

    // Creates (or truncates) `path` with these permission bits. Write errors name `shownAs` when given (the file
    // this one stands in for), else `path`.
    bool create(const QString &path, int mode, QString *error, const QString &shownAs = {});
    // Creates `name` (a plain name) in the folder open as `dirFd`, where an output is built: never through a link
    // and never over anything already there (O_CREAT | O_EXCL | O_NOFOLLOW), so what is written stays in that
    // folder whatever happens to its path. Errors name `shownAs`.
    bool createIn(int dirFd, const QString &name, int mode, QString *error, const QString &shownAs);
    // Writes at bytesWritten() (with pwrite), then counts the bytes.
    bool write(const char *data, std::size_t size, QString *error);
    // For writing straight to the file (pwrite, copy_file_range): the bytes [bytesWritten(), bytesWritten() + size)
    // have been written through fd() by the caller; count them.
    void wrote(std::uint64_t size) { m_written += size; }
    int fd() const { return m_fd; }
    // Write errors name this file.
    const QString &shownAs() const { return m_shownAs; }
    // Flushes to disk and closes.
    bool finish(QString *error);
    // Closes without flushing (for scratch files).
    void close();
    bool isOpen() const { return m_fd >= 0; }
    std::uint64_t bytesWritten() const { return m_written; }
    const QString &path() const { return m_path; }

private:
    int m_fd = -1;
    QString m_path;
    QString m_shownAs;
    std::uint64_t m_written = 0;
};

}  // namespace ingot
