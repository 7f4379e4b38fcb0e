#include "services/checkpoint/reshard.h"

#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/loramerge.h"
#include "services/checkpoint/verify.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <cstring>
#include <map>
#include <memory>
#include <set>

namespace ingot {

using nlohmann::json;

namespace {
struct ReshardText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Reshard)
};

bool endsWith(const std::string &s, const char *suffix)
{
    const std::size_t k = std::strlen(suffix);
    return s.size() >= k && s.compare(s.size() - k, k, suffix) == 0;
}

// A small JSON object file (a config, training arguments); an empty object when absent, nullopt-like discarded value
// when unreadable.
json readJsonObject(const QString &path, QStringList *problems)
{
    QFile f(path);
    if (!f.exists())
        return json::object();
    if (!QFileInfo(path).isFile() || f.size() > (qint64(64) << 20) || !f.open(QIODevice::ReadOnly)) {
        problems->append(ReshardText::tr("%1 cannot be read as a small JSON file.").arg(displayName(path)));
        return json::object();
    }
    const QByteArray bytes = f.readAll();
    json j = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (!j.is_object()) {
        problems->append(ReshardText::tr("%1 is not a JSON object.").arg(displayName(path)));
        return json::object();
    }
    return j;
}

// The first of `name` in the checkpoint folder, then the training output folder above it (as consolidation copies).
QString companionPath(const QString &root, const QString &name)
{
    for (const QString &dir : {root, QFileInfo(root).absolutePath()})
        if (QFileInfo::exists(dir + QLatin1Char('/') + name))
            return dir + QLatin1Char('/') + name;
    return {};
}

std::int64_t intOr(const json &j, const char *key, std::int64_t fallback)
{
    return j.contains(key) && j[key].is_number_integer() ? j[key].get<std::int64_t>() : fallback;
}

// The checks that depend on the model: its config's heads and layers, and every tensor a parameter of the backend's
// model, split where the new layout can split it.
void planEntries(ReshardPlan *plan, const QString &root)
{
    const QString configPath = companionPath(plan->source.checkpoint.root, QStringLiteral("config.json"));
    if (configPath.isEmpty()) {
        plan->problems << ReshardText::tr("No config.json in %1: the model's heads and layers decide how it splits.").arg(displayName(root));
        return;
    }
    const json cfg = readJsonObject(configPath, &plan->problems);
    const std::int64_t layers = intOr(cfg, "num_hidden_layers", -1), heads = intOr(cfg, "num_attention_heads", -1);
    const std::int64_t kv = intOr(cfg, "num_key_value_heads", heads);
    const bool tied = cfg.contains("tie_word_embeddings") && cfg["tie_word_embeddings"].is_boolean() && cfg["tie_word_embeddings"].get<bool>();
    if (layers < 1 || heads < 1 || kv < 1) {
        plan->problems << ReshardText::tr("config.json does not give num_hidden_layers and num_attention_heads.");
        return;
    }
    const int tp = plan->tpSize, pp = plan->ppSize;
    // A layout the model cannot take is the root cause of everything else that would go wrong (every attention
    // tensor "does not split"): it is said first and alone, not under a cascade of its consequences.
    QStringList layout;
    if (heads % tp || kv % tp)
        layout << ReshardText::tr("The model's %1 attention heads and %2 key/value heads do not split over %3 tensor-parallel ranks "
                                  "(each rank holds whole heads).").arg(heads).arg(kv).arg(tp);
    if (layers < pp)
        layout << ReshardText::tr("The model has %1 layers, fewer than %2 pipeline stages.").arg(layers).arg(pp);
    if (!layout.isEmpty()) {
        plan->problems += layout;
        return;
    }
    plan->problems += checkAgainstConfig(configPath, plan->source.entries);
    std::set<std::string> seen;
    for (const ConsolidatePlanEntry &e : std::as_const(plan->source.entries)) {
        if (tied && e.name == "lm_head.weight") {
            plan->notes << ReshardText::tr("lm_head.weight is left out: the model ties it to the embedding, which the backend saves once.");
            continue;
        }
        bool known = false;
        ReshardEntry r{e, backendSplitDim(e.name, plan->vocabParallel, &known), backendStage(e.name, int(layers), pp)};
        if (!known || r.stage < 0) {
            plan->problems << ReshardText::tr("%1 is not a parameter of the bundled backend's Llama model, which re-sharding writes "
                                              "checkpoints for.").arg(tensorNameText(e.name));
            continue;
        }
        seen.insert(e.name);  // present, whether or not it splits: never reported missing
        if (r.splitDim >= 0 && tp > 1 && (std::size_t(r.splitDim) >= e.shape.size() || e.shape[size_t(r.splitDim)] % tp)) {
            plan->problems << ReshardText::tr("%1 %2 does not split into %3 equal parts on dim %4.").arg(tensorNameText(e.name), shapeText(e.shape)).arg(tp).arg(r.splitDim);
            continue;
        }
        plan->entries.append(r);
    }
    std::vector<std::string> needed = {"model.embed_tokens.weight", "model.norm.weight"};
    if (!tied)
        needed.push_back("lm_head.weight");
    for (std::int64_t i = 0; i < layers && i < 100000; ++i)
        for (const char *x : {"input_layernorm", "post_attention_layernorm", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                              "self_attn.o_proj", "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"})
            needed.push_back("model.layers." + std::to_string(i) + "." + x + ".weight");
    for (const std::string &n : needed)
        if (!seen.count(n) && plan->problems.size() < 50)
            plan->problems << ReshardText::tr("%1 is missing: the backend's model needs it.").arg(tensorNameText(n));
}

