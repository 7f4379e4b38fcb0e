// safetensors: an 8-byte little-endian header length, a JSON header {name: {dtype, shape, data_offsets}, ...,
// "__metadata__": {str: str}}, then the raw tensor bytes. The reader memory-maps the file and checks every
// offset before anything is read; the writer streams tensors in header order.
#pragma once

#include "services/checkpoint/formats/dtype.h"
#include "services/checkpoint/formats/filewriter.h"

#include <QString>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ingot {

struct SafetensorInfo {
    std::string name;
    DType dtype = DType::Unknown;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0;  // offsets into the data section
    std::uint64_t end = 0;
    std::int64_t numel() const;  // -1 when it does not fit in 63 bits
};

class SafetensorsReader final
{
public:
    SafetensorsReader() = default;
    ~SafetensorsReader();
    SafetensorsReader(const SafetensorsReader &) = delete;
    SafetensorsReader &operator=(const SafetensorsReader &) = delete;

    // Maps the file and validates the header: its length, its JSON, every dtype, shape and offset.
    bool open(const QString &path, QString *error);
    // The same for a file already open as `fd` (taken over, closed with the reader), named `path` in messages.
    bool open(int fd, const QString &path, QString *error);
    const std::vector<SafetensorInfo> &tensors() const { return m_tensors; }
    const std::map<std::string, std::string> &metadata() const { return m_metadata; }
    const SafetensorInfo *find(const std::string &name) const;
    // The tensor's bytes, inside the mapping (valid while the reader lives). Touching mapped pages of a file that
    // another process truncates raises SIGBUS: bulk reads go through fd() and fileOffset() instead (pread,
    // copy_file_range), where a shrunken file is a short read.
    const char *data(const SafetensorInfo &t) const { return m_data + t.begin; }
    // The file, open for reading while the reader lives, and where a tensor's bytes begin in it.
    int fd() const { return m_fd; }
    std::uint64_t fileOffset(const SafetensorInfo &t) const { return std::uint64_t(m_data - m_map) + t.begin; }

    static constexpr std::uint64_t kMaxHeader = 100ull * 1024 * 1024;

private:
    void close();
    const char *m_map = nullptr;
    int m_fd = -1;
    std::size_t m_size = 0;
    const char *m_data = nullptr;
    std::vector<SafetensorInfo> m_tensors;
    std::map<std::string, std::size_t> m_byName;  // index into m_tensors
    std::map<std::string, std::string> m_metadata;
    QString m_path;
};

class SafetensorsWriter final
{
public:
    // Writes the header for these tensors (in this order); then call write() for each, in the same order. Refuses
    // a tensor named __metadata__ (the header's own key), a name given twice, an unknown dtype and a size that does
    // not fit in 63 bits: any of them would make a file that reads back as something else.
    bool begin(const QString &path, const std::vector<SafetensorInfo> &tensors,
               const std::map<std::string, std::string> &metadata, QString *error);
    // The same into the folder open as `dirFd`: `name` created there (FileWriter::createIn), errors naming `shownAs`.
    bool begin(int dirFd, const QString &name, const QString &shownAs, const std::vector<SafetensorInfo> &tensors,
               const std::map<std::string, std::string> &metadata, QString *error);
    bool write(const char *data, std::size_t size, QString *error);
    bool finish(QString *error);  // flushes to disk and closes
    std::uint64_t bytesWritten() const { return m_file.bytesWritten() - m_headerBytes; }  // tensor data only
    // Writing the next tensor straight to the file: its bytes go at fileOffset() of fd(); then wrote(its size).
    int fd() const { return m_file.fd(); }
    std::uint64_t fileOffset() const { return m_file.bytesWritten(); }
    void wrote(std::uint64_t size) { m_file.wrote(size); }
    const QString &shownAs() const { return m_file.shownAs(); }

private:
    // The header for `tensors` (padded as the reference writer pads it); false with words naming `path`.
    bool makeHeader(const QString &path, const std::vector<SafetensorInfo> &tensors, const std::map<std::string, std::string> &metadata,
                    std::string *header, QString *error);
    bool writeHeader(const std::string &header, QString *error);

    FileWriter m_file;
    std::uint64_t m_headerBytes = 0;
    std::uint64_t m_expected = 0;
};

}  // namespace ingot
