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

bool checkedMul(std::int64_t a, std::int64_t b, std::int64_t *out)
{
    return a >= 0 && b >= 0 && !__builtin_mul_overflow(a, b, out);
}

bool checkedAdd(std::int64_t a, std::int64_t b, std::int64_t *out)
{
    return a >= 0 && b >= 0 && !__builtin_add_overflow(a, b, out);
}

bool checkedNumel(const std::vector<std::int64_t> &shape, std::int64_t *numel)
{
    if (shape.size() > kMaxTensorDims)
        return false;
    bool zero = false;
    for (auto d : shape) {
        if (d < 0)
            return false;
        zero = zero || d == 0;
    }
    std::int64_t n = 1;
    for (auto d : shape)
        if (!zero && !checkedMul(n, d, &n))
            return false;
    *numel = zero ? 0 : n;
    return true;
}

bool checkedByteSize(DType t, const std::vector<std::int64_t> &shape, std::int64_t *bytes)
{
    std::int64_t n = 0;
    return dtypeSize(t) > 0 && checkedNumel(shape, &n) && checkedMul(n, dtypeSize(t), bytes);
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
