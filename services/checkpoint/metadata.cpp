#include "services/checkpoint/metadata.h"

#include "services/checkpoint/ranknames.h"
#include "services/checkpoint/formats/torchfile.h"
#include "services/checkpoint/shardreader.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <climits>

namespace ingot {

using nlohmann::json;

namespace {
struct MetadataText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

// Names come from files: shown escaped.
QString qs(const std::string &s)
{
    return displayName(nameFromBytes(QByteArray::fromStdString(s)));
}

// What a JSON value is, for messages.
QString typeName(const json &v)
{
    switch (v.type()) {
    case json::value_t::null: return MetadataText::tr("null");
    case json::value_t::boolean: return MetadataText::tr("true or false");
    case json::value_t::string: return MetadataText::tr("a string");
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return MetadataText::tr("the integer %1").arg(QString::fromStdString(v.dump()));
    case json::value_t::number_float: return MetadataText::tr("the number %1").arg(QString::fromStdString(v.dump()));
    case json::value_t::array: return MetadataText::tr("a list");
    case json::value_t::object: return MetadataText::tr("an object");
    default: return MetadataText::tr("an unknown value");
    }
}

// Reads typed fields of one JSON object; the first field that is of the wrong type or out of range becomes a
// problem naming the file, the object and the field, and the object is not used.
class Fields final
{
public:
    Fields(const json &o, const QString &where, QStringList *problems) : m_o(o), m_where(where), m_problems(problems) {}
    bool ok() const { return m_ok; }

