// Re-sharding (docs/formats.md, "Re-sharding"): a sharded checkpoint, or a Hugging Face model folder, written as
// the checkpoint of another tensor/pipeline-parallel layout of the bundled training backend, which then resumes from
// it (`--resume_from_checkpoint`). Each tensor is merged whole from its source (as consolidation does, whatever the
// source's layout) and split again for the new layout; the backend's AdamW state is carried over the same way, by
// parameter name. One tensor at a time, into a staging folder renamed at the end: memory stays near the largest
// tensor's size, and no partial output is ever left.
#pragma once

#include "services/checkpoint/consolidate.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace ingot {

struct ReshardOptions {
    QString output;
    int tpSize = 1;
    int ppSize = 1;
    // Key/value heads replicated this many times (optimum-neuron's GQA layers): the backend splits whole heads, so
    // only 1 is written; more is a problem that says so.
    int kvMultiplier = 1;
    bool disableVocabParallel = false;  // embed_tokens and lm_head whole on every tp rank (as the source had, if so)
    bool weightsOnly = false;           // leave the optimizer state out even when it could be carried over
    bool overwrite = false;
    bool verify = false;  // read the new shards back and check them against the source
};

// One tensor of the new layout: a whole tensor of the source, split again for the new tp size and put on a stage.
struct ReshardEntry {
    ConsolidatePlanEntry whole;  // how the source gives the whole tensor (its plan entry)
    int splitDim = -1;           // in the new layout; -1: the whole tensor on every tp rank
    int stage = 0;               // the new pipeline stage holding it
};

struct ReshardPlan {
    ConsolidationPlan source;  // the source's tensors, whole (a model folder: one rank, every tensor copied)
    bool fromModelFolder = false;
    int tpSize = 1, ppSize = 1;
    bool vocabParallel = true;
    QVector<ReshardEntry> entries;  // in the source's order
    // The backend's AdamW state (NAME.exp_avg, NAME.exp_avg_sq) is carried over when every source rank folder holds it.
    bool optimizer = false;
    std::int64_t optimizerStep = 0;
    QStringList problems;  // nothing is written while there are any
    QStringList notes;     // what the output leaves out, and what the resumed run must match, for people
    qint64 bytes() const;  // of the weights and moments written
};

// The tensor/pipeline split of the bundled backend's Llama model (docs/formats.md, "Ingot's own files"): the dim a
// tensor is split on (-1: whole on every rank), false in *known for a name the backend has no parameter of.
int backendSplitDim(const std::string &name, bool vocabParallel, bool *known);
// The pipeline stage holding a tensor, as the backend gives decoder layers to stages (earlier stages take one more
// when uneven): the embedding on the first, the final norm and LM head on the last.
int backendStage(const std::string &name, int layers, int ppSize);

// Whether `folder` is a Hugging Face model folder (config.json and model.safetensors or its index) rather than a
// training output or checkpoint: re-sharded as weights only.
bool isModelFolder(const QString &folder);

// Checks everything and plans the output; problems are listed, not thrown.
ReshardPlan planReshard(const CheckpointCandidate &c, const ReshardOptions &o);
// The same from a consolidation plan already made (and checked) for the checkpoint: its shards are not read again.
ReshardPlan planReshard(const ConsolidationPlan &checked, const ReshardOptions &o);
ReshardPlan planReshardFromModel(const QString &folder, const ReshardOptions &o);

// Writes the plan's output (its problems, if any, come back as the report's and nothing is written): rank folders
// tensor_parallel_shards/tp_rank_XX_pp_rank_YY with model.safetensors, mp_metadata.json and optimizer.safetensors,
// then config.json and tokenizer files, trainer_state.json and training_args.json for the new layout.
ConsolidateReport reshard(const ReshardPlan &plan, const ReshardOptions &o, const ConsolidateProgressFn &progress = {},
                          const std::atomic_bool *cancel = nullptr);

// The bytes of rank `rank`'s part of a whole tensor split in `parts` along `dim` (-1: all of it), for the tests too.
// `data` holds the whole tensor of `shape` with elements of `elementSize` bytes; the part goes into *out.
void splitPart(const char *data, const std::vector<std::int64_t> &shape, int elementSize, int dim, int parts, int rank,
               std::string *out);

}  // namespace ingot
