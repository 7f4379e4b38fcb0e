// `ingot-cli consolidate CHECKPOINT_DIR [OUTPUT_DIR] ...`, and what `job consolidate` shares with it.
#pragma once

#include "app/cli/commandtable.h"

#include <QStringList>

namespace ingot::cli {
// The consolidation options (--format, --verify, ...), for every command that consolidates.
void addConsolidateOptions(QCommandLineParser &p);
// Those options as `in` has them, as arguments for another ingot-cli (a host's).
QStringList consolidateArguments(const Invocation &in);
// Consolidates CHECKPOINT_DIR (a training output folder, a checkpoint-N folder or the shards) here, into OUTPUT_DIR
// ("" : CHECKPOINT_DIR/consolidated), with the options of `in`. The exit code.
int consolidateHere(const Invocation &in, const QString &checkpointDir, const QString &outputDir);
QVector<Command> consolidateCommands();
}
