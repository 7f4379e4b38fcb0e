// `ingot-cli torchneuron ...`: the TorchNeuron / vLLM-Neuron compile cache (services/cache/torchneuron.h), here, on a
// host or in S3: list, status, and the previewed maintenance (clean-incomplete, clear-locks, prune).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> torchNeuronCommands();
CommandGroup torchNeuronGroup();

}  // namespace ingot::cli
