#include "services/checkpoint/formats/torchwriter.h"

#include <QFile>
#include <QFileInfo>

#include <zip.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <fcntl.h>
#include <unistd.h>

namespace ingot {

namespace {
void putInt(std::string &p, std::int64_t v)
{
    if (v >= 0 && v < 256) {
        p += 'K';
        p += char(v);
    } else if (v >= 0 && v < 65536) {
        p += 'M';
        p += char(v & 0xff);
        p += char(v >> 8);
    } else if (v >= -(std::int64_t(1) << 31) && v < (std::int64_t(1) << 31)) {
        p += 'J';
        for (int k = 0; k < 4; ++k)
            p += char((std::uint64_t(v) >> (8 * k)) & 0xff);
    } else {
        p += '\x8a';
        p += char(8);
        for (int k = 0; k < 8; ++k)
            p += char((std::uint64_t(v) >> (8 * k)) & 0xff);
    }
}

void putStr(std::string &p, const std::string &s)
{
    p += 'X';
    const std::uint32_t n = std::uint32_t(s.size());
    for (int k = 0; k < 4; ++k)
        p += char((n >> (8 * k)) & 0xff);
    p += s;
}

void putGlobal(std::string &p, const char *module, const char *name)
{
    p += 'c';
    p += module;
    p += '\n';
    p += name;
    p += '\n';
}

void putIntTuple(std::string &p, const std::vector<std::int64_t> &v)
{
    p += '(';
    for (auto x : v)
        putInt(p, x);
    p += 't';
}
}  // namespace

std::string TorchWriter::pickleFor(const std::vector<SafetensorInfo> &tensors)
{
    std::string p = "\x80\x02";
    putGlobal(p, "collections", "OrderedDict");
    p += ')';
    p += 'R';
    p += '(';
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const SafetensorInfo &t = tensors[i];
        putStr(p, t.name);
        putGlobal(p, "torch._utils", "_rebuild_tensor_v2");
        p += '(';
        // persistent id: ('storage', torch.XStorage, key, 'cpu', numel)
        p += '(';
        putStr(p, "storage");
        putGlobal(p, "torch", torchStorageName(t.dtype));
        putStr(p, std::to_string(i));
        putStr(p, "cpu");
        putInt(p, t.numel());
        p += 't';
        p += 'Q';
        putInt(p, 0);
        putIntTuple(p, t.shape);
        std::vector<std::int64_t> stride(t.shape.size(), 1);
        for (int d = int(t.shape.size()) - 2; d >= 0; --d)
            stride[size_t(d)] = stride[size_t(d) + 1] * t.shape[size_t(d) + 1];
        putIntTuple(p, stride);
        p += '\x89';  // requires_grad=False
        putGlobal(p, "collections", "OrderedDict");
        p += ')';
        p += 'R';
        p += 't';
        p += 'R';
    }
    p += 'u';
    p += '.';
    return p;
}

TorchWriter::~TorchWriter()
{
    removeBlob();
    if (m_dirFd >= 0)
        ::close(m_dirFd);
}

void TorchWriter::removeBlob()
{
    m_blob.close();
    if (!m_blobName.isEmpty() && m_dirFd >= 0)
        ::unlinkat(m_dirFd, m_blobName.constData(), 0);
    m_blobName.clear();
}

QByteArray TorchWriter::inFolder(const QByteArray &name) const
{
    return QByteArray("/proc/self/fd/") + QByteArray::number(m_dirFd) + '/' + name;
}

