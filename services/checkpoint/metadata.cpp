#include "services/checkpoint/metadata.h"

#include "services/checkpoint/shardreader.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace ingot {

using nlohmann::json;

namespace {
struct MetadataText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};
using T = MetadataText;

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// The file as a JSON object with a "parameters" map, or a problem saying why not.
bool readMetadataJson(const QString &file, json *j, QStringList *problems)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        problems->append(T::tr("The partitioning metadata %1 is missing.").arg(file));
        return false;
    }
    try {
        *j = json::parse(f.readAll().toStdString());
    } catch (const json::exception &) {
        problems->append(T::tr("%1 is not valid JSON.").arg(file));
        return false;
    }
    if (!j->is_object() || !j->contains("parameters") || !(*j)["parameters"].is_object()) {
        problems->append(T::tr("%1 has no \"parameters\" map.").arg(file));
        return false;
    }
    return true;
}

void readParameters(const json &params, PartitionMetadata *md)
{
    for (auto it = params.begin(); it != params.end(); ++it) {
        PartitionMetadata::Param p;
        if (it->is_object()) {
            p.parallel = it->value("tensor_model_parallel", false);
            p.dim = p.parallel ? it->value("partition_dim", -1) : -1;
            p.stride = it->value("partition_stride", 1);
        }
        md->params[it.key()] = p;
    }
}

void readFusedSpec(const json &f, const std::string &module, PartitionMetadata *md)
{
    PartitionMetadata::Fused fu;
    fu.module = module;
    fu.fusedName = f.value("fused_linear_name", std::string());
    fu.bias = f.value("bias", false);
    fu.tpSize = f.value("tp_size", 1);
    if (f.contains("fuse_axis") && f["fuse_axis"].is_string())
        fu.fuseAxis = f["fuse_axis"].get<std::string>() == "row" ? 1 : 0;
    else
        fu.fuseAxis = f.value("fuse_axis", 0);
    if (f.contains("linear_names") && f["linear_names"].is_array())
        for (const auto &n : f["linear_names"])
            if (n.is_string())
                fu.linearNames.push_back(n.get<std::string>());
    if (f.contains("original_dims") && f["original_dims"].is_array())
        for (const auto &d : f["original_dims"])
            if (d.is_number_integer())
                fu.originalDims.push_back(d.get<std::int64_t>());
    if (fu.fusedName.empty() || fu.linearNames.empty() || fu.linearNames.size() != fu.originalDims.size() || fu.tpSize < 1)
        md->unsupportedSpecs << T::tr("a malformed FusedLinearsSpec for %1").arg(qs(module));
    else
        md->fused.push_back(fu);
}

bool isSane(const PartitionMetadata::Gqa &g)
{
    return !g.gqaName.empty() && !g.q.empty() && !g.k.empty() && !g.v.empty() && !g.o.empty() && g.heads > 0 &&
           g.kvHeads > 0 && g.multiplier > 0 && g.tpSize > 0 && g.heads % g.tpSize == 0 &&
           (g.kvHeads * g.multiplier) % g.tpSize == 0 && g.heads % g.kvHeads == 0 && g.qPerPartition > 0 &&
           g.kvPerPartition > 0;
}

void readGqaSpec(const json &f, const std::string &module, PartitionMetadata *md)
{
    PartitionMetadata::Gqa g;
    g.module = module;
    g.gqaName = f.value("gqa_qkv_projection_name", std::string());
    g.q = f.value("query_projection_name", std::string());
    g.k = f.value("key_projection_name", std::string());
    g.v = f.value("value_projection_name", std::string());
    g.o = f.value("output_projection_name", std::string());
    g.heads = f.value("num_attention_heads", 0);
    g.kvHeads = f.value("num_key_value_heads", 0);
    g.multiplier = f.value("kv_size_multiplier", 1);
    g.qPerPartition = f.value("q_output_size_per_partition", std::int64_t(0));
    g.kvPerPartition = f.value("kv_output_size_per_partition", std::int64_t(0));
    g.fuse = f.value("fuse_qkv", false);
    g.tpSize = f.value("tp_size", 1);
    if (f.value("bias", false))
        md->unsupportedSpecs << T::tr("GQAQKVColumnParallelLinearSpec with bias (%1)").arg(qs(module));
    else if (!isSane(g))
        md->unsupportedSpecs << T::tr("a malformed GQAQKVColumnParallelLinearSpec for %1").arg(qs(module));
    else
        md->gqa.push_back(g);
}

