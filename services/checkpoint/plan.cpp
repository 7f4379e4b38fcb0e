#include "services/checkpoint/plan.h"

#include "services/checkpoint/assemble.h"
#include "services/checkpoint/dcpconsolidate.h"
#include "services/checkpoint/metadata.h"
#include "services/checkpoint/shardreader.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QUtf8StringView>

#include <algorithm>
#include <exception>
#include <map>
#include <new>
#include <set>

namespace ingot {

namespace {
struct PlanText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};
using Shape = std::vector<std::int64_t>;

// Names come from files: shown escaped.
QString qs(const std::string &s)
{
    return displayName(nameFromBytes(QByteArray::fromStdString(s)));
}

QString dtypeText(DType t)
{
    return QString::fromLatin1(safetensorsName(t));
}

// An output of a GQA attention in role 0-3 (query, key, value, output projection): what the assembler needs of the
// spec; name, source, dtype and shape are the caller's.
ConsolidatePlanEntry gqaEntry(const PartitionMetadata::Gqa &g, int role, int pp)
{
    ConsolidatePlanEntry e;
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
    return e;
}

// What planning one pipeline stage needs: its ranks, their names and its metadata.
struct Stage {
    int pp = 0;
    std::vector<ShardReader *> ranks;  // by tp rank
    std::vector<std::string> names;    // of tp rank 0
    std::set<std::string> nameSet;
    PartitionMetadata md;
    std::map<std::string, const PartitionMetadata::Fused *> fusedBySource;
    // LoRA: an adapter's lora_A of a fused linear or a GQA attention is shared by its parts: one output per part.
    std::map<std::string, std::vector<std::string>> clonesOf;
    std::set<std::string> consumed;  // sources already planned as parts of a GQA attention
    bool holds(const std::string &n) const { return nameSet.count(n) > 0; }
};

class Planner final
{
    Q_DISABLE_COPY_MOVE(Planner)

public:
    explicit Planner(ConsolidationPlan *plan) : m_plan(plan), m_c(plan->checkpoint) {}
    void run();

private:
    bool loadStage(int pp, Stage *s);
    void planStage(Stage &s);
    void planGqa(Stage &s, const PartitionMetadata::Gqa &g);
    bool addGqaEntries(Stage &s, const PartitionMetadata::Gqa &g, const std::vector<std::string> &srcs,
                       const std::string &oName);
    bool addGqaBiasEntries(Stage &s, const PartitionMetadata::Gqa &g, std::int64_t headDim);
    bool gqaHeadOrderIsAPermutation(const PartitionMetadata::Gqa &g);
    void checkSameNames(const Stage &s);
    void checkTiedCopy(const Stage &s, const std::string &n);
    void planParameter(const Stage &s, const std::string &n);
    bool partitionOf(const Stage &s, ConsolidatePlanEntry *e);
    bool fusedStrideOf(const PartitionMetadata::Fused &fu, ConsolidatePlanEntry *e);
    bool expertsOf(ConsolidatePlanEntry *e);
    void addFusedParts(const ConsolidatePlanEntry &e, const PartitionMetadata::Fused &fu);
    bool add(ConsolidatePlanEntry e);
    void checkPieces(const Stage &s, const ConsolidatePlanEntry &e);
    void checkOutputNames();
    void problem(const QString &p) { m_plan->problems.append(p); }

