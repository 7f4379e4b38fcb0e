// Totals for the summary, the charts and `ingot-cli cache status`.
#pragma once

#include "services/cache/cachetypes.h"

#include <QSet>
#include <array>

namespace ingot {

struct VersionStats {
    QString version;
    int entries = 0;
    qint64 size = 0;
    std::array<int, ModuleStateCount> perState{};
};

struct CacheStats {
    static constexpr int AgeBucketCount = 5;  // <1 day, 1-7 days, 7-30 days, 30-90 days, >90 days
    int entries = 0;                          // modules (not unknown items)
    int unknownItems = 0;
    int warnings = 0;
    qint64 size = 0;        // bytes stored inside the root
    qint64 allocated = 0;   // bytes on disk
    qint64 linkedSize = 0;  // bytes reached through symlinks (each target once), stored elsewhere
    std::array<int, ModuleStateCount> perState{};
    std::array<qint64, ModuleStateCount> bytesPerState{};
    std::array<int, AgeBucketCount> ageEntries{};
    std::array<qint64, AgeBucketCount> ageBytes{};
    QVector<VersionStats> versions;  // newest compiler first

    static QString ageBucketName(int bucket);           // translated, for people
    static const char *ageBucketSource(int bucket);     // in English, for JSON and scripts
    static int ageBucket(qint64 lastUsedMs, qint64 nowMs);
};

class CacheStatsBuilder
{
public:
    explicit CacheStatsBuilder(qint64 nowMs);
    void add(const CacheModule &m);
    CacheStats finish();

private:
    qint64 m_now;
    CacheStats m_stats;
    QHash<QString, int> m_versionIndex;
    QSet<quint64> m_links;
};

CacheStats computeStats(const QVector<CacheModule> &modules, qint64 nowMs);

}  // namespace ingot
