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
    std::vector<std::int64_t> shape;   // at most kMaxTensorDims dims, none negative
    std::vector<std::int64_t> stride;  // as many, none negative
    std::int64_t storageOffset = 0;  // in elements, not negative
    StorageRef storage;
    // An xser reference: the tensor is the one saved in <checkpoint>.tensors/tensor_<xserTid>.pt (dtype, shape and
    // storage then come from that file); -1 for a tensor in this file.
    std::int64_t xserTid = -1;
    std::int64_t numel() const;  // -1 when it does not fit in 63 bits
    bool isContiguous() const;
};

struct PickleValue {
    // Reference: an xser tensor reference (torch_xla.utils.serialization.TensorReference), its tid in `i` (-1 until
    // its state is set): the tensor lies in a file of its own beside the checkpoint (see ShardReader).
    // Object: one of torch.distributed.checkpoint's metadata dataclasses (unpickleDcpMetadata() only), its class in
    // `s`, the state BUILD gave it in `dict` (a dataclass's fields) or `items` (TensorProperties' tuple).
    enum class Kind { None, Bool, Int, Float, Str, Bytes, List, Tuple, Dict, Global, Storage, Tensor, Reference, Object };
    Kind kind = Kind::None;
    bool b = false;
    std::int64_t i = 0;
    double f = 0;
    std::string s;                          // Str, Bytes, Global ("module.name")
    std::vector<PV> items;                  // List, Tuple
    std::vector<std::pair<PV, PV>> dict;    // Dict, in insertion order
    std::shared_ptr<const StorageRef> storagePtr;  // Storage
    std::shared_ptr<const TensorRef> tensorPtr;    // Tensor

    const StorageRef &storage() const;  // an empty one unless kind is Storage
    const TensorRef &tensor() const;    // an empty one unless kind is Tensor
    const PickleValue *get(std::string_view key) const;  // Dict (or Object field) lookup by string key
    bool isStr() const { return kind == Kind::Str; }
};

// Owns the containers of one unpickled graph and breaks its cycles: a hostile pickle can make a container hold
// itself (shared_ptr cycles would leak) or nest containers a million deep (releasing the outermost would recurse a
// million times). The arena holds every container until it goes; then it empties them all first, so no release
// ever recurses. Keep it as long as the values: after it goes, every container is empty.
struct PickleArena {
    std::vector<PV> nodes;
    ~PickleArena();
};

struct PickleResult {
    PV value;
    std::shared_ptr<PickleArena> arena;
    std::string error;  // what was refused or malformed, and where
    bool ok() const { return error.empty(); }
};

// Memory is bounded by the input: every object made, string copied, container slot and stack entry is charged
// against `maxBytes` (shared references cost a pointer, never a copy), and the pickle is refused when it would
// take more. By default, 16 MiB plus 64 bytes per byte of input, at most 1 GiB: a real torch.save pickle takes
// about 37 bytes per byte (20,000 tensors: 2.3 MB of pickle, 85 MB of values).
PickleResult unpickle(std::string_view data);
PickleResult unpickle(std::string_view data, std::size_t maxBytes);
// A DCP checkpoint's .metadata (docs/formats.md, "DCP checkpoints"): the same, plus exactly the classes torch 2.6
// to 2.12 pickle there, made into inert Object values: torch.distributed.checkpoint.metadata's Metadata,
// TensorStorageMetadata, TensorProperties, ChunkStorageMetadata, BytesStorageMetadata, MetadataIndex, StorageMeta and
// _MEM_FORMAT_ENCODING(n) (an Int), filesystem's _StorageInfo, torch.serialization._get_layout(name) (a Str) and a
// pathlib PosixPath (a Str). Nothing is called; any other class is refused as unpickle() refuses it. Its memory
// budget is 16 MiB plus 128 bytes per byte of input, at most 2 GiB.
PickleResult unpickleDcpMetadata(std::string_view data);
std::size_t defaultPickleBudget(std::size_t inputBytes);

}  // namespace ingot