    ConsolidationPlan *m_plan;
    const CheckpointCandidate &m_c;
    OpenShards m_shards;
    std::map<std::string, int> m_stageOf;  // the stage each output name was first planned from
    std::map<std::string, std::vector<int>> m_entriesOf;  // source -> its entries
    std::set<std::pair<int, std::string>> m_checked;   // (pp, source) whose pieces were checked
};

void Planner::run()
{
    m_plan->problems += m_c.problems;
    m_shards.open(m_c, &m_plan->problems);
    if (!m_plan->problems.isEmpty())
        return;
    for (int pp = 0; pp < m_c.ppSize; ++pp) {
        Stage s;
        if (loadStage(pp, &s))
            planStage(s);
    }
    checkOutputNames();
}

bool Planner::loadStage(int pp, Stage *s)
{
    s->pp = pp;
    for (int tp = 0; tp < m_c.tpSize; ++tp) {
        s->ranks.push_back(m_shards.at(pp, tp));
        if (!s->ranks.back()) {
            problem(PlanText::tr("The shard of tp rank %1, pp rank %2 is missing.").arg(tp).arg(pp));
            return false;
        }
    }
    s->names = s->ranks[0]->names();
    s->nameSet.insert(s->names.begin(), s->names.end());
    s->md = metadataForStage(m_c, m_shards, pp, &m_plan->problems);
    for (const QString &u : std::as_const(s->md.unsupportedSpecs))
        problem(PlanText::tr("Not supported yet: %1 (pp rank %2).").arg(u).arg(pp));
    // Fused linears: their fused name expands into one output per original linear. LoRA specs describe an adapter's
    // layers: lora_B is fused as the weight was, lora_A shared (optimum-neuron averaged the parts' A when it fused them).
    const bool adapter = !m_c.adapter.isEmpty();
    for (const PartitionMetadata::Fused &fu : s->md.fused) {
        const std::string base = fu.module + "." + fu.fusedName;
        if (fu.lora != adapter) {
            if (fu.lora)
                problem(PlanText::tr("Not supported yet: LoRA layers in a model's shards (%1); consolidate the adapters.").arg(qs(base)));
            continue;
        }
        s->fusedBySource[base + (fu.lora ? ".lora_B.weight" : ".weight")] = &fu;
        if (fu.bias && !fu.lora)
            s->fusedBySource[base + ".bias"] = &fu;
        if (fu.lora)
            for (const std::string &l : fu.linearNames)
                s->clonesOf[base + ".lora_A.weight"].push_back(fu.module + "." + l + ".lora_A.weight");
    }
    for (const PartitionMetadata::Gqa &g : s->md.gqa)
        if (g.lora && adapter)
            for (const std::string *l : {&g.q, &g.k, &g.v})
                s->clonesOf[g.module + "." + g.gqaName + ".lora_A.weight"].push_back(g.module + "." + *l + ".lora_A.weight");
        else if (g.lora)
            problem(PlanText::tr("Not supported yet: LoRA layers in a model's shards (%1); consolidate the adapters.").arg(qs(g.module)));
    return true;
}

void Planner::planStage(Stage &s)
{
    // GQA attentions first: their q/k/v (fused or not) and output projections become four outputs.
    for (const PartitionMetadata::Gqa &g : s.md.gqa)
        planGqa(s, g);
    checkSameNames(s);
    for (const std::string &n : s.names) {
        if (s.consumed.count(n))
            continue;
        if (m_stageOf.count(n))
            checkTiedCopy(s, n);
        else
            planParameter(s, n);
    }
}

void Planner::planGqa(Stage &s, const PartitionMetadata::Gqa &g)
{
    if (g.lora != !m_c.adapter.isEmpty())
        return;  // a model's attention in an adapter's metadata (its shards hold none of it), or refused in loadStage()
    // An adapter's LoRA of a GQA attention: lora_B is itself a GQA layer (weight_qkv or weight_q/_k/_v), and the
    // output projection's lora_A (row parallel) has its columns in GQA head order, as the weight has.
    const std::string base = g.module + "." + g.gqaName + (g.lora ? ".lora_B.weight" : ".weight");
    const std::string oName = g.module + "." + g.o + (g.lora ? ".lora_A.weight" : ".weight");
    const std::vector<std::string> srcs = g.fuse ? std::vector<std::string>{base + "_qkv"}
                                                 : std::vector<std::string>{base + "_q", base + "_k", base + "_v"};
    const bool present = std::all_of(srcs.begin(), srcs.end(), [&](const std::string &x) { return s.holds(x); });
    const bool hasO = s.holds(oName);
    if (!present || !hasO) {
        if (present || hasO)
            problem(PlanText::tr("The GQA attention %1 misses some of its parameters in pp rank %2.").arg(qs(g.module)).arg(s.pp));
        return;  // this stage does not hold that attention
    }
    for (const auto &x : srcs)
        s.consumed.insert(x);
    s.consumed.insert(oName);
    if (g.tpSize != m_c.tpSize) {
        problem(PlanText::tr("%1: the GQA spec says tp %2, the shards tp %3.").arg(qs(g.module)).arg(g.tpSize).arg(m_c.tpSize));
        return;
    }
    addGqaEntries(s, g, srcs, oName);
}

// optimum-neuron's per-rank head order must name every query head once, or the output would have holes.
bool Planner::gqaHeadOrderIsAPermutation(const PartitionMetadata::Gqa &g)
{
    std::vector<bool> seen(size_t(g.heads), false);
    std::int64_t count = 0;
    for (int tp = 0; tp < g.tpSize; ++tp)
        for (auto h : gqaQueryHeadsForRank(g.tpSize, tp, g.heads, g.kvHeads, g.multiplier)) {
            if (h < 0 || h >= g.heads || seen[size_t(h)])
                return false;
            seen[size_t(h)] = true;
            ++count;
        }
    return count == g.heads;
}

bool Planner::addGqaEntries(Stage &s, const PartitionMetadata::Gqa &g, const std::vector<std::string> &srcs,
                            const std::string &oName)
{
    DType dt = DType::Unknown, odt = DType::Unknown;
    Shape qShape, oShape;
    s.ranks[0]->info(srcs[0], &dt, &qShape);
    s.ranks[0]->info(oName, &odt, &oShape);
    if (qShape.size() != 2 || oShape.size() != 2 || qShape[1] < 1 || oShape[0] < 1) {
        problem(PlanText::tr("%1: GQA weights are not non-empty matrices (%2 %3, %4 %5 on tp rank 0).").arg(qs(g.module), qs(srcs[0]),
                    shapeText(qShape), qs(oName), shapeText(oShape)));
        return false;
    }
    // Each rank holds heads / tp query heads of head_dim rows, and kv_output_size_per_partition rows of the
    // kv_size_multiplier-times replicated keys and values. Older metadata without the sizes: the separate q and k
    // pieces' rows.
    if (g.qPerPartition == 0 && !g.fuse && s.ranks[0]->info(srcs[0], &dt, &qShape) && s.ranks[0]->info(srcs[1], &odt, &oShape) &&
        qShape.size() == 2 && oShape.size() == 2 && qShape[0] > 0 && oShape[0] > 0) {
        PartitionMetadata::Gqa sized = g;
        sized.qPerPartition = qShape[0];
        sized.kvPerPartition = oShape[0];
        return addGqaEntries(s, sized, srcs, oName);
    }
    const std::int64_t headsPerRank = g.heads / g.tpSize;
    std::int64_t headDim = 0, kvRows = 0, kvAll = 0, qkvRows = 0;
    if (g.qPerPartition % headsPerRank != 0 || (headDim = g.qPerPartition / headsPerRank) < 1 ||
        !checkedMul(g.kvPerPartition, g.tpSize, &kvAll) || !checkedMul(std::int64_t(g.kvHeads) * g.multiplier, headDim, &kvRows) ||
        kvAll != kvRows) {
        problem(PlanText::tr("%1: the GQA spec's sizes do not fit together: q_output_size_per_partition %2 for %3 heads over tp %4, "
                      "kv_output_size_per_partition %5 for %6 key/value heads x%7.").arg(qs(g.module)).arg(g.qPerPartition)
                    .arg(g.heads).arg(g.tpSize).arg(g.kvPerPartition).arg(g.kvHeads).arg(g.multiplier));
        return false;
    }
    if (!gqaHeadOrderIsAPermutation(g)) {
        problem(PlanText::tr("%1: the GQA head layout (%2 heads, %3 key/value heads x%4, tp %5) is not one Ingot can put back in "
                      "order.").arg(qs(g.module)).arg(g.heads).arg(g.kvHeads).arg(g.multiplier).arg(g.tpSize));
        return false;
    }
    if (g.fuse && !checkedAdd(g.qPerPartition, 2 * g.kvPerPartition, &qkvRows)) {
        problem(PlanText::tr("%1: the GQA sizes overflow.").arg(qs(g.module)));
        return false;
    }
    const std::int64_t hidden = qShape[1];
    const std::string w = g.lora ? ".lora_B.weight" : ".weight";
    const std::string outNames[] = {g.module + "." + g.q + w, g.module + "." + g.k + w, g.module + "." + g.v + w, oName};
    const Shape shapes[] = {{g.heads * headDim, hidden}, {g.kvHeads * headDim, hidden}, {g.kvHeads * headDim, hidden},
                            {oShape[0], g.heads * headDim}};
    bool ok = true;
    for (int role = 0; role < 4; ++role) {
        ConsolidatePlanEntry e = gqaEntry(g, role, s.pp);
        e.name = outNames[role];
        e.source = role == 3 ? oName : (g.fuse ? srcs[0] : srcs[size_t(role)]);
        e.dtype = role == 3 ? odt : dt;
        e.shape = shapes[role];
        m_stageOf[e.name] = s.pp;
        checkPieces(s, e);
        ok = add(e) && ok;
    }
    return ok && (!g.bias || g.lora || addGqaBiasEntries(s, g, headDim));
}

// The q/k/v biases of a GQA attention with bias: split and replicated as the weights' rows are (one value per
// row). The output projection's bias is row parallel, hence replicated: planned as any parameter.
bool Planner::addGqaBiasEntries(Stage &s, const PartitionMetadata::Gqa &g, std::int64_t headDim)
{
    const std::string base = g.module + "." + g.gqaName + ".bias";
    const std::vector<std::string> srcs = g.fuse ? std::vector<std::string>{base + "_qkv"}
                                                 : std::vector<std::string>{base + "_q", base + "_k", base + "_v"};
    for (const auto &x : srcs) {
        if (!s.holds(x)) {
            problem(PlanText::tr("%1: the GQA spec says bias, but %2 is not in pp rank %3.").arg(qs(g.module), qs(x)).arg(s.pp));
            return false;
        }
        s.consumed.insert(x);
    }
    DType dt = DType::Unknown;
    Shape shape;
    s.ranks[0]->info(srcs[0], &dt, &shape);
    const std::string outNames[] = {g.module + "." + g.q + ".bias", g.module + "." + g.k + ".bias", g.module + "." + g.v + ".bias"};
    bool ok = true;
    for (int role = 0; role < 3; ++role) {
        ConsolidatePlanEntry e = gqaEntry(g, role, s.pp);
        e.name = outNames[role];
        e.source = g.fuse ? srcs[0] : srcs[size_t(role)];
        e.dtype = dt;
        e.shape = {(role == 0 ? g.heads : g.kvHeads) * headDim};
        m_stageOf[e.name] = s.pp;
        checkPieces(s, e);
        ok = add(e) && ok;
    }
    return ok;
}

void Planner::checkSameNames(const Stage &s)
{
    for (int tp = 1; tp < m_c.tpSize; ++tp) {
        const std::vector<std::string> other = s.ranks[size_t(tp)]->names();
        if (std::set<std::string>(other.begin(), other.end()) != s.nameSet)
            problem(PlanText::tr("tp rank %1 of pp rank %2 holds other parameters than tp rank 0.").arg(tp).arg(s.pp));
    }
}

// A weight tied across stages (embeddings on the first, the LM head on the last) is written once, from the first
// stage; it must at least look the same in both.
void Planner::checkTiedCopy(const Stage &s, const std::string &n)
{
    DType here = DType::Unknown;
    Shape hereShape;
    s.ranks[0]->info(n, &here, &hereShape);
    const auto it = m_entriesOf.find(n);
    if (it == m_entriesOf.end())
        return;
    for (int i : it->second) {
        const ConsolidatePlanEntry &x = m_plan->entries[i];
        if (x.fuseAxis >= 0 || x.gqaRole >= 0)
            continue;
        if (x.dtype != here || pieceShape(x, m_c.tpSize) != hereShape)
            problem(PlanText::tr("%1 is in pp ranks %2 and %3 with different shapes or dtypes.").arg(qs(n)).arg(m_stageOf[n]).arg(s.pp));
    }
}

void Planner::planParameter(const Stage &s, const std::string &n)
{
    m_stageOf[n] = s.pp;
    ConsolidatePlanEntry e;
    e.name = n;
    e.source = n;
    e.pp = s.pp;
    s.ranks[0]->info(n, &e.dtype, &e.shape);
    if (!partitionOf(s, &e) || !expertsOf(&e))
        return;
    // The output is tp rank 0's piece, tp times as long along partition_dim; every piece is then checked.
    if (e.partitionDim >= 0 && !checkedMul(e.shape[size_t(e.partitionDim)], m_c.tpSize, &e.shape[size_t(e.partitionDim)])) {
        problem(PlanText::tr("%1: its size along dim %2 overflows.").arg(qs(n)).arg(e.partitionDim));
        return;
    }
    checkPieces(s, e);
    const auto fused = s.fusedBySource.find(n);
    if (fused != s.fusedBySource.end()) {
        addFusedParts(e, *fused->second);
        return;
    }
    const auto clones = s.clonesOf.find(n);
    if (clones == s.clonesOf.end()) {
        add(e);
        return;
    }
    for (const std::string &name : clones->second) {  // the same tensor under each part's name
        ConsolidatePlanEntry c = e;
        c.name = name;
        m_stageOf[name] = s.pp;
        add(c);
    }
}

// The dim the metadata says the parameter is split along (none when replicated); false when it cannot be.
bool Planner::partitionOf(const Stage &s, ConsolidatePlanEntry *e)
{
    const auto it = s.md.params.find(e->name);
    if (it == s.md.params.end() || !it->second.parallel || m_c.tpSize <= 1)
        return true;
    e->partitionDim = it->second.dim;
    e->stride = it->second.stride;
    if (e->partitionDim < 0 || e->partitionDim >= int(e->shape.size())) {
        problem(PlanText::tr("%1: partition_dim %2 does not fit its shape %3.").arg(qs(e->name)).arg(e->partitionDim).arg(shapeText(e->shape)));
        return false;
    }
    const auto fused = s.fusedBySource.find(e->name);
    if (fused != s.fusedBySource.end())
        return fusedStrideOf(*fused->second, e);
    if (e->stride > 1 && e->shape[size_t(e->partitionDim)] % e->stride != 0) {
        problem(PlanText::tr("%1: partition_stride %2 does not divide its piece %3 along dim %4.").arg(qs(e->name)).arg(e->stride)
                    .arg(shapeText(e->shape)).arg(e->partitionDim));
        return false;
    }
    return true;
}

// A fused linear's stride. optimum-neuron builds its fused linears as ColumnParallelLinear(stride=number of linears)
// (Llama's gate_up_proj with stride 2, MHA's fused qkv_proj with stride 3: models/training/llama/modeling_llama.py)
// and neuronx-distributed records that stride on the weight, which optimum-neuron saves in the metadata
// (transformations_utils.py, create_parameter_metadata). Whatever the stride says, each rank's piece is laid out as
// create_local_fused_weight writes it (rank r's slice of every linear, one after the other along fuse_axis), which
// for equal linears is exactly NxD's strided layout and which addFusedParts() undoes as FusedLinearsSpec's
// _to_original_weights does. So a stride of 1 (a spec built without one) or of the number of linears is that layout;
// anything else is not a layout either tool writes.
bool Planner::fusedStrideOf(const PartitionMetadata::Fused &fu, ConsolidatePlanEntry *e)
{
    const int n = int(fu.linearNames.size());
    if (e->stride != 1 && e->stride != n) {
        QStringList linears;
        for (const std::string &l : fu.linearNames)
            linears << qs(l);
        problem(PlanText::tr("%1: partition_stride %2 for the fusion of %3; optimum-neuron splits a fused linear with stride 1 or the "
                             "number of linears it fuses (%4).").arg(qs(e->name)).arg(e->stride).arg(linears.join(QStringLiteral(", "))).arg(n));
        return false;
    }
    e->stride = 1;  // each part is cut out of every rank's piece along fuse_axis, then the parts are concatenated
    return true;
}

// Expert parallelism: neuronx-distributed's experts (names with "expert_mlps", the rule of its
// checkpoint_converter.py) are stacked on dim 0, a block per ep rank; everything else is the same on every ep rank,
// taken from ep rank 0.
bool Planner::expertsOf(ConsolidatePlanEntry *e)
{
    if (m_c.epSize <= 1 || e->name.find("expert_mlps") == std::string::npos)
        return true;
    if (e->shape.empty() || e->partitionDim == 0) {
        problem(PlanText::tr("%1: an expert parameter of shape %2 split on dim %3 cannot be stacked over ep ranks on dim 0.")
                    .arg(qs(e->name), shapeText(e->shape)).arg(e->partitionDim));
        return false;
    }
    e->epSize = m_c.epSize;
    if (!checkedMul(e->shape[0], m_c.epSize, &e->shape[0])) {
        problem(PlanText::tr("%1: its size along dim 0 overflows.").arg(qs(e->name)));
        return false;
    }
    return true;
}

// Every rank's piece of `e` against the plan: its dtype, and exactly pieceShape(e). Checked once per source.
void Planner::checkPieces(const Stage &s, const ConsolidatePlanEntry &e)
{
    if (!m_checked.insert({s.pp, e.source}).second)
        return;
    const QString name = qs(e.source);
    const Shape want = pieceShape(e, m_c.tpSize);
    if (want.empty() && !e.shape.empty()) {
        problem(PlanText::tr("%1: the pieces of shape %2 cannot be split over tp %3.").arg(name, shapeText(e.shape)).arg(m_c.tpSize));
        return;
    }
    const int pd = e.gqaRole >= 0 || e.fuseAxis >= 0 ? -1 : e.partitionDim;
    for (int at = 0; at < m_c.tpSize * e.epSize; ++at) {
        const int tp = at % m_c.tpSize, ep = at / m_c.tpSize;
        DType dt = DType::Unknown;
        Shape sh;
        const ShardReader *r = ep == 0 ? s.ranks[size_t(tp)] : m_shards.at(s.pp, tp, ep);
        if (!r || !r->info(e.source, &dt, &sh)) {
            if (tp > 0 && ep == 0)
                continue;  // reported by checkSameNames()
            problem(PlanText::tr("%1 is missing on tp rank %2 of pp rank %3, ep rank %4.").arg(name).arg(tp).arg(s.pp).arg(ep));
            return;
        }
        if (dt != e.dtype)
            problem(PlanText::tr("%1: dtype %2 on tp rank %3 but %4 on tp rank 0.").arg(name, dtypeText(dt)).arg(tp).arg(dtypeText(e.dtype)));
        if (sh == want)
            continue;
        bool onlyAlongPd = pd >= 0 && sh.size() == want.size();
        for (std::size_t d = 0; onlyAlongPd && d < sh.size(); ++d)
            onlyAlongPd = int(d) == pd || sh[d] == want[d];
        if (onlyAlongPd)
            problem(PlanText::tr("%1: tp rank %2 holds %3 along dim %4 but tp rank 0 holds %5: the partition sizes do not add up.")
                        .arg(name).arg(tp).arg(sh[size_t(pd)]).arg(pd).arg(want[size_t(pd)]));
        else
            problem(PlanText::tr("%1: shape %2 on tp rank %3 of pp rank %4, but the plan (from tp rank 0 and the metadata) "
                          "expects %5.").arg(name, shapeText(sh)).arg(tp).arg(s.pp).arg(shapeText(want)));
    }
}

// Unfuse: each rank's piece holds original_dims[i] / tp of every linear along fuse_axis.
void Planner::addFusedParts(const ConsolidatePlanEntry &e, const PartitionMetadata::Fused &fu)
{
    const std::string &n = e.source;
    // What follows the fused linear's name: "weight", "bias", or an adapter's "lora_B.weight".
    const std::string prefix = fu.module + "." + fu.fusedName + ".";
    const std::string param = n.compare(0, prefix.size(), prefix) == 0 ? n.substr(prefix.size()) : n.substr(n.rfind('.') + 1);
    const Shape piece = pieceShape(e, m_c.tpSize);
    if (fu.fuseAxis < 0 || fu.fuseAxis >= int(piece.size())) {
        problem(PlanText::tr("%1: fuse_axis %2 does not fit its shape %3.").arg(qs(n)).arg(fu.fuseAxis).arg(shapeText(piece)));
        return;
    }
    if (fu.tpSize != m_c.tpSize) {
        problem(PlanText::tr("%1: the fused spec says tp %2, the shards tp %3.").arg(qs(n)).arg(fu.tpSize).arg(m_c.tpSize));
        return;
    }
    if (m_c.tpSize > 1 && e.partitionDim < 0) {
        problem(PlanText::tr("%1: a fused linear that is not split over the tp ranks (no partition_dim in the metadata).").arg(qs(n)));
        return;
    }
    std::int64_t total = 0;
    for (auto d : fu.originalDims) {
        if (d < 1 || d % fu.tpSize != 0 || !checkedAdd(total, d / fu.tpSize, &total)) {
            problem(PlanText::tr("%1: the fused size %2 is not a positive multiple of tp %3.").arg(qs(n)).arg(d).arg(fu.tpSize));
            return;
        }
    }
    if (total != piece[size_t(fu.fuseAxis)]) {
        problem(PlanText::tr("%1: the fused sizes add up to %2 per rank, the shard holds %3 along dim %4.").arg(qs(n))
                    .arg(total).arg(piece[size_t(fu.fuseAxis)]).arg(fu.fuseAxis));
        return;
    }
    std::int64_t offset = 0;
    for (std::size_t k = 0; k < fu.linearNames.size(); ++k) {
        ConsolidatePlanEntry part = e;
        part.name = fu.module + "." + fu.linearNames[k] + "." + param;
        part.fuseAxis = fu.fuseAxis;
        part.fuseOffset = offset;
        part.fuseLength = fu.originalDims[k] / fu.tpSize;
        part.fuseTotal = total;
        offset += part.fuseLength;
        part.shape = piece;
        part.shape[size_t(fu.fuseAxis)] = part.fuseLength;
        if (part.partitionDim >= 0)
            part.shape[size_t(part.partitionDim)] *= m_c.tpSize;  // at most the whole fused output's size
        add(part);
    }
}

// With its size in bytes, checked.
bool Planner::add(ConsolidatePlanEntry e)
{
    std::int64_t bytes = 0;
    if (!checkedByteSize(e.dtype, e.shape, &bytes)) {
        problem(PlanText::tr("%1: shape %2 (%3) is too large: its size does not fit in 64 bits.").arg(qs(e.name), shapeText(e.shape), dtypeText(e.dtype)));
        return false;
    }
    e.bytes = bytes;
    m_entriesOf[e.source].push_back(int(m_plan->entries.size()));
    m_plan->entries.append(e);
    return true;
}

// Output names must be unique, and never the safetensors header's own key.
void Planner::checkOutputNames()
{
    std::set<std::string> seen;
    std::int64_t total = 0;
    for (const ConsolidatePlanEntry &e : std::as_const(m_plan->entries)) {
        if (!QUtf8StringView(e.name).isValidUtf8())
            problem(PlanText::tr("The tensor name %1 is not valid UTF-8, which safetensors and torch.load need.").arg(qs(e.name)));
        else if (e.name == "__metadata__")
            problem(PlanText::tr("A tensor is named __metadata__, the name safetensors keeps for its header's metadata: it "
                          "cannot be written."));
        else if (!seen.insert(e.name).second)
            problem(PlanText::tr("Two outputs would be named %1 (a parameter and a part of a fused or GQA one?).").arg(qs(e.name)));
        if (!checkedAdd(total, e.bytes, &total))
            problem(PlanText::tr("The output's total size does not fit in 64 bits."));
    }
}
}  // namespace

