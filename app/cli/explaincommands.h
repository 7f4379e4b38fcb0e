// `ingot-cli cache show ENTRY` (an entry's files, flags and the HLO behind it) and `ingot-cli cache explain ENTRY`
// (why a job looking for it compiles it, or not): the same services as the module details on the Local cache page.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> explainCommands();

}  // namespace ingot::cli
