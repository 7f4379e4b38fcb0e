// Writes realistic Neuron compile caches: the GUI's "open a sample cache" and the tests' fixture generator.
#pragma once

#include "services/cache/cachetypes.h"

#include <array>

namespace ingot {

struct SampleCacheOptions {
    int modules = 48;          // module folders across all compiler versions
    quint64 seed = 42;
    qint64 nowMs = 0;          // 0: the current time
    bool oddEntries = true;    // unknown files, odd names, broken and outside links
    bool hubLinks = true;      // entries whose files are symlinks into a Hugging Face hub blob cache
    QString linkBase;          // where link targets live, outside the root; "" = "<root>.links"
    int extraFiles = 0;        // small extra files per non-empty module (benchmarks: ~5 files per module)
    qint64 minNeffBytes = 8 * 1000 * 1000;
    qint64 maxNeffBytes = qint64(2400) * 1000 * 1000;  // sparse files: apparent size only
};

struct SampleCacheResult {
    int modules = 0;
    int files = 0;
    qint64 bytes = 0;  // apparent bytes of files inside the root
    std::array<int, ModuleStateCount> perState{};
};

// The sample cache people are shown: the one the GUI opens (Open a sample cache) and `ingot-cli cache sample`
// writes by default, so the README's tour finds the same entries in both.
SampleCacheOptions shownSampleOptions();

// The compiler versions the sample writes, oldest first.
QStringList sampleCompilerVersions();

// Creates `root` (and its parents) and fills it. Refuses a root that already holds anything.
bool writeSampleCache(const QString &root, const SampleCacheOptions &options, SampleCacheResult *result,
                      QString *error);

}  // namespace ingot
