// `ingot-cli neff ...`: TorchNeuron's NEFF cache (services/cache/neffcache.h) on this machine: where it is and why,
// its NEFF files by size and age, and a previewed prune of old ones.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> neffCommands();
CommandGroup neffGroup();

}  // namespace ingot::cli
