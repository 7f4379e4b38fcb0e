// `ingot-cli hub ...` and the Hub side of `ingot-cli cache ...` (create, set, lookup).
#pragma once

#include "app/cli/commandtable.h"

#include <QStringList>

namespace ingot::cli {

// The rows of the hub group and the Hub commands of the cache group.
QVector<Command> hubCommands();
int runHubCommand(const QStringList &args);
// cache create|set|lookup; returns -1 when `command` is not one of them.
int runCacheHubCommand(const QString &command, const QStringList &args);
QString hubUsage();

}  // namespace ingot::cli
