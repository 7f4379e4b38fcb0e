// `ingot-cli cache show ENTRY` (an entry's files, flags and the HLO behind it) and `ingot-cli cache explain ENTRY`
// (why a job looking for it compiles it, or not): the same services as the module details on the Local cache page.
#pragma once

#include "app/cli/commandtable.h"

#include <nlohmann/json.hpp>

namespace ingot {
struct Explanation;
}

namespace ingot::cli {

// One explanation as `cache explain --json` writes it (and `job graphs --json`, for each graph).
nlohmann::json explanationJson(const Explanation &e);

QVector<Command> explainCommands();

}  // namespace ingot::cli
