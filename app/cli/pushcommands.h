// `ingot-cli cache push` and `cache synchronize` (optimum-cli's command and flags): SUCCESS entries of a compile
// cache to a Hub cache repo.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> pushCommands();

}  // namespace ingot::cli
