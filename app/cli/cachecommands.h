// `ingot-cli cache ...`: the same services as the GUI's Local cache page.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

// The rows of the cache group (list, status, prune, clean-failed, clear-locks, remove-versions, sample).
QVector<Command> cacheCommands();

}  // namespace ingot::cli
