// `ingot-cli cache pull`: cache entries from a Hub cache repo into a compile cache.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> pullCommands();

}  // namespace ingot::cli