// Where the source keeps each rank's optimizer state: the folder of its (tp, pp) shard.
QString rankFolder(const CheckpointCandidate &c, int tp, int pp)
{
    for (const ShardFile &f : c.shards)
        if (f.tp == tp && f.pp == pp && f.ep <= 0)
            return QFileInfo(f.path).absolutePath();
    return {};
}

// The backend's optimizer state files of one rank folder, and where each moment lies in them.
struct OptimizerFiles {
    std::vector<std::unique_ptr<SafetensorsReader>> files;
    bool open(const QString &folder, std::int64_t *step, QStringList *problems)
    {
        for (const QString &n : QDir(folder).entryList(QDir::Files, QDir::Name)) {
            if (!isBackendOptimizerFile(n))
                continue;
            auto r = std::make_unique<SafetensorsReader>();
            QString error;
            if (!r->open(folder + QLatin1Char('/') + n, &error)) {
                problems->append(error);
                return false;
            }
            const auto f = r->metadata().find("format"), s = r->metadata().find("step");
            if (f == r->metadata().end() || f->second != "ingot-adamw-1" || s == r->metadata().end()) {
                problems->append(ReshardText::tr("%1 is not optimizer state the bundled backend wrote.").arg(displayName(folder + QLatin1Char('/') + n)));
                return false;
            }
            const std::int64_t fileStep = QByteArray::fromStdString(s->second).toLongLong();
            if (*step >= 0 && fileStep != *step) {
                problems->append(ReshardText::tr("The optimizer state files disagree on the step (%1 and %2).").arg(*step).arg(fileStep));
                return false;
            }
            *step = fileStep;
            files.push_back(std::move(r));
        }
        return !files.empty();
    }
    // The file holding `name` (exactly one may), nullptr with words otherwise.
    const SafetensorsReader *find(const std::string &name, const QString &folder, QString *error) const
    {
        const SafetensorsReader *found = nullptr;
        for (const auto &f : files)
            if (f->find(name)) {
                if (found) {
                    *error = ReshardText::tr("%1 holds %2 twice.").arg(displayName(folder), tensorNameText(name));
                    return nullptr;
                }
                found = f.get();
            }
        if (!found)
            *error = ReshardText::tr("%1 holds no optimizer state %2.").arg(displayName(folder), tensorNameText(name));
        return found;
    }
};

