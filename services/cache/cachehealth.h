// A compile cache's health before a job uses it: is it there, how many entries, which failed (the compiler reuses a
// failure instead of compiling again) and which are locked, and whether a compiler runs now (a lock with none running
// is a killed compile's: the next job waits on it).
#pragma once

#include "services/stores/storelocation.h"

#include <QString>

#include <atomic>

namespace ingot {

struct CacheHealth {
    QString root;
    bool exists = false;
    QString error;  // set when it is there but could not be read
    int entries = 0;
    int failed = 0;
    int locked = 0;
    int compilersRunning = 0;  // counted only when something is locked
    // Failed entries, or locks no running compiler holds: worth cleaning before a job starts.
    bool needsCleaning() const { return exists && error.isEmpty() && (failed > 0 || (locked > 0 && compilersRunning == 0)); }
};

// Scans the cache at `where` (blocking; `stop` ends it early). A folder that is not there is not an error.
CacheHealth checkCacheHealth(const StoreLocation &where, const std::atomic_bool *stop = nullptr);

}  // namespace ingot
