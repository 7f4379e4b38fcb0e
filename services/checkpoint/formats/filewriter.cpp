#include "services/checkpoint/formats/filewriter.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ingot {

QString writeErrorText(int err, const QString &path)
{
    return err == ENOSPC ? QStringLiteral("The disk is full while writing %1.").arg(path)
                         : QStringLiteral("Cannot write %1: %2").arg(path, QString::fromLocal8Bit(strerror(err)));
}

bool writeFully(int fd, const char *data, std::size_t size, const QString &path, QString *error)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t k = ::write(fd, data + done, size - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            *error = writeErrorText(k == 0 ? EIO : errno, path);
            return false;
        }
        done += std::size_t(k);
    }
    return true;
}

bool pwriteFully(int fd, const char *data, std::size_t size, std::uint64_t offset, const QString &path, QString *error)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t k = ::pwrite(fd, data + done, size - done, off_t(offset + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            *error = writeErrorText(k == 0 ? EIO : errno, path);
            return false;
        }
        done += std::size_t(k);
    }
    return true;
}

FileWriter::~FileWriter()
{
    close();
}

bool FileWriter::create(const QString &path, int mode, QString *error, const QString &shownAs)
{
    close();
    m_path = path;
    m_shownAs = shownAs.isEmpty() ? path : shownAs;
    m_written = 0;
    m_fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (m_fd < 0) {
        *error = QStringLiteral("Cannot create %1: %2").arg(path, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    return true;
}

bool FileWriter::createIn(int dirFd, const QString &name, int mode, QString *error, const QString &shownAs)
{
    close();
    m_path = m_shownAs = shownAs;
    m_written = 0;
    m_fd = ::openat(dirFd, QFile::encodeName(name).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (m_fd < 0) {
        *error = QStringLiteral("Cannot create %1: %2").arg(shownAs, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    return true;
}

bool FileWriter::write(const char *data, std::size_t size, QString *error)
{
    if (!pwriteFully(m_fd, data, size, m_written, m_shownAs, error))
        return false;
    m_written += size;
    return true;
}

bool FileWriter::finish(QString *error)
{
    int err = ::fsync(m_fd) == 0 ? 0 : errno;
    if (::close(m_fd) != 0 && err == 0)
        err = errno;
    m_fd = -1;
    if (err != 0)
        *error = QStringLiteral("Cannot finish %1: %2").arg(m_path, QString::fromLocal8Bit(strerror(err)));
    return err == 0;
}

void FileWriter::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

}  // namespace ingot
