#include "services/checkpoint/assemble.h"

#include "services/checkpoint/loramerge.h"
#include "services/checkpoint/shardreader.h"

#include <QCoreApplication>

#include <cstring>

namespace ingot {

namespace {
struct AssembleText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

std::int64_t product(const std::vector<std::int64_t> &shape, std::size_t from, std::size_t to)
{
    std::int64_t n = 1;
    for (std::size_t d = from; d < to && d < shape.size(); ++d)
        n *= shape[d];
    return n;
}
}  // namespace

TensorAssembler::TensorAssembler(const OpenShards &shards, int tpSize, bool checkReplicas)
    : m_shards(shards), m_tpSize(tpSize), m_checkReplicas(checkReplicas)
{
}

// The plan's numbers must agree with each other before any of them sizes a buffer or an offset.
bool TensorAssembler::planAddsUp(const ConsolidatePlanEntry &e, QString *error) const
{
    std::int64_t bytes = 0;
    const bool split = e.partitionDim >= 0 || e.fuseAxis >= 0 || e.gqaRole >= 0;
    if (!checkedByteSize(e.dtype, e.shape, &bytes) || bytes != e.bytes || m_tpSize < 1 ||
        (split && pieceShape(e, m_tpSize).empty())) {
        *error = AssembleText::tr("%1: the plan does not add up (its shape, size or split); check the checkpoint again.")
                     .arg(QString::fromStdString(e.name));
        return false;
    }
    return true;
}

// One ep rank's block of an expert parameter: its experts, merged over tp as any parameter.
static ConsolidatePlanEntry epBlock(const ConsolidatePlanEntry &e, int ep)
{
    ConsolidatePlanEntry b = e;
    b.epSize = 1;
    b.ep = ep;
    b.shape[0] /= e.epSize;
    b.bytes = e.bytes / e.epSize;
    return b;
}

bool TensorAssembler::assemble(const ConsolidatePlanEntry &e, const char **data, qint64 *size, QString *error)
{
    if (!planAddsUp(e, error))
        return false;
    if (e.epSize > 1) {  // the ep ranks' blocks one after another (dim 0 is the outermost)
        std::string all(size_t(e.bytes), '\0');
        for (int ep = 0; ep < e.epSize; ++ep) {
            const ConsolidatePlanEntry b = epBlock(e, ep);
            const char *p = nullptr;
            qint64 n = 0;
            if (!assemble(b, &p, &n, error))
                return false;
            std::memcpy(all.data() + ep * b.bytes, p, size_t(n));
        }
        m_experts.swap(all);
        *data = m_experts.data();
        *size = e.bytes;
        return true;
    }
    const bool split = e.partitionDim >= 0 || e.fuseAxis >= 0 || e.gqaRole >= 0;
    if (!e.loraA.empty())
        *data = loraMerged(e, error);
    else if (e.gqaRole >= 0)
        *data = gqa(e, error);
    else if (!split)
        *data = replicated(e, error);
    else
        *data = concatenated(e, error);
    *size = e.bytes;
    return *data != nullptr;
}

const char *TensorAssembler::stalePiece(const ConsolidatePlanEntry &e, int tp, QString *error) const
{
    *error = AssembleText::tr("%1 on tp rank %2 of pp rank %3 is not what the check found: the shards changed since. Check the "
                   "checkpoint again.").arg(QString::fromStdString(e.source)).arg(tp).arg(e.pp);
    return nullptr;
}

const char *TensorAssembler::piece(const ConsolidatePlanEntry &e, int tp, std::string *buf, QString *error)
{
    ShardReader *r = m_shards.at(e.pp, tp, e.ep);
    DType dt = DType::Unknown;
    Shape shape;
    std::int64_t bytes = 0;
    if (!r || !r->info(e.source, &dt, &shape) || dt != e.dtype || shape != pieceShape(e, m_tpSize) ||
        !checkedByteSize(dt, shape, &bytes))
        return stalePiece(e, tp, error);
    qint64 size = 0;
    const char *p = r->read(e.source, buf, &size, error);
    if (p && size != bytes)
        return stalePiece(e, tp, error);
    return p;
}

TensorAssembler::Direct TensorAssembler::pieceLocation(const ConsolidatePlanEntry &e, int tp, RangeCopier::Source *at,
                                                       QString *error) const
{
    ShardReader *r = m_shards.at(e.pp, tp, e.ep);
    DType dt = DType::Unknown;
    Shape shape;
    std::int64_t bytes = 0;
    if (!r || !r->info(e.source, &dt, &shape) || dt != e.dtype || shape != pieceShape(e, m_tpSize) ||
        !checkedByteSize(dt, shape, &bytes)) {
        stalePiece(e, tp, error);
        return Direct::Failed;
    }
    ShardReader::Location loc;
    if (!r->locate(e.source, &loc, error))
        return error->isEmpty() ? Direct::NotHere : Direct::Failed;
    if (loc.size != bytes) {
        stalePiece(e, tp, error);
        return Direct::Failed;
    }
    *at = {loc.fd, loc.offset, r->file().path};
    return Direct::Written;
}

bool TensorAssembler::cutShape(const ConsolidatePlanEntry &e, Shape *cut, QString *error) const
{
    const std::size_t pdim = size_t(e.partitionDim >= 0 ? e.partitionDim : 0);
    const int ranksUsed = e.partitionDim >= 0 ? m_tpSize : 1;
    *cut = e.shape;
    if (pdim >= cut->size() || (*cut)[pdim] % ranksUsed != 0) {
        stalePiece(e, 0, error);
        return false;
    }
    (*cut)[pdim] /= ranksUsed;
    return true;
}

TensorAssembler::Direct TensorAssembler::writeDirect(const ConsolidatePlanEntry &e, RangeCopier &copier,
                                                     const RangeCopier::Target &out, QString *error)
{
    const bool split = e.partitionDim >= 0 || e.fuseAxis >= 0 || e.gqaRole >= 0;
    if (e.gqaRole >= 0 || e.fuseAxis >= 0 || !e.loraA.empty() || (!split && m_checkReplicas && m_tpSize > 1))
        return Direct::NotHere;
    if (!planAddsUp(e, error))
        return Direct::Failed;
    if (e.epSize > 1) {  // block by block; a block NotHere is then written whole by the caller through assemble()
        for (int ep = 0; ep < e.epSize; ++ep) {
            const ConsolidatePlanEntry b = epBlock(e, ep);
            RangeCopier::Target to = out;
            to.offset += ep * b.bytes;
            if (const Direct d = writeDirect(b, copier, to, error); d != Direct::Written)
                return d;
        }
        return Direct::Written;
    }
    const int ranksUsed = split ? m_tpSize : 1;
    Shape cut;
    if (split && (!cutShape(e, &cut, error) || (e.bytes > 0 && pieceShape(e, m_tpSize) != cut))) {
        if (error->isEmpty())
            stalePiece(e, 0, error);
        return Direct::Failed;
    }
    // Every piece located (and checked) before a byte is written: NotHere leaves the output as it was.
    std::vector<RangeCopier::Source> pieces(static_cast<std::size_t>(ranksUsed));
    for (int tp = 0; tp < ranksUsed; ++tp)
        if (const Direct d = pieceLocation(e, tp, &pieces[std::size_t(tp)], error); d != Direct::Written)
            return d;
    if (e.bytes == 0)
        return Direct::Written;
    if (!split)
        return copier.copy(pieces[0], out, e.bytes, error) ? Direct::Written : Direct::Failed;
    const std::size_t pdim = std::size_t(e.partitionDim);
    const std::int64_t outer = product(e.shape, 0, pdim) * e.stride;  // see concatenated() for the stride
    const std::int64_t rowIn = cut[pdim] / e.stride * dtypeSize(e.dtype) * product(e.shape, pdim + 1, e.shape.size());
    if (outer == 1) {  // concatenated on the first dim (or all before it are 1): each piece is one range
        for (int tp = 0; tp < ranksUsed; ++tp) {
            RangeCopier::Target to = out;
            to.offset += tp * rowIn;
            if (!copier.copy(pieces[std::size_t(tp)], to, rowIn, error))
                return Direct::Failed;
        }
        return Direct::Written;
    }
    return copier.interleave(pieces, outer, rowIn, out, error) ? Direct::Written : Direct::Failed;
}

// The weight with the adapter's B·A added (loramerge.h has the arithmetic and the checks of shapes and dtypes).
const char *TensorAssembler::loraMerged(const ConsolidatePlanEntry &e, QString *error)
{
    const char *w = piece(e, 0, &m_piece, error);
    if (!w)
        return nullptr;
    m_out.assign(w, size_t(e.bytes));
    DType ta = DType::Unknown, tb = DType::Unknown;
    Shape sa, sb;
    qint64 na = 0, nb = 0;
    if (!m_adapter || !m_adapter->info(e.loraA, &ta, &sa) || !m_adapter->info(e.loraB, &tb, &sb)) {
        *error = AssembleText::tr("%1: its LoRA matrices are not in the adapter any more.").arg(QString::fromStdString(e.name));
        return nullptr;
    }
    const char *a = m_adapter->read(e.loraA, &m_loraA, &na, error);
    const char *b = a ? m_adapter->read(e.loraB, &m_loraB, &nb, error) : nullptr;
    if (!b)
        return nullptr;
    const LoraOperand A{ta, sa, a, na}, B{tb, sb, b, nb};
    return addLoraDelta(e, m_out.data(), A, B, error) ? m_out.data() : nullptr;
}

// Replicated: tp rank 0's copy.
const char *TensorAssembler::replicated(const ConsolidatePlanEntry &e, QString *error)
{
    const char *data = piece(e, 0, &m_piece, error);
    if (!data || !m_checkReplicas || m_tpSize <= 1)
        return data;
    m_out.assign(data, size_t(e.bytes));  // the next reads may reuse m_piece
    return sameOnEveryRank(e, m_out.data(), error) ? m_out.data() : nullptr;
}

bool TensorAssembler::sameOnEveryRank(const ConsolidatePlanEntry &e, const char *data, QString *error)
{
    for (int tp = 1; tp < m_tpSize; ++tp) {
        const char *other = piece(e, tp, &m_other, error);
        if (!other)
            return false;
        if (std::memcmp(other, data, size_t(e.bytes)) != 0) {
            *error = AssembleText::tr("%1 differs between tp rank 0 and tp rank %2, though it should be replicated.")
                         .arg(QString::fromStdString(e.name)).arg(tp);
            return false;
        }
    }
    return true;
}

// Split: the tp pieces side by side along partition_dim, one row block at a time (a fused linear's part is first
// cut out of each piece along fuse_axis).
const char *TensorAssembler::concatenated(const ConsolidatePlanEntry &e, QString *error)
{
    m_out.assign(size_t(e.bytes), '\0');
    if (e.bytes == 0)
        return m_out.data();  // every dim below is now at least 1: no partial product overflows
    const std::size_t pdim = size_t(e.partitionDim >= 0 ? e.partitionDim : 0);
    const int ranksUsed = e.partitionDim >= 0 ? m_tpSize : 1;
    Shape cut = e.shape;  // each rank's part of the output
    if (pdim >= cut.size() || cut[pdim] % ranksUsed != 0)
        return stalePiece(e, 0, error);
    cut[pdim] /= ranksUsed;
    const Shape whole = pieceShape(e, m_tpSize);
    if (e.fuseAxis >= 0) {
        Shape afterCut = whole;
        if (size_t(e.fuseAxis) >= afterCut.size() || e.fuseOffset < 0 || e.fuseLength < 0 ||
            e.fuseOffset > afterCut[size_t(e.fuseAxis)] - e.fuseLength)
            return stalePiece(e, 0, error);
        afterCut[size_t(e.fuseAxis)] = e.fuseLength;
        if (afterCut != cut)
            return stalePiece(e, 0, error);
    } else if (whole != cut) {
        return stalePiece(e, 0, error);
    }
    // With partition_stride s every piece is s blocks along pdim, each followed in the output by the same block
    // of the next rank: s times as many rows, each 1/s as long (s is 1 for a fused part, checked by the plan).
    const std::int64_t stride = e.partitionDim >= 0 ? e.stride : 1;
    const std::int64_t outer = product(e.shape, 0, pdim) * stride;
    const std::int64_t inner = dtypeSize(e.dtype) * product(e.shape, pdim + 1, e.shape.size());
    const std::int64_t rowOut = e.shape[pdim] / stride * inner;
    const std::int64_t rowIn = cut[pdim] / stride * inner;
    for (int tp = 0; tp < ranksUsed; ++tp) {
        const char *p = piece(e, tp, &m_piece, error);
        if (!p)
            return nullptr;
        if (e.fuseAxis >= 0)
            p = cutFusedSlice(e, p, whole);
        for (std::int64_t r = 0; r < outer; ++r)
            std::memcpy(m_out.data() + r * rowOut + tp * rowIn, p + r * rowIn, size_t(rowIn));
    }
    return m_out.data();
}

// The slice [fuseOffset, fuseOffset + fuseLength) along fuse_axis of a fused piece of shape `shape` (checked by
// concatenated()).
const char *TensorAssembler::cutFusedSlice(const ConsolidatePlanEntry &e, const char *p, const Shape &shape)
{
    const std::size_t axis = size_t(e.fuseAxis);
    const std::int64_t outer = product(shape, 0, axis);
    const std::int64_t inner = dtypeSize(e.dtype) * product(shape, axis + 1, shape.size());
    m_cut.assign(size_t(outer * e.fuseLength * inner), '\0');
    for (std::int64_t r = 0; r < outer; ++r)
        std::memcpy(m_cut.data() + r * e.fuseLength * inner, p + r * shape[axis] * inner + e.fuseOffset * inner,
                    size_t(e.fuseLength * inner));
    return m_cut.data();
}

// One output of a GQA attention (see ConsolidatePlanEntry::gqaRole), gathered in GQA order into m_full: the
// output projection's pieces side by side (it is row parallel), or this role's rows of each (fused) q/k/v piece
// stacked. Every piece has exactly pieceShape(e), so m_full's size follows from the plan.
const char *TensorAssembler::gqa(const ConsolidatePlanEntry &e, QString *error)
{
    const std::int64_t es = dtypeSize(e.dtype);
    Shape ps = pieceShape(e, m_tpSize);
    if (e.gqaRole != 3 && ps.size() == 1 && e.shape.size() == 1)  // a q/k/v bias: rows of one value
        ps.push_back(1);
    if (e.bytes == 0 || ps.size() != 2 || ps[1] < 1)
        return stalePiece(e, 0, error);
    const std::int64_t outCols = e.shape.size() == 2 ? e.shape[1] : 1;
    std::int64_t first = 0, count = ps[0];
    if (e.gqaRole != 3 && e.fusedQkv) {
        first = e.gqaRole == 0 ? 0 : e.gqaRole == 1 ? e.qRowsPerRank : e.qRowsPerRank + e.kvRowsPerRank;
        count = e.gqaRole == 0 ? e.qRowsPerRank : e.kvRowsPerRank;
    }
    // All of m_full comes from the pieces: at most their total size.
    const std::int64_t fullBytes = e.gqaRole == 3 ? e.bytes : count * ps[1] * es * m_tpSize;
    if (first < 0 || count < 0 || first + count > ps[0] || (e.gqaRole == 3 && ps[1] * m_tpSize != outCols) ||
        (e.gqaRole != 3 && ps[1] != outCols) || fullBytes < e.bytes || (e.gqaRole == 0 && fullBytes != e.bytes))
        return stalePiece(e, 0, error);
    m_full.assign(size_t(fullBytes), '\0');
    for (int tp = 0; tp < m_tpSize; ++tp) {
        const char *p = piece(e, tp, &m_piece, error);
        if (!p)
            return nullptr;
        if (e.gqaRole == 3) {
            for (std::int64_t r = 0; r < ps[0]; ++r)
                std::memcpy(m_full.data() + (r * e.shape[1] + tp * ps[1]) * es, p + r * ps[1] * es, size_t(ps[1] * es));
        } else {
            std::memcpy(m_full.data() + tp * count * ps[1] * es, p + first * ps[1] * es, size_t(count * ps[1] * es));
        }
    }
    // Keys and values were replicated kv_size_multiplier times: the first copy is the output.
    return e.gqaRole == 1 || e.gqaRole == 2 ? m_full.data() : restoreHeadOrder(e, error);
}

// Query rows and output-projection columns: every head back in its original place.
const char *TensorAssembler::restoreHeadOrder(const ConsolidatePlanEntry &e, QString *error)
{
    const std::int64_t es = dtypeSize(e.dtype);
    const std::int64_t rows = e.shape[0], cols = e.shape.size() == 2 ? e.shape[1] : 1;
    const std::int64_t span = e.gqaRole == 3 ? cols : rows;  // the dim the heads divide
    if (e.heads < 1 || span % e.heads != 0) {
        *error = AssembleText::tr("%1: %2 does not divide into %3 heads.").arg(QString::fromStdString(e.name)).arg(span).arg(e.heads);
        return nullptr;
    }
    const std::int64_t headDim = span / e.heads;
    std::vector<std::int64_t> order;
    for (int tp = 0; tp < m_tpSize; ++tp)
        for (auto h : gqaQueryHeadsForRank(m_tpSize, tp, e.heads, e.kvHeads, e.kvMultiplier))
            order.push_back(h);
    std::vector<bool> seen(size_t(e.heads), false);
    bool permutation = std::int64_t(order.size()) == e.heads;
    for (std::size_t i = 0; permutation && i < order.size(); ++i) {
        permutation = order[i] >= 0 && order[i] < e.heads && !seen[size_t(order[i])];
        if (permutation)
            seen[size_t(order[i])] = true;
    }
    if (!permutation) {
        *error = AssembleText::tr("%1: the GQA head order does not name every head once.").arg(QString::fromStdString(e.name));
        return nullptr;
    }
    m_out.assign(size_t(e.bytes), '\0');
    for (std::int64_t pos = 0; pos < e.heads; ++pos) {
        const std::int64_t h = order[size_t(pos)];  // the GQA position `pos` holds original head h
        if (e.gqaRole == 0) {
            std::memcpy(m_out.data() + h * headDim * cols * es, m_full.data() + pos * headDim * cols * es, size_t(headDim * cols * es));
            continue;
        }
        for (std::int64_t r = 0; r < rows; ++r)
            std::memcpy(m_out.data() + (r * cols + h * headDim) * es, m_full.data() + (r * cols + pos * headDim) * es, size_t(headDim * es));
    }
    return m_out.data();
}

std::vector<std::int64_t> gqaQueryHeadsForRank(int tp, int rank, int heads, int kvHeads, int mult)
{
    if (tp < 1 || rank < 0 || rank >= tp || heads < 1 || kvHeads < 1 || mult < 1 || heads % kvHeads)
        return {};
    const std::int64_t perRank = heads / tp;
    const std::int64_t kvPerRank = std::int64_t(kvHeads) * mult / tp;
    if (perRank <= 0 || kvPerRank <= 0 || perRank % kvPerRank)
        return {};
    const std::int64_t group = heads / kvHeads;  // query heads per key/value head
    const std::int64_t groupPerRank = perRank / kvPerRank;
    if (groupPerRank <= 0)
        return {};
    // The key head each local query block belongs to: 0..kv-1 repeated `mult` times, each `groupPerRank` wide,
    // split evenly over the ranks (keys[j] = (j / groupPerRank) % kv).
    const std::int64_t keysSize = std::int64_t(mult) * kvHeads * groupPerRank;
    const std::int64_t keysPerRank = keysSize / tp;
    // Which slice of its key's query group a block takes: 0, groupPerRank, 2*groupPerRank ... each repeated for as
    // many heads as come before the next block of the same group, split over the ranks as torch.chunk does
    // (shifts[j] = (j / before) * groupPerRank).
    const std::int64_t before = (kvHeads / kvPerRank) * perRank;
    const std::int64_t shiftsSize = ((group + groupPerRank - 1) / groupPerRank) * before;
    const std::int64_t shiftsPerRank = (shiftsSize + tp - 1) / tp;
    if (before <= 0)
        return {};
    std::vector<std::int64_t> out;
    out.reserve(size_t(perRank));
    for (std::int64_t block = 0; block < kvPerRank; ++block)
        for (std::int64_t i = 0; i < groupPerRank; ++i) {
            const std::int64_t at = block * groupPerRank + i;
            const std::int64_t ki = rank * keysPerRank + at, si = rank * shiftsPerRank + at;
            if (ki >= keysSize || si >= shiftsSize)
                return {};
            out.push_back(i + ((ki / groupPerRank) % kvHeads) * group + (si / before) * groupPerRank);
        }
    return out;
}

}  // namespace ingot
