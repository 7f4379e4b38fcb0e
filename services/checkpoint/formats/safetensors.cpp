#include "services/checkpoint/formats/safetensors.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

using nlohmann::json;

std::int64_t SafetensorInfo::numel() const
{
    std::int64_t n = 0;
    return checkedNumel(shape, &n) ? n : -1;
}

SafetensorsReader::~SafetensorsReader()
{
    close();
}

void SafetensorsReader::close()
{
    if (m_map)
        ::munmap(const_cast<char *>(m_map), m_size);
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    m_map = nullptr;
    m_size = 0;
    m_tensors.clear();
    m_byName.clear();
    m_metadata.clear();
}

const SafetensorInfo *SafetensorsReader::find(const std::string &name) const
{
    const auto it = m_byName.find(name);
    return it == m_byName.end() ? nullptr : &m_tensors[it->second];
}

bool SafetensorsReader::open(const QString &path, QString *error)
{
    // Non-blocking: a FIFO must not hang the open; only regular files are read.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        close();
        *error = QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    return open(fd, path, error);
}

bool SafetensorsReader::open(int fd, const QString &path, QString *error)
{
    close();
    m_path = path;
    auto fail = [&](const QString &why) {
        *error = QStringLiteral("%1: %2").arg(path, why);
        close();
        return false;
    };
    m_fd = fd;  // closed by close()
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return fail(QStringLiteral("not a regular file"));
    m_size = std::size_t(st.st_size);
    if (m_size < 8)
        return fail(QStringLiteral("too small to be a safetensors file"));
    void *p = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        m_map = nullptr;
        return fail(QStringLiteral("cannot map the file"));
    }
    m_map = static_cast<const char *>(p);
    std::uint64_t n = 0;
    for (int k = 0; k < 8; ++k)
        n |= std::uint64_t(static_cast<unsigned char>(m_map[k])) << (8 * k);
    if (n > kMaxHeader || n > m_size - 8)
        return fail(QStringLiteral("the header claims %1 bytes, which the file cannot hold (corrupt or not safetensors)").arg(n));
    json h;
    try {
        h = json::parse(m_map + 8, m_map + 8 + n);
    } catch (const json::exception &) {
        return fail(QStringLiteral("the header is not valid JSON"));
    }
    if (!h.is_object())
        return fail(QStringLiteral("the header is not a JSON object"));
    m_data = m_map + 8 + n;
    const std::uint64_t dataSize = m_size - 8 - n;
    for (auto it = h.begin(); it != h.end(); ++it) {
        if (it.key() == "__metadata__") {
            if (!it->is_object())
                return fail(QStringLiteral("__metadata__ is not an object"));
            for (auto m = it->begin(); m != it->end(); ++m)
                if (m->is_string())
                    m_metadata[m.key()] = m->get<std::string>();
            continue;
        }
        const json &e = *it;
        SafetensorInfo t;
        t.name = it.key();
        if (!e.is_object() || !e.contains("dtype") || !e["dtype"].is_string() || !e.contains("shape") ||
            !e["shape"].is_array() || !e.contains("data_offsets") || !e["data_offsets"].is_array() ||
            e["data_offsets"].size() != 2)
            return fail(QStringLiteral("tensor %1 has a malformed header entry").arg(QString::fromStdString(t.name)));
        t.dtype = dtypeFromSafetensors(e["dtype"].get<std::string>());
        if (t.dtype == DType::Unknown)
            return fail(QStringLiteral("tensor %1 has an unknown dtype %2").arg(QString::fromStdString(t.name), QString::fromStdString(e["dtype"].get<std::string>())));
        if (e["shape"].size() > kMaxTensorDims)
            return fail(QStringLiteral("tensor %1 has more than %2 dims").arg(QString::fromStdString(t.name)).arg(kMaxTensorDims));
        for (const auto &d : e["shape"]) {
            // A non-negative integer that fits in 63 bits.
            if (!d.is_number_integer() || (d.is_number_unsigned() ? d.get<std::uint64_t>() > std::uint64_t(INT64_MAX)
                                                                   : d.get<std::int64_t>() < 0))
                return fail(QStringLiteral("tensor %1 has a malformed shape").arg(QString::fromStdString(t.name)));
            t.shape.push_back(d.get<std::int64_t>());
        }
        const auto &o = e["data_offsets"];
        if (!o[0].is_number_unsigned() || !o[1].is_number_unsigned())
            return fail(QStringLiteral("tensor %1 has malformed offsets").arg(QString::fromStdString(t.name)));
        t.begin = o[0].get<std::uint64_t>();
        t.end = o[1].get<std::uint64_t>();
        if (t.begin > t.end || t.end > dataSize)
            return fail(QStringLiteral("tensor %1's data lies past the end of the file (truncated or corrupt)").arg(QString::fromStdString(t.name)));
        // numel * size must equal the byte span exactly (and fit in 63 bits).
        std::int64_t bytes = 0;
        if (!checkedByteSize(t.dtype, t.shape, &bytes) || std::uint64_t(bytes) != t.end - t.begin)
            return fail(QStringLiteral("tensor %1's shape does not match its byte size").arg(QString::fromStdString(t.name)));
        m_byName[t.name] = m_tensors.size();
        m_tensors.push_back(std::move(t));
    }
    // No two tensors may overlap.
    std::vector<const SafetensorInfo *> byOffset;
    for (const auto &t : m_tensors)
        byOffset.push_back(&t);
    std::sort(byOffset.begin(), byOffset.end(), [](auto *a, auto *b) { return a->begin < b->begin; });
    for (std::size_t k = 1; k < byOffset.size(); ++k)
        if (byOffset[k]->begin < byOffset[k - 1]->end)
            return fail(QStringLiteral("tensors %1 and %2 overlap").arg(QString::fromStdString(byOffset[k - 1]->name), QString::fromStdString(byOffset[k]->name)));
    return true;
}

