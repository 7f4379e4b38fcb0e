// One shard file opened for reading, whatever its format (a torch.save state dict or safetensors), and every shard
// of a checkpoint opened at once, looked up by rank. Planning reads names, dtypes and shapes; assembling reads bytes.
#pragma once

#include "services/checkpoint/discover.h"
#include "services/checkpoint/formats/dtype.h"
#include "services/checkpoint/formats/pickle.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ingot {

class SafetensorsReader;
struct SafetensorInfo;
class TorchFile;

class ShardReader final
{
    Q_DISABLE_COPY_MOVE(ShardReader)

public:
    ShardReader();
    ~ShardReader();

    // Opens the file and checks every tensor in it (a Hugging Face model.safetensors.index.json: the files it names,
    // beside it, read as one): a torch tensor must lie within its storage record and claim
    // no more elements than it holds, and all of a torch file's tensors together at most kMaxSharedStorageFactor
    // times the file's size (tied weights share a storage; nothing legitimate shares one much more). With xser the
    // same bound covers the references: their tensors together at most that many times the file and its tensor
    // files (each counted once, however many names refer to it).
    bool open(const ShardFile &file, QString *error);
    // A safetensors file already open as `fd` (taken over; a LoRA adapter opened by the checkpoint files' link rule).
    bool openSafetensors(const ShardFile &file, int fd, QString *error);
    static constexpr qint64 kMaxSharedStorageFactor = 8;
    const ShardFile &file() const { return m_file; }

    // The tensors' names, in the file's order (safetensors) or sorted (torch).
    std::vector<std::string> names() const;
    // False when the shard holds no tensor of that name.
    bool info(const std::string &name, DType *dtype, std::vector<std::int64_t> *shape) const;
    // A tensor's bytes, read into `buf` (with pread: a file truncated meanwhile is a short read and an error, never a
    // SIGBUS from a mapping); nullptr with words in *error when it cannot be read (or is no longer there).
    const char *read(const std::string &name, std::string *buf, qint64 *size, QString *error);
    // Where a tensor's bytes lie, contiguous and as they are, in the shard file: for copying them straight from it
    // (copy_file_range, pread). False with *error empty when they do not (a deflated torch record, a strided
    // tensor: read() those); false with words when the file is corrupt.
    struct Location {
        int fd = -1;
        qint64 offset = 0, size = 0;
    };
    bool locate(const std::string &name, Location *at, QString *error);
    // The value under "sharded_metadata" of a torch.save checkpoint (optimum-neuron docs layout), nullptr if none.
    const PickleValue *shardedMetadata() const;

    // xser (torch_xla / neuronx-distributed): the file holds references, each tensor is a torch.save file of its
    // own in <file>.tensors/tensor_<tid>.pt. Each is checked at open like a tensor of the file; one is kept open
    // at a time, for reading.
    bool isXser() const { return !m_xser.empty(); }
    static QString xserTensorFile(const QString &shard, std::int64_t tid);

private:
    // The xser tensor files checked so far, by tid: each one's size, and the first name that referred to it.
    using XserFiles = std::map<std::int64_t, std::pair<std::int64_t, std::string>>;
    // Checks the tensor file of reference `tid` (once per file: one checked already is taken from *files).
    bool resolveXser(const std::string &name, std::int64_t tid, XserFiles *files, QString *error);
    // The tensor file of `name` open in m_xserFile, its tensor as it was at open; nullptr with words if changed.
    const TensorRef *openXser(const std::string &name, QString *error);
    bool openSafetensorsIndex(const QString &index, QString *error);
    // The safetensors file holding `name` (one file, or those of a Hugging Face index), nullptr if none.
    const SafetensorInfo *stFind(const std::string &name, const SafetensorsReader **file) const;
    ShardFile m_file;
    std::unique_ptr<TorchFile> m_torch;
    std::vector<std::unique_ptr<SafetensorsReader>> m_st;  // one file, or the files a model.safetensors.index.json names
    std::map<std::string, const SafetensorsReader *> m_stOf;
    std::map<std::string, TensorRef> m_tensors;  // torch (for xser: as read from each tensor's own file)
    std::map<std::string, std::int64_t> m_xser;  // xser: name -> tid
    std::unique_ptr<TorchFile> m_xserFile;
    std::int64_t m_xserOpenTid = -1;
};

// Every shard of a checkpoint, open, by (pp, tp).
class OpenShards final
{
    Q_DISABLE_COPY_MOVE(OpenShards)

public:
    OpenShards() = default;
    ~OpenShards();
    // Opens every shard of `c`; those that cannot be read are listed in *problems. False if any could not.
    bool open(const CheckpointCandidate &c, QStringList *problems);
    // nullptr when that rank was not opened. ep 0 is also the file of a checkpoint without expert parallelism.
    ShardReader *at(int pp, int tp, int ep = 0) const;

private:
    std::vector<std::unique_ptr<ShardReader>> m_readers;
    std::map<std::tuple<int, int, int>, ShardReader *> m_byRank;
};

}  // namespace ingot
