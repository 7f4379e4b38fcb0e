// The consolidation plan: every output tensor, and which pieces of which shards it is made of (docs/formats.md,
// "Sharded checkpoints"). Making it reads every shard's tensor list and metadata and checks that the pieces fit
// together; nothing is written. The plan is then handed to consolidate().
#pragma once

#include "services/checkpoint/discover.h"
#include "services/checkpoint/formats/dtype.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ingot {

struct ConsolidatePlanEntry {
    std::string name;    // in the output
    std::string source;  // in the shards (a fused linear's name for its parts)
    DType dtype = DType::Unknown;
    std::vector<std::int64_t> shape;
    int partitionDim = -1;  // -1: replicated, taken from tp rank 0
    // partition_stride: each rank's piece is `stride` blocks along partitionDim, and the output is block 0 of every
    // rank, then block 1 of every rank... (neuronx-distributed's strided split: rank r holds blocks r, r+tp, ...).
    int stride = 1;
    // Expert parallelism (neuronx-distributed): the experts of ep rank k are rows [k·E/epSize, (k+1)·E/epSize) of dim 0
    // of the output, each ep rank's block merged over its tp ranks as above. `ep` is the ep rank a block is read from
    // (the assembler's, 0 in a plan).
    int epSize = 1;
    int ep = 0;
    // Merging a LoRA adapter into a model (loramerge.h): this output is the weight plus loraScale · B·A, lora_A and
    // lora_B read from the plan's adapter file; for an embedding's lora_embedding_A/B the product is transposed.
    std::string loraA, loraB;
    double loraScale = 0;
    bool loraEmbedding = false;
    int pp = 0;
    qint64 bytes = 0;
    // FusedLinearsSpec: this output is the slice [fuseOffset, fuseOffset + fuseLength) of every rank's fused piece
    // along fuseAxis, before the pieces are concatenated along partitionDim.
    int fuseAxis = -1;
    std::int64_t fuseOffset = 0;
    std::int64_t fuseLength = 0;
    std::int64_t fuseTotal = 0;  // the fused piece's size along fuseAxis
    // GQAQKVColumnParallelLinearSpec: this output is the query (0), key (1), value (2) or output (3) projection of a
    // GQA attention; the query/output heads are put back in their original order, the kv replication dropped.
    int gqaRole = -1;
    int heads = 0, kvHeads = 0, kvMultiplier = 1, tpSize = 1;
    std::int64_t qRowsPerRank = 0, kvRowsPerRank = 0;  // of the fused qkv piece (or of the separate q/k/v pieces)
    bool fusedQkv = false;
    // A DCP checkpoint (dcpconsolidate.h): `source` is the tensor's name in it. TorchTitan's wq / wk keep each head's
    // rows in RoPE pairs (0, 1), (2, 3)...; transformers' q_proj / k_proj keep the pairs' first halves, then their
    // second halves: with ropeHeads > 0 the rows are reordered so, per head (TorchTitan's to_hf _permute).
    int ropeHeads = 0;
    int dcpChunks = 0;  // a DCP tensor: how many chunks (non-empty) it is assembled from; 0 for other layouts
};

// A DCP checkpoint's optimizer value saved as bytes (a torch.save of a Python value): a parameter group's setting
// (lr, betas, eps, weight_decay, params...) or a per-parameter state that is not a tensor. Written, read with the
// restricted unpickler, into optimizer_param_groups.json (dcpoptimizer.h).
struct OptimizerValue {
    std::string source;  // its name in the checkpoint
    int group = -1;      // torch's nested layout: param_groups.<group>.<key>; -1 otherwise
    std::string param;   // the flattened layout (param_groups.<fqn>.<key>) or a state value: the parameter's output name
    std::string key;     // "lr", "betas", "params", or the state's name ("step")
    bool state = false;  // a per-parameter state value (state.<fqn>.<key>), not a group's setting
};

struct ConsolidationPlan {
    CheckpointCandidate checkpoint;  // what was planned
    QVector<ConsolidatePlanEntry> entries;  // in output order
    // A DCP checkpoint's optimizer state (planned always, written with ConsolidateOptions::optimizer): each tensor
    // named "<the parameter's output name>.<state>" (exp_avg, exp_avg_sq, step...), and the values saved as bytes.
    QVector<ConsolidatePlanEntry> optimizerEntries;
    QVector<OptimizerValue> optimizerValues;
    std::map<std::string, std::string> parameterNames;  // a parameter's name in the model -> its output name
    bool hasOptimizer() const { return !optimizerEntries.isEmpty() || !optimizerValues.isEmpty(); }
    qint64 optimizerBytes() const;
    QString adapterFile;  // a LoRA adapter merged into the checkpoint's weights (adapter_model.safetensors), if any
    // Missing or duplicate ranks, disagreeing shapes or dtypes, partition sizes that do not add up, unreadable
    // files...: nothing can be written while there are any.
    QStringList problems;
    bool ok() const { return problems.isEmpty(); }
    qint64 bytes() const;  // of the whole output
};

// How an output tensor is made of its pieces, for people: the wizard's plan view, a dry run's listing.
enum class MergeKind {
    Copied,        // a one-rank checkpoint: the tensor as it is
    Replicated,    // the same on every tp rank: taken from tp rank 0
    Concatenated,  // the tp ranks' pieces concatenated along partitionDim
    Unfused,       // a part of a fused linear, cut out of every rank's fused piece along fuseAxis, then concatenated
    Gqa,           // a query, key, value or output projection of a GQA attention (gqaRole)
    LoraMerged,    // the weight with a LoRA adapter's B·A added (loraA, loraB)
};
MergeKind mergeKind(const ConsolidatePlanEntry &e, int tpSize);
// In words, with the plan's numbers: "concatenated on dim 0", "replicated (from tp rank 0)", "un-fused from
// gate_up_proj, concatenated on dim 0", "GQA key: 2 head(s), ×2 replication dropped".
QString mergeText(const ConsolidatePlanEntry &e, int tpSize);
// The ranks whose pieces make `e`: tp ranks firstTp..lastTp of pipeline stage pp (tp rank 0 alone when replicated).
struct SourceRanks {
    int pp = 0;
    int firstTp = 0;
    int lastTp = 0;
};
SourceRanks sourceRanks(const ConsolidatePlanEntry &e, int tpSize);
QString shapeText(const std::vector<std::int64_t> &shape);  // "[4096, 11008]"
QString tensorNameText(const std::string &name);  // a tensor's name (bytes from a file), escaped for people

// Reads every shard's tensor list and metadata and plans the output; problems are listed, not thrown. Every piece
// of every rank is checked against pieceShape() and the entry's dtype, and every size is checked arithmetic, so
// the plan's numbers can be trusted by what writes it.
ConsolidationPlan planConsolidation(const CheckpointCandidate &c);

// The shape each tp rank's piece (its `source` tensor) must have for `e`, the same on every rank: the output's
// shape for a replicated parameter; split along partitionDim into tpSize; the whole fused piece for a fused part;
// the q, k, v, fused qkv or output-projection piece of a GQA role. Empty when the entry is inconsistent.
std::vector<std::int64_t> pieceShape(const ConsolidatePlanEntry &e, int tpSize);

}  // namespace ingot
