// A DCP checkpoint folder open for reading (docs/formats.md, "DCP checkpoints"): its .metadata parsed
// (dcpmetadata.h) and every file it names opened once, relative to the folder's descriptor and never through a
// link; every item checked to lie inside its file, no two items of a file overlapping, and every chunk's bytes no
// more than its item holds (so what a tensor claims is bounded by the files). Tensors are read one at a time, whole:
// each chunk's torch.save item read with TorchFile at its offset and put in its place.
#pragma once

#include "services/checkpoint/dcpmetadata.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace ingot {

class TorchFile;

class DcpCheckpoint final
{
public:
    DcpCheckpoint() = default;
    ~DcpCheckpoint();
    DcpCheckpoint(const DcpCheckpoint &) = delete;
    DcpCheckpoint &operator=(const DcpCheckpoint &) = delete;

    // Whether `folder` holds a .metadata file (a DCP checkpoint, to be opened to know more).
    static bool looksLikeDcp(const QString &folder);
    static constexpr const char *kMetadataFile = ".metadata";
    static constexpr std::size_t kMaxFiles = 1 << 14;

    bool open(const QString &folder, QString *error);
    const DcpMetadata &metadata() const { return m_md; }
    const QString &folder() const { return m_folder; }
    qint64 fileBytes() const { return m_fileBytes; }  // of the data files

    // The whole tensor, row-major, in its dtype; false with words naming it when a chunk cannot be read or does not
    // hold what the metadata says (dtype, shape).
    bool readTensor(const DcpTensor &t, std::string *out, QString *error);
    // Where the pieces of a tensor lie in their files when each is a range of the whole tensor's bytes (one chunk, or
    // chunks split on dim 0 only, as FSDP and row-wise tensor parallelism split them) and lies contiguous in its
    // item: for copying them straight (copy_file_range). True with the pieces; false with *error empty when they
    // cannot be copied that way (split on another dim, a strided or deflated record: readTensor()); false with words
    // when a piece is corrupt.
    struct Piece {
        int fd = -1;
        qint64 from = 0;  // in the file
        qint64 to = 0;    // in the tensor's bytes
        qint64 bytes = 0;
    };
    bool locate(const DcpTensor &t, std::vector<Piece> *pieces, QString *error);
    // A value saved as bytes, at most kMaxBytesValue long.
    bool readBytes(const DcpBytes &b, std::string *out, QString *error);
    static constexpr qint64 kMaxBytesValue = qint64(64) << 20;
    // A value saved as bytes by DCP's planner (a torch.save of a Python value, at most kMaxBytesValue long), named
    // `fqn`, opened in *tf: its data.pkl read with the restricted unpickler. False with words otherwise.
    bool openValue(const std::string &fqn, TorchFile *tf, QString *error);

private:
    bool openFiles(QString *error);
    bool checkItems(QString *error);
    QString itemName(const DcpItem &i) const;
    int m_dirFd = -1;
    QString m_folder;
    DcpMetadata m_md;
    std::map<std::string, std::pair<int, qint64>> m_files;  // name -> (descriptor, size)
    qint64 m_fileBytes = 0;
};

}  // namespace ingot