bool SafetensorsWriter::makeHeader(const QString &path, const std::vector<SafetensorInfo> &tensors,
                                   const std::map<std::string, std::string> &metadata, std::string *header, QString *error)
{
    json h = json::object();
    if (!metadata.empty()) {
        json m = json::object();
        for (const auto &[k, v] : metadata)
            m[k] = v;
        h["__metadata__"] = m;
    }
    std::int64_t offset = 0;
    for (const SafetensorInfo &t : tensors) {
        const QString name = QString::fromStdString(t.name);
        std::int64_t bytes = 0;
        if (t.name == "__metadata__") {
            *error = QStringLiteral("%1: a tensor cannot be named __metadata__ in safetensors (the name of the header's metadata).").arg(path);
            return false;
        }
        if (h.contains(t.name)) {
            *error = QStringLiteral("%1: the tensor name %2 is given twice.").arg(path, name);
            return false;
        }
        if (!checkedByteSize(t.dtype, t.shape, &bytes) || !checkedAdd(offset, bytes, &bytes)) {
            *error = QStringLiteral("%1: tensor %2 has an unknown dtype or a size that does not fit in 64 bits.").arg(path, name);
            return false;
        }
        h[t.name] = {{"dtype", safetensorsName(t.dtype)}, {"shape", t.shape}, {"data_offsets", {offset, bytes}}};
        offset = bytes;
    }
    m_expected = std::uint64_t(offset);
    try {
        *header = h.dump();
    } catch (const json::exception &) {
        *error = QStringLiteral("%1: a tensor name is not valid UTF-8.").arg(path);
        return false;
    }
    while ((header->size() + 8) % 8)
        header->push_back(' ');  // align the data section to 8 bytes, as the reference writer does
    return true;
}

bool SafetensorsWriter::writeHeader(const std::string &header, QString *error)
{
    char len[8];
    const std::uint64_t n = header.size();
    for (int k = 0; k < 8; ++k)
        len[k] = char((n >> (8 * k)) & 0xff);
    m_headerBytes = 8 + n;
    return m_file.write(len, 8, error) && m_file.write(header.data(), header.size(), error);
}

bool SafetensorsWriter::begin(const QString &path, const std::vector<SafetensorInfo> &tensors,
                              const std::map<std::string, std::string> &metadata, QString *error)
{
    std::string header;
    return makeHeader(path, tensors, metadata, &header, error) && m_file.create(path, 0644, error) && writeHeader(header, error);
}

bool SafetensorsWriter::begin(int dirFd, const QString &name, const QString &shownAs, const std::vector<SafetensorInfo> &tensors,
                              const std::map<std::string, std::string> &metadata, QString *error)
{
    std::string header;
    return makeHeader(shownAs, tensors, metadata, &header, error) && m_file.createIn(dirFd, name, 0644, error, shownAs) &&
           writeHeader(header, error);
}

bool SafetensorsWriter::write(const char *data, std::size_t size, QString *error)
{
    return m_file.write(data, size, error);
}

bool SafetensorsWriter::finish(QString *error)
{
    if (bytesWritten() != m_expected) {
        *error = QStringLiteral("%1: %2 bytes of tensor data written, %3 announced.").arg(m_file.path()).arg(bytesWritten()).arg(m_expected);
        return false;
    }
    return m_file.finish(error);
}

}  // namespace ingot
