#include "services/cache/cachestats.h"

#include "services/cache/compilerversion.h"
#include <QCoreApplication>

namespace ingot {

const char *CacheStats::ageBucketSource(int bucket)
{
    static const char *names[] = {QT_TRANSLATE_NOOP("ingot::CacheStats", "0-1 d"),
                                  QT_TRANSLATE_NOOP("ingot::CacheStats", "1-7 d"),
                                  QT_TRANSLATE_NOOP("ingot::CacheStats", "7-30 d"),
                                  QT_TRANSLATE_NOOP("ingot::CacheStats", "30-90 d"),
                                  QT_TRANSLATE_NOOP("ingot::CacheStats", "90+ d")};
    return names[qBound(0, bucket, AgeBucketCount - 1)];
}

QString CacheStats::ageBucketName(int bucket)
{
    return QCoreApplication::translate("ingot::CacheStats", ageBucketSource(bucket));
}

int CacheStats::ageBucket(qint64 lastUsedMs, qint64 nowMs)
{
    const qint64 days = (nowMs - lastUsedMs) / 86400000;
    if (days < 1)
        return 0;
    if (days < 7)
        return 1;
    if (days < 30)
        return 2;
    if (days < 90)
        return 3;
    return 4;
}

CacheStatsBuilder::CacheStatsBuilder(qint64 nowMs)
    : m_now(nowMs)
{
}

void CacheStatsBuilder::add(const CacheModule &m)
{
    m_stats.warnings += int(m.warnings.size());
    m_stats.size += m.size;
    m_stats.allocated += m.allocated;
    for (const CacheFile &f : m.files)
        if (f.is(CacheFile::Symlink) && !f.is(CacheFile::Broken) && !m_links.contains(f.linkId)) {
            m_links.insert(f.linkId);
            m_stats.linkedSize += f.size;
        }
    if (!m.isModule()) {
        ++m_stats.unknownItems;
        return;
    }
    const int s = int(m.state);
    ++m_stats.entries;
    ++m_stats.perState[s];
    m_stats.bytesPerState[s] += m.size;
    const int b = CacheStats::ageBucket(m.lastUsedMs, m_now);
    ++m_stats.ageEntries[b];
    m_stats.ageBytes[b] += m.size;
    auto it = m_versionIndex.constFind(m.version);
    int idx;
    if (it == m_versionIndex.cend()) {
        idx = int(m_stats.versions.size());
        m_versionIndex.insert(m.version, idx);
        m_stats.versions.append(VersionStats{m.version, 0, 0, {}});
    } else {
        idx = *it;
    }
    VersionStats &v = m_stats.versions[idx];
    ++v.entries;
    v.size += m.size;
    ++v.perState[s];
}

CacheStats CacheStatsBuilder::finish()
{
    std::sort(m_stats.versions.begin(), m_stats.versions.end(), [](const VersionStats &a, const VersionStats &b) {
        return compareCompilerFolders(a.version, b.version) > 0;
    });
    return m_stats;
}

CacheStats computeStats(const QVector<CacheModule> &modules, qint64 nowMs)
{
    CacheStatsBuilder b(nowMs);
    for (const auto &m : modules)
        b.add(m);
    return b.finish();
}

}  // namespace ingot
