// ingot-cli cache fleet: every cache Ingot knows, one line each (services/fleet/fleetsummary), as the Fleet page shows.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> fleetCommands();

}  // namespace ingot::cli
