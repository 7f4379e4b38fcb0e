#include "services/checkpoint/loramerge.h"

#include "services/checkpoint/consolidate.h"  // openCheckpointFile()
#include "services/checkpoint/shardreader.h"
#include "services/util/fdio.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
struct LoraText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};
using nlohmann::json;

QString qs(const std::string &s)
{
    return displayName(nameFromBytes(QByteArray::fromStdString(s)));
}

bool floatDtype(DType t)
{
    return t == DType::F32 || t == DType::BF16 || t == DType::F16;
}

float load(DType t, const char *p, std::int64_t i)
{
    if (t == DType::F32) {
        float f;
        std::memcpy(&f, p + 4 * i, 4);
        return f;
    }
    std::uint16_t h;
    std::memcpy(&h, p + 2 * i, 2);
    return t == DType::BF16 ? bf16ToFloat(h) : f16ToFloat(h);
}

void store(DType t, char *p, std::int64_t i, float f)
{
    if (t == DType::F32) {
        std::memcpy(p + 4 * i, &f, 4);
        return;
    }
    const std::uint16_t h = t == DType::BF16 ? floatToBf16(f) : floatToF16(f);
    std::memcpy(p + 2 * i, &h, 2);
}

// The pairs of an adapter: the weight each targets (PEFT's names without "base_model.model.") -> lora_A, lora_B.
struct Pair {
    std::string a, b;
    bool embedding = false;
};
}  // namespace

float bf16ToFloat(std::uint16_t h)
{
    const std::uint32_t x = std::uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

std::uint16_t floatToBf16(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)  // NaN stays a (quiet) NaN
        return std::uint16_t((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1u);
    return std::uint16_t(x >> 16);
}

float f16ToFloat(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, x = 0;
    if (exp == 0 && mant == 0) {
        x = sign;
    } else if (exp == 0) {  // subnormal: normalize
        int e = -1;
        do {
            ++e;
            mant <<= 1;
        } while (!(mant & 0x400u));
        x = sign | (std::uint32_t(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    } else if (exp == 31) {
        x = sign | 0x7f800000u | (mant << 13);
    } else {
        x = sign | ((exp + 112) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

std::uint16_t floatToF16(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t exp = (x >> 23) & 0xffu;
    std::uint32_t mant = x & 0x7fffffu;
    if (exp == 0xff)
        return std::uint16_t(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0));
    const int e = int(exp) - 127 + 15;
    if (e >= 31)
        return std::uint16_t(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return std::uint16_t(sign);
        mant |= 0x800000u;
        const int shift = 14 - e;
        std::uint32_t half = mant >> shift;
        const std::uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1u)))
            ++half;
        return std::uint16_t(sign | half);
    }
    std::uint32_t half = sign | (std::uint32_t(e) << 10) | (mant >> 13);
    const std::uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1u)))
        ++half;  // may carry into the exponent, as rounding up should
    return std::uint16_t(half);
}

namespace {
// A JSON file of the adapter, of at most 1 MiB, read by the checkpoint files' link rule (openCheckpointFile()). False
// with words when it may not be read, with *error empty when it is missing or larger.
bool readSmallCheckpointFile(const QString &path, std::string *bytes, QString *error)
{
    const QFileInfo fi(path);
    struct stat st {};
    const int fd = openCheckpointFile(fi.absolutePath(), fi.fileName(), &st, error);
    if (fd < 0)
        return false;
    bool ok = st.st_size <= (1 << 20);
    if (ok) {
        bytes->resize(size_t(st.st_size));
        ok = readAllAt(fd, bytes->data(), bytes->size(), 0);
    }
    ::close(fd);
    return ok;
}
}  // namespace

bool openAdapterWeights(const QString &file, ShardReader *r, QString *error)
{
    const QFileInfo fi(file);
    struct stat st {};
    const int fd = openCheckpointFile(fi.absolutePath(), fi.fileName(), &st, error);
    if (fd < 0) {
        if (error->isEmpty())
            *error = LoraText::tr("%1 is missing.").arg(displayName(file));
        return false;
    }
    return r->openSafetensors(ShardFile{0, 0, -1, 0, file, qint64(st.st_size)}, fd, error);
}

