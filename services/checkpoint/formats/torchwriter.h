// Writes a state dict in torch.save's zip format (pytorch_model.bin) that torch.load reads: a protocol-2 pickle of
// an OrderedDict of tensors rebuilt with torch._utils._rebuild_tensor_v2, and one stored (uncompressed) record per
// tensor. Tensor bytes stream into a temporary blob; the zip is assembled from it with libzip (ZIP64 as needed).
#pragma once

#include "services/checkpoint/formats/safetensors.h"

#include <QString>

#include <string>
#include <vector>

namespace ingot {

class TorchWriter final
{
public:
    ~TorchWriter();
    bool begin(const QString &path, const std::vector<SafetensorInfo> &tensors, QString *error);
    bool write(const char *data, std::size_t size, QString *error);
    bool finish(QString *error);

    // The pickle alone (exposed for tests): keys "0", "1", ... in tensor order.
    static std::string pickleFor(const std::vector<SafetensorInfo> &tensors);

private:
    QString m_path;
    QString m_blob;
    int m_fd = -1;
    std::vector<SafetensorInfo> m_tensors;
    std::uint64_t m_written = 0, m_expected = 0;
};

}  // namespace ingot
