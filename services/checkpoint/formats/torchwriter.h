// Writes a state dict in torch.save's zip format (pytorch_model.bin) that torch.load reads: a protocol-2 pickle of
// an OrderedDict of tensors rebuilt with torch._utils._rebuild_tensor_v2, and one stored (uncompressed) record per
// tensor. Tensor bytes stream into a temporary blob; the zip is assembled from it with libzip (ZIP64 as needed).
#pragma once

#include "services/checkpoint/formats/filewriter.h"
#include "services/checkpoint/formats/safetensors.h"  // SafetensorInfo: a tensor's name, dtype and shape

#include <QString>

#include <string>
#include <vector>

namespace ingot {

class TorchWriter final
{
    Q_DISABLE_COPY_MOVE(TorchWriter)

public:
    TorchWriter() = default;
    ~TorchWriter();  // removes the scratch blob
    // Announces the tensors (in this order); then call write() with each one's bytes, in the same order.
    bool begin(const QString &path, const std::vector<SafetensorInfo> &tensors, QString *error);
    // The same into the folder open as `dirFd` (held, not looked up again by its path): the scratch blob is created
    // there exclusively and never through a link, and libzip writes the zip through /proc/self/fd/<dirFd>, so the
    // file lands in that folder whatever happens to its path. Errors name `shownAs`.
    bool begin(int dirFd, const QString &name, const QString &shownAs, const std::vector<SafetensorInfo> &tensors, QString *error);
    bool write(const char *data, std::size_t size, QString *error);
    // Assembles the zip from the blob; on failure neither the file nor the blob is left.
    bool finish(QString *error);

    // The pickle alone (exposed for tests): keys "0", "1", ... in tensor order.
    static std::string pickleFor(const std::vector<SafetensorInfo> &tensors);

private:
    bool writeZip(QString *error);
    void removeBlob();
    QByteArray inFolder(const QByteArray &name) const;  // `name` in the held folder, as a path libzip can open

    int m_dirFd = -1;  // the folder written into, a descriptor of our own
    QByteArray m_name, m_blobName;
    QString m_path;  // as errors name it
    FileWriter m_blob;
    std::vector<SafetensorInfo> m_tensors;
    std::uint64_t m_expected = 0;
};

}  // namespace ingot
