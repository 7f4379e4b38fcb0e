#include "services/checkpoint/formats/dtype.h"

#include <cstring>

namespace ingot {

namespace {
struct Row {
    DType t;
    int size;
    const char *st;       // safetensors
    const char *storage;  // torch.<X>Storage
    const char *torch;    // torch.<dtype>
    const char *torchAlias;
};
const Row kRows[] = {
    {DType::F64, 8, "F64", "DoubleStorage", "float64", "double"},
    {DType::F32, 4, "F32", "FloatStorage", "float32", "float"},
    {DType::F16, 2, "F16", "HalfStorage", "float16", "half"},
    {DType::BF16, 2, "BF16", "BFloat16Storage", "bfloat16", "bfloat16"},
    {DType::F8_E4M3, 1, "F8_E4M3", "Float8_e4m3fnStorage", "float8_e4m3fn", "float8_e4m3fn"},
    {DType::F8_E5M2, 1, "F8_E5M2", "Float8_e5m2Storage", "float8_e5m2", "float8_e5m2"},
    {DType::I64, 8, "I64", "LongStorage", "int64", "long"},
    {DType::I32, 4, "I32", "IntStorage", "int32", "int"},
    {DType::I16, 2, "I16", "ShortStorage", "int16", "short"},
    {DType::I8, 1, "I8", "CharStorage", "int8", "int8"},
    {DType::U8, 1, "U8", "ByteStorage", "uint8", "uint8"},
    {DType::Bool, 1, "BOOL", "BoolStorage", "bool", "bool"},
};
const Row *rowOf(DType t)
{
    for (const Row &r : kRows)
        if (r.t == t)
            return &r;
    return nullptr;
}

// The row whose chosen name(s) equal `name`, after an optional "torch." prefix the caller requires.
template<class Match>
DType find(const std::string &name, Match match)
{
    for (const Row &r : kRows)
        if (match(r, name))
            return r.t;
    return DType::Unknown;
}

std::string withoutTorchPrefix(const std::string &global)
{
    const std::string prefix = "torch.";
    return global.compare(0, prefix.size(), prefix) == 0 ? global.substr(prefix.size()) : std::string();
}
}  // namespace

int dtypeSize(DType t)
{
    const Row *r = rowOf(t);
    return r ? r->size : 0;
}

const char *safetensorsName(DType t)
{
    const Row *r = rowOf(t);
    return r ? r->st : "UNKNOWN";
}

const char *torchStorageName(DType t)
{
    const Row *r = rowOf(t);
    return r ? r->storage : "UnknownStorage";
}

DType dtypeFromSafetensors(const std::string &name)
{
    return find(name, [](const Row &r, const std::string &n) { return n == r.st; });
}

DType dtypeFromTorchStorage(const std::string &global)
{
    return find(withoutTorchPrefix(global), [](const Row &r, const std::string &n) { return n == r.storage; });
}

DType dtypeFromTorchDtype(const std::string &global)
{
    return find(withoutTorchPrefix(global), [](const Row &r, const std::string &n) { return n == r.torch || n == r.torchAlias; });
}

}  // namespace ingot
