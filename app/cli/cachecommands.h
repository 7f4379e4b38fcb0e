// `ingot-cli cache ...`: the same services as the GUI's Local cache page.
#pragma once

#include <QStringList>

namespace ingot::cli {

// args: what follows "cache" on the command line. Returns the process exit code.
int runCacheCommand(const QStringList &args);
QString cacheUsage();

}  // namespace ingot::cli
