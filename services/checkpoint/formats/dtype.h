// Element types of checkpoint tensors, with their names in torch storages and safetensors headers.
#pragma once

#include <cstdint>
#include <string>

namespace ingot {

enum class DType : std::uint8_t { Unknown, F64, F32, F16, BF16, F8_E4M3, F8_E5M2, I64, I32, I16, I8, U8, Bool };

int dtypeSize(DType t);                                   // bytes per element, 0 for Unknown
const char *safetensorsName(DType t);                     // "F32", "BF16", "F8_E4M3" ...
DType dtypeFromSafetensors(const std::string &name);      // Unknown when not one of them
DType dtypeFromTorchStorage(const std::string &global);   // "torch.FloatStorage" -> F32
DType dtypeFromTorchDtype(const std::string &global);     // "torch.bfloat16" -> BF16
const char *torchStorageName(DType t);                    // "FloatStorage" (for writing pytorch_model.bin)

}  // namespace ingot
