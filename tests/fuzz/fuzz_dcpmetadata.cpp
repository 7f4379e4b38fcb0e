// libFuzzer target: a DCP checkpoint's .metadata (dcpmetadata.h) must never crash, hang, read out of bounds or take
// memory out of proportion to its input, and what it accepts must be what the reader relies on: every chunk inside
// its tensor, the chunks covering it exactly, every item named by a plain file name. Seeds: .metadata files written
// by torch 2.6 (tests/fixtures/make_dcp_fixtures.py: the dtensor and titan kinds).
#include "services/checkpoint/dcpmetadata.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    ingot::DcpMetadata md;
    QString error;
    if (!ingot::parseDcpMetadata(std::string_view(reinterpret_cast<const char *>(data), size), QStringLiteral("fuzz"), &md, &error))
        return 0;
    for (const ingot::DcpTensor &t : md.tensors) {
        std::int64_t total = 0;
        for (const ingot::DcpChunk &c : t.chunks) {
            if (c.offsets.size() != t.size.size() || c.sizes.size() != t.size.size() || c.item.file.empty() ||
                c.item.file.find('/') != std::string::npos || c.item.offset < 0 || c.item.length < 0)
                std::abort();
            std::int64_t n = 1;
            for (std::size_t d = 0; d < t.size.size(); ++d) {
                if (c.offsets[d] + c.sizes[d] > t.size[d])
                    std::abort();
                n *= c.sizes[d];
            }
            total += n;
        }
        if (total != t.numel())
            std::abort();
    }
    return 0;
}
