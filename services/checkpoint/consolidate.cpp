#include "services/checkpoint/consolidate.h"

#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/formats/torchfile.h"
#include "services/checkpoint/formats/torchwriter.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <cstring>
#include <map>
#include <set>
#include <memory>
#include <unistd.h>

namespace ingot {

using nlohmann::json;

namespace {
struct ConsolidateText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};
using T = ConsolidateText;

const QRegularExpression kRankDir(QStringLiteral("^tp_rank_(\\d+)_pp_rank_(\\d+)(?:_ep_rank_(\\d+))?$"));
const QRegularExpression kNxdFile(QStringLiteral("^dp_rank_(\\d+)_tp_rank_(\\d+)_pp_rank_(\\d+)(?:_ep_rank_(\\d+))?\\.pt$"));

bool scanShardsDir(const QString &root, const QString &shardsDir, CheckpointCandidate *c)
{
    c->root = root;
    c->shardsDir = shardsDir;
    const QDir sd(shardsDir);
    if (QFileInfo(shardsDir).fileName() == QLatin1String("shards") || QDir(shardsDir + QStringLiteral("/model")).exists()) {
        c->layout = ShardLayout::NeuronxDistributed;
        for (const QFileInfo &fi : QDir(shardsDir + QStringLiteral("/model")).entryInfoList(QDir::Files)) {
            const auto m = kNxdFile.match(fi.fileName());
            if (!m.hasMatch())
                continue;
            ShardFile f{m.captured(2).toInt(), m.captured(3).toInt(), m.captured(4).isEmpty() ? -1 : m.captured(4).toInt(),
                        m.captured(1).toInt(), fi.absoluteFilePath(), fi.size()};
            if (f.dp == 0)
                c->shards.append(f);
        }
        if (!QFile::exists(shardsDir + QStringLiteral("/done")))
            c->problems << T::tr("No \"done\" marker in %1: the save may not have finished.").arg(shardsDir);
    } else {
        for (const QFileInfo &di : sd.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const auto m = kRankDir.match(di.fileName());
            if (!m.hasMatch())
                continue;
            ShardFile f{m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).isEmpty() ? -1 : m.captured(3).toInt(), 0, {}, 0};
            const QString pt = di.absoluteFilePath() + QStringLiteral("/checkpoint.pt");
            const QStringList st = QDir(di.absoluteFilePath()).entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name);
            if (QFile::exists(pt)) {
                c->layout = ShardLayout::OptimumDocs;
                f.path = pt;
                f.bytes = QFileInfo(pt).size();
            } else if (!st.isEmpty()) {
                c->layout = ShardLayout::IngotBackend;
                f.path = di.absoluteFilePath() + QLatin1Char('/') + st.first();
                f.bytes = QFileInfo(f.path).size();
                if (st.size() > 1)
                    c->problems << T::tr("%1 holds several safetensors files; only one per rank is expected.").arg(di.absoluteFilePath());
            } else {
                c->problems << T::tr("%1 holds no checkpoint.pt and no safetensors file.").arg(di.absoluteFilePath());
                continue;
            }
            c->shards.append(f);
        }
    }
    if (c->shards.isEmpty())
        return false;
    for (const ShardFile &f : std::as_const(c->shards)) {
        c->tpSize = std::max(c->tpSize, f.tp + 1);
        c->ppSize = std::max(c->ppSize, f.pp + 1);
        c->epSize = std::max(c->epSize, f.ep + 1);
        c->bytes += f.bytes;
    }
    // The partitioning metadata knows the real tp size and stage count: a missing last rank shows there.
    QStringList metaFiles;
    if (c->layout == ShardLayout::NeuronxDistributed)
        for (const QString &m : sd.entryList({QStringLiteral("mp_metadata_pp_rank_*.json")}, QDir::Files))
            metaFiles << sd.filePath(m);
    else if (c->layout == ShardLayout::IngotBackend)
        for (const ShardFile &f : std::as_const(c->shards))
            metaFiles << QFileInfo(f.path).absolutePath() + QStringLiteral("/mp_metadata.json");
    for (const QString &m : std::as_const(metaFiles)) {
        QFile mf(m);
        if (!mf.open(QIODevice::ReadOnly))
            continue;
        try {
            const json j = json::parse(mf.readAll().toStdString());
            if (j.contains("parameters") && j["parameters"].is_object())
                for (const auto &p : j["parameters"])
                    if (p.is_object() && p.value("tensor_model_parallel", false))
                        c->tpSize = std::max(c->tpSize, p.value("num_partitions", 0));
        } catch (const json::exception &) {
        }
    }
    if (c->layout == ShardLayout::NeuronxDistributed)
        c->ppSize = std::max(c->ppSize, int(metaFiles.size()));
    // Every (tp, pp) once.
    QSet<QPair<int, int>> seen;
    for (const ShardFile &f : std::as_const(c->shards)) {
        if (seen.contains({f.tp, f.pp}) && f.ep < 0)
            c->problems << T::tr("tp rank %1, pp rank %2 appears twice.").arg(f.tp).arg(f.pp);
        seen.insert({f.tp, f.pp});
    }
    for (int pp = 0; pp < c->ppSize; ++pp)
        for (int tp = 0; tp < c->tpSize; ++tp)
            if (!seen.contains({tp, pp}))
                c->problems << T::tr("The shard of tp rank %1, pp rank %2 is missing.").arg(tp).arg(pp);
    if (c->epSize > 1)
        c->problems << T::tr("Expert-parallel shards (ep size %1) are not supported yet.").arg(c->epSize);
    c->complete = c->problems.isEmpty();
    std::sort(c->shards.begin(), c->shards.end(), [](const ShardFile &a, const ShardFile &b) {
        return std::tie(a.pp, a.tp, a.ep) < std::tie(b.pp, b.tp, b.ep);
    });
    return true;
}