// Whether the backend's AdamW state can be carried over: every source rank folder holds it, for every tensor, shaped
// like its piece of the weight.
void planOptimizer(ReshardPlan *plan, const ReshardOptions &o)
{
    const CheckpointCandidate &c = plan->source.checkpoint;
    if (plan->fromModelFolder || c.layout != ShardLayout::IngotBackend) {
        plan->notes << ReshardText::tr("Weights only: the source holds no optimizer state Ingot can carry over, so a run resumed from the "
                                       "output starts AdamW afresh.");
        return;
    }
    if (o.weightsOnly) {
        plan->notes << ReshardText::tr("Weights only, as asked: a run resumed from the output starts AdamW afresh.");
        return;
    }
    std::int64_t step = -1;
    QStringList problems;
    std::map<std::pair<int, int>, OptimizerFiles> byRank;
    int without = 0;
    for (const ShardFile &f : c.shards) {
        const QString folder = QFileInfo(f.path).absolutePath();
        if (!byRank[{f.tp, f.pp}].open(folder, &step, &problems) && problems.isEmpty())
            ++without;
    }
    if (!problems.isEmpty() || (without && without != c.shards.size())) {
        plan->problems << problems;
        if (problems.isEmpty())
            plan->problems << ReshardText::tr("Only some rank folders hold optimizer state: the checkpoint is incomplete (or re-shard with "
                                              "weights only).");
        return;
    }
    if (without) {
        plan->notes << ReshardText::tr("Weights only: the checkpoint holds no optimizer state by name (saved by an earlier version), so a "
                                       "run resumed from the output starts AdamW afresh.");
        return;
    }
    for (const ReshardEntry &r : std::as_const(plan->entries)) {
        const ConsolidatePlanEntry &e = r.whole;
        const MergeKind kind = mergeKind(e, c.tpSize);
        if (kind != MergeKind::Copied && kind != MergeKind::Replicated && kind != MergeKind::Concatenated) {
            plan->problems << ReshardText::tr("%1: optimizer state of a %2 tensor cannot be carried over.").arg(tensorNameText(e.name), mergeText(e, c.tpSize));
            continue;
        }
        const std::vector<std::int64_t> piece = pieceShape(e, c.tpSize);
        for (int tp = 0; tp < (e.partitionDim >= 0 ? c.tpSize : 1); ++tp)
            for (const char *key : {".exp_avg", ".exp_avg_sq"}) {
                QString error;
                const SafetensorsReader *f = byRank[{tp, e.pp}].find(e.source + key, rankFolder(c, tp, e.pp), &error);
                const SafetensorInfo *t = f ? f->find(e.source + key) : nullptr;
                if (!t)
                    plan->problems << error;
                else if (t->shape != piece || (t->dtype != DType::F32 && t->dtype != DType::BF16 && t->dtype != DType::F16))
                    plan->problems << ReshardText::tr("The optimizer state %1 is %2 %3, not shaped like its weight %4.")
                                          .arg(tensorNameText(e.source + key), QLatin1String(safetensorsName(t->dtype)), shapeText(t->shape), shapeText(piece));
            }
    }
    plan->optimizer = true;
    plan->optimizerStep = step;
}

void planLayout(ReshardPlan *plan, const ReshardOptions &o)
{
    plan->tpSize = o.tpSize;
    plan->ppSize = o.ppSize;
    if (o.tpSize < 1 || o.ppSize < 1 || qint64(o.tpSize) * o.ppSize > kMaxRanks)
        plan->problems << ReshardText::tr("The tensor and pipeline parallel sizes must be at least 1 and together at most %1 ranks.").arg(kMaxRanks);
    if (o.kvMultiplier != 1)
        plan->problems << ReshardText::tr("--kv-size-multiplier %1: the bundled backend splits whole key/value heads and does not replicate "
                                          "them, so only 1 can be written for it.").arg(o.kvMultiplier);
}

}  // namespace

int backendSplitDim(const std::string &name, bool vocabParallel, bool *known)
{
    *known = true;
    if (name == "model.embed_tokens.weight" || name == "lm_head.weight")
        return vocabParallel ? 0 : -1;
    static const char *const rows[] = {".self_attn.q_proj.weight", ".self_attn.k_proj.weight", ".self_attn.v_proj.weight",
                                       ".mlp.gate_proj.weight", ".mlp.up_proj.weight"};
    static const char *const columns[] = {".self_attn.o_proj.weight", ".mlp.down_proj.weight"};
    static const char *const whole[] = {".input_layernorm.weight", ".post_attention_layernorm.weight"};
    const bool layer = name.rfind("model.layers.", 0) == 0;
    for (const char *x : rows)
        if (layer && endsWith(name, x))
            return 0;
    for (const char *x : columns)
        if (layer && endsWith(name, x))
            return 1;
    for (const char *x : whole)
        if (layer && endsWith(name, x))
            return -1;
    *known = name == "model.norm.weight";
    return -1;
}

