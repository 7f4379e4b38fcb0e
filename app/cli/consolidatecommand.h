// `ingot-cli consolidate CHECKPOINT_DIR [OUTPUT_DIR] ...`
#pragma once

#include "app/cli/commandtable.h"

#include <QStringList>

namespace ingot::cli {
int runConsolidate(const QStringList &args);
QVector<Command> consolidateCommands();
}