// Looks for shards in `root` (the folder that holds tensor_parallel_shards or shards, or that folder itself).
bool candidateAt(const QString &root, CheckpointCandidate *c)
{
    const QString name = QFileInfo(root).fileName();
    if (name == QLatin1String("tensor_parallel_shards") || name == QLatin1String("shards"))
        return scanShardsDir(QFileInfo(root).absolutePath(), root, c);
    if (name == QLatin1String("model") && QFileInfo(QFileInfo(root).absolutePath()).fileName() == QLatin1String("shards")) {
        const QString shards = QFileInfo(root).absolutePath();
        return scanShardsDir(QFileInfo(shards).absolutePath(), shards, c);
    }
    for (const char *sub : {"tensor_parallel_shards", "shards"}) {
        const QString s = root + QLatin1Char('/') + QLatin1String(sub);
        if (QFileInfo(s).isDir() && scanShardsDir(root, s, c))
            return true;
    }
    return false;
}

struct Metadata {
    struct Param {
        bool parallel = false;
        int dim = -1;
        int stride = 1;
    };
    struct Fused {
        std::string module, fusedName;
        std::vector<std::string> linearNames;
        std::vector<std::int64_t> originalDims;
        bool bias = false;
        int fuseAxis = 0;
        int tpSize = 1;
    };
    struct Gqa {
        std::string module, gqaName, q, k, v, o;
        int heads = 0, kvHeads = 0, multiplier = 1, tpSize = 1;
        std::int64_t qPerPartition = 0, kvPerPartition = 0;
        bool fuse = false;
    };
    std::map<std::string, Param> params;
    std::vector<Fused> fused;
    std::vector<Gqa> gqa;
    QStringList unsupportedSpecs;
};

bool loadNxdMetadata(const QString &file, Metadata *md, QStringList *problems)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        problems->append(T::tr("The partitioning metadata %1 is missing.").arg(file));
        return false;
    }
    json j;
    try {
        j = json::parse(f.readAll().toStdString());
    } catch (const json::exception &) {
        problems->append(T::tr("%1 is not valid JSON.").arg(file));
        return false;
    }
    if (!j.is_object() || !j.contains("parameters") || !j["parameters"].is_object()) {
        problems->append(T::tr("%1 has no \"parameters\" map.").arg(file));
        return false;
    }
    for (auto it = j["parameters"].begin(); it != j["parameters"].end(); ++it) {
        Metadata::Param p;
        if (it->is_object()) {
            p.parallel = it->value("tensor_model_parallel", false);
            p.dim = p.parallel ? it->value("partition_dim", -1) : -1;
            p.stride = it->value("partition_stride", 1);
        }
        md->params[it.key()] = p;
    }
    // Specs are serialized as {"module_fully_qualified_name", "specs": [[class name, {fields}], ...]}.
    if (j.contains("model_weight_transformation_specs") && j["model_weight_transformation_specs"].is_array()) {
        for (const auto &group : j["model_weight_transformation_specs"]) {
            if (!group.is_object() || !group.contains("specs") || !group["specs"].is_array())
                continue;
            const std::string module = group.value("module_fully_qualified_name", std::string());
            for (const auto &spec : group["specs"]) {
                if (!spec.is_array() || spec.size() != 2 || !spec[0].is_string() || !spec[1].is_object()) {
                    md->unsupportedSpecs << T::tr("an unreadable transformation spec in %1").arg(file);
                    continue;
                }
                const std::string cls = spec[0].get<std::string>();
                const json &f = spec[1];
                if (f.contains("peft_type") && !f["peft_type"].is_null()) {
                    md->unsupportedSpecs << T::tr("%1 with PEFT (%2)").arg(QString::fromStdString(cls), QString::fromStdString(module));
                    continue;
                }
                if (cls == "FusedLinearsSpec") {
                    Metadata::Fused fu;
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
                        md->unsupportedSpecs << T::tr("a malformed FusedLinearsSpec for %1").arg(QString::fromStdString(module));
                    else
                        md->fused.push_back(fu);
                } else if (cls == "GQAQKVColumnParallelLinearSpec") {
                    Metadata::Gqa g;
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
                    const bool bias = f.value("bias", false);
                    const bool sane = !g.gqaName.empty() && !g.q.empty() && !g.k.empty() && !g.v.empty() && !g.o.empty() &&
                                      g.heads > 0 && g.kvHeads > 0 && g.multiplier > 0 && g.tpSize > 0 &&
                                      g.heads % g.tpSize == 0 && (g.kvHeads * g.multiplier) % g.tpSize == 0 &&
                                      g.heads % g.kvHeads == 0 && g.qPerPartition > 0 && g.kvPerPartition > 0;
                    if (bias)
                        md->unsupportedSpecs << T::tr("GQAQKVColumnParallelLinearSpec with bias (%1)").arg(QString::fromStdString(module));
                    else if (!sane)
                        md->unsupportedSpecs << T::tr("a malformed GQAQKVColumnParallelLinearSpec for %1").arg(QString::fromStdString(module));
                    else
                        md->gqa.push_back(g);
                } else {
                    md->unsupportedSpecs << T::tr("%1 (%2)").arg(QString::fromStdString(cls), QString::fromStdString(module));
                }
            }
        }
    }
    return true;
}

struct Source {
    ShardFile file;
    std::unique_ptr<TorchFile> torch;
    std::unique_ptr<SafetensorsReader> st;
    std::map<std::string, TensorRef> tensors;  // .pt
    const PickleValue *root = nullptr;

    bool open(QString *error)
    {
        if (file.path.endsWith(QLatin1String(".safetensors"))) {
            st = std::make_unique<SafetensorsReader>();
            return st->open(file.path, error);
        }
        torch = std::make_unique<TorchFile>();
        if (!torch->open(file.path, error))
            return false;
        root = torch->root().get();
        for (auto &[n, t] : stateDictTensors(torch->root()))
            tensors[n] = t;
        return true;
    }
    std::vector<std::string> names() const
    {
        std::vector<std::string> out;
        if (st)
            for (const auto &t : st->tensors())
                out.push_back(t.name);
        else
            for (const auto &[n, t] : tensors)
                out.push_back(n);
        return out;
    }
    bool info(const std::string &n, DType *dt, std::vector<std::int64_t> *shape) const
    {
        if (st) {
            const SafetensorInfo *t = st->find(n);
            if (!t)
                return false;
            *dt = t->dtype;
            *shape = t->shape;
            return true;
        }
        auto it = tensors.find(n);
        if (it == tensors.end())
            return false;
        *dt = it->second.dtype;
        *shape = it->second.shape;
        return true;
    }
    // Bytes of a tensor: a pointer into the mapping (safetensors) or into `buf` (torch).
    const char *read(const std::string &n, std::string *buf, qint64 *size, QString *error)
    {
        if (st) {
            const SafetensorInfo *t = st->find(n);
            *size = qint64(t->end - t->begin);
            return st->data(*t);
        }
        if (!torch->readTensor(tensors.at(n), buf, error))
            return nullptr;
        *size = qint64(buf->size());
        return buf->data();
    }
};

