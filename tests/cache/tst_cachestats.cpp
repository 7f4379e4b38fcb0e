// Totals for the summary, the charts and `cache status`: per state, per compiler version (sorted by number), per
// age bucket; linked blobs counted once; unknown items apart.
#include "services/cache/cachestats.h"

#include <QTest>

using namespace ingot;

namespace {
constexpr qint64 kDay = 86400000;
constexpr qint64 kNow = qint64(1800000000) * 1000;

CacheModule module(const QString &version, const QString &name, ModuleState state, qint64 size, double ageDays)
{
    CacheModule m;
    m.version = version;
    m.name = name;
    m.state = state;
    m.size = size;
    m.allocated = size / 2;
    m.lastUsedMs = kNow - qint64(ageDays * double(kDay));
    return m;
}

CacheFile link(quint64 id, qint64 size, bool broken = false)
{
    CacheFile f;
    f.name = QStringLiteral("model.neff");
    f.size = size;
    f.linkId = id;
    f.flags = CacheFile::Symlink | (broken ? CacheFile::Broken : 0);
    return f;
}
}  // namespace

class TestCacheStats : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void perStateAndVersion()
    {
        const QString v9 = QStringLiteral("neuronxcc-2.9.0.0+aaaaaaaa");
        const QString v15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
        const QString v10 = QStringLiteral("neuronxcc-2.10.1.0+bbbbbbbb");
        CacheStatsBuilder b(kNow);
        b.add(module(v9, QStringLiteral("MODULE_1"), ModuleState::Success, 100, 0.5));
        b.add(module(v15, QStringLiteral("MODULE_2"), ModuleState::Failed, 10, 3));
        b.add(module(v15, QStringLiteral("MODULE_3"), ModuleState::Success, 1000, 20));
        b.add(module(v10, QStringLiteral("MODULE_4"), ModuleState::Locked, 1, 200));
        CacheModule unknown = module(QString(), QStringLiteral("README.txt"), ModuleState::Unknown, 7, 1);
        unknown.kind = EntryKind::UnknownFile;
        unknown.warnings << QStringLiteral("not written by the compiler");
        b.add(unknown);
        const CacheStats s = b.finish();
        QCOMPARE(s.entries, 4);
        QCOMPARE(s.unknownItems, 1);
        QCOMPARE(s.warnings, 1);
        QCOMPARE(s.size, qint64(1118));
        QCOMPARE(s.allocated, qint64(50 + 5 + 500 + 0 + 3));
        QCOMPARE(s.perState[int(ModuleState::Success)], 2);
        QCOMPARE(s.bytesPerState[int(ModuleState::Success)], qint64(1100));
        QCOMPARE(s.perState[int(ModuleState::Failed)], 1);
        QCOMPARE(s.perState[int(ModuleState::Locked)], 1);
        QCOMPARE(s.perState[int(ModuleState::Unknown)], 0);  // unknown items are not entries
        // Newest compiler first, by number: 2.15 > 2.10 > 2.9 (text order would put 2.9 first).
        QCOMPARE(s.versions.size(), 3);
        QCOMPARE(s.versions[0].version, v15);
        QCOMPARE(s.versions[1].version, v10);
        QCOMPARE(s.versions[2].version, v9);
        QCOMPARE(s.versions[0].entries, 2);
        QCOMPARE(s.versions[0].size, qint64(1010));
        QCOMPARE(s.versions[0].perState[int(ModuleState::Failed)], 1);
    }

    void ageBuckets()
    {
        QCOMPARE(CacheStats::ageBucket(kNow - kDay / 2, kNow), 0);
        QCOMPARE(CacheStats::ageBucket(kNow - kDay, kNow), 1);
        QCOMPARE(CacheStats::ageBucket(kNow - 6 * kDay, kNow), 1);
        QCOMPARE(CacheStats::ageBucket(kNow - 7 * kDay, kNow), 2);
        QCOMPARE(CacheStats::ageBucket(kNow - 29 * kDay, kNow), 2);
        QCOMPARE(CacheStats::ageBucket(kNow - 30 * kDay, kNow), 3);
        QCOMPARE(CacheStats::ageBucket(kNow - 89 * kDay, kNow), 3);
        QCOMPARE(CacheStats::ageBucket(kNow - 90 * kDay, kNow), 4);
        QCOMPARE(CacheStats::ageBucket(kNow - 5000 * kDay, kNow), 4);
        const QVector<CacheModule> mods{module(QStringLiteral("neuronxcc-2.15.0.0"), QStringLiteral("A"), ModuleState::Success, 5, 0.1),
                                        module(QStringLiteral("neuronxcc-2.15.0.0"), QStringLiteral("B"), ModuleState::Success, 7, 40),
                                        module(QStringLiteral("neuronxcc-2.15.0.0"), QStringLiteral("C"), ModuleState::Success, 9, 45)};
        const CacheStats s = computeStats(mods, kNow);
        QCOMPARE(s.ageEntries[0], 1);
        QCOMPARE(s.ageEntries[3], 2);
        QCOMPARE(s.ageBytes[3], qint64(16));
        QVERIFY(!CacheStats::ageBucketName(0).isEmpty());
        QVERIFY(CacheStats::ageBucketName(0) != CacheStats::ageBucketName(4));
    }

    void sharedLinksCountedOnce()
    {
        CacheModule a = module(QStringLiteral("neuronxcc-2.15.0.0"), QStringLiteral("A"), ModuleState::Success, 0, 1);
        CacheModule b = module(QStringLiteral("neuronxcc-2.15.0.0"), QStringLiteral("B"), ModuleState::Success, 0, 1);
        a.files << link(77, 350) << link(78, 10);
        b.files << link(77, 350) << link(79, 999, true);  // the same blob again, and a broken link
        const CacheStats s = computeStats({a, b}, kNow);
        QCOMPARE(s.linkedSize, qint64(360));
        QCOMPARE(s.size, qint64(0));  // linked bytes are never in the cache size
    }

    void emptyCache()
    {
        const CacheStats s = computeStats({}, kNow);
        QCOMPARE(s.entries, 0);
        QCOMPARE(s.size, qint64(0));
        QVERIFY(s.versions.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCacheStats)
#include "tst_cachestats.moc"
