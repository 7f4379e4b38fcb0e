// A DCP checkpoint's optimizer state, written on request beside the consolidated model (docs/formats.md, "DCP
// checkpoints", "The optimizer state"): the state dict's optimizer entries ("optim" or "optimizer", torch's
// get_state_dict layout nested or flattened: state.<parameter>.<state>, param_groups.<group or parameter>.<key>)
// planned as output tensors named "<the parameter's output name>.<state>" for optimizer.safetensors, and the values
// saved as bytes (lr, betas, eps, weight_decay, params...) read with the restricted unpickler, simple types only,
// into optimizer_param_groups.json.
#pragma once

#include "services/checkpoint/dcpmetadata.h"
#include "services/checkpoint/plan.h"

#include <QString>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ingot {

class DcpCheckpoint;

// A model tensor's name in the model (as the optimizer names its parameter) -> what the consolidation writes.
struct DcpParamName {
    std::string output;  // the output name (transformers')
    int ropeHeads = 0;   // TorchTitan's wq / wk: rows reordered (a state of the parameter's shape is reordered too)
    std::vector<std::int64_t> shape;
};

// Plans the optimizer entries of `md` into plan->optimizerEntries and plan->optimizerValues; problems into
// plan->problems (a state of no model parameter, two outputs of one name). Nothing read but the metadata.
void planDcpOptimizer(const DcpMetadata &md, const std::map<std::string, DcpParamName> &params, ConsolidationPlan *plan);

// Why the optimizer state of `plan` cannot be written (ConsolidateOptions::optimizer): not a DCP checkpoint, or one
// that holds no optimizer state. Empty when it can.
QString optimizerProblem(const ConsolidationPlan &plan);

// The output's file names: optimizer.safetensors, optimizer-00001-of-00003.safetensors; the index of several.
QString optimizerFileName(int index, int count);
QString optimizerIndexName();
QString optimizerValuesName();  // optimizer_param_groups.json

// Reads every optimizer value of `plan` from `ckpt` (each a torch.save of a simple value: None, a bool, a number, a
// string, a list or tuple of those) into the JSON text of optimizer_param_groups.json: {"param_groups": [...]} for
// torch's nested layout (params named by their output names), {"parameters": {name: {key: value}}} for the
// flattened one, {"state": {name: {key: value}}} for per-parameter values that are not tensors. False with words
// naming the value when one is not a simple value or cannot be read.
bool optimizerValuesJson(DcpCheckpoint &ckpt, const ConsolidationPlan &plan, std::string *text, QString *error);

}  // namespace ingot
