// A torch.save file (the zip format of PyTorch >= 1.6): data.pkl read with the restricted unpickler, tensor bytes
// read from the data/ records with libzip (ZIP64 included), so a checkpoint is never executed and never loaded
// whole into memory.
#pragma once

#include "services/checkpoint/formats/pickle.h"

#include <QString>

#include <memory>

namespace ingot {

class TorchFile final
{
public:
    TorchFile();
    ~TorchFile();  // releases the values before their arena
    TorchFile(const TorchFile &) = delete;
    TorchFile &operator=(const TorchFile &) = delete;

    // Opens the archive and unpickles data.pkl. False with words in *error (not a zip, legacy format, refused
    // global, truncated ...).
    bool open(const QString &path, QString *error);
    const PV &root() const { return m_root; }
    const QString &path() const { return m_path; }
    qint64 fileSize() const { return m_fileSize; }

    // Whether the tensor can be read: its storage record is there, stored (torch.save never compresses tensor
    // data), and holds every element the tensor touches; and the tensor claims no more elements than the record
    // holds (an overlapping view, stride 0, would turn a few bytes into gigabytes). False with words naming `name`.
    bool checkTensor(const TensorRef &t, const QString &name, QString *error) const;
    // The bytes of a tensor, contiguous, in its own dtype, once checkTensor() agrees.
    bool readTensor(const TensorRef &t, std::string *out, QString *error);
    // The size in bytes of a storage record, -1 if it is missing.
    qint64 recordSize(const std::string &key) const;

    static constexpr qint64 kMaxPickleBytes = qint64(256) << 20;  // data.pkl

private:
    struct Zip;
    std::unique_ptr<Zip> m_zip;
    QString m_path;
    qint64 m_fileSize = 0;
    std::string m_prefix;  // "archive/" (the folder every record sits in)
    PV m_root;
    std::shared_ptr<PickleArena> m_arena;  // breaks reference cycles when the file is closed
};

// The state dict inside a checkpoint: the value of "model" / "state_dict" / "module" when present, else the root.
// Returns name -> tensor for every tensor entry (nested dicts are flattened with '.'; a repeated key keeps its first
// place and its last value, as in Python). Each dict is walked once: one that appears twice (inside itself, or
// shared by two entries), nesting deeper than kMaxStateDictDepth or a name longer than kMaxTensorName bytes makes
// it stop with words in *error (when given) and return nothing.
std::vector<std::pair<std::string, TensorRef>> stateDictTensors(const PV &root, const PickleValue **stateDict = nullptr,
                                                                std::string *error = nullptr);
constexpr std::size_t kMaxStateDictDepth = 64;
constexpr std::size_t kMaxTensorName = 1024;

}  // namespace ingot