std::vector<std::unique_ptr<Source>> openSources(const CheckpointCandidate &c, QStringList *problems)
{
    std::vector<std::unique_ptr<Source>> out;
    for (const ShardFile &f : c.shards) {
        auto s = std::make_unique<Source>();
        s->file = f;
        QString error;
        if (!s->open(&error)) {
            problems->append(error);
            continue;
        }
        out.push_back(std::move(s));
    }
    return out;
}

Metadata metadataFor(const CheckpointCandidate &c, const std::vector<std::unique_ptr<Source>> &sources, int pp, QStringList *problems)
{
    Metadata md;
    if (c.layout == ShardLayout::NeuronxDistributed) {
        loadNxdMetadata(c.shardsDir + QStringLiteral("/mp_metadata_pp_rank_%1.json").arg(pp), &md, problems);
    } else if (c.layout == ShardLayout::IngotBackend) {
        for (const auto &s : sources)
            if (s->file.pp == pp && s->file.tp == 0) {
                const QString dir = QFileInfo(s->file.path).absolutePath();
                const QString local = dir + QStringLiteral("/mp_metadata.json");
                loadNxdMetadata(QFile::exists(local) ? local : c.shardsDir + QStringLiteral("/mp_metadata_pp_rank_%1.json").arg(pp), &md, problems);
            }
    } else {
        // Legacy: sharded_metadata {name: {kind: "sharded"|"tied", partition_dim}} inside checkpoint.pt.
        for (const auto &s : sources) {
            if (s->file.pp != pp || s->file.tp != 0 || !s->root)
                continue;
            const PickleValue *sm = s->root->get("sharded_metadata");
            if (!sm || sm->kind != PickleValue::Kind::Dict) {
                if (c.tpSize > 1)
                    problems->append(T::tr("%1 has no sharded_metadata: cannot tell which parameters are split.").arg(s->file.path));
                continue;
            }
            for (const auto &[k, v] : sm->dict) {
                if (!k || k->kind != PickleValue::Kind::Str || !v || v->kind != PickleValue::Kind::Dict)
                    continue;
                Metadata::Param p;
                const PickleValue *kind = v->get("kind");
                const PickleValue *dim = v->get("partition_dim");
                p.parallel = kind && kind->isStr() && kind->s == "sharded";
                p.dim = p.parallel && dim && dim->kind == PickleValue::Kind::Int ? int(dim->i) : -1;
                md.params[k->s] = p;
            }
        }
    }
    return md;
}

QString shapeText(const std::vector<std::int64_t> &s)
{
    QStringList p;
    for (auto d : s)
        p << QString::number(d);
    return QLatin1Char('[') + p.join(QStringLiteral(", ")) + QLatin1Char(']');
}

// The shapes a transformers config implies: hidden size, layers, attention and key/value heads, vocabulary.
QStringList checkAgainstConfig(const QString &configPath, const QVector<ConsolidatePlanEntry> &plan)
{
    QStringList problems;
    QFile f(configPath);
    if (!f.open(QIODevice::ReadOnly))
        return problems;  // nothing to check against
    json cfg;
    try {
        cfg = json::parse(f.readAll().toStdString());
    } catch (const json::exception &) {
        return {T::tr("config.json is not valid JSON.")};
    }
    auto num = [&cfg](const char *k) -> std::int64_t {
        return cfg.contains(k) && cfg[k].is_number_integer() ? cfg[k].get<std::int64_t>() : -1;
    };
    const std::int64_t hidden = num("hidden_size"), layers = num("num_hidden_layers"), heads = num("num_attention_heads"),
                       vocab = num("vocab_size");
    std::int64_t kv = num("num_key_value_heads");
    if (kv < 0)
        kv = heads;
    std::int64_t headDim = num("head_dim");
    if (headDim < 0 && heads > 0 && hidden > 0)
        headDim = hidden / heads;
    auto expect = [&](const ConsolidatePlanEntry &e, std::vector<std::int64_t> want) {
        for (auto w : want)
            if (w < 0)
                return;
        if (e.shape != want) {
            QStringList a, b;
            for (auto d : e.shape)
                a << QString::number(d);
            for (auto d : want)
                b << QString::number(d);
            problems << T::tr("%1 has shape [%2] but config.json implies [%3].").arg(QString::fromStdString(e.name), a.join(QStringLiteral(", ")), b.join(QStringLiteral(", ")));
        }
    };
    auto ends = [](const std::string &n, const char *suffix) {
        const std::size_t k = std::strlen(suffix);
        return n.size() >= k && n.compare(n.size() - k, k, suffix) == 0;
    };
    std::set<int> layerIds;
    static const QRegularExpression layerRe(QStringLiteral("(?:^|\\.)layers\\.(\\d+)\\."));
    for (const ConsolidatePlanEntry &e : plan) {
        const auto m = layerRe.match(QString::fromStdString(e.name));
        if (m.hasMatch())
            layerIds.insert(m.captured(1).toInt());
        if (ends(e.name, "embed_tokens.weight") || ends(e.name, "lm_head.weight"))
            expect(e, {vocab, hidden});
        else if (ends(e.name, "q_proj.weight"))
            expect(e, {heads * headDim, hidden});
        else if (ends(e.name, "k_proj.weight") || ends(e.name, "v_proj.weight"))
            expect(e, {kv * headDim, hidden});
        else if (ends(e.name, "o_proj.weight"))
            expect(e, {hidden, heads * headDim});
    }
    if (layers >= 0 && !layerIds.empty() && std::int64_t(layerIds.size()) != layers)
        problems << T::tr("The checkpoint has %1 layers but config.json says %2.").arg(layerIds.size()).arg(layers);
    return problems;
}

