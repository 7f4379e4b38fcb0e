// The sample cache / fixture generator: deterministic, every state, never writes over files.
#include "services/cache/cachescanner.h"
#include "services/cache/compilerversion.h"
#include "services/stores/localcachestore.h"
#include "services/cache/samplecache.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

using namespace ingot;

class TestSampleCache : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyStateAndFormIsPresent()
    {
        QTemporaryDir tmp;
        SampleCacheOptions o;
        o.modules = 400;
        SampleCacheResult r;
        QString error;
        QVERIFY(writeSampleCache(tmp.path() + QStringLiteral("/c"), o, &r, &error));
        for (int s = 0; s < int(ModuleState::Unknown); ++s)
            QVERIFY2(r.perState[s] > 0, qPrintable(stateName(ModuleState(s))));
        LocalCacheStore store(tmp.path() + QStringLiteral("/c"));
        CacheScanner scanner(store);
        const CacheSnapshot snap = scanner.scan(nullptr);
        bool decimal = false, hex = false, traced = false, hub = false, unknown = false;
        for (const auto &m : snap.modules) {
            const QString hash = m.name.mid(7).section(QLatin1Char('+'), 0, 0);
            decimal = decimal || (m.kind == EntryKind::Module && hash.size() >= 15 && hash.toULongLong() > 0);
            hex = hex || (m.kind == EntryKind::Module && hash.size() == 20 && hash.contains(QRegularExpression(QStringLiteral("[a-f]"))));
            traced = traced || m.kind == EntryKind::TracedModule;
            unknown = unknown || !m.isModule();
            for (const auto &f : m.files)
                hub = hub || f.is(CacheFile::HubBlob);
        }
        QVERIFY(decimal);
        QVERIFY(hex);
        QVERIFY(traced);
        QVERIFY(hub);
        QVERIFY(unknown);
        QCOMPARE(r.files > 3 * r.modules / 2, true);
    }

    void deterministicForASeed()
    {
        QTemporaryDir a, b;
        SampleCacheOptions o;
        o.modules = 50;
        o.seed = 99;
        o.nowMs = 1'790'000'000'000;
        QString error;
        QVERIFY(writeSampleCache(a.path() + QStringLiteral("/c"), o, nullptr, &error));
        QVERIFY(writeSampleCache(b.path() + QStringLiteral("/c"), o, nullptr, &error));
        for (const QString &v : sampleCompilerVersions())
            QCOMPARE(QDir(a.path() + QStringLiteral("/c/") + v).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                     QDir(b.path() + QStringLiteral("/c/") + v).entryList(QDir::AllEntries | QDir::NoDotAndDotDot));
    }

    void refusesANonEmptyFolder()
    {
        QTemporaryDir tmp;
        test::writeFile(tmp.path() + QStringLiteral("/precious.txt"), "data");
        QString error;
        QVERIFY(!writeSampleCache(tmp.path(), SampleCacheOptions(), nullptr, &error));
        QVERIFY(error.contains(QStringLiteral("already holds files")));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSampleCache)
#include "tst_samplecache.moc"
