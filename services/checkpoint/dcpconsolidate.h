// Consolidating a PyTorch Distributed Checkpoint (docs/formats.md, "DCP checkpoints"): the folder recognised
// (.metadata beside __R_S.distcp files: Ingot's native engine's checkpoint-N, a DTensor or FSDP sharded state dict,
// TorchTitan's step-N), the model's tensors chosen (under "model" when the state dict nests it there, else the top
// level without the optimizer's and trainer's entries), named as transformers names them (TorchTitan's Llama names
// mapped, its wq / wk rows reordered), and each read whole for the writer. The plan and the write are the
// consolidation's own (plan.h, consolidate.h): the CLI and the wizard reach this through ConsolidationRequest.
#pragma once

#include "services/checkpoint/dcpreader.h"
#include "services/checkpoint/plan.h"

#include <QString>

#include <memory>
#include <string>

namespace ingot {

// A DCP checkpoint in `folder` as a candidate (layout Dcp, one "shard" per data file); false when the folder holds
// no .metadata. The label and step are the caller's.
bool scanDcpFolder(const QString &folder, CheckpointCandidate *c);
// "step-N": TorchTitan's checkpoint folders (under <dump_folder>/checkpoint).
bool isTorchTitanStepFolder(const QString &name, int *step);

// TorchTitan's Llama name as transformers names it ("layers.3.attention.wq.weight" -> "model.layers.3.self_attn.
// q_proj.weight"); *rope 1 for wq, 2 for wk (their rows are reordered), else 0. Empty when it has no such name.
std::string torchTitanToHf(const std::string &name, int *rope);

// The plan of a DCP candidate: every model tensor whole, in the metadata's order; problems listed, nothing read but
// the metadata (and config.json for TorchTitan's head counts).
ConsolidationPlan planDcpConsolidation(const CheckpointCandidate &c);

// The open checkpoint a consolidation reads from.
class DcpSource final
{
public:
    bool open(const CheckpointCandidate &c, QString *error);
    // The output tensor `e` whole, reordered when e.ropeHeads says so.
    bool read(const ConsolidatePlanEntry &e, std::string *out, QString *error);
    // Where the pieces of `e` lie as they are in the files (DcpCheckpoint::locate(), nothing to reorder), for a
    // straight copy; false with *error empty when it must be read().
    bool locate(const ConsolidatePlanEntry &e, std::vector<DcpCheckpoint::Piece> *pieces, QString *error);
    DcpCheckpoint &checkpoint() { return m_ckpt; }

private:
    DcpCheckpoint m_ckpt;
};

// Reorders the rows of a [rows, cols] matrix from TorchTitan's RoPE order to transformers' (per head of rows/heads
// rows: pairs' first elements, then their second ones). False when rows do not split into heads of even size.
bool ropeRowsToHf(std::string *data, std::int64_t rows, std::int64_t rowBytes, int heads);

}  // namespace ingot