QString shapeText(const std::vector<std::int64_t> &shape)
{
    QStringList p;
    for (auto d : shape)
        p << QString::number(d);
    return QLatin1Char('[') + p.join(QStringLiteral(", ")) + QLatin1Char(']');
}

MergeKind mergeKind(const ConsolidatePlanEntry &e, int tpSize)
{
    if (!e.loraA.empty())
        return MergeKind::LoraMerged;
    if (e.gqaRole >= 0)
        return MergeKind::Gqa;
    if (e.fuseAxis >= 0)
        return MergeKind::Unfused;
    if (e.partitionDim >= 0)
        return MergeKind::Concatenated;
    return tpSize > 1 ? MergeKind::Replicated : MergeKind::Copied;
}

QString mergeText(const ConsolidatePlanEntry &e, int tpSize)
{
    const MergeKind kind = mergeKind(e, tpSize);
    if (e.dcpChunks > 0) {  // a DCP tensor: read whole when it is one chunk, else assembled; TorchTitan's wq / wk reordered
        const QString how = e.dcpChunks > 1 ? PlanText::tr("assembled from %n chunk(s)", nullptr, e.dcpChunks) : PlanText::tr("copied as it is");
        return e.ropeHeads > 0 ? PlanText::tr("%1, rows reordered from TorchTitan's RoPE order (%n head(s))", nullptr, e.ropeHeads).arg(how) : how;
    }
    if (e.name != e.source && (kind == MergeKind::Copied || kind == MergeKind::Replicated)) {
        // An adapter's lora_A shared by the parts of a fused linear or a GQA attention, written for each part.
        const std::string from = e.source.substr(0, e.source.rfind(".lora_A"));
        return PlanText::tr("shared %1 of %2, copied (from tp rank 0)").arg(QStringLiteral("lora_A"), qs(from.substr(from.rfind('.') + 1)));
    }
    switch (kind) {
    case MergeKind::Copied:
        return PlanText::tr("copied as it is");
    case MergeKind::Replicated:
        return e.epSize > 1 ? PlanText::tr("experts of %1 ep ranks stacked on dim 0, replicated over tp").arg(e.epSize)
                            : PlanText::tr("replicated (from tp rank 0)");
    case MergeKind::Concatenated: {
        const QString t = e.stride > 1 ? PlanText::tr("concatenated on dim %1 in %2 strided blocks").arg(e.partitionDim).arg(e.stride)
                                       : PlanText::tr("concatenated on dim %1").arg(e.partitionDim);
        return e.epSize > 1 ? PlanText::tr("experts of %1 ep ranks stacked on dim 0, each %2").arg(e.epSize).arg(t) : t;
    }
    case MergeKind::Unfused: {
        // The fused linear's name: before "weight"/"bias", or before an adapter's "lora_B.weight".
        std::string fused = e.source.substr(0, e.source.rfind('.'));
        if (fused.size() > 7 && fused.compare(fused.size() - 7, 7, ".lora_B") == 0)
            fused.resize(fused.size() - 7);
        const QString from = qs(fused.substr(fused.rfind('.') + 1));
        return e.partitionDim >= 0 && tpSize > 1 ? PlanText::tr("un-fused from %1, concatenated on dim %2").arg(from).arg(e.partitionDim)
                                                 : PlanText::tr("un-fused from %1").arg(from);
    }
    case MergeKind::LoraMerged:
        return PlanText::tr("LoRA merged: W + %1 · B·A").arg(e.loraScale);
    case MergeKind::Gqa:
        switch (e.gqaRole) {
        case 0:
            return PlanText::tr("GQA query: %n head(s) put back in order", nullptr, e.heads);
        case 1:
            return e.kvMultiplier > 1 ? PlanText::tr("GQA key: %n head(s), ×%1 replication dropped", nullptr, e.kvHeads).arg(e.kvMultiplier)
                                      : PlanText::tr("GQA key: %n head(s)", nullptr, e.kvHeads);
        case 2:
            return e.kvMultiplier > 1 ? PlanText::tr("GQA value: %n head(s), ×%1 replication dropped", nullptr, e.kvHeads).arg(e.kvMultiplier)
                                      : PlanText::tr("GQA value: %n head(s)", nullptr, e.kvHeads);
        default:
            return PlanText::tr("GQA output: heads put back in order");
        }
    }
    return {};
}

