// Finding sharded checkpoints and their layout (docs/formats.md, "Sharded checkpoints"): which folders hold shards,
// which rank each file belongs to, and whether every rank is there.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

enum class ShardLayout {
    OptimumDocs,         // tensor_parallel_shards/<rank>/checkpoint.pt (+ sharded_metadata), <rank> as in ranknames.h
    NeuronxDistributed,  // shards/model/dp_rank_00_<rank>.pt + mp_metadata_pp_rank_Y.json
    IngotBackend,        // tensor_parallel_shards/<rank>/*.safetensors + mp_metadata.json
    Dcp,                 // PyTorch Distributed Checkpoint: .metadata + __R_S.distcp (dcpconsolidate.h)
};
// The layout's name in English, for JSON and scripts; layoutName() is the same name translated, for people.
const char *layoutNameSource(ShardLayout l);
QString layoutName(ShardLayout l);

// The most ranks (tp x pp) a checkpoint may have: more is refused, whatever names or metadata claim.
constexpr int kMaxRanks = 1 << 16;

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
    // A LoRA (PEFT) adapter of the checkpoint `label` rather than its model: optimum-neuron saves each adapter's
    // shards in <checkpoint>/adapter_<name>/adapter_shards (older releases: <checkpoint>/adapter_shards for the
    // default one, <checkpoint>/<name>/adapter_shards), with its adapter_config.json beside them. Empty: the model.
    QString adapter;
};

// Finds the checkpoints under a training output folder, a checkpoint-N folder or a shards folder.
// Newest first: the final one, then checkpoint-N by decreasing N.
QVector<CheckpointCandidate> findCheckpoints(const QString &path, QString *error);
// The newest complete one (nullptr when none).
const CheckpointCandidate *pickDefault(const QVector<CheckpointCandidate> &found);
// What consolidating `chosen` writes, as optimum-neuron does: the model alone when the checkpoint has one (its
// adapters are then left out), else every adapter of that checkpoint, the default one first.
QVector<const CheckpointCandidate *> consolidationSet(const QVector<CheckpointCandidate> &found, const CheckpointCandidate *chosen);
// How the checkpoint is split, for people: "tp=2 pp=1", or for a DCP checkpoint (whole tensors however it was
// split) "2 data files".
QString rankText(const CheckpointCandidate &c);
// For people: "checkpoint-500", or "checkpoint-500, adapter default" (names escaped as display names are).
QString checkpointTitle(const CheckpointCandidate &c);
// Where an adapter's output goes below the output folder: "" for the default adapter, else its name.
QString adapterOutputSubfolder(const CheckpointCandidate &c);
// The bundled backend's AdamW state beside a rank's weights: optimizer.safetensors, optimizer_dp_rank_ZZ.safetensors.
bool isBackendOptimizerFile(const QString &fileName);

}  // namespace ingot