double LoraConfig::scaling() const
{
    return rslora ? alpha / std::sqrt(double(r)) : alpha / double(r);
}

bool readLoraConfig(const QString &adapterConfig, LoraConfig *c, QStringList *problems)
{
    QString why;
    std::string bytes;
    if (!readSmallCheckpointFile(adapterConfig, &bytes, &why)) {
        problems->append(why.isEmpty() ? LoraText::tr("%1 is missing or not a readable file of at most 1 MiB.").arg(displayName(adapterConfig)) : why);
        return false;
    }
    const json j = json::parse(bytes, nullptr, false);
    const qsizetype before = problems->size();
    const auto bad = [&](const QString &why) { problems->append(LoraText::tr("%1: %2").arg(displayName(adapterConfig), why)); };
    if (j.is_discarded() || !j.is_object()) {
        bad(LoraText::tr("not a JSON object."));
        return false;
    }
    if (!j.contains("peft_type") || !j["peft_type"].is_string() || j["peft_type"].get<std::string>() != "LORA")
        bad(LoraText::tr("peft_type is not \"LORA\"."));
    if (!j.contains("r") || !j["r"].is_number_integer() || j["r"].get<std::int64_t>() < 1 || j["r"].get<std::int64_t>() > (1 << 20))
        bad(LoraText::tr("r is not a rank from 1 to 2^20."));
    else
        c->r = int(j["r"].get<std::int64_t>());
    if (!j.contains("lora_alpha") || !j["lora_alpha"].is_number() || !std::isfinite(j["lora_alpha"].get<double>()))
        bad(LoraText::tr("lora_alpha is not a number."));
    else
        c->alpha = j["lora_alpha"].get<double>();
    c->rslora = j.contains("use_rslora") && j["use_rslora"].is_boolean() && j["use_rslora"].get<bool>();
    const auto set = [&](const char *k) { return j.contains(k) && !j[k].is_null() && !(j[k].is_boolean() && !j[k].get<bool>()) && !(j[k].is_object() && j[k].empty()) && !(j[k].is_array() && j[k].empty()); };
    for (const char *k : {"use_dora", "fan_in_fan_out", "rank_pattern", "alpha_pattern", "modules_to_save", "layer_replication"})
        if (set(k))
            bad(LoraText::tr("%1 is set, which merging does not do yet.").arg(QLatin1String(k)));
    return problems->size() == before;
}

QString safetensorsModelFile(const QString &folder)
{
    for (const char *name : {"/model.safetensors.index.json", "/model.safetensors"})
        if (QFileInfo(folder + QLatin1String(name)).isFile())
            return QFileInfo(folder + QLatin1String(name)).absoluteFilePath();
    return {};
}

QString mergedModelFolder(const QString &adapterOutput)
{
    return adapterOutput + QStringLiteral("/merged");
}

QString localBaseModelOf(const QString &adapterDir)
{
    std::string bytes;
    QString why;
    if (!readSmallCheckpointFile(adapterDir + QStringLiteral("/adapter_config.json"), &bytes, &why))
        return {};
    const json j = json::parse(bytes, nullptr, false);
    if (!j.is_object() || !j.contains("base_model_name_or_path") || !j["base_model_name_or_path"].is_string())
        return {};
    const QString base = QString::fromStdString(j["base_model_name_or_path"].get<std::string>());
    return !base.isEmpty() && QFileInfo(base).isDir() ? base : QString();
}