SourceRanks sourceRanks(const ConsolidatePlanEntry &e, int tpSize)
{
    SourceRanks r;
    r.pp = e.pp;
    r.lastTp = mergeKind(e, tpSize) == MergeKind::Replicated || mergeKind(e, tpSize) == MergeKind::Copied ? 0 : std::max(tpSize, 1) - 1;
    return r;
}

std::vector<std::int64_t> pieceShape(const ConsolidatePlanEntry &e, int tpSize)
{
    Shape p = e.shape;
    if (tpSize < 1 || e.epSize < 1)
        return {};
    if (e.epSize > 1) {  // one ep rank's experts
        if (p.empty() || p[0] % e.epSize != 0)
            return {};
        p[0] /= e.epSize;
    }
    if (e.gqaRole >= 0 && e.gqaRole < 3 && p.size() == 1) {  // a q/k/v bias: one value per row
        if (e.fusedQkv)
            return {e.qRowsPerRank + 2 * e.kvRowsPerRank};
        return {e.gqaRole == 0 ? e.qRowsPerRank : e.kvRowsPerRank};
    }
    if (e.gqaRole >= 0) {
        if (p.size() != 2)
            return {};
        if (e.gqaRole == 3) {
            if (p[1] % tpSize != 0)
                return {};
            return {p[0], p[1] / tpSize};
        }
        if (e.fusedQkv)
            return {e.qRowsPerRank + 2 * e.kvRowsPerRank, p[1]};
        return {e.gqaRole == 0 ? e.qRowsPerRank : e.kvRowsPerRank, p[1]};
    }
    if (e.partitionDim >= 0) {
        if (e.stride < 1 || e.partitionDim >= int(p.size()) || p[size_t(e.partitionDim)] % (std::int64_t(tpSize) * e.stride) != 0)
            return {};
        p[size_t(e.partitionDim)] /= tpSize;
    }
    if (e.fuseAxis >= 0) {
        if (e.fuseAxis >= int(p.size()))
            return {};
        p[size_t(e.fuseAxis)] = e.fuseTotal;
    }
    return p;
}

qint64 ConsolidationPlan::bytes() const
{
    qint64 total = 0;
    for (const ConsolidatePlanEntry &e : entries)
        total += e.bytes;
    return total;
}

qint64 ConsolidationPlan::optimizerBytes() const
{
    qint64 total = 0;
    for (const ConsolidatePlanEntry &e : optimizerEntries)
        total += e.bytes;
    return total;
}

QString tensorNameText(const std::string &name)
{
    return qs(name);
}

ConsolidationPlan planConsolidation(const CheckpointCandidate &c)
{
    if (c.layout == ShardLayout::Dcp)
        return planDcpConsolidation(c);
    ConsolidationPlan plan;
    plan.checkpoint = c;
    try {
        Planner(&plan).run();
    } catch (const std::bad_alloc &) {
        plan.problems << PlanText::tr("Ran out of memory while checking the checkpoint.");
    } catch (const std::exception &e) {  // a last resort: every check reports its own problems
        plan.problems << PlanText::tr("Stopped while checking the checkpoint: %1").arg(QString::fromLocal8Bit(e.what()));
    }
    return plan;
}

}  // namespace ingot
