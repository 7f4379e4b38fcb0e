// Element types of checkpoint tensors, with their names in torch storages and safetensors headers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ingot {

enum class DType : std::uint8_t { Unknown, F64, F32, F16, BF16, F8_E4M3, F8_E5M2, I64, I32, I16, I8, U8, Bool };

int dtypeSize(DType t);                                   // bytes per element, 0 for Unknown
const char *safetensorsName(DType t);                     // "F32", "BF16", "F8_E4M3" ...
DType dtypeFromSafetensors(const std::string &name);      // Unknown when not one of them
DType dtypeFromTorchStorage(const std::string &global);   // "torch.FloatStorage" -> F32
DType dtypeFromTorchDtype(const std::string &global);     // "torch.bfloat16" -> BF16
const char *torchStorageName(DType t);                    // "FloatStorage" (for writing pytorch_model.bin)

// Shapes come from files: their arithmetic is checked. The most dims a tensor may have (torch's own limit is 64).
constexpr std::size_t kMaxTensorDims = 64;
// a * b and a + b of non-negative sizes; false when either is negative or the result does not fit in 63 bits.
bool checkedMul(std::int64_t a, std::int64_t b, std::int64_t *out);
bool checkedAdd(std::int64_t a, std::int64_t b, std::int64_t *out);
// The element count of a shape (0 when a dim is 0, whatever the others); false for a negative dim, more than
// kMaxTensorDims dims, or a count that does not fit in 63 bits.
bool checkedNumel(const std::vector<std::int64_t> &shape, std::int64_t *numel);
// Its size in bytes; false also for an unknown dtype.
bool checkedByteSize(DType t, const std::vector<std::int64_t> &shape, std::int64_t *bytes);

}  // namespace ingot