    const json *find(const char *key) const
    {
        const auto it = m_o.find(key);
        return it == m_o.end() || it->is_null() ? nullptr : &*it;
    }
    bool boolean(const char *key, bool def)
    {
        const json *v = find(key);
        if (!v)
            return def;
        if (!v->is_boolean())
            return bad(key, MetadataText::tr("true or false"), *v), def;
        return v->get<bool>();
    }
    std::int64_t integer(const char *key, std::int64_t def, std::int64_t min, std::int64_t max)
    {
        const json *v = find(key);
        return v ? integerValue(key, *v, def, min, max) : def;
    }
    std::int64_t integerValue(const char *key, const json &v, std::int64_t def, std::int64_t min, std::int64_t max)
    {
        bool fits = false;
        std::int64_t x = 0;
        if (v.is_number_unsigned()) {
            fits = v.get<std::uint64_t>() <= std::uint64_t(INT64_MAX);
            x = fits ? std::int64_t(v.get<std::uint64_t>()) : 0;
        } else if (v.is_number_integer()) {
            fits = true;
            x = v.get<std::int64_t>();
        }
        if (!fits || x < min || x > max)
            return bad(key, QCoreApplication::translate("ingot::Consolidate", "an integer from %1 to %2").arg(min).arg(max), v), def;
        return x;
    }
    // A required, non-empty string.
    std::string name(const char *key)
    {
        const json *v = find(key);
        if (!v)
            return missing(key), std::string();
        if (!v->is_string() || v->get_ref<const std::string &>().empty())
            return bad(key, QCoreApplication::translate("ingot::Consolidate", "a non-empty string"), *v), std::string();
        return v->get<std::string>();
    }
    void missing(const char *key)
    {
        problem(MetadataText::tr("%1: \"%2\" is missing.").arg(m_where, QLatin1String(key)));
    }
    void bad(const char *key, const QString &expected, const json &v)
    {
        problem(MetadataText::tr("%1: \"%2\" must be %3, not %4.").arg(m_where, QLatin1String(key), expected, typeName(v)));
    }
    void problem(const QString &p)
    {
        if (m_ok)
            m_problems->append(p);
        m_ok = false;
    }

private:
    const json &m_o;
    QString m_where;
    QStringList *m_problems;
    bool m_ok = true;
};

constexpr std::int64_t kMaxHeads = 1 << 20;
constexpr std::int64_t kMaxRows = std::int64_t(1) << 40;

void readParameters(const json &params, const QString &file, PartitionMetadata *md, QStringList *problems)
{
    for (auto it = params.begin(); it != params.end(); ++it) {
        const QString where = MetadataText::tr("%1, parameter %2").arg(file, qs(it.key()));
        if (!it->is_object()) {
            problems->append(MetadataText::tr("%1: not an object but %2.").arg(where, typeName(*it)));
            continue;
        }
        Fields f(*it, where, problems);
        PartitionMetadata::Param p;
        p.parallel = f.boolean("tensor_model_parallel", false);
        if (p.parallel) {
            if (!f.find("partition_dim"))
                f.missing("partition_dim");
            p.dim = int(f.integer("partition_dim", -1, -1, std::int64_t(kMaxTensorDims) - 1));
            p.stride = int(f.integer("partition_stride", 1, 1, INT_MAX));
            md->numPartitions = std::max(md->numPartitions, int(f.integer("num_partitions", 0, 1, kMaxRank + 1)));
        }
        if (f.ok())
            md->params[it.key()] = p;
    }
}

void readFusedSpec(const json &o, const std::string &module, const QString &file, bool lora, PartitionMetadata *md, QStringList *problems)
{
    Fields f(o, MetadataText::tr("%1, the FusedLinearsSpec of %2").arg(file, qs(module)), problems);
    PartitionMetadata::Fused fu;
    fu.module = module;
    fu.fusedName = f.name("fused_linear_name");
    fu.bias = f.boolean("bias", false);
    fu.tpSize = int(f.integer("tp_size", 1, 1, kMaxRank + 1));
    if (const json *axis = f.find("fuse_axis"); axis && axis->is_string()) {
        const std::string &a = axis->get_ref<const std::string &>();
        if (a == "column" || a == "row")
            fu.fuseAxis = a == "row" ? 1 : 0;
        else
            f.bad("fuse_axis", MetadataText::tr("\"column\", \"row\", 0 or 1"), *axis);
    } else {
        fu.fuseAxis = int(f.integer("fuse_axis", 0, 0, 1));
    }
    const json *names = f.find("linear_names");
    const json *dims = f.find("original_dims");
    if (!names || !names->is_array() || names->empty())
        names ? f.bad("linear_names", MetadataText::tr("a list of names"), *names) : f.missing("linear_names");
    else
        for (const auto &n : *names) {
            if (!n.is_string() || n.get_ref<const std::string &>().empty()) {
                f.bad("linear_names", MetadataText::tr("a list of names"), n);
                break;
            }
            fu.linearNames.push_back(n.get<std::string>());
        }
    if (!dims || !dims->is_array())
        dims ? f.bad("original_dims", MetadataText::tr("a list of sizes"), *dims) : f.missing("original_dims");
    else
        for (const auto &d : *dims)
            fu.originalDims.push_back(f.integerValue("original_dims", d, 0, 1, kMaxRows));
    if (f.ok() && fu.linearNames.size() != fu.originalDims.size())
        f.problem(MetadataText::tr("%1, the FusedLinearsSpec of %2: %3 linear_names but %4 original_dims.").arg(file, qs(module))
                      .arg(fu.linearNames.size()).arg(fu.originalDims.size()));
    fu.lora = lora;
    if (f.ok())
        md->fused.push_back(fu);
}

// The head counts must divide as GQAQKVColumnParallelLinear divides them.
bool isSane(const PartitionMetadata::Gqa &g)
{
    return g.heads % g.tpSize == 0 && (std::int64_t(g.kvHeads) * g.multiplier) % g.tpSize == 0 && g.heads % g.kvHeads == 0;
}

void readGqaSpec(const json &o, const std::string &module, const QString &file, bool lora, PartitionMetadata *md, QStringList *problems)
{
    const QString where = MetadataText::tr("%1, the GQAQKVColumnParallelLinearSpec of %2").arg(file, qs(module));
    Fields f(o, where, problems);
    PartitionMetadata::Gqa g;
    g.module = module;
    g.gqaName = f.name("gqa_qkv_projection_name");
    g.q = f.name("query_projection_name");
    g.k = f.name("key_projection_name");
    g.v = f.name("value_projection_name");
    g.o = f.name("output_projection_name");
    g.heads = int(f.integer("num_attention_heads", 0, 1, kMaxHeads));
    g.kvHeads = int(f.integer("num_key_value_heads", 0, 1, kMaxHeads));
    g.multiplier = int(f.integer("kv_size_multiplier", 1, 1, kMaxHeads));
    g.qPerPartition = f.integer("q_output_size_per_partition", 0, 1, kMaxRows);
    g.kvPerPartition = f.integer("kv_output_size_per_partition", 0, 1, kMaxRows);
    g.fuse = f.boolean("fuse_qkv", false);
    g.tpSize = int(f.integer("tp_size", 1, 1, kMaxRank + 1));
    g.bias = f.boolean("bias", false);
    g.lora = lora;
    for (const char *key : {"num_attention_heads", "num_key_value_heads", "q_output_size_per_partition", "kv_output_size_per_partition"})
        if (f.ok() && !f.find(key))
            f.missing(key);
    if (!f.ok())
        return;
    if (!isSane(g))
        problems->append(MetadataText::tr("%1: %2 attention heads and %3 key/value heads (x%4) do not divide over tp %5.").arg(where)
                             .arg(g.heads).arg(g.kvHeads).arg(g.multiplier).arg(g.tpSize));
    else
        md->gqa.push_back(g);
}

// One [class name, {fields}] pair of a module's specs.
void readSpec(const json &spec, const std::string &module, const QString &file, PartitionMetadata *md, QStringList *problems)
{
    if (!spec.is_array() || spec.size() != 2 || !spec[0].is_string() || !spec[1].is_object()) {
        problems->append(MetadataText::tr("%1: a transformation spec of %2 is not a [class name, {fields}] pair.").arg(file, qs(module)));
        return;
    }
    const std::string cls = spec[0].get<std::string>();
    const json &fields = spec[1];
    const bool lora = fields.contains("peft_type") && fields["peft_type"].is_string() && fields["peft_type"].get_ref<const std::string &>() == "lora";
    if (fields.contains("peft_type") && !fields["peft_type"].is_null() && !lora)
        md->unsupportedSpecs << MetadataText::tr("%1 with PEFT (%2)").arg(qs(cls), qs(module));
    else if (cls == "FusedLinearsSpec")
        readFusedSpec(fields, module, file, lora, md, problems);
    else if (cls == "GQAQKVColumnParallelLinearSpec")
        readGqaSpec(fields, module, file, lora, md, problems);
    else
        md->unsupportedSpecs << MetadataText::tr("%1 (%2)").arg(qs(cls), qs(module));
}

// Specs are serialized as [{"module_fully_qualified_name", "specs": [[class name, {fields}], ...]}, ...].
void readSpecs(const json &j, const QString &file, PartitionMetadata *md, QStringList *problems)
{
    const auto it = j.find("model_weight_transformation_specs");
    if (it == j.end() || it->is_null())
        return;
    if (!it->is_array()) {
        problems->append(MetadataText::tr("%1: \"model_weight_transformation_specs\" must be a list, not %2.").arg(file, typeName(*it)));
        return;
    }
    for (const auto &group : *it) {
        if (!group.is_object()) {
            problems->append(MetadataText::tr("%1: a transformation spec group is %2, not an object.").arg(file, typeName(group)));
            continue;
        }
        Fields f(group, MetadataText::tr("%1, a transformation spec group").arg(file), problems);
        const std::string module = f.name("module_fully_qualified_name");
        const json *specs = f.find("specs");
        if (!specs || !specs->is_array())
            specs ? f.bad("specs", MetadataText::tr("a list"), *specs) : f.missing("specs");
        if (!f.ok())
            continue;
        for (const auto &spec : *specs)
            readSpec(spec, module, file, md, problems);
    }
}

// Legacy: sharded_metadata {name: {kind: "sharded"|"tied", partition_dim}} inside checkpoint.pt.
void readShardedMetadata(const PickleValue &sm, const QString &file, PartitionMetadata *md, QStringList *problems)
{
    for (const auto &[k, v] : sm.dict) {
        if (!k || k->kind != PickleValue::Kind::Str || !v || v->kind != PickleValue::Kind::Dict)
            continue;
        // An entry holds kind and partition_dim: a large dict is not one (and would make every lookup long).
        if (v->dict.size() > 16) {
            problems->append(MetadataText::tr("%1: the sharded_metadata of %2 is not a {kind, partition_dim} entry.").arg(file, qs(k->s)));
            continue;
        }
        PartitionMetadata::Param p;
        const PickleValue *kind = v->get("kind");
        const PickleValue *dim = v->get("partition_dim");
        p.parallel = kind && kind->isStr() && kind->s == "sharded";
        if (p.parallel) {
            if (!dim || dim->kind != PickleValue::Kind::Int || dim->i < 0 || dim->i >= std::int64_t(kMaxTensorDims)) {
                problems->append(MetadataText::tr("%1: the sharded_metadata of %2 has no partition_dim from 0 to %3.").arg(file, qs(k->s))
                                     .arg(kMaxTensorDims - 1));
                continue;
            }
            p.dim = int(dim->i);
        }
        md->params[k->s] = p;
    }
}

const PickleValue *field(const PickleValue &d, const char *key, PickleValue::Kind kind)
{
    const PickleValue *v = d.get(key);
    return v && v->kind == kind ? v : nullptr;
}

// Older optimum-neuron's gqa_qkv_metadata: {original_names_to_gqa_qkv_names: {"M.q_proj.weight": "M.qkv_proj.weight_q",
// ...}, output_projections_names: {"M.o_proj.weight"}, num_attention_heads, num_key_value_heads, kv_size_multiplier,
// and from 0.1.0 fuse_qkv, q/kv_output_size_per_partition}: one GQA spec per module. Sizes it does not give are taken
// from the shards' shapes by the planner (0 here). With fuse_qkv, q, k and v map to one name in that order.
void readLegacyGqa(const PickleValue &g, const QString &file, int tpSize, PartitionMetadata *md, QStringList *problems)
{
    const PickleValue *names = field(g, "original_names_to_gqa_qkv_names", PickleValue::Kind::Dict);
    const PickleValue *outs = field(g, "output_projections_names", PickleValue::Kind::List);
    const PickleValue *heads = field(g, "num_attention_heads", PickleValue::Kind::Int);
    const PickleValue *kv = field(g, "num_key_value_heads", PickleValue::Kind::Int);
    if (!names || names->dict.empty())
        return;  // no GQA attention in this stage
    const PickleValue *mult = field(g, "kv_size_multiplier", PickleValue::Kind::Int);
    const PickleValue *qpp = field(g, "q_output_size_per_partition", PickleValue::Kind::Int);
    const PickleValue *kvpp = field(g, "kv_output_size_per_partition", PickleValue::Kind::Int);
    const PickleValue *fuse = field(g, "fuse_qkv", PickleValue::Kind::Bool);
    const auto inRange = [](const PickleValue *v, std::int64_t lo, std::int64_t hi) { return v && v->i >= lo && v->i <= hi; };
    if (!outs || !inRange(heads, 1, kMaxHeads) || !inRange(kv, 1, kMaxHeads) || (mult && !inRange(mult, 1, kMaxHeads)) ||
        (qpp && !inRange(qpp, 1, kMaxRows)) || (kvpp && !inRange(kvpp, 1, kMaxRows)) || names->dict.size() > 1000000) {
        problems->append(MetadataText::tr("%1: its gqa_qkv_metadata lacks the head counts or output projections, or holds them "
                                          "out of range.").arg(file));
        return;
    }
    std::map<std::string, PartitionMetadata::Gqa> byModule;
    std::map<std::string, int> fusedSeen;
    for (const auto &[k, v] : names->dict) {
        if (!k || !v || !k->isStr() || !v->isStr())
            continue;
        const std::string &orig = k->s, &gq = v->s;
        const std::size_t dot = gq.rfind('.'), dot2 = dot == std::string::npos || dot == 0 ? std::string::npos : gq.rfind('.', dot - 1);
        const std::size_t odot = orig.rfind('.'), odot2 = odot == std::string::npos || odot == 0 ? std::string::npos : orig.rfind('.', odot - 1);
        if (dot2 == std::string::npos || odot2 == std::string::npos || orig.compare(0, odot2, gq, 0, dot2) != 0 || odot2 != dot2) {
            problems->append(MetadataText::tr("%1: the GQA name %2 of %3 is not in the same module.").arg(file, qs(gq), qs(orig)));
            return;
        }
        const std::string module = gq.substr(0, dot2), suffix = gq.substr(dot + 1), proj = orig.substr(odot2 + 1, odot - odot2 - 1);
        PartitionMetadata::Gqa &x = byModule[module];
        x.module = module;
        x.gqaName = gq.substr(dot2 + 1, dot - dot2 - 1);
        const bool isBias = suffix.rfind("bias_", 0) == 0;
        x.bias = x.bias || isBias;
        const std::string role = suffix.substr(suffix.find('_') + 1);
        int r = role == "q" ? 0 : role == "k" ? 1 : role == "v" ? 2 : -1;
        if (role == "qkv")
            r = fusedSeen[gq]++;
        if (r < 0 || r > 2) {
            problems->append(MetadataText::tr("%1: %2 is not a GQA q/k/v name.").arg(file, qs(gq)));
            return;
        }
        (r == 0 ? x.q : r == 1 ? x.k : x.v) = proj;
    }
    for (auto &[module, x] : byModule) {
        for (const PV &o : outs->items)
            if (o && o->isStr() && o->s.size() > module.size() + 1 && o->s.compare(0, module.size() + 1, module + ".") == 0 &&
                o->s.find('.', module.size() + 1) == o->s.rfind('.'))
                x.o = o->s.substr(module.size() + 1, o->s.rfind('.') - module.size() - 1);
        x.heads = int(heads->i);
        x.kvHeads = int(kv->i);
        x.multiplier = mult ? int(mult->i) : 1;
        x.qPerPartition = qpp ? qpp->i : 0;
        x.kvPerPartition = kvpp ? kvpp->i : 0;
        x.fuse = fuse && fuse->b;
        x.tpSize = tpSize;
        if (x.q.empty() || x.k.empty() || x.v.empty() || x.o.empty())
            problems->append(MetadataText::tr("%1: the GQA attention %2 lacks a q, k, v or output projection name.").arg(file, qs(module)));
        else if (!isSane(x))
            problems->append(MetadataText::tr("%1: %2 attention heads and %3 key/value heads (x%4) do not divide over tp %5.").arg(file)
                                 .arg(x.heads).arg(x.kvHeads).arg(x.multiplier).arg(x.tpSize));
        else
            md->gqa.push_back(x);
    }
}

bool readFileBytes(const QString &file, QByteArray *bytes, QStringList *problems)
{
    const QFileInfo fi(file);
    QFile f(file);
    if (!fi.exists()) {
        problems->append(MetadataText::tr("The partitioning metadata %1 is missing.").arg(file));
        return false;
    }
    if (!fi.isFile() || fi.size() > kMaxMetadataBytes) {
        problems->append(MetadataText::tr("The partitioning metadata %1 is not a regular file of at most %2 MiB.").arg(file).arg(kMaxMetadataBytes >> 20));
        return false;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        problems->append(MetadataText::tr("Cannot read the partitioning metadata %1: %2").arg(file, f.errorString()));
        return false;
    }
    *bytes = f.read(kMaxMetadataBytes + 1);
    return true;
}
}  // namespace

QString mpMetadataFileName(int pp)
{
    return QStringLiteral("mp_metadata_pp_rank_%1.json").arg(pp);
}

QString mpMetadataFileGlob()
{
    return QStringLiteral("mp_metadata_pp_rank_*.json");
}

QString legacyMpMetadataFileName(int pp)
{
    return QStringLiteral("mp_metadata_pp_rank_%1.pt").arg(pp);
}

bool loadLegacyMpMetadata(const QString &file, int tpSize, PartitionMetadata *md, QStringList *problems)
{
    const qsizetype before = problems->size();
    if (QFileInfo(file).size() > kMaxMetadataBytes) {
        problems->append(MetadataText::tr("The partitioning metadata %1 is not a regular file of at most %2 MiB.").arg(file).arg(kMaxMetadataBytes >> 20));
        return false;
    }
    TorchFile tf;
    QString error;
    if (!tf.open(file, &error)) {
        problems->append(error);
        return false;
    }
    const PickleValue *root = tf.root().get();
    const PickleValue *sm = root && root->kind == PickleValue::Kind::Dict ? field(*root, "sharded_metadata", PickleValue::Kind::Dict) : nullptr;
    if (!sm) {
        problems->append(MetadataText::tr("%1 holds no sharded_metadata.").arg(file));
        return false;
    }
    readShardedMetadata(*sm, file, md, problems);
    if (const PickleValue *g = field(*root, "gqa_qkv_metadata", PickleValue::Kind::Dict))
        readLegacyGqa(*g, file, tpSize, md, problems);
    return problems->size() == before;
}

QString rankMetadataFileName()
{
    return QStringLiteral("mp_metadata.json");
}

bool parseMpMetadata(const QByteArray &bytes, const QString &file, PartitionMetadata *md, QStringList *problems)
{
    const qsizetype before = problems->size();
    json j = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (j.is_discarded()) {
        problems->append(MetadataText::tr("%1 is not valid JSON.").arg(file));
        return false;
    }
    if (!j.is_object() || !j.contains("parameters") || !j["parameters"].is_object()) {
        problems->append(MetadataText::tr("%1 has no \"parameters\" map.").arg(file));
        return false;
    }
    try {
        readParameters(j["parameters"], file, md, problems);
        readSpecs(j, file, md, problems);
    } catch (const json::exception &e) {  // every access is type-checked first: this is a last resort
        problems->append(MetadataText::tr("%1 holds a value of an unexpected type (%2).").arg(file, QString::fromUtf8(e.what())));
    }
    return problems->size() == before;
}

bool loadMpMetadata(const QString &file, PartitionMetadata *md, QStringList *problems)
{
    QByteArray bytes;
    return readFileBytes(file, &bytes, problems) && parseMpMetadata(bytes, file, md, problems);
}

int tpSizeInMetadata(const QString &file, QStringList *problems)
{
    QByteArray bytes;
    QStringList all;
    PartitionMetadata md;
    if (!readFileBytes(file, &bytes, &all))
        return 0;
    parseMpMetadata(bytes, file, &md, &all);
    // Only what decides the tp size is said here; the rest is said when the checkpoint is checked.
    for (const QString &p : std::as_const(all))
        if (p.contains(QLatin1String("\"num_partitions\"")))
            problems->append(p);
    return md.numPartitions;
}

static PartitionMetadata metadataForStageOfModel(const CheckpointCandidate &c, const OpenShards &shards, int pp, QStringList *problems);

std::string withoutAdapterName(const std::string &name, const std::string &adapter)
{
    std::vector<std::string> parts;
    for (std::size_t from = 0;;) {
        const std::size_t dot = name.find('.', from);
        parts.push_back(name.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (dot == std::string::npos)
            break;
        from = dot + 1;
    }
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        const std::string &p = parts[i];
        const bool embedding = p == "lora_embedding_A" || p == "lora_embedding_B";
        if (p != "lora_A" && p != "lora_B" && !embedding)
            continue;
        // lora_A.<adapter>.weight, lora_embedding_A.<adapter>; older optimum-neuron wrote them without the name.
        if (parts.size() - i < (embedding ? 2u : 3u))
            return name;
        if (parts[i + 1] != adapter)
            return {};  // another adapter's
        std::string out;
        for (std::size_t k = 0; k < parts.size(); ++k)
            if (k != i + 1)
                out += (out.empty() && k == 0 ? "" : ".") + parts[k];
        return out;
    }
    return name;  // not a LoRA parameter (a frozen base weight listed beside them)
}

PartitionMetadata metadataForStage(const CheckpointCandidate &c, const OpenShards &shards, int pp, QStringList *problems)
{
    PartitionMetadata md = metadataForStageOfModel(c, shards, pp, problems);
    if (c.adapter.isEmpty())
        return md;
    std::map<std::string, PartitionMetadata::Param> params;
    const std::string adapter = c.adapter.toStdString();
    for (const auto &[name, p] : md.params)
        if (const std::string n = withoutAdapterName(name, adapter); !n.empty())
            params[n] = p;
    md.params = std::move(params);
    return md;
}

static PartitionMetadata metadataForStageOfModel(const CheckpointCandidate &c, const OpenShards &shards, int pp, QStringList *problems)
{
    PartitionMetadata md;
    const QString stageFile = c.shardsDir + QLatin1Char('/') + mpMetadataFileName(pp);
    const ShardReader *first = shards.at(pp, 0);
    if (c.layout == ShardLayout::NeuronxDistributed) {
        const QString legacy = c.shardsDir + QLatin1Char('/') + legacyMpMetadataFileName(pp);
        if (!QFileInfo::exists(stageFile) && QFileInfo::exists(legacy))
            loadLegacyMpMetadata(legacy, c.tpSize, &md, problems);
        else
            loadMpMetadata(stageFile, &md, problems);
    } else if (c.layout == ShardLayout::IngotBackend) {
        if (first) {
            const QString local = QFileInfo(first->file().path).absolutePath() + QLatin1Char('/') + rankMetadataFileName();
            loadMpMetadata(QFile::exists(local) ? local : stageFile, &md, problems);
        }
    } else if (first) {
        if (const PickleValue *sm = first->shardedMetadata())
            readShardedMetadata(*sm, first->file().path, &md, problems);
        else if (c.tpSize > 1)
            problems->append(MetadataText::tr("%1 has no sharded_metadata: cannot tell which parameters are split.").arg(first->file().path));
    }
    return md;
}

}  // namespace ingot
