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

    // The bytes of a tensor, contiguous, in its own dtype. Checks that the storage record holds what the tensor
    // claims.
    bool readTensor(const TensorRef &t, std::string *out, QString *error);
    // The size in bytes of a storage record, -1 if it is missing.
    qint64 recordSize(const std::string &key) const;

private:
    struct Zip;
    std::unique_ptr<Zip> m_zip;
    QString m_path;
    std::string m_prefix;  // "archive/" (the folder every record sits in)
    PV m_root;
    std::shared_ptr<PickleArena> m_arena;  // breaks reference cycles when the file is closed
};

// The state dict inside a checkpoint: the value of "model" / "state_dict" / "module" when present, else the root.
// Returns name -> tensor for every tensor entry (nested dicts are flattened with '.').
std::vector<std::pair<std::string, TensorRef>> stateDictTensors(const PV &root, const PickleValue **stateDict = nullptr);

}  // namespace ingot