ConsolidationPlan planModelFolder(const QString &folder)
{
    ConsolidationPlan plan;
    CheckpointCandidate &c = plan.checkpoint;
    c.root = c.shardsDir = QFileInfo(folder).absoluteFilePath();
    c.label = QStringLiteral("model");
    c.layout = ShardLayout::IngotBackend;
    c.tpSize = c.ppSize = 1;
    const QString file = safetensorsModelFile(c.root);
    if (file.isEmpty()) {
        plan.problems << LoraText::tr("%1 holds no model.safetensors (or model.safetensors.index.json).").arg(displayName(folder));
        return plan;
    }
    c.shards.append(ShardFile{0, 0, -1, 0, file, QFileInfo(file).size()});
    c.complete = true;
    ShardReader model;
    QString error;
    if (!model.open(c.shards.first(), &error)) {
        plan.problems << error;
        return plan;
    }
    for (const std::string &n : model.names()) {
        ConsolidatePlanEntry e;
        e.name = e.source = n;
        model.info(n, &e.dtype, &e.shape);
        std::int64_t bytes = 0;
        checkedByteSize(e.dtype, e.shape, &bytes);
        e.bytes = bytes;
        plan.entries.append(e);
    }
    return plan;
}

ConsolidationPlan planAdapterMerge(const QString &baseModel, const QString &adapterDir)
{
    if (safetensorsModelFile(baseModel).isEmpty()) {
        ConsolidationPlan plan;
        plan.problems << LoraText::tr("%1 holds no model.safetensors (or model.safetensors.index.json): the base model to merge "
                                      "into.").arg(displayName(baseModel));
        return plan;
    }
    ConsolidationPlan plan = planModelFolder(baseModel);
    plan.checkpoint.label = QStringLiteral("base");
    LoraConfig cfg;
    readLoraConfig(adapterDir + QStringLiteral("/adapter_config.json"), &cfg, &plan.problems);
    plan.adapterFile = QFileInfo(adapterDir + QStringLiteral("/adapter_model.safetensors")).absoluteFilePath();
    ShardReader adapter;
    QString error;
    if (!plan.problems.isEmpty() || !openAdapterWeights(plan.adapterFile, &adapter, &error)) {
        if (!error.isEmpty())
            plan.problems << error;
        return plan;
    }
    // lora_A / lora_B (or an embedding's lora_embedding_A / _B) by the weight they change.
    std::map<std::string, Pair> pairs;
    const std::string prefix = "base_model.model.";
    struct Suffix {
        const char *text;
        bool a, embedding;
    };
    static const Suffix suffixes[] = {{".lora_A.weight", true, false}, {".lora_B.weight", false, false},
                                      {".lora_embedding_A", true, true}, {".lora_embedding_B", false, true}};
    for (const std::string &n : adapter.names()) {
        const std::string stem = n.compare(0, prefix.size(), prefix) == 0 ? n.substr(prefix.size()) : n;
        bool matched = false;
        for (const Suffix &x : suffixes) {
            const std::size_t k = std::strlen(x.text);
            if (stem.size() <= k || stem.compare(stem.size() - k, k, x.text) != 0)
                continue;
            Pair &p = pairs[stem.substr(0, stem.size() - k) + ".weight"];
            (x.a ? p.a : p.b) = n;
            p.embedding = x.embedding;
            matched = true;
            break;
        }
        if (!matched && n.find(".base_layer.") == std::string::npos)
            plan.problems << LoraText::tr("%1 in the adapter is not a LoRA matrix: merging it is not supported yet.").arg(qs(n));
    }
    for (ConsolidatePlanEntry &e : plan.entries) {
        const std::string &n = e.name;
        const auto it = pairs.find(n);
        if (it != pairs.end()) {
            const Pair p = it->second;
            pairs.erase(it);
            DType ta = DType::Unknown, tb = DType::Unknown;
            std::vector<std::int64_t> sa, sb;
            if (p.a.empty() || p.b.empty() || !adapter.info(p.a, &ta, &sa) || !adapter.info(p.b, &tb, &sb)) {
                plan.problems << LoraText::tr("%1: the adapter holds only one of its two LoRA matrices.").arg(qs(n));
                continue;
            }
            // Linear: W [out, in], A [r, in], B [out, r]. Embedding: W [vocab, hidden], A [r, vocab], B [hidden, r].
            const bool fits = e.shape.size() == 2 && sa.size() == 2 && sb.size() == 2 && sa[0] == sb[1] && sa[0] >= 1 &&
                              (p.embedding ? (sa[1] == e.shape[0] && sb[0] == e.shape[1]) : (sa[1] == e.shape[1] && sb[0] == e.shape[0]));
            if (!fits || !floatDtype(e.dtype) || !floatDtype(ta) || !floatDtype(tb)) {
                plan.problems << LoraText::tr("%1 %2 (%3): lora_A %4 and lora_B %5 do not fit it (or are not F32, BF16 or F16).")
                                     .arg(qs(n), shapeText(e.shape), QString::fromLatin1(safetensorsName(e.dtype)), shapeText(sa), shapeText(sb));
                continue;
            }
            e.loraA = p.a;
            e.loraB = p.b;
            e.loraEmbedding = p.embedding;
            e.loraScale = cfg.r > 0 ? cfg.scaling() : 0;
        }
    }
    for (const auto &[target, p] : pairs)
        plan.problems << LoraText::tr("The adapter changes %1, which the base model does not hold.").arg(qs(target));
    return plan;
}