// Builds one output of a GQA attention from the tp pieces (see ConsolidatePlanEntry::gqaRole).
bool assembleGqa(const ConsolidatePlanEntry &e, int tpSize, std::map<std::pair<int, int>, Source *> &byRank, std::string *out,
                 std::string *piece, QString *error)
{
    const int es = dtypeSize(e.dtype);
    std::string full;  // the GQA-ordered concatenation
    std::int64_t rows = 0, cols = 0;
    for (int tp = 0; tp < tpSize; ++tp) {
        DType dt = DType::Unknown;
        std::vector<std::int64_t> sh;
        Source *src = byRank[{e.pp, tp}];
        src->info(e.source, &dt, &sh);
        qint64 psize = 0;
        const char *p = src->read(e.source, piece, &psize, error);
        if (!p)
            return false;
        if (e.gqaRole == 3) {
            // Row-parallel output projection: pieces side by side (dim 1).
            if (tp == 0) {
                rows = sh[0];
                cols = sh[1] * tpSize;
                full.assign(size_t(rows * cols * es), '\0');
            }
            for (std::int64_t r = 0; r < rows; ++r)
                std::memcpy(full.data() + (r * cols + tp * sh[1]) * es, p + r * sh[1] * es, size_t(sh[1] * es));
            continue;
        }
        // Column-parallel q/k/v: this role's rows of the (fused) piece, stacked.
        std::int64_t first = 0, count = sh[0];
        if (e.fusedQkv) {
            first = e.gqaRole == 0 ? 0 : e.gqaRole == 1 ? e.qRowsPerRank : e.qRowsPerRank + e.kvRowsPerRank;
            count = e.gqaRole == 0 ? e.qRowsPerRank : e.kvRowsPerRank;
        }
        cols = sh[1];
        full.append(p + first * cols * es, size_t(count * cols * es));
        rows += count;
    }
    const std::int64_t headDim = e.gqaRole == 3 ? cols / e.heads : e.shape[0] / (e.gqaRole == 0 ? e.heads : e.kvHeads);
    if (e.gqaRole == 1 || e.gqaRole == 2) {
        // Keys and values were replicated kv_size_multiplier times: keep the first copy.
        out->assign(full.data(), size_t(e.shape[0] * cols * es));
        return true;
    }
    // Query and output heads: put every head back in its original place.
    std::vector<std::int64_t> order;
    for (int tp = 0; tp < tpSize; ++tp)
        for (auto h : gqaQueryHeadsForRank(tpSize, tp, e.heads, e.kvHeads, e.kvMultiplier))
            order.push_back(h);
    if (std::int64_t(order.size()) != e.heads) {
        *error = T::tr("%1: the GQA head order does not cover every head.").arg(QString::fromStdString(e.name));
        return false;
    }
    out->assign(size_t(e.bytes), '\0');
    for (std::int64_t pos = 0; pos < e.heads; ++pos) {
        const std::int64_t h = order[size_t(pos)];  // the GQA position `pos` holds original head h
        if (h < 0 || h >= e.heads) {
            *error = T::tr("%1: a GQA head index is out of range.").arg(QString::fromStdString(e.name));
            return false;
        }
        if (e.gqaRole == 0) {
            std::memcpy(out->data() + h * headDim * cols * es, full.data() + pos * headDim * cols * es, size_t(headDim * cols * es));
        } else {
            for (std::int64_t r = 0; r < rows; ++r)
                std::memcpy(out->data() + (r * cols + h * headDim) * es, full.data() + (r * cols + pos * headDim) * es, size_t(headDim * es));
        }
    }
    return true;
}

bool removeTree(const QString &path)
{
    return QDir(path).removeRecursively();
}
}  // namespace

std::vector<std::int64_t> gqaQueryHeadsForRank(int tp, int rank, int heads, int kvHeads, int mult)
{
    const int perRank = heads / tp;
    const int kvPerRank = (kvHeads * mult) / tp;
    if (kvPerRank <= 0 || perRank % kvPerRank)
        return {};
    const int group = heads / kvHeads;         // query heads per key/value head
    const int groupPerRank = perRank / kvPerRank;
    // The key head each local query block belongs to: 0..kv-1 repeated `mult` times, each `groupPerRank` wide,
    // split evenly over the ranks.
    std::vector<int> keys;
    for (int r = 0; r < mult; ++r)
        for (int k = 0; k < kvHeads; ++k)
            for (int i = 0; i < groupPerRank; ++i)
                keys.push_back(k);
    const std::size_t keysPerRank = keys.size() / size_t(tp);
    // Which slice of its key's query group a block takes: 0, groupPerRank, 2*groupPerRank ... each repeated for as
    // many heads as come before the next block of the same group, split evenly over the ranks.
    const int ranksForAllKv = kvHeads / kvPerRank;
    const int before = ranksForAllKv * perRank;
    std::vector<int> shifts;
    for (int sft = 0; sft < group; sft += groupPerRank)
        for (int i = 0; i < before; ++i)
            shifts.push_back(sft);
    const std::size_t shiftsPerRank = (shifts.size() + size_t(tp) - 1) / size_t(tp);
    std::vector<std::int64_t> out;
    for (int block = 0; block < kvPerRank; ++block)
        for (int i = 0; i < groupPerRank; ++i) {
            const std::size_t at = size_t(block * groupPerRank + i);
            const std::size_t ki = size_t(rank) * keysPerRank + at, si = size_t(rank) * shiftsPerRank + at;
            if (ki >= keys.size() || si >= shifts.size())
                return {};
            out.push_back(std::int64_t(i) + std::int64_t(keys[ki]) * group + shifts[si]);
        }
    return out;
}

QString layoutName(ShardLayout l)
{
    switch (l) {
    case ShardLayout::OptimumDocs: return T::tr("optimum-neuron (tensor_parallel_shards, checkpoint.pt)");
    case ShardLayout::NeuronxDistributed: return T::tr("neuronx-distributed (shards/model/*.pt)");
    case ShardLayout::IngotBackend: return T::tr("Ingot backend (tensor_parallel_shards, safetensors)");
    }
    return {};
}

