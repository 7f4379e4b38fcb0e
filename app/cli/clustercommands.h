// ingot-cli cluster: Slurm clusters on this machine (a login node) or on a login node over SSH.
#pragma once

#include "app/cli/commandtable.h"

#include <QVector>

namespace ingot::cli {

QVector<Command> clusterCommands();

}  // namespace ingot::cli
