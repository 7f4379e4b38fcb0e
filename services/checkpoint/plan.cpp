#include "services/checkpoint/plan.h"

#include "services/checkpoint/metadata.h"
#include "services/checkpoint/shardreader.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <set>

namespace ingot {

namespace {
struct PlanText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};
using T = PlanText;
using Shape = std::vector<std::int64_t>;

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString shapeText(const Shape &s)
{
    QStringList p;
    for (auto d : s)
        p << QString::number(d);
    return QLatin1Char('[') + p.join(QStringLiteral(", ")) + QLatin1Char(']');
}

qint64 byteSize(DType dtype, const Shape &shape)
{
    qint64 bytes = dtypeSize(dtype);
    for (auto d : shape)
        bytes *= d;
    return bytes;
}

bool holds(const std::vector<std::string> &names, const std::string &n)
{
    return std::find(names.begin(), names.end(), n) != names.end();
}

// What planning one pipeline stage needs: its ranks, their names and its metadata.
struct Stage {
    int pp = 0;
    std::vector<ShardReader *> ranks;  // by tp rank
    std::vector<std::string> names;    // of tp rank 0
    PartitionMetadata md;
    std::map<std::string, const PartitionMetadata::Fused *> fusedBySource;
    std::set<std::string> consumed;  // sources already planned as parts of a GQA attention
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
    bool addGqaEntries(const Stage &s, const PartitionMetadata::Gqa &g, const std::vector<std::string> &srcs,
                       const std::string &oName);
    void checkSameNames(const Stage &s);
    void checkTiedCopy(const Stage &s, const std::string &n);
    void planParameter(const Stage &s, const std::string &n);
    bool partitionOf(const Stage &s, ConsolidatePlanEntry *e);
    void gatherPieces(const Stage &s, ConsolidatePlanEntry *e);
    void addFusedParts(const Stage &s, const ConsolidatePlanEntry &e, const PartitionMetadata::Fused &fu);
    void problem(const QString &p) { m_plan->problems.append(p); }