int backendStage(const std::string &name, int layers, int ppSize)
{
    if (name == "model.embed_tokens.weight")
        return 0;
    if (name == "model.norm.weight" || name == "lm_head.weight")
        return ppSize - 1;
    static const QRegularExpression layer(QStringLiteral("^model\\.layers\\.(0|[1-9]\\d{0,8})\\."));
    const auto m = layer.match(QString::fromStdString(name));
    if (!m.hasMatch() || ppSize < 1)
        return -1;
    const int i = m.captured(1).toInt();
    if (i >= layers)
        return -1;
    const int base = layers / ppSize, extra = layers % ppSize;
    for (int s = 0; s < ppSize; ++s) {
        const int start = s * base + std::min(s, extra);
        if (i < start + base + (s < extra ? 1 : 0))
            return s;
    }
    return -1;
}

bool isModelFolder(const QString &folder)
{
    return QFileInfo(folder + QStringLiteral("/config.json")).isFile() && !safetensorsModelFile(folder).isEmpty() &&
           !QFileInfo(folder + QStringLiteral("/tensor_parallel_shards")).exists() && !QFileInfo(folder + QStringLiteral("/shards")).exists();
}

qint64 ReshardPlan::bytes() const
{
    qint64 n = 0;
    for (const ReshardEntry &r : entries) {
        const int copies = r.splitDim >= 0 ? 1 : tpSize;
        const qint64 elements = r.whole.bytes / std::max(1, dtypeSize(r.whole.dtype));
        n += (r.whole.bytes + (optimizer ? 2 * 4 * elements : 0)) * copies;  // the backend's moments are F32
    }
    return n;
}

ReshardPlan planReshard(const CheckpointCandidate &c, const ReshardOptions &o)
{
    if (!c.adapter.isEmpty()) {
        ReshardPlan plan;
        planLayout(&plan, o);
        plan.source.checkpoint = c;
        plan.problems << ReshardText::tr("%1 is a LoRA adapter: re-sharding writes a model's checkpoint.").arg(checkpointTitle(c));
        return plan;
    }
    return planReshard(planConsolidation(c), o);
}

ReshardPlan planReshard(const ConsolidationPlan &checked, const ReshardOptions &o)
{
    ReshardPlan plan;
    planLayout(&plan, o);
    const CheckpointCandidate &c = checked.checkpoint;
    plan.source = checked;
    if (!c.adapter.isEmpty())
        plan.problems << ReshardText::tr("%1 is a LoRA adapter: re-sharding writes a model's checkpoint.").arg(checkpointTitle(c));
    plan.problems += plan.source.problems;
    if (!plan.problems.isEmpty())
        return plan;
    const json args = readJsonObject(companionPath(c.root, QStringLiteral("training_args.json")), &plan.problems);
    const bool sourceWhole = args.contains("disable_embedding_parallelization") && args["disable_embedding_parallelization"] == true;
    plan.vocabParallel = !(o.disableVocabParallel || sourceWhole);
    planEntries(&plan, c.root);
    if (plan.problems.isEmpty())
        planOptimizer(&plan, o);
    return plan;
}

ReshardPlan planReshardFromModel(const QString &folder, const ReshardOptions &o)
{
    ReshardPlan plan;
    planLayout(&plan, o);
    plan.fromModelFolder = true;
    plan.source = planModelFolder(folder);
    plan.problems += plan.source.problems;
    if (!plan.problems.isEmpty())
        return plan;
    plan.vocabParallel = !o.disableVocabParallel;
    planEntries(&plan, folder);
    if (plan.problems.isEmpty())
        planOptimizer(&plan, o);
    return plan;
}

void splitPart(const char *data, const std::vector<std::int64_t> &shape, int elementSize, int dim, int parts, int rank,
               std::string *out)
{
    std::int64_t total = elementSize;
    for (std::int64_t d : shape)
        total *= d;
    if (dim < 0 || parts <= 1) {
        out->assign(data, size_t(total));
        return;
    }
    std::int64_t outer = 1, inner = elementSize;
    for (int d = 0; d < dim; ++d)
        outer *= shape[size_t(d)];
    for (std::size_t d = size_t(dim) + 1; d < shape.size(); ++d)
        inner *= shape[d];
    const std::int64_t chunk = shape[size_t(dim)] * inner, part = chunk / parts;
    out->resize(size_t(outer * part));
    for (std::int64_t o = 0; o < outer; ++o)
        std::memcpy(out->data() + o * part, data + o * chunk + rank * part, size_t(part));
}

}  // namespace ingot
