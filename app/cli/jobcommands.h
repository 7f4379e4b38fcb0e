// `ingot-cli job ...`: launch, list, status, logs, stop, wait — the same job services the Jobs page uses.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> jobCommands();

}  // namespace ingot::cli
