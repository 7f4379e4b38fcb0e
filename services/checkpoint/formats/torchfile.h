// A torch.save file (the zip format of PyTorch >= 1.6): data.pkl read with the restricted unpickler, tensor bytes
// read with pread straight from the file where a record is stored (located through our own read of the central
// directory, ZIP64 included), else streamed with libzip (a deflated record, a strided tensor), so a checkpoint is
// never executed and never loaded whole into memory.
#pragma once

#include "services/checkpoint/formats/pickle.h"

#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

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
    // The same for a torch.save zip that lies at [base, base + length) of the file open as `fd` (a DCP .distcp item:
    // docs/formats.md), named `shownAs` in messages. `fd` is duplicated, not taken over. Offsets locateTensor()
    // gives are the whole file's (for reading from fd()); fileSize() is the item's length.
    bool openAt(int fd, qint64 base, qint64 length, const QString &shownAs, QString *error);
    const PV &root() const { return m_root; }
    const QString &path() const { return m_path; }
    qint64 fileSize() const { return m_fileSize; }

    // Whether the tensor can be read: its storage record is there, stored (as torch.save writes it) or deflated,
    // and holds every element the tensor touches; and the tensor claims no more elements than the record
    // holds (an overlapping view, stride 0, would turn a few bytes into gigabytes). False with words naming `name`.
    bool checkTensor(const TensorRef &t, const QString &name, QString *error) const;
    // The bytes of a tensor, contiguous, in its own dtype, once checkTensor() agrees.
    bool readTensor(const TensorRef &t, std::string *out, QString *error);
    // Where a contiguous tensor in a stored record lies in the file, for reading it straight from fd() (pread,
    // copy_file_range): true with its first byte's offset; false with *error empty when it cannot be read that way
    // (a deflated record, a strided tensor: readTensor() streams those); false with words when the record's data
    // would lie outside the file. Checks checkTensor() first.
    bool locateTensor(const TensorRef &t, qint64 *offset, QString *error);
    // The file, open for reading while this lives.
    int fd() const { return m_fd; }
    // The size in bytes of a storage record, -1 if it is missing.
    qint64 recordSize(const std::string &key) const;

    static constexpr qint64 kMaxPickleBytes = qint64(256) << 20;  // data.pkl
    static constexpr qint64 kMaxInflation = 8;  // a deflated record's size, at most this times the file's

private:
    // A record as the central directory describes it (the local header is read when its data is first wanted).
    struct Record {
        std::uint64_t localHeader = 0, compressedSize = 0, size = 0;
        int method = -1;
        std::int64_t dataOffset = -1;  // -1: not looked up yet
    };
    void readCentralDirectory();
    // Forgets the file now open (open(), openAt()): its zip, pickle, records and descriptor.
    void resetForOpen(const QString &shownAs);
    // Reads data.pkl of the zip now open in m_zip (open(), openAt()).
    bool readPickle(QString *error);
    // The offset of a stored record's first data byte, -1 when unknown (no such stored record), -2 with words when
    // the record's data lies outside the file.
    std::int64_t dataOffset(const std::string &key, QString *error);
    struct Zip;
    std::unique_ptr<Zip> m_zip;
    int m_fd = -1;
    std::map<std::string, Record> m_records;  // by full name, from our own read of the central directory
    QString m_path;
    qint64 m_fileSize = 0;
    qint64 m_base = 0;  // where the zip begins in the file (openAt())
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