QVector<CheckpointCandidate> findCheckpoints(const QString &path, QString *error)
{
    QVector<CheckpointCandidate> out;
    const QFileInfo fi(path);
    if (!fi.isDir()) {
        *error = fi.exists() ? T::tr("%1 is not a folder.").arg(path) : T::tr("%1 does not exist.").arg(path);
        return out;
    }
    const QString root = fi.absoluteFilePath();
    CheckpointCandidate c;
    if (candidateAt(root, &c)) {
        const auto m = QRegularExpression(QStringLiteral("^checkpoint-(\\d+)$")).match(QFileInfo(c.root).fileName());
        c.label = m.hasMatch() ? QFileInfo(c.root).fileName() : T::tr("final");
        c.step = m.hasMatch() ? m.captured(1).toInt() : -1;
        out.append(c);
    }
    for (const QFileInfo &d : QDir(root).entryInfoList({QStringLiteral("checkpoint-*")}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        const auto m = QRegularExpression(QStringLiteral("^checkpoint-(\\d+)$")).match(d.fileName());
        CheckpointCandidate cc;
        if (m.hasMatch() && candidateAt(d.absoluteFilePath(), &cc)) {
            cc.label = d.fileName();
            cc.step = m.captured(1).toInt();
            out.append(cc);
        }
    }
    std::sort(out.begin(), out.end(), [](const CheckpointCandidate &a, const CheckpointCandidate &b) {
        if ((a.step < 0) != (b.step < 0))
            return a.step < 0;  // the final one first
        return a.step > b.step;
    });
    if (out.isEmpty())
        *error = T::tr("No sharded checkpoint in %1: expected tensor_parallel_shards/tp_rank_XX_pp_rank_YY/ or "
                       "shards/model/dp_rank_00_tp_rank_XX_pp_rank_YY.pt (in the folder, or in checkpoint-N folders).").arg(path);
    return out;
}

const CheckpointCandidate *pickDefault(const QVector<CheckpointCandidate> &found)
{
    for (const CheckpointCandidate &c : found)
        if (c.complete)
            return &c;
    return nullptr;
}

QVector<ConsolidatePlanEntry> planConsolidation(const CheckpointCandidate &c, QStringList *problems)
{
    QVector<ConsolidatePlanEntry> plan;
    *problems += c.problems;
    auto sources = openSources(c, problems);
    if (!problems->isEmpty())
        return plan;
    std::map<std::string, int> stageOf;
    for (int pp = 0; pp < c.ppSize; ++pp) {
        const Metadata md = metadataFor(c, sources, pp, problems);
        for (const QString &u : md.unsupportedSpecs)
            problems->append(T::tr("Not supported yet: %1 (pp rank %2).").arg(u).arg(pp));
        // Fused linears: their fused name expands into one output per original linear.
        std::map<std::string, const Metadata::Fused *> fusedBySource;
        for (const Metadata::Fused &fu : md.fused)
            for (const char *param : {"weight", "bias"})
                if (std::string(param) == "weight" || fu.bias)
                    fusedBySource[fu.module + "." + fu.fusedName + "." + param] = &fu;
        std::vector<Source *> ranks(size_t(c.tpSize), nullptr);
        for (auto &s : sources)
            if (s->file.pp == pp)
                ranks[size_t(s->file.tp)] = s.get();
        const std::vector<std::string> names = ranks[0]->names();
        // GQA attentions: their q/k/v (fused or not) and output projections become four outputs.
        std::set<std::string> consumed;
        for (const Metadata::Gqa &g : md.gqa) {
            const std::string base = g.module + "." + g.gqaName + ".weight";
            const std::string oName = g.module + "." + g.o + ".weight";
            const std::vector<std::string> srcs = g.fuse ? std::vector<std::string>{base + "_qkv"}
                                                         : std::vector<std::string>{base + "_q", base + "_k", base + "_v"};
            bool present = true;
            for (const auto &x : srcs)
                present = present && std::find(names.begin(), names.end(), x) != names.end();
            if (!present || std::find(names.begin(), names.end(), oName) == names.end()) {
                if (present || std::find(names.begin(), names.end(), oName) != names.end())
                    problems->append(T::tr("The GQA attention %1 misses some of its parameters in pp rank %2.").arg(QString::fromStdString(g.module)).arg(pp));
                continue;  // this stage does not hold that attention
            }
            if (g.tpSize != c.tpSize) {
                problems->append(T::tr("%1: the GQA spec says tp %2, the shards tp %3.").arg(QString::fromStdString(g.module)).arg(g.tpSize).arg(c.tpSize));
                continue;
            }
            DType dt = DType::Unknown;
            std::vector<std::int64_t> qkvShape, oShape;
            ranks[0]->info(srcs[0], &dt, &qkvShape);
            DType odt = DType::Unknown;
            ranks[0]->info(oName, &odt, &oShape);
            if (qkvShape.size() != 2 || oShape.size() != 2) {
                problems->append(T::tr("%1: GQA weights are not matrices.").arg(QString::fromStdString(g.module)));
                continue;
            }
            const std::int64_t headDim = g.qPerPartition / (g.heads / g.tpSize);
            const std::int64_t hidden = qkvShape[1];
            if (g.fuse && qkvShape[0] != g.qPerPartition + 2 * g.kvPerPartition) {
                problems->append(T::tr("%1: the fused qkv piece has %2 rows, the spec implies %3.").arg(QString::fromStdString(g.module))
                                     .arg(qkvShape[0]).arg(g.qPerPartition + 2 * g.kvPerPartition));
                continue;
            }
            for (const auto &x : srcs)
                consumed.insert(x);
            consumed.insert(oName);
            const std::string outNames[] = {g.module + "." + g.q + ".weight", g.module + "." + g.k + ".weight",
                                            g.module + "." + g.v + ".weight", oName};
            for (int role = 0; role < 4; ++role) {
                ConsolidatePlanEntry e;
                e.name = outNames[role];
                e.source = role == 3 ? oName : (g.fuse ? srcs[0] : srcs[size_t(role)]);
                e.dtype = role == 3 ? odt : dt;
                e.pp = pp;
                e.gqaRole = role;
                e.heads = g.heads;
                e.kvHeads = g.kvHeads;
                e.kvMultiplier = g.multiplier;
                e.tpSize = g.tpSize;
                e.qRowsPerRank = g.qPerPartition;
                e.kvRowsPerRank = g.kvPerPartition;
                e.fusedQkv = g.fuse;
                e.partitionDim = role == 3 ? 1 : 0;
                if (role == 0)
                    e.shape = {g.heads * headDim, hidden};
                else if (role == 3)
                    e.shape = {oShape[0], g.heads * headDim};
                else
                    e.shape = {g.kvHeads * headDim, hidden};
                e.bytes = dtypeSize(e.dtype) * e.shape[0] * e.shape[1];
                stageOf[e.name] = pp;
                plan.append(e);
            }
        }
        const std::set<std::string> nameSet(names.begin(), names.end());
        for (int tp = 1; tp < c.tpSize; ++tp) {
            const std::vector<std::string> other = ranks[size_t(tp)]->names();
            if (std::set<std::string>(other.begin(), other.end()) != nameSet)
                problems->append(T::tr("tp rank %1 of pp rank %2 holds other parameters than tp rank 0.").arg(tp).arg(pp));
        }
        for (const std::string &n : names) {
            if (consumed.count(n))
                continue;
            if (stageOf.count(n)) {
                // A weight tied across stages (embeddings on the first, the LM head on the last) is written once,
                // from the first stage; it must at least look the same in both.
                DType d1 = DType::Unknown, d2 = DType::Unknown;
                std::vector<std::int64_t> s1, s2;
                ranks[0]->info(n, &d2, &s2);
                for (const auto &x : plan)
                    if (x.source == n && x.fuseAxis < 0) {
                        d1 = x.dtype;
                        s1 = x.shape;
                        if (x.partitionDim >= 0 && x.partitionDim < int(s1.size()))
                            s1[size_t(x.partitionDim)] /= c.tpSize;
                        if (d1 != d2 || s1 != s2)
                            problems->append(T::tr("%1 is in pp ranks %2 and %3 with different shapes or dtypes.")
                                                 .arg(QString::fromStdString(n)).arg(stageOf[n]).arg(pp));
                    }
                continue;
            }
            stageOf[n] = pp;
            ConsolidatePlanEntry e;
            e.name = n;
            e.source = n;
            e.pp = pp;
            ranks[0]->info(n, &e.dtype, &e.shape);
            const auto mdIt = md.params.find(n);
            const bool parallel = mdIt != md.params.end() && mdIt->second.parallel && c.tpSize > 1;
            if (parallel) {
                e.partitionDim = mdIt->second.dim;
                if (mdIt->second.stride != 1)
                    problems->append(T::tr("%1 uses partition_stride %2, which is not supported yet.").arg(QString::fromStdString(n)).arg(mdIt->second.stride));
                if (e.partitionDim < 0 || e.partitionDim >= int(e.shape.size())) {
                    problems->append(T::tr("%1: partition_dim %2 does not fit its shape %3.").arg(QString::fromStdString(n)).arg(e.partitionDim).arg(shapeText(e.shape)));
                    continue;
                }
            }
            std::int64_t along = 0;
            for (int tp = 0; tp < c.tpSize; ++tp) {
                DType dt = DType::Unknown;
                std::vector<std::int64_t> sh;
                if (!ranks[size_t(tp)]->info(n, &dt, &sh))
                    continue;
                if (dt != e.dtype)
                    problems->append(T::tr("%1: dtype %2 on tp rank %3 but %4 on tp rank 0.").arg(QString::fromStdString(n),
                                     QString::fromLatin1(safetensorsName(dt))).arg(tp).arg(QString::fromLatin1(safetensorsName(e.dtype))));
                bool sameOtherDims = sh.size() == e.shape.size();
                for (std::size_t d = 0; sameOtherDims && d < sh.size(); ++d)
                    if (int(d) != e.partitionDim && sh[d] != e.shape[d])
                        sameOtherDims = false;
                if (!sameOtherDims)
                    problems->append(T::tr("%1: shape %2 on tp rank %3 disagrees with %4 on tp rank 0.")
                                         .arg(QString::fromStdString(n), shapeText(sh)).arg(tp).arg(shapeText(e.shape)));
                else if (e.partitionDim >= 0) {
                    // Tensor parallelism splits evenly: a piece of another size means the ranks do not belong together.
                    if (sh[size_t(e.partitionDim)] != e.shape[size_t(e.partitionDim)])
                        problems->append(T::tr("%1: tp rank %2 holds %3 along dim %4 but tp rank 0 holds %5: the partition sizes do not add up.")
                                             .arg(QString::fromStdString(n)).arg(tp).arg(sh[size_t(e.partitionDim)]).arg(e.partitionDim)
                                             .arg(e.shape[size_t(e.partitionDim)]));
                    along += sh[size_t(e.partitionDim)];
                }
            }
            if (e.partitionDim >= 0)
                e.shape[size_t(e.partitionDim)] = along;
            auto finish = [](ConsolidatePlanEntry &x) {
                x.bytes = dtypeSize(x.dtype);
                for (auto d : x.shape)
                    x.bytes *= d;
            };
            const auto fIt = fusedBySource.find(n);
            if (fIt == fusedBySource.end()) {
                finish(e);
                plan.append(e);
                continue;
            }
            // Unfuse: each rank's piece holds original_dims[i] / tp of every linear along fuse_axis.
            const Metadata::Fused &fu = *fIt->second;
            const std::string param = n.substr(n.rfind('.') + 1);
            std::vector<std::int64_t> piece;
            DType dt = DType::Unknown;
            ranks[0]->info(n, &dt, &piece);
            if (fu.fuseAxis >= int(piece.size())) {
                problems->append(T::tr("%1: fuse_axis %2 does not fit its shape.").arg(QString::fromStdString(n)).arg(fu.fuseAxis));
                continue;
            }
            std::int64_t offset = 0, total = 0;
            for (auto d : fu.originalDims)
                total += d / fu.tpSize;
            if (total != piece[size_t(fu.fuseAxis)] || fu.tpSize != c.tpSize) {
                problems->append(T::tr("%1: the fused sizes %2 / tp %3 do not match the shard's %4.").arg(QString::fromStdString(n))
                                     .arg(total * fu.tpSize).arg(fu.tpSize).arg(piece[size_t(fu.fuseAxis)]));
                continue;
            }
            for (std::size_t k = 0; k < fu.linearNames.size(); ++k) {
                ConsolidatePlanEntry part = e;
                part.name = fu.module + "." + fu.linearNames[k] + "." + param;
                part.fuseAxis = fu.fuseAxis;
                part.fuseOffset = offset;
                part.fuseLength = fu.originalDims[k] / fu.tpSize;
                offset += part.fuseLength;
                part.shape = piece;
                part.shape[size_t(fu.fuseAxis)] = part.fuseLength;
                if (part.partitionDim >= 0)
                    part.shape[size_t(part.partitionDim)] *= c.tpSize;
                finish(part);
                plan.append(part);
            }
        }
    }
    return plan;
}

ConsolidateReport consolidate(const CheckpointCandidate &c, const ConsolidateOptions &o,
                              const std::function<void(const ConsolidateProgress &)> &progress, const std::atomic_bool *cancel)
{
    ConsolidateReport rep;
    const QVector<ConsolidatePlanEntry> plan = planConsolidation(c, &rep.problems);
    if (!rep.problems.isEmpty())
        return rep;
    const QFileInfo outInfo(o.output);
    if (outInfo.exists() && !o.overwrite && !QDir(o.output).isEmpty()) {
        rep.problems << T::tr("%1 already exists; choose another folder or allow overwriting.").arg(o.output);
        return rep;
    }
    const QString outAbs = outInfo.absoluteFilePath();
    const QString tmp = QFileInfo(outAbs).absolutePath() + QStringLiteral("/.ingot-consolidating-%1-%2").arg(outInfo.fileName()).arg(::getpid());
    removeTree(tmp);
    if (!QDir().mkpath(tmp)) {
        rep.error = T::tr("Cannot create %1.").arg(tmp);
        return rep;
    }
    auto fail = [&](const QString &e) {
        rep.error = e;
        removeTree(tmp);
        return rep;
    };
    QStringList problems;
    auto sources = openSources(c, &problems);
    if (!problems.isEmpty())
        return fail(problems.join(QLatin1Char(' ')));
    std::map<std::pair<int, int>, Source *> byRank;
    for (auto &s : sources)
        byRank[{s->file.pp, s->file.tp}] = s.get();

    // Output files: consecutive tensors up to the shard size.
    std::vector<std::vector<int>> groups(1);
    qint64 inGroup = 0;
    for (int i = 0; i < plan.size(); ++i) {
        if (!groups.back().empty() && inGroup + plan[i].bytes > o.maxShardBytes) {
            groups.emplace_back();
            inGroup = 0;
        }
        groups.back().push_back(i);
        inGroup += plan[i].bytes;
    }
    const int n = int(groups.size());
    ConsolidateProgress prog;
    prog.tensorsTotal = int(plan.size());
    for (const auto &e : plan)
        prog.bytesTotal += e.bytes;
    json weightMap = json::object();
    std::map<std::string, QByteArray> checksums;
    std::string buf, piece;
    for (int g = 0; g < n; ++g) {
        const bool pt = o.format == ConsolidateOptions::Format::PyTorch;
        const QString stem = pt ? QStringLiteral("pytorch_model") : QStringLiteral("model");
        const QString ext = pt ? QStringLiteral(".bin") : QStringLiteral(".safetensors");
        const QString file = n == 1 ? stem + ext
                                    : QStringLiteral("%1-%2-of-%3%4").arg(stem).arg(g + 1, 5, 10, QLatin1Char('0')).arg(n, 5, 10, QLatin1Char('0')).arg(ext);
        std::vector<SafetensorInfo> infos;
        for (int i : groups[size_t(g)]) {
            SafetensorInfo si;
            si.name = plan[i].name;
            si.dtype = plan[i].dtype;
            si.shape = plan[i].shape;
            infos.push_back(si);
            weightMap[plan[i].name] = file.toStdString();
        }
        SafetensorsWriter sw;
        TorchWriter tw;
        QString error;
        if (!(pt ? tw.begin(tmp + QLatin1Char('/') + file, infos, &error)
                 : sw.begin(tmp + QLatin1Char('/') + file, infos, {{"format", "pt"}}, &error)))
            return fail(error);
        for (int i : groups[size_t(g)]) {
            if (cancel && cancel->load()) {
                rep.cancelled = true;
                removeTree(tmp);
                return rep;
            }
            const ConsolidatePlanEntry &e = plan[i];
            prog.current = QString::fromStdString(e.name);
            const char *data = nullptr;
            qint64 size = 0;
            if (e.gqaRole >= 0) {
                if (!assembleGqa(e, c.tpSize, byRank, &buf, &piece, &error))
                    return fail(error);
                data = buf.data();
                size = qint64(buf.size());
            } else if (e.partitionDim < 0 && e.fuseAxis < 0) {
                data = byRank[{e.pp, 0}]->read(e.source, &buf, &size, &error);
                if (!data)
                    return fail(error);
                if (o.checkReplicas && c.tpSize > 1) {
                    const std::string first(data, size_t(size));
                    for (int tp = 1; tp < c.tpSize; ++tp) {
                        qint64 s2 = 0;
                        const char *other = byRank[{e.pp, tp}]->read(e.source, &piece, &s2, &error);
                        if (!other || s2 != size || std::memcmp(other, first.data(), size_t(size)) != 0)
                            return fail(T::tr("%1 differs between tp rank 0 and tp rank %2, though it should be replicated.")
                                            .arg(QString::fromStdString(e.name)).arg(tp));
                    }
                    buf = first;
                    data = buf.data();
                }
            } else {
                // Concatenate the tp pieces along partition_dim, one row block at a time (a fused linear's part
                // is first cut out of each piece along fuse_axis).
                const int es = dtypeSize(e.dtype);
                const int pdim = e.partitionDim >= 0 ? e.partitionDim : 0;
                const int ranksUsed = e.partitionDim >= 0 ? c.tpSize : 1;
                std::int64_t outer = 1, inner = es;
                for (int d = 0; d < pdim; ++d)
                    outer *= e.shape[size_t(d)];
                for (std::size_t d = size_t(pdim) + 1; d < e.shape.size(); ++d)
                    inner *= e.shape[d];
                const std::int64_t rowOut = e.shape[size_t(pdim)] * inner;
                buf.assign(size_t(e.bytes), '\0');
                std::int64_t at = 0;
                std::string cut;
                for (int tp = 0; tp < ranksUsed; ++tp) {
                    DType dt = DType::Unknown;
                    std::vector<std::int64_t> sh;
                    byRank[{e.pp, tp}]->info(e.source, &dt, &sh);
                    qint64 psize = 0;
                    const char *p = byRank[{e.pp, tp}]->read(e.source, &piece, &psize, &error);
                    if (!p)
                        return fail(error);
                    if (e.fuseAxis >= 0) {
                        std::int64_t fo = 1, fi = es;
                        for (int d = 0; d < e.fuseAxis; ++d)
                            fo *= sh[size_t(d)];
                        for (std::size_t d = size_t(e.fuseAxis) + 1; d < sh.size(); ++d)
                            fi *= sh[d];
                        cut.assign(size_t(fo * e.fuseLength * fi), '\0');
                        for (std::int64_t r = 0; r < fo; ++r)
                            std::memcpy(cut.data() + r * e.fuseLength * fi, p + r * sh[size_t(e.fuseAxis)] * fi + e.fuseOffset * fi,
                                        size_t(e.fuseLength * fi));
                        sh[size_t(e.fuseAxis)] = e.fuseLength;
                        p = cut.data();
                    }
                    const std::int64_t rowIn = sh[size_t(pdim)] * inner;
                    for (std::int64_t r = 0; r < outer; ++r)
                        std::memcpy(buf.data() + r * rowOut + at, p + r * rowIn, size_t(rowIn));
                    at += rowIn;
                }
                data = buf.data();
                size = qint64(buf.size());
            }
            if (size != e.bytes)
                return fail(T::tr("%1: %2 bytes read, %3 expected.").arg(QString::fromStdString(e.name)).arg(size).arg(e.bytes));
            if (o.verify)
                checksums[e.name] = QCryptographicHash::hash(QByteArrayView(data, size), QCryptographicHash::Sha256);
            if (!(pt ? tw.write(data, size_t(size), &error) : sw.write(data, size_t(size), &error)))
                return fail(error);
            ++prog.tensorsDone;
            prog.bytesDone += size;
            if (progress)
                progress(prog);
        }
        if (!(pt ? tw.finish(&error) : sw.finish(&error)))
            return fail(error);
        rep.files << file;
    }
    rep.tensors = int(plan.size());
    rep.bytes = prog.bytesTotal;
    if (n > 1) {
        const json index = {{"metadata", {{"total_size", prog.bytesTotal}}}, {"weight_map", weightMap}};
        const QString indexName = o.format == ConsolidateOptions::Format::PyTorch ? QStringLiteral("pytorch_model.bin.index.json")
                                                                                 : QStringLiteral("model.safetensors.index.json");
        QFile idx(tmp + QLatin1Char('/') + indexName);
        if (!idx.open(QIODevice::WriteOnly) || idx.write(QByteArray::fromStdString(index.dump(2))) < 0)
            return fail(T::tr("Cannot write the index in %1.").arg(tmp));
        idx.close();
        rep.files << indexName;
    }
    // Configs and tokenizer files, from the checkpoint folder or the training output folder.
    const QStringList extras = {QStringLiteral("config.json"), QStringLiteral("generation_config.json"), QStringLiteral("tokenizer.json"),
                                QStringLiteral("tokenizer_config.json"), QStringLiteral("special_tokens_map.json"),
                                QStringLiteral("tokenizer.model"), QStringLiteral("vocab.json"), QStringLiteral("merges.txt"),
                                QStringLiteral("added_tokens.json")};
    for (const QString &x : extras) {
        for (const QString &dir : {c.root, QFileInfo(c.root).absolutePath()}) {
            const QString src = dir + QLatin1Char('/') + x;
            if (QFile::exists(src)) {
                if (!QFile::copy(src, tmp + QLatin1Char('/') + x))
                    return fail(T::tr("Cannot copy %1.").arg(src));
                rep.files << x;
                break;
            }
        }
    }
    if (o.verify) {
        // Read everything back and compare with what was computed from the shards.
        for (const QString &file : std::as_const(rep.files)) {
            if (file.endsWith(QLatin1String(".bin"))) {
                TorchFile tf;
                QString error;
                if (!tf.open(tmp + QLatin1Char('/') + file, &error)) {
                    rep.verifyProblems << error;
                    continue;
                }
                for (const auto &[name, ref] : stateDictTensors(tf.root())) {
                    std::string bytes;
                    if (!tf.readTensor(ref, &bytes, &error)) {
                        rep.verifyProblems << error;
                        continue;
                    }
                    if (checksums[name] != QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())), QCryptographicHash::Sha256))
                        rep.verifyProblems << T::tr("%1 in %2 does not match its sources.").arg(QString::fromStdString(name), file);
                    checksums.erase(name);
                }
                continue;
            }
            if (!file.endsWith(QLatin1String(".safetensors")))
                continue;
            SafetensorsReader r;
            QString error;
            if (!r.open(tmp + QLatin1Char('/') + file, &error)) {
                rep.verifyProblems << error;
                continue;
            }
            for (const SafetensorInfo &t : r.tensors()) {
                const QByteArray h = QCryptographicHash::hash(QByteArrayView(r.data(t), qsizetype(t.end - t.begin)), QCryptographicHash::Sha256);
                if (checksums[t.name] != h)
                    rep.verifyProblems << T::tr("%1 in %2 does not match its sources.").arg(QString::fromStdString(t.name), file);
                checksums.erase(t.name);
            }
        }
        for (const auto &[name, h] : checksums)
            rep.verifyProblems << T::tr("%1 is missing from the output.").arg(QString::fromStdString(name));
        rep.verifyProblems += checkAgainstConfig(tmp + QStringLiteral("/config.json"), plan);
        rep.verified = rep.verifyProblems.isEmpty();
        if (!rep.verified) {
            removeTree(tmp);
            return rep;
        }
    }
    // Into place: one rename (an existing folder is moved aside first and removed only after).
    QString aside;
    if (QFileInfo::exists(outAbs)) {
        aside = tmp + QStringLiteral("-old");
        if (::rename(QFile::encodeName(outAbs).constData(), QFile::encodeName(aside).constData()) != 0)
            return fail(T::tr("Cannot replace %1.").arg(outAbs));
    }
    if (::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(outAbs).constData()) != 0) {
        if (!aside.isEmpty())
            ::rename(QFile::encodeName(aside).constData(), QFile::encodeName(outAbs).constData());
        return fail(T::tr("Cannot move the result into %1.").arg(outAbs));
    }
    if (!aside.isEmpty())
        removeTree(aside);
    return rep;
}

}  // namespace ingot