bool addLoraDelta(const ConsolidatePlanEntry &e, char *w, const LoraOperand &a, const LoraOperand &b, QString *error)
{
    const std::int64_t rows = e.shape.size() == 2 ? e.shape[0] : -1, cols = e.shape.size() == 2 ? e.shape[1] : -1;
    const std::int64_t r = a.shape.size() == 2 ? a.shape[0] : -1;
    std::int64_t needA = 0, needB = 0;
    const bool fits = rows >= 0 && r >= 1 && b.shape.size() == 2 && b.shape[1] == r && floatDtype(e.dtype) && floatDtype(a.dtype) &&
                      floatDtype(b.dtype) && (e.loraEmbedding ? a.shape[1] == rows && b.shape[0] == cols : a.shape[1] == cols && b.shape[0] == rows) &&
                      checkedByteSize(a.dtype, a.shape, &needA) && checkedByteSize(b.dtype, b.shape, &needB) && needA == a.bytes &&
                      needB == b.bytes;
    if (!fits) {
        *error = LoraText::tr("%1: the adapter's matrices are not what the check found; check again.").arg(qs(e.name));
        return false;
    }
    // B·A in fp32 (as PEFT does on the CPU for every dtype), a row of A at a time; then scaled, rounded to the
    // weight's dtype and added in it.
    std::vector<float> fa(static_cast<std::size_t>(a.shape[0] * a.shape[1])), fb(static_cast<std::size_t>(b.shape[0] * b.shape[1]));
    for (std::size_t i = 0; i < fa.size(); ++i)
        fa[i] = load(a.dtype, a.data, std::int64_t(i));
    for (std::size_t i = 0; i < fb.size(); ++i)
        fb[i] = load(b.dtype, b.data, std::int64_t(i));
    const float scale = float(e.loraScale);
    const std::int64_t inner = a.shape[1];  // A's columns: in (linear) or vocab (embedding)
    std::vector<float> row(static_cast<std::size_t>(inner));
    for (std::int64_t o = 0; o < b.shape[0]; ++o) {
        std::fill(row.begin(), row.end(), 0.0f);
        for (std::int64_t k = 0; k < r; ++k) {
            const float bk = fb[size_t(o * r + k)];
            const float *ak = fa.data() + k * inner;
            for (std::int64_t i = 0; i < inner; ++i)
                row[size_t(i)] += bk * ak[i];
        }
        for (std::int64_t i = 0; i < inner; ++i) {
            // Linear: W[o][i]. Embedding: the product is transposed, W[i][o].
            const std::int64_t at = e.loraEmbedding ? i * cols + o : o * cols + i;
            float delta = row[size_t(i)] * scale;
            if (e.dtype != DType::F32)
                delta = e.dtype == DType::BF16 ? bf16ToFloat(floatToBf16(delta)) : f16ToFloat(floatToF16(delta));
            store(e.dtype, w, at, load(e.dtype, w, at) + delta);
        }
    }
    return true;
}

}  // namespace ingot
