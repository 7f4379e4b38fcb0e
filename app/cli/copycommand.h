// `ingot-cli cache copy --from local|HOST --to local|HOST ENTRY...`: cache entries between this machine's compile
// cache and a host's, over the host's SSH master connection.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> copyCommands();

}  // namespace ingot::cli
