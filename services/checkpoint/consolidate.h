// Checkpoint consolidation: sharded tensor/pipeline-parallel checkpoints (REFERENCE.md §4) into standard
// safetensors that transformers loads. Streams one output tensor at a time; checks everything before writing;
// writes into a temporary folder renamed at the end, so no partial output is ever left.
#pragma once

#include "services/checkpoint/formats/dtype.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>

namespace ingot {

enum class ShardLayout {
    OptimumDocs,         // tensor_parallel_shards/tp_rank_XX_pp_rank_YY/checkpoint.pt (+ sharded_metadata)
    NeuronxDistributed,  // shards/model/dp_rank_00_tp_rank_XX_pp_rank_YY[_ep_rank_ZZ].pt + mp_metadata_pp_rank_Y.json
    IngotBackend,        // tensor_parallel_shards/tp_rank_XX_pp_rank_YY/*.safetensors + mp_metadata.json
};
QString layoutName(ShardLayout l);

struct ShardFile {
    int tp = 0, pp = 0, ep = -1, dp = 0;
    QString path;
    qint64 bytes = 0;
};

struct CheckpointCandidate {
    QString root;       // the folder holding the shards folder (configs and tokenizer files are looked for here)
    QString shardsDir;  // tensor_parallel_shards or shards
    QString label;      // "final" or "checkpoint-500"
    int step = -1;      // N of checkpoint-N; the final one sorts first
    ShardLayout layout = ShardLayout::OptimumDocs;
    int tpSize = 0, ppSize = 0, epSize = 0;
    QVector<ShardFile> shards;
    qint64 bytes = 0;
    bool complete = false;  // every rank present (and the done marker, where the layout writes one)
    QStringList problems;
};

// Finds the checkpoints under a training output folder, a checkpoint-N folder or a shards folder.
// Newest first: the final one, then checkpoint-N by decreasing N.
QVector<CheckpointCandidate> findCheckpoints(const QString &path, QString *error);
// The newest complete one (nullptr when none).
const CheckpointCandidate *pickDefault(const QVector<CheckpointCandidate> &found);

struct ConsolidateOptions {
    enum class Format { Safetensors, PyTorch };
    QString output;
    Format format = Format::Safetensors;  // PyTorch: pytorch_model.bin in torch.save's zip format
    qint64 maxShardBytes = 5LL * 1000 * 1000 * 1000;  // "5GB", as transformers counts it
    bool overwrite = false;
    bool verify = false;
    bool checkReplicas = false;  // replicated parameters must be equal across tp ranks
};

struct ConsolidatePlanEntry {
    std::string name;    // in the output
    std::string source;  // in the shards (a fused linear's name for its parts)
    DType dtype = DType::Unknown;
    std::vector<std::int64_t> shape;
    int partitionDim = -1;  // -1: replicated, taken from tp rank 0
    int pp = 0;
    qint64 bytes = 0;
    // FusedLinearsSpec: this output is the slice [fuseOffset, fuseOffset + fuseLength) of every rank's fused piece
    // along fuseAxis, before the pieces are concatenated along partitionDim.
    int fuseAxis = -1;
    std::int64_t fuseOffset = 0;
    std::int64_t fuseLength = 0;
    // GQAQKVColumnParallelLinearSpec: this output is the query (0), key (1), value (2) or output (3) projection of a
    // GQA attention; the query/output heads are put back in their original order, the kv replication dropped.
    int gqaRole = -1;
    int heads = 0, kvHeads = 0, kvMultiplier = 1, tpSize = 1;
    std::int64_t qRowsPerRank = 0, kvRowsPerRank = 0;  // of the fused qkv piece (or of the separate q/k/v pieces)
    bool fusedQkv = false;
};

// The head order GQAQKVColumnParallelLinear gives the query (and output) projection on one tp rank: the original
// head index of each local head (REFERENCE.md §4; the permutation follows optimum-neuron's).
std::vector<std::int64_t> gqaQueryHeadsForRank(int tpSize, int tpRank, int heads, int kvHeads, int kvMultiplier);

struct ConsolidateProgress {
    qint64 bytesDone = 0, bytesTotal = 0;
    int tensorsDone = 0, tensorsTotal = 0;
    QString current;
};

struct ConsolidateReport {
    QStringList problems;  // found while checking: nothing was written
    QString error;         // failed while writing: nothing was left behind
    QStringList files;     // written, relative to the output folder
    qint64 bytes = 0;
    int tensors = 0;
    bool verified = false;
    QStringList verifyProblems;
    bool cancelled = false;
    bool ok() const { return problems.isEmpty() && error.isEmpty() && !cancelled && verifyProblems.isEmpty(); }
};

// Reads every shard's tensor list and metadata and plans the output; problems (missing or duplicate ranks,
// disagreeing shapes or dtypes, partition sizes that do not add up, unreadable files) are listed, not thrown.
QVector<ConsolidatePlanEntry> planConsolidation(const CheckpointCandidate &c, QStringList *problems);

ConsolidateReport consolidate(const CheckpointCandidate &c, const ConsolidateOptions &o,
                              const std::function<void(const ConsolidateProgress &)> &progress = {},
                              const std::atomic_bool *cancel = nullptr);

}  // namespace ingot