    ConsolidationPlan *m_plan;
    const CheckpointCandidate &m_c;
    OpenShards m_shards;
    std::map<std::string, int> m_stageOf;  // the stage each output name was first planned from
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
}

bool Planner::loadStage(int pp, Stage *s)
{
    s->pp = pp;
    for (int tp = 0; tp < m_c.tpSize; ++tp) {
        s->ranks.push_back(m_shards.at(pp, tp));
        if (!s->ranks.back()) {
            problem(T::tr("The shard of tp rank %1, pp rank %2 is missing.").arg(tp).arg(pp));
            return false;
        }
    }
    s->names = s->ranks[0]->names();
    s->md = metadataForStage(m_c, m_shards, pp, &m_plan->problems);
    for (const QString &u : std::as_const(s->md.unsupportedSpecs))
        problem(T::tr("Not supported yet: %1 (pp rank %2).").arg(u).arg(pp));
    // Fused linears: their fused name expands into one output per original linear.
    for (const PartitionMetadata::Fused &fu : s->md.fused) {
        s->fusedBySource[fu.module + "." + fu.fusedName + ".weight"] = &fu;
        if (fu.bias)
            s->fusedBySource[fu.module + "." + fu.fusedName + ".bias"] = &fu;
    }
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
    const std::string base = g.module + "." + g.gqaName + ".weight";
    const std::string oName = g.module + "." + g.o + ".weight";
    const std::vector<std::string> srcs = g.fuse ? std::vector<std::string>{base + "_qkv"}
                                                 : std::vector<std::string>{base + "_q", base + "_k", base + "_v"};
    const bool present = std::all_of(srcs.begin(), srcs.end(), [&](const std::string &x) { return holds(s.names, x); });
    const bool hasO = holds(s.names, oName);
    if (!present || !hasO) {
        if (present || hasO)
            problem(T::tr("The GQA attention %1 misses some of its parameters in pp rank %2.").arg(qs(g.module)).arg(s.pp));
        return;  // this stage does not hold that attention
    }
    if (g.tpSize != m_c.tpSize) {
        problem(T::tr("%1: the GQA spec says tp %2, the shards tp %3.").arg(qs(g.module)).arg(g.tpSize).arg(m_c.tpSize));
        return;
    }
    if (!addGqaEntries(s, g, srcs, oName))
        return;
    for (const auto &x : srcs)
        s.consumed.insert(x);
    s.consumed.insert(oName);
}

bool Planner::addGqaEntries(const Stage &s, const PartitionMetadata::Gqa &g, const std::vector<std::string> &srcs,
                            const std::string &oName)
{
    DType dt = DType::Unknown, odt = DType::Unknown;
    Shape qkvShape, oShape;
    s.ranks[0]->info(srcs[0], &dt, &qkvShape);
    s.ranks[0]->info(oName, &odt, &oShape);
    if (qkvShape.size() != 2 || oShape.size() != 2) {
        problem(T::tr("%1: GQA weights are not matrices.").arg(qs(g.module)));
        return false;
    }
    if (g.fuse && qkvShape[0] != g.qPerPartition + 2 * g.kvPerPartition) {
        problem(T::tr("%1: the fused qkv piece has %2 rows, the spec implies %3.").arg(qs(g.module))
                    .arg(qkvShape[0]).arg(g.qPerPartition + 2 * g.kvPerPartition));
        return false;
    }
    const std::int64_t headDim = g.qPerPartition / (g.heads / g.tpSize);
    const std::int64_t hidden = qkvShape[1];
    const std::string outNames[] = {g.module + "." + g.q + ".weight", g.module + "." + g.k + ".weight",
                                    g.module + "." + g.v + ".weight", oName};
    const Shape shapes[] = {{g.heads * headDim, hidden}, {g.kvHeads * headDim, hidden}, {g.kvHeads * headDim, hidden},
                            {oShape[0], g.heads * headDim}};
    for (int role = 0; role < 4; ++role) {
        ConsolidatePlanEntry e;
        e.name = outNames[role];
        e.source = role == 3 ? oName : (g.fuse ? srcs[0] : srcs[size_t(role)]);
        e.dtype = role == 3 ? odt : dt;
        e.pp = s.pp;
        e.gqaRole = role;
        e.heads = g.heads;
        e.kvHeads = g.kvHeads;
        e.kvMultiplier = g.multiplier;
        e.tpSize = g.tpSize;
        e.qRowsPerRank = g.qPerPartition;
        e.kvRowsPerRank = g.kvPerPartition;
        e.fusedQkv = g.fuse;
        e.partitionDim = role == 3 ? 1 : 0;
        e.shape = shapes[role];
        e.bytes = byteSize(e.dtype, e.shape);
        m_stageOf[e.name] = s.pp;
        m_plan->entries.append(e);
    }
    return true;
}

void Planner::checkSameNames(const Stage &s)
{
    const std::set<std::string> nameSet(s.names.begin(), s.names.end());
    for (int tp = 1; tp < m_c.tpSize; ++tp) {
        const std::vector<std::string> other = s.ranks[size_t(tp)]->names();
        if (std::set<std::string>(other.begin(), other.end()) != nameSet)
            problem(T::tr("tp rank %1 of pp rank %2 holds other parameters than tp rank 0.").arg(tp).arg(s.pp));
    }
}

// A weight tied across stages (embeddings on the first, the LM head on the last) is written once, from the first
// stage; it must at least look the same in both.
void Planner::checkTiedCopy(const Stage &s, const std::string &n)
{
    DType here = DType::Unknown;
    Shape hereShape;
    s.ranks[0]->info(n, &here, &hereShape);
    for (const auto &x : std::as_const(m_plan->entries)) {
        if (x.source != n || x.fuseAxis >= 0)
            continue;
        Shape piece = x.shape;
        if (x.partitionDim >= 0 && x.partitionDim < int(piece.size()))
            piece[size_t(x.partitionDim)] /= m_c.tpSize;
        if (x.dtype != here || piece != hereShape)
            problem(T::tr("%1 is in pp ranks %2 and %3 with different shapes or dtypes.").arg(qs(n)).arg(m_stageOf[n]).arg(s.pp));
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
    if (!partitionOf(s, &e))
        return;
    gatherPieces(s, &e);
    const auto fused = s.fusedBySource.find(n);
    if (fused != s.fusedBySource.end()) {
        addFusedParts(s, e, *fused->second);
        return;
    }
    e.bytes = byteSize(e.dtype, e.shape);
    m_plan->entries.append(e);
}

// The dim the metadata says the parameter is split along (none when replicated); false when it cannot be.
bool Planner::partitionOf(const Stage &s, ConsolidatePlanEntry *e)
{
    const auto it = s.md.params.find(e->name);
    if (it == s.md.params.end() || !it->second.parallel || m_c.tpSize <= 1)
        return true;
    e->partitionDim = it->second.dim;
    if (it->second.stride != 1)
        problem(T::tr("%1 uses partition_stride %2, which is not supported yet.").arg(qs(e->name)).arg(it->second.stride));
    if (e->partitionDim < 0 || e->partitionDim >= int(e->shape.size())) {
        problem(T::tr("%1: partition_dim %2 does not fit its shape %3.").arg(qs(e->name)).arg(e->partitionDim).arg(shapeText(e->shape)));
        return false;
    }
    return true;
}

// Every rank's piece must have the dtype and the other dims of tp rank 0's; split ones the same size along
// partition_dim too (tensor parallelism splits evenly). The output's size along it is their sum.
void Planner::gatherPieces(const Stage &s, ConsolidatePlanEntry *e)
{
    const QString name = qs(e->name);
    const int pd = e->partitionDim;
    std::int64_t along = 0;
    for (int tp = 0; tp < m_c.tpSize; ++tp) {
        DType dt = DType::Unknown;
        Shape sh;
        if (!s.ranks[size_t(tp)]->info(e->source, &dt, &sh))
            continue;  // reported by checkSameNames()
        if (dt != e->dtype)
            problem(T::tr("%1: dtype %2 on tp rank %3 but %4 on tp rank 0.").arg(name, QString::fromLatin1(safetensorsName(dt)))
                        .arg(tp).arg(QString::fromLatin1(safetensorsName(e->dtype))));
        bool sameOtherDims = sh.size() == e->shape.size();
        for (std::size_t d = 0; sameOtherDims && d < sh.size(); ++d)
            if (int(d) != pd && sh[d] != e->shape[d])
                sameOtherDims = false;
        if (!sameOtherDims) {
            problem(T::tr("%1: shape %2 on tp rank %3 disagrees with %4 on tp rank 0.").arg(name, shapeText(sh)).arg(tp).arg(shapeText(e->shape)));
        } else if (pd >= 0) {
            if (sh[size_t(pd)] != e->shape[size_t(pd)])
                problem(T::tr("%1: tp rank %2 holds %3 along dim %4 but tp rank 0 holds %5: the partition sizes do not add up.")
                            .arg(name).arg(tp).arg(sh[size_t(pd)]).arg(pd).arg(e->shape[size_t(pd)]));
            along += sh[size_t(pd)];
        }
    }
    if (pd >= 0)
        e->shape[size_t(pd)] = along;
}

// Unfuse: each rank's piece holds original_dims[i] / tp of every linear along fuse_axis.
void Planner::addFusedParts(const Stage &s, const ConsolidatePlanEntry &e, const PartitionMetadata::Fused &fu)
{
    const std::string &n = e.source;
    const std::string param = n.substr(n.rfind('.') + 1);
    Shape piece;
    DType dt = DType::Unknown;
    s.ranks[0]->info(n, &dt, &piece);
    if (fu.fuseAxis >= int(piece.size())) {
        problem(T::tr("%1: fuse_axis %2 does not fit its shape.").arg(qs(n)).arg(fu.fuseAxis));
        return;
    }
    std::int64_t total = 0;
    for (auto d : fu.originalDims)
        total += d / fu.tpSize;
    if (total != piece[size_t(fu.fuseAxis)] || fu.tpSize != m_c.tpSize) {
        problem(T::tr("%1: the fused sizes %2 / tp %3 do not match the shard's %4.").arg(qs(n))
                    .arg(total * fu.tpSize).arg(fu.tpSize).arg(piece[size_t(fu.fuseAxis)]));
        return;
    }
    std::int64_t offset = 0;
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
            part.shape[size_t(part.partitionDim)] *= m_c.tpSize;
        part.bytes = byteSize(part.dtype, part.shape);
        m_plan->entries.append(part);
    }
}
}  // namespace

qint64 ConsolidationPlan::bytes() const
{
    qint64 total = 0;
    for (const ConsolidatePlanEntry &e : entries)
        total += e.bytes;
    return total;
}

ConsolidationPlan planConsolidation(const CheckpointCandidate &c)
{
    ConsolidationPlan plan;
    plan.checkpoint = c;
    Planner(&plan).run();
    return plan;
}

}  // namespace ingot
