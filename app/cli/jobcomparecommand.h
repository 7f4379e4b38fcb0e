// `ingot-cli job compare A B [C...]`: runs side by side, as the Jobs page's comparison shows them: the settings each
// run recorded with the differences marked, a line of its curves, and its graphs matched across runs with the
// explanation rule's verdicts (services/neuron/runcompare.h).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> jobCompareCommands();

}  // namespace ingot::cli
