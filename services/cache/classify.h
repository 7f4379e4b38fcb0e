// What state a module folder is in, from the names of its files (docs/formats.md#compile-cache).
#pragma once

#include "services/cache/cachetypes.h"

namespace ingot {

// Derives a module's state from its file names.
ModuleState classifyModule(const QVector<CacheFile> &files, bool writesDoneMarker, QString *why = nullptr);

}  // namespace ingot
