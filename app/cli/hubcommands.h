// `ingot-cli hub ...` and the Hub side of `ingot-cli cache ...` (create, set, lookup).
#pragma once

#include "app/cli/commandtable.h"
#include "services/hub/registry.h"

#include <QStringList>

namespace ingot::cli {

// The rows of the hub group and the Hub commands of the cache group.
QVector<Command> hubCommands();
// The table optimum-cli prints (title, centered columns), with compiler version and checkpoint revision.
QString formatLookupTable(const QString &modelId, const QVector<LookupEntry> &entries);

}  // namespace ingot::cli
