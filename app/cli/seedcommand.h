// `ingot-cli cache seed --from PLACE… KEY…`: the graphs named that this machine's cache lacks, brought from the places
// (services/fleet/cacheseed.h) — what `job launch --seed-cache` runs before a job, as a command of its own: for a
// cache to fill before a run Ingot does not launch, or on each node of a Slurm allocation (srun --ntasks-per-node=1).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> seedCommands();

}  // namespace ingot::cli
