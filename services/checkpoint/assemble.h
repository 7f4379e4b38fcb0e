// Building one output tensor from the pieces the plan names (docs/formats.md, "Sharded checkpoints", Merging):
// replicated parameters from tp rank 0, split ones concatenated along partition_dim (a fused linear's part cut out
// of each piece first), GQA projections with their heads put back in the original order.
#pragma once

#include "services/checkpoint/plan.h"
#include "services/checkpoint/rangecopy.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace ingot {

class OpenShards;
class ShardReader;

// The head order GQAQKVColumnParallelLinear gives the query (and output) projection on one tp rank: the original
// head index of each local head (docs/formats.md, "Sharded checkpoints"; the permutation follows optimum-neuron's).
std::vector<std::int64_t> gqaQueryHeadsForRank(int tpSize, int tpRank, int heads, int kvHeads, int kvMultiplier);

class TensorAssembler final
{
    Q_DISABLE_COPY_MOVE(TensorAssembler)

public:
    // checkReplicas: a replicated parameter must be byte for byte the same on every tp rank.
    TensorAssembler(const OpenShards &shards, int tpSize, bool checkReplicas);
    // Where LoRA entries (ConsolidatePlanEntry::loraA) read lora_A and lora_B.
    void setAdapter(ShardReader *adapter) { m_adapter = adapter; }

    // The bytes of output tensor `e` (exactly e.bytes of them), valid until the next call. False with words in
    // *error when a piece cannot be read, or is not what the plan expects (the shards changed since the check).
    // Every piece is checked against the plan (its dtype, pieceShape() and byte size) before a byte of it is
    // copied, and every offset copied to or from follows from those checked shapes.
    bool assemble(const ConsolidatePlanEntry &e, const char **data, qint64 *size, QString *error);

    // Writes output tensor `e` (e.bytes at out.offset) straight from the shard files with `copier`: a replicated
    // tensor (unless replicas are checked) or one concatenated along partition_dim, every piece lying as it is in
    // its file. NotHere, with nothing written, when `e` must be assembled in memory instead (a fused or GQA
    // projection, a piece strided or in a deflated record): then call assemble(). The same checks as assemble().
    enum class Direct { Written, NotHere, Failed };
    Direct writeDirect(const ConsolidatePlanEntry &e, RangeCopier &copier, const RangeCopier::Target &out, QString *error);

private:
    using Shape = std::vector<std::int64_t>;
    const char *replicated(const ConsolidatePlanEntry &e, QString *error);
    bool sameOnEveryRank(const ConsolidatePlanEntry &e, const char *data, QString *error);
    const char *concatenated(const ConsolidatePlanEntry &e, QString *error);
    const char *cutFusedSlice(const ConsolidatePlanEntry &e, const char *p, const Shape &shape);
    const char *gqa(const ConsolidatePlanEntry &e, QString *error);
    const char *restoreHeadOrder(const ConsolidatePlanEntry &e, QString *error);
    // Rank tp's piece of e, exactly pieceShape(e) in e's dtype (into `buf` or the mapping); nullptr with words.
    const char *piece(const ConsolidatePlanEntry &e, int tp, std::string *buf, QString *error);
    const char *stalePiece(const ConsolidatePlanEntry &e, int tp, QString *error) const;
    bool planAddsUp(const ConsolidatePlanEntry &e, QString *error) const;
    // The cut of the output each rank gives (e.shape with partition_dim divided), checked against the pieces.
    bool cutShape(const ConsolidatePlanEntry &e, Shape *cut, QString *error) const;
    // Where rank tp's piece of e lies in its file; Direct::NotHere when not as it is.
    Direct pieceLocation(const ConsolidatePlanEntry &e, int tp, RangeCopier::Source *at, QString *error) const;

    const char *loraMerged(const ConsolidatePlanEntry &e, QString *error);
    const OpenShards &m_shards;
    ShardReader *m_adapter = nullptr;
    int m_tpSize;
    bool m_checkReplicas;
    // Reused from tensor to tensor.
    std::string m_out, m_piece, m_other, m_cut, m_full, m_experts, m_loraA, m_loraB;
};

}  // namespace ingot
