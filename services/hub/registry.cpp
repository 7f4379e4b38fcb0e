#include "services/hub/registry.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace ingot {

using nlohmann::json;

namespace {
// Registry entries are a few levels deep. Deeper text is refused before it is parsed: what is read is also written
// out again (dump), and that recursion must stay shallow whatever the file holds.
constexpr int kMaxDepth = 64;

bool tooDeep(const QByteArray &text)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth)
                return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

const json *find(const json &o, std::initializer_list<const char *> keys)
{
    for (const char *k : keys)
        if (const auto it = o.find(k); it != o.end() && !it->is_null())
            return &*it;
    return nullptr;
}

int intOf(const json &o, std::initializer_list<const char *> keys)
{
    const json *v = find(o, keys);
    if (!v)
        return -1;
    // Whatever the entry says, a number that does not fit an int is not a shape: it reads as missing.
    if (v->is_number_unsigned()) {
        const std::uint64_t n = v->get<std::uint64_t>();
        return n <= std::uint64_t(std::numeric_limits<int>::max()) ? int(n) : -1;
    }
    if (v->is_number_integer()) {
        const std::int64_t n = v->get<std::int64_t>();
        return n >= 0 && n <= std::numeric_limits<int>::max() ? int(n) : -1;
    }
    if (v->is_number_float()) {
        const double d = v->get<double>();
        return std::isfinite(d) && d >= 0 && d <= double(std::numeric_limits<int>::max()) ? int(d) : -1;
    }
    if (v->is_string()) {
        bool ok = false;
        const int n = QString::fromStdString(v->get<std::string>()).toInt(&ok);
        return ok ? n : -1;
    }
    return -1;
}

QString strOf(const json &o, std::initializer_list<const char *> keys)
{
    const json *v = find(o, keys);
    if (!v)
        return {};
    if (v->is_string())
        return QString::fromStdString(v->get<std::string>());
    if (v->is_number() || v->is_boolean())
        return QString::fromStdString(v->dump());
    return {};
}

// The items of registry.json that may belong to `modelId`.
QVector<json> registryJsonItems(const json &j, const QString &modelId)
{
    QVector<json> items;
    if (j.is_object() && j.contains(modelId.toStdString())) {
        const json &v = j[modelId.toStdString()];
        if (v.is_array())
            for (const auto &x : v)
                items.append(x);
        else if (v.is_object() && (v.contains("neuron") || v.contains("batch_size")))
            items.append(v);
        else if (v.is_object())
            for (const auto &x : v)
                items.append(x);
    } else if (j.is_array()) {
        for (const auto &x : j)
            if (x.is_object())
                items.append(x);
    }
    return items;
}
}  // namespace

QString normalizeDtype(const QString &dtype)
{
    QString d = dtype.trimmed().toLower();
    if (d.startsWith(QLatin1String("torch.")))
        d = d.mid(6);
    if (d == QLatin1String("bf16"))
        return QStringLiteral("bfloat16");
    if (d == QLatin1String("fp16") || d == QLatin1String("half"))
        return QStringLiteral("float16");
    if (d == QLatin1String("fp32") || d == QLatin1String("float"))
        return QStringLiteral("float32");
    return d;
}

LookupEntry parseRegistryEntry(const QByteArray &text, const QString &path)
{
    LookupEntry e;
    e.path = path;
    e.raw = text;
    if (tooDeep(text))
        return e;  // an unknown shape, shown raw
    json j;
    try {
        j = json::parse(text.constData(), text.constData() + text.size());
    } catch (const json::exception &) {
        return e;
    }
    if (!j.is_object())
        return e;
    // Current and 0.2+ entries keep the compile settings in "neuron"; legacy ones put them at the top.
    const json &n = j.contains("neuron") && j["neuron"].is_object() ? j["neuron"] : j;
    e.batchSize = intOf(n, {"batch_size", "static_batch_size"});
    e.sequenceLength = intOf(n, {"sequence_length", "static_sequence_length"});
    e.tensorParallel = intOf(n, {"tp_degree", "tensor_parallel_size", "num_cores"});
    e.dtype = normalizeDtype(strOf(n, {"torch_dtype", "dtype", "auto_cast_type"}));
    e.instanceType = strOf(n, {"target", "instance_type"});
    e.compilerVersion = strOf(n, {"neuronxcc_version", "compiler_version"});
    e.checkpointRevision = strOf(n, {"checkpoint_revision"});
    e.modelId = strOf(j, {"_model_id", "model_id"});
    if (e.modelId.isEmpty())
        e.modelId = strOf(n, {"checkpoint_id"});
    e.task = strOf(j, {"_task", "task"});
    if (e.task.isEmpty())
        e.task = strOf(n, {"task"});
    e.known = e.batchSize >= 0 && e.sequenceLength >= 0;
    return e;
}

QVector<LookupEntry> parseRegistryJson(const QByteArray &text, const QString &path, const QString &modelId)
{
    if (tooDeep(text))
        return {parseRegistryEntry(text, path)};
    json j;
    try {
        j = json::parse(text.constData(), text.constData() + text.size());
    } catch (const json::exception &) {
        return {parseRegistryEntry(text, path)};
    }
    QVector<LookupEntry> out;
    for (const json &x : registryJsonItems(j, modelId)) {
        LookupEntry e = parseRegistryEntry(QByteArray::fromStdString(x.dump()), path);
        if (e.modelId.isEmpty() || e.modelId == modelId)
            out.append(std::move(e));
    }
    return out;
}

}  // namespace ingot