bool TorchWriter::begin(const QString &path, const std::vector<SafetensorInfo> &tensors, QString *error)
{
    const QFileInfo fi(path);
    const int dirFd = ::open(QFile::encodeName(fi.absolutePath()).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd < 0) {
        *error = QStringLiteral("Cannot create %1: %2").arg(path, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    const bool ok = begin(dirFd, fi.fileName(), path, tensors, error);
    ::close(dirFd);
    return ok;
}

bool TorchWriter::begin(int dirFd, const QString &name, const QString &shownAs, const std::vector<SafetensorInfo> &tensors,
                        QString *error)
{
    removeBlob();
    if (m_dirFd >= 0)
        ::close(m_dirFd);
    m_dirFd = ::fcntl(dirFd, F_DUPFD_CLOEXEC, 0);
    m_name = QFile::encodeName(name);
    m_path = shownAs;
    m_tensors = tensors;
    m_expected = 0;
    if (m_dirFd < 0) {
        *error = QStringLiteral("Cannot create %1: %2").arg(shownAs, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    std::set<std::string> names;
    std::int64_t total = 0;
    for (const auto &t : tensors) {
        std::int64_t bytes = 0;
        if (!names.insert(t.name).second) {
            *error = QStringLiteral("%1: the tensor name %2 is given twice.").arg(shownAs, QString::fromStdString(t.name));
            return false;
        }
        if (!checkedByteSize(t.dtype, t.shape, &bytes) || !checkedAdd(total, bytes, &total)) {
            *error = QStringLiteral("%1: tensor %2 has an unknown dtype or a size that does not fit in 64 bits.")
                         .arg(shownAs, QString::fromStdString(t.name));
            return false;
        }
    }
    m_expected = std::uint64_t(total);
    m_blobName = m_name + ".blob";
    // A failed write names the output, not the blob.
    if (m_blob.createIn(m_dirFd, QFile::decodeName(m_blobName), 0600, error, m_path))
        return true;
    m_blobName.clear();  // not ours: never removed
    return false;
}

bool TorchWriter::write(const char *data, std::size_t size, QString *error)
{
    return m_blob.write(data, size, error);
}

bool TorchWriter::finish(QString *error)
{
    if (m_blob.bytesWritten() != m_expected) {
        *error = QStringLiteral("%1: %2 bytes written, %3 announced.").arg(m_path).arg(m_blob.bytesWritten()).arg(m_expected);
        return false;
    }
    m_blob.close();
    const bool ok = writeZip(error);
    removeBlob();
    if (!ok)
        return false;
    // libzip wrote it through a temporary file: the data reaches the disk only once fsync says so.
    const int fd = ::openat(m_dirFd, m_name.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    int err = fd < 0 ? errno : (::fsync(fd) == 0 ? 0 : errno);
    if (fd >= 0 && ::close(fd) != 0 && err == 0)
        err = errno;
    if (err != 0) {
        *error = QStringLiteral("Cannot finish %1: %2").arg(m_path, QString::fromLocal8Bit(strerror(err)));
        ::unlinkat(m_dirFd, m_name.constData(), 0);
        return false;
    }
    return true;
}

namespace {
// Adds a stored (uncompressed) record; libzip takes ownership of `src`, or it is freed here.
bool addStored(zip_t *z, const std::string &name, zip_source_t *src)
{
    const zip_int64_t idx = src ? zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8) : -1;
    if (idx < 0) {
        if (src)
            zip_source_free(src);
        return false;
    }
    zip_set_file_compression(z, zip_uint64_t(idx), ZIP_CM_STORE, 0);
    return true;
}

bool addBuffer(zip_t *z, const std::string &name, const std::string &content)
{
    char *copy = static_cast<char *>(::malloc(content.size() ? content.size() : 1));
    std::memcpy(copy, content.data(), content.size());
    return addStored(z, name, zip_source_buffer(z, copy, content.size(), 1));
}
}  // namespace

// The zip torch.save writes: archive/data.pkl, byteorder, version, then one record per tensor, read from the blob.
bool TorchWriter::writeZip(QString *error)
{
    int code = 0;
    zip_t *z = zip_open(inFolder(m_name).constData(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!z) {
        *error = QStringLiteral("Cannot create %1.").arg(m_path);
        return false;
    }
    const std::string prefix = "archive/";
    bool ok = addBuffer(z, prefix + "data.pkl", pickleFor(m_tensors)) && addBuffer(z, prefix + "byteorder", "little") &&
              addBuffer(z, prefix + "version", "3\n");
    const QByteArray blob = inFolder(m_blobName);
    std::uint64_t offset = 0;
    for (std::size_t i = 0; ok && i < m_tensors.size(); ++i) {
        const std::uint64_t bytes = std::uint64_t(m_tensors[i].numel()) * std::uint64_t(dtypeSize(m_tensors[i].dtype));
        ok = addStored(z, prefix + "data/" + std::to_string(i), zip_source_file(z, blob.constData(), offset, zip_int64_t(bytes)));
        offset += bytes;
    }
    if (!ok || zip_close(z) != 0) {
        *error = QStringLiteral("Cannot write %1: %2").arg(m_path, QString::fromUtf8(zip_strerror(z)));
        zip_discard(z);
        return false;
    }
    return true;
}

}  // namespace ingot
