// ingot-cli cache policy (named cache policies) and cache gc --policy (services/cache/cachepolicy).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> policyCommands();

}  // namespace ingot::cli
