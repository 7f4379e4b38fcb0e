// ingot-cli cache verify: local entries against their copy in a Hub cache repo (services/transfer/cacheverify).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> verifyCommands();

}  // namespace ingot::cli
