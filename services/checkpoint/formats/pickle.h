// A restricted unpickler for PyTorch checkpoints. It understands the pickle opcodes torch.save writes and accepts
// only the globals torch uses for tensors, storages, dtypes and ordered dicts; any other global (an arbitrary
// callable) is refused with an error. Unlike torch.load, reading a checkpoint can never run code from it.
#pragma once

#include "services/checkpoint/formats/dtype.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ingot {

struct PickleValue;
using PV = std::shared_ptr<PickleValue>;

struct StorageRef {
    DType dtype = DType::Unknown;
    std::string key;       // the record name under data/
    std::string location;  // "cpu", "cuda:0" ...
    std::int64_t numel = 0;
};

struct TensorRef {
    DType dtype = DType::Unknown;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> stride;
    std::int64_t storageOffset = 0;  // in elements
    StorageRef storage;
    std::int64_t numel() const;
    bool isContiguous() const;
};

struct PickleValue {
    enum class Kind { None, Bool, Int, Float, Str, Bytes, List, Tuple, Dict, Global, Storage, Tensor };
    Kind kind = Kind::None;
    bool b = false;
    std::int64_t i = 0;
    double f = 0;
    std::string s;                          // Str, Bytes, Global ("module.name")
    std::vector<PV> items;                  // List, Tuple
    std::vector<std::pair<PV, PV>> dict;    // Dict, in insertion order
    StorageRef storage;
    TensorRef tensor;

    const PickleValue *get(std::string_view key) const;  // Dict lookup by string key
    bool isStr() const { return kind == Kind::Str; }
};

// Owns the cycle-breaking of one unpickled graph: a hostile pickle can make a container hold itself (shared_ptr
// cycles would leak), so when the arena goes, every container it made is emptied. Keep it as long as the values.
struct PickleArena {
    std::vector<std::weak_ptr<PickleValue>> nodes;
    ~PickleArena();
};

struct PickleResult {
    PV value;
    std::shared_ptr<PickleArena> arena;
    std::string error;  // what was refused or malformed, and where
    bool ok() const { return error.empty(); }
};

// Limits keep hostile input from exhausting memory: the stack and memo never exceed `maxItems` entries.
PickleResult unpickle(std::string_view data, std::size_t maxItems = 50'000'000);

}  // namespace ingot