// One [class name, {fields}] pair of a module's specs.
void readSpec(const json &spec, const std::string &module, const QString &file, PartitionMetadata *md)
{
    if (!spec.is_array() || spec.size() != 2 || !spec[0].is_string() || !spec[1].is_object()) {
        md->unsupportedSpecs << T::tr("an unreadable transformation spec in %1").arg(file);
        return;
    }
    const std::string cls = spec[0].get<std::string>();
    const json &fields = spec[1];
    if (fields.contains("peft_type") && !fields["peft_type"].is_null())
        md->unsupportedSpecs << T::tr("%1 with PEFT (%2)").arg(qs(cls), qs(module));
    else if (cls == "FusedLinearsSpec")
        readFusedSpec(fields, module, md);
    else if (cls == "GQAQKVColumnParallelLinearSpec")
        readGqaSpec(fields, module, md);
    else
        md->unsupportedSpecs << T::tr("%1 (%2)").arg(qs(cls), qs(module));
}

// Specs are serialized as [{"module_fully_qualified_name", "specs": [[class name, {fields}], ...]}, ...].
void readSpecs(const json &j, const QString &file, PartitionMetadata *md)
{
    if (!j.contains("model_weight_transformation_specs") || !j["model_weight_transformation_specs"].is_array())
        return;
    for (const auto &group : j["model_weight_transformation_specs"]) {
        if (!group.is_object() || !group.contains("specs") || !group["specs"].is_array())
            continue;
        const std::string module = group.value("module_fully_qualified_name", std::string());
        for (const auto &spec : group["specs"])
            readSpec(spec, module, file, md);
    }
}

// Legacy: sharded_metadata {name: {kind: "sharded"|"tied", partition_dim}} inside checkpoint.pt.
void readShardedMetadata(const PickleValue &sm, PartitionMetadata *md)
{
    for (const auto &[k, v] : sm.dict) {
        if (!k || k->kind != PickleValue::Kind::Str || !v || v->kind != PickleValue::Kind::Dict)
            continue;
        PartitionMetadata::Param p;
        const PickleValue *kind = v->get("kind");
        const PickleValue *dim = v->get("partition_dim");
        p.parallel = kind && kind->isStr() && kind->s == "sharded";
        p.dim = p.parallel && dim && dim->kind == PickleValue::Kind::Int ? int(dim->i) : -1;
        md->params[k->s] = p;
    }
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

QString rankMetadataFileName()
{
    return QStringLiteral("mp_metadata.json");
}

bool loadMpMetadata(const QString &file, PartitionMetadata *md, QStringList *problems)
{
    json j;
    if (!readMetadataJson(file, &j, problems))
        return false;
    try {
        readParameters(j["parameters"], md);
        readSpecs(j, file, md);
    } catch (const json::exception &e) {
        problems->append(T::tr("%1 holds a value of an unexpected type (%2).").arg(file, QString::fromUtf8(e.what())));
        return false;
    }
    return true;
}

int tpSizeInMetadata(const QString &file)
{
    QFile mf(file);
    if (!mf.open(QIODevice::ReadOnly))
        return 0;
    int tp = 0;
    try {
        const json j = json::parse(mf.readAll().toStdString());
        if (j.contains("parameters") && j["parameters"].is_object())
            for (const auto &p : j["parameters"])
                if (p.is_object() && p.value("tensor_model_parallel", false))
                    tp = std::max(tp, p.value("num_partitions", 0));
    } catch (const json::exception &) {
    }
    return tp;
}

PartitionMetadata metadataForStage(const CheckpointCandidate &c, const OpenShards &shards, int pp, QStringList *problems)
{
    PartitionMetadata md;
    const QString stageFile = c.shardsDir + QLatin1Char('/') + mpMetadataFileName(pp);
    const ShardReader *first = shards.at(pp, 0);
    if (c.layout == ShardLayout::NeuronxDistributed) {
        loadMpMetadata(stageFile, &md, problems);
    } else if (c.layout == ShardLayout::IngotBackend) {
        if (first) {
            const QString local = QFileInfo(first->file().path).absolutePath() + QLatin1Char('/') + rankMetadataFileName();
            loadMpMetadata(QFile::exists(local) ? local : stageFile, &md, problems);
        }
    } else if (first) {
        if (const PickleValue *sm = first->shardedMetadata())
            readShardedMetadata(*sm, &md);
        else if (c.tpSize > 1)
            problems->append(T::tr("%1 has no sharded_metadata: cannot tell which parameters are split.").arg(first->file().path));
    }
    return md;
}

}  // namespace ingot
