// A PyTorch Distributed Checkpoint's .metadata (docs/formats.md, "DCP checkpoints"), read with the restricted
// unpickler (unpickleDcpMetadata(): never torch.load) into plain, bounded structures: every tensor's dtype, size and
// chunks, every chunk's item (which __R_S.distcp file, where in it), and the byte items. Parsing checks everything
// that does not need the data files: counts, dims and sizes within limits, every chunk inside its tensor, the chunks
// of a tensor covering it exactly once (no overlap, no hole), every item named once by a plain file name. Whether
// each item lies inside its file is checked when the files are opened (DcpCheckpoint, dcpreader.h).
#pragma once

#include "services/checkpoint/formats/dtype.h"

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ingot {

// Where one item lies: [offset, offset + length) of `file` (a name in the checkpoint folder).
struct DcpItem {
    std::string file;
    std::int64_t offset = 0, length = 0;
};

struct DcpChunk {
    std::vector<std::int64_t> offsets, sizes;  // as many as the tensor's dims
    DcpItem item;                               // a whole torch.save zip of the chunk (filesystem.py _write_item)
};

struct DcpTensor {
    std::string fqn;  // the state dict's flattened name ("model.layers.0.mlp.up_proj.weight"): bytes
    DType dtype = DType::Unknown;
    std::string torchDtype;  // "torch.float32", for messages
    std::vector<std::int64_t> size;
    std::vector<DcpChunk> chunks;
    std::int64_t numel() const;
    std::int64_t bytes() const;  // numel() times the dtype's size (checked at parse time to fit)
};

// A value saved as bytes (torch.save of a non-tensor: a step count, the RNG state): BYTE_IO, raw bytes in its item.
struct DcpBytes {
    std::string fqn;
    DcpItem item;
};

struct DcpMetadata {
    std::vector<DcpTensor> tensors;  // in the order of state_dict_metadata
    std::vector<DcpBytes> bytes;
    std::vector<std::string> files;  // every file an item names, once, sorted
    const DcpTensor *find(std::string_view fqn) const;
};

// Limits: a real checkpoint of a 400B-parameter model has some 10^5 tensors and 10^6 chunks.
constexpr std::size_t kMaxDcpEntries = std::size_t(1) << 20;      // tensors and byte items
constexpr std::size_t kMaxDcpChunks = std::size_t(1) << 22;       // chunks of all tensors
constexpr std::size_t kMaxDcpChunksPerTensor = 1 << 14;           // a tensor split over more ranks than this is refused
constexpr std::int64_t kMaxDcpMetadataBytes = std::int64_t(256) << 20;

// A name from a .metadata file (an FQN, a file name) as the words show it: its first 200 bytes, escaped.
QString dcpShownName(const std::string &s);

// Parses the bytes of a .metadata file; false with words in *error (naming `shownAs`) when it is refused.
bool parseDcpMetadata(std::string_view data, const QString &shownAs, DcpMetadata *out, QString *error);

}  // namespace ingot
