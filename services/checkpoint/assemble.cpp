#include "services/checkpoint/assemble.h"

#include "services/checkpoint/shardreader.h"

#include <QCoreApplication>

#include <cstring>

namespace ingot {

namespace {
struct AssembleText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};
using T = AssembleText;

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

bool TensorAssembler::assemble(const ConsolidatePlanEntry &e, const char **data, qint64 *size, QString *error)
{
    if (e.gqaRole >= 0) {
        *data = gqa(e, error);
        *size = e.bytes;
    } else if (e.partitionDim < 0 && e.fuseAxis < 0) {
        *data = replicated(e, size, error);
    } else {
        *data = concatenated(e, error);
        *size = e.bytes;
    }
    if (!*data)
        return false;
    if (*size != e.bytes) {
        *error = T::tr("%1: %2 bytes read, %3 expected.").arg(QString::fromStdString(e.name)).arg(*size).arg(e.bytes);
        return false;
    }
    return true;
}

bool TensorAssembler::stale(const ConsolidatePlanEntry &e, int tp, QString *error) const
{
    *error = T::tr("%1 on tp rank %2 of pp rank %3 is not what the check found: the shards changed since. Check the "
                   "checkpoint again.").arg(QString::fromStdString(e.source)).arg(tp).arg(e.pp);
    return false;
}

const char *TensorAssembler::stalePiece(const ConsolidatePlanEntry &e, int tp, QString *error) const
{
    stale(e, tp, error);
    return nullptr;
}

// A piece's bytes (in m_piece or the mapping) and its shape, once its dtype is the plan's.
const char *TensorAssembler::readChecked(const ConsolidatePlanEntry &e, int tp, Shape *shape, QString *error)
{
    ShardReader *r = m_shards.at(e.pp, tp);
    DType dt = DType::Unknown;
    if (!r || !r->info(e.source, &dt, shape) || dt != e.dtype)
        return stalePiece(e, tp, error);
    qint64 size = 0;
    const char *p = r->read(e.source, &m_piece, &size, error);
    if (p && size != dtypeSize(dt) * product(*shape, 0, shape->size()))
        return stalePiece(e, tp, error);
    return p;
}

// Replicated: tp rank 0's copy.
const char *TensorAssembler::replicated(const ConsolidatePlanEntry &e, qint64 *size, QString *error)
{
    Shape shape;
    const char *data = readChecked(e, 0, &shape, error);
    if (!data)
        return nullptr;
    if (shape != e.shape)
        return stalePiece(e, 0, error);
    *size = dtypeSize(e.dtype) * product(shape, 0, shape.size());
    if (!m_checkReplicas || m_tpSize <= 1)
        return data;
    m_out.assign(data, size_t(*size));  // the next reads may reuse m_piece
    return sameOnEveryRank(e, m_out.data(), *size, error) ? m_out.data() : nullptr;
}

bool TensorAssembler::sameOnEveryRank(const ConsolidatePlanEntry &e, const char *data, qint64 size, QString *error)
{
    for (int tp = 1; tp < m_tpSize; ++tp) {
        qint64 otherSize = 0;
        ShardReader *r = m_shards.at(e.pp, tp);
        const char *other = r ? r->read(e.source, &m_other, &otherSize, error) : nullptr;
        if (!other || otherSize != size || std::memcmp(other, data, size_t(size)) != 0) {
            *error = T::tr("%1 differs between tp rank 0 and tp rank %2, though it should be replicated.")
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
    const std::size_t pdim = size_t(e.partitionDim >= 0 ? e.partitionDim : 0);
    const int ranksUsed = e.partitionDim >= 0 ? m_tpSize : 1;
    if (pdim >= e.shape.size() || e.shape[pdim] % ranksUsed != 0)
        return stalePiece(e, 0, error);
    Shape expected = e.shape;  // of each rank's piece
    expected[pdim] /= ranksUsed;
    const std::int64_t outer = product(e.shape, 0, pdim);
    const std::int64_t inner = dtypeSize(e.dtype) * product(e.shape, pdim + 1, e.shape.size());
    const std::int64_t rowOut = e.shape[pdim] * inner;
    const std::int64_t rowIn = expected[pdim] * inner;
    m_out.assign(size_t(e.bytes), '\0');
    for (int tp = 0; tp < ranksUsed; ++tp) {
        const char *p = piece(e, tp, expected, error);
        if (!p)
            return nullptr;
        for (std::int64_t r = 0; r < outer; ++r)
            std::memcpy(m_out.data() + r * rowOut + tp * rowIn, p + r * rowIn, size_t(rowIn));
    }
    return m_out.data();
}

// One rank's piece of a split tensor, with the shape `expected` (its fused part cut out first).
const char *TensorAssembler::piece(const ConsolidatePlanEntry &e, int tp, const Shape &expected, QString *error)
{
    Shape shape;
    const char *p = readChecked(e, tp, &shape, error);
    if (!p)
        return nullptr;
    if (e.fuseAxis >= 0) {
        const std::size_t axis = size_t(e.fuseAxis);
        if (shape.size() != expected.size() || axis >= shape.size() || e.fuseOffset + e.fuseLength > shape[axis])
            return stalePiece(e, tp, error);
        p = cutFusedSlice(e, p, &shape);
    }
    if (shape != expected)
        return stalePiece(e, tp, error);
    return p;
}

// The slice [fuseOffset, fuseOffset + fuseLength) of a fused piece along fuse_axis.
const char *TensorAssembler::cutFusedSlice(const ConsolidatePlanEntry &e, const char *p, Shape *shape)
{
    const std::size_t axis = size_t(e.fuseAxis);
    const std::int64_t outer = product(*shape, 0, axis);
    const std::int64_t inner = dtypeSize(e.dtype) * product(*shape, axis + 1, shape->size());
    m_cut.assign(size_t(outer * e.fuseLength * inner), '\0');
    for (std::int64_t r = 0; r < outer; ++r)
        std::memcpy(m_cut.data() + r * e.fuseLength * inner, p + r * (*shape)[axis] * inner + e.fuseOffset * inner,
                    size_t(e.fuseLength * inner));
    (*shape)[axis] = e.fuseLength;
    return m_cut.data();
}

// One output of a GQA attention (see ConsolidatePlanEntry::gqaRole).
const char *TensorAssembler::gqa(const ConsolidatePlanEntry &e, QString *error)
{
    std::int64_t rows = 0, cols = 0;  // of m_full; every piece's columns were checked against the plan
    if (!gatherGqa(e, &rows, &cols, error))
        return nullptr;
    if (std::int64_t(m_full.size()) < e.bytes)
        return stalePiece(e, 0, error);
    // Keys and values were replicated kv_size_multiplier times: the first copy is the output.
    return e.gqaRole == 1 || e.gqaRole == 2 ? m_full.data() : restoreHeadOrder(e, rows, cols, error);
}

// The GQA-ordered concatenation of the tp pieces into m_full: the output projection's pieces side by side (it is
// row parallel), or this role's rows of each (fused) q/k/v piece stacked.
bool TensorAssembler::gatherGqa(const ConsolidatePlanEntry &e, std::int64_t *rows, std::int64_t *cols, QString *error)
{
    const std::int64_t es = dtypeSize(e.dtype);
    m_full.clear();
    *rows = 0;
    for (int tp = 0; tp < m_tpSize; ++tp) {
        Shape sh;
        const char *p = readChecked(e, tp, &sh, error);
        if (!p)
            return false;
        if (sh.size() != 2)
            return stale(e, tp, error);
        if (e.gqaRole == 3) {
            if (sh[0] != e.shape[0] || sh[1] * m_tpSize != e.shape[1])
                return stale(e, tp, error);
            if (tp == 0) {
                *rows = sh[0];
                *cols = sh[1] * m_tpSize;
                m_full.assign(size_t(*rows * *cols * es), '\0');
            }
            for (std::int64_t r = 0; r < *rows; ++r)
                std::memcpy(m_full.data() + (r * *cols + tp * sh[1]) * es, p + r * sh[1] * es, size_t(sh[1] * es));
            continue;
        }
        std::int64_t first = 0, count = sh[0];
        if (e.fusedQkv) {
            first = e.gqaRole == 0 ? 0 : e.gqaRole == 1 ? e.qRowsPerRank : e.qRowsPerRank + e.kvRowsPerRank;
            count = e.gqaRole == 0 ? e.qRowsPerRank : e.kvRowsPerRank;
        }
        if (first + count > sh[0] || sh[1] != e.shape[1])
            return stale(e, tp, error);
        *cols = sh[1];
        m_full.append(p + first * *cols * es, size_t(count * *cols * es));
        *rows += count;
    }
    return true;
}

// Query rows and output-projection columns: every head back in its original place.
const char *TensorAssembler::restoreHeadOrder(const ConsolidatePlanEntry &e, std::int64_t rows, std::int64_t cols, QString *error)
{
    const std::int64_t es = dtypeSize(e.dtype);
    const std::int64_t headDim = e.gqaRole == 3 ? cols / e.heads : e.shape[0] / e.heads;
    std::vector<std::int64_t> order;
    for (int tp = 0; tp < m_tpSize; ++tp)
        for (auto h : gqaQueryHeadsForRank(m_tpSize, tp, e.heads, e.kvHeads, e.kvMultiplier))
            order.push_back(h);
    if (std::int64_t(order.size()) != e.heads) {
        *error = T::tr("%1: the GQA head order does not cover every head.").arg(QString::fromStdString(e.name));
        return nullptr;
    }
    m_out.assign(size_t(e.bytes), '\0');
    for (std::int64_t pos = 0; pos < e.heads; ++pos) {
        const std::int64_t h = order[size_t(pos)];  // the GQA position `pos` holds original head h
        if (h < 0 || h >= e.heads) {
            *error = T::tr("%1: a GQA head index is out of range.").arg(QString::fromStdString(e.name));
            return nullptr;
        }
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

}  // namespace ingot
