// The session: scans off the UI thread, progressive deltas, and following the disk while a compile writes.
#include "services/cache/cachesession.h"
#include "tests/support/otherstore.h"
#include "tests/support/testsupport.h"
#include <QElapsedTimer>
#include <memory>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace ingot;

namespace {
const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
}

class TestCacheSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void scansOffTheUiThreadAndDeliversDeltas()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 200);
        CacheSession s;
        int upserts = 0;
        bool onGuiThread = true;
        connect(&s, &CacheSession::delta, this, [&](const ScanDelta &d) {
            upserts += d.upserts.size();
            onGuiThread = onGuiThread && QThread::currentThread() == qApp->thread();
        });
        QSignalSpy done(&s, &CacheSession::scanFinished);
        s.setRoot(root);
        QVERIFY(s.isScanning());
        QVERIFY(done.wait(20000));
        QVERIFY(onGuiThread);
        QCOMPARE(upserts, s.snapshot().modules.size());
        QVERIFY(upserts >= 200);
        QVERIFY(done.first().at(1).toString().isEmpty());
    }

    void scansAnyKindOfStore()
    {
        test::OtherHostStore::registerKind();
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 30);
        CacheSession s;
        QSignalSpy done(&s, &CacheSession::scanFinished);
        const int before = test::OtherHostStore::made();
        s.setLocation(test::OtherHostStore::location(root));
        QVERIFY(done.wait(20000));
        QVERIFY(done.first().at(1).toString().isEmpty());
        QCOMPARE(s.root(), QStringLiteral("trn1-test:") + root);
        QVERIFY(s.snapshot().modules.size() >= 30);
        QVERIFY(test::OtherHostStore::made() > before);  // the scan read through stores of that kind
        QVERIFY(!s.canWatch());
        QCOMPARE(s.watchedFolders(), 0);
    }

    void anUnknownKindIsAFatalErrorWithWords()
    {
        CacheSession s;
        QSignalSpy done(&s, &CacheSession::scanFinished);
        s.setLocation(StoreLocation{QStringLiteral("nonesuch"), QStringLiteral("h"), QStringLiteral("/x")});
        QVERIFY(done.wait(20000));
        QVERIFY(done.first().at(1).toString().contains(QStringLiteral("nonesuch")));
    }

    void destroyedWhileScanningDoesNotWait()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 2000);
        auto s = std::make_unique<CacheSession>();
        s->setRoot(root);
        QVERIFY(s->isScanning());
        QElapsedTimer t;
        t.start();
        s.reset();  // no waitForFinished(): the scan is told to stop and its results dropped
        QVERIFY(t.elapsed() < 200);
    }

    void aCacheTwoLevelsDownCreatedLaterIsPickedUp()
    {
        // Two levels of the default location are missing; a first compile creates them all at once.
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/var/tmp/neuron-compile-cache");
        CacheSession s;
        s.setDebounceMs(50);
        QSignalSpy done(&s, &CacheSession::scanFinished);
        s.setRoot(root);
        QVERIFY(done.wait(20000));
        QVERIFY(!done.last().at(1).toString().isEmpty());  // no cache yet
        QCOMPARE(s.watchedFolders(), 1);                    // its nearest existing parent
        test::makeModule(root, V15, QStringLiteral("MODULE_1+aa"), {QStringLiteral("model.hlo_module.pb.lock")});
        QTRY_VERIFY_WITH_TIMEOUT(!s.isScanning() && s.snapshot().fatalError.isEmpty() && !s.snapshot().modules.isEmpty(), 20000);
    }

    void followsACompileLive()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 20);
        CacheSession s;
        s.setDebounceMs(100);
        QSignalSpy done(&s, &CacheSession::scanFinished);
        s.setRoot(root);
        QVERIFY(done.wait(20000));
        QVERIFY(s.watchedFolders() >= 4);  // root and versions at least
        QStringList upserted, removed;
        connect(&s, &CacheSession::delta, this, [&](const ScanDelta &d) {
            for (const auto &m : d.upserts)
                upserted << m.key() + QLatin1Char(':') + stateName(m.state);
            removed += d.removed;
        });
        // A compile starts: module folder with a lock appears. (The waits are long: under the sanitizer build, beside
        // fuzzers on two cores, a rescan once took over 10 s.)
        const QString mod = root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_4242+d41d8cd9");
        QDir().mkpath(mod);
        test::writeFile(mod + QStringLiteral("/model.hlo_module.pb"), "hlo");
        test::writeFile(mod + QStringLiteral("/model.hlo_module.pb.lock"), {});
        QTRY_VERIFY_WITH_TIMEOUT(upserted.contains(V15 + QStringLiteral("/MODULE_4242+d41d8cd9:LOCKED")), 30000);
        // It finishes: neff and done written, lock removed (the module folder itself is watched now).
        test::writeFile(mod + QStringLiteral("/model.neff"), "NEFF");
        test::writeFile(mod + QStringLiteral("/model.done"), {});
        QFile::remove(mod + QStringLiteral("/model.hlo_module.pb.lock"));
        QTRY_VERIFY_WITH_TIMEOUT(upserted.contains(V15 + QStringLiteral("/MODULE_4242+d41d8cd9:SUCCESS")), 30000);
        QDir(mod).removeRecursively();
        QTRY_VERIFY_WITH_TIMEOUT(removed.contains(V15 + QStringLiteral("/MODULE_4242+d41d8cd9")), 30000);
    }

    void aCompileThatEndsBeforeItsWatchIsSeen()
    {
        // A module listed as locked is watched only after the scan ends; a compile that finishes in between changes
        // nothing a watch sees. (Turning watching on after the change is that moment, made deterministic.)
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 5);
        const QString mod = root + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_77+d41d8cd9");
        QDir().mkpath(mod);
        test::writeFile(mod + QStringLiteral("/model.hlo_module.pb"), "hlo");
        test::writeFile(mod + QStringLiteral("/model.hlo_module.pb.lock"), {});
        CacheSession s;
        s.setDebounceMs(50);
        s.setWatching(false);
        QSignalSpy done(&s, &CacheSession::scanFinished);
        s.setRoot(root);
        QVERIFY(done.wait(20000));
        const auto stateOf = [&] {
            for (const CacheModule &m : s.snapshot().modules)
                if (m.key() == V15 + QStringLiteral("/MODULE_77+d41d8cd9"))
                    return stateName(m.state);
            return QString();
        };
        QCOMPARE(stateOf(), QStringLiteral("LOCKED"));
        test::writeFile(mod + QStringLiteral("/model.neff"), "NEFF");
        test::writeFile(mod + QStringLiteral("/model.done"), {});
        QFile::remove(mod + QStringLiteral("/model.hlo_module.pb.lock"));
        s.setWatching(true);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(), QStringLiteral("SUCCESS"), 20000);
    }

    void switchingRootsDropsTheOldScan()
    {
        QTemporaryDir a, b;
        const QString ra = test::makeSampleCache(a, 300, 1);
        const QString rb = test::makeSampleCache(b, 10, 2);
        CacheSession s;
        QStringList roots;
        connect(&s, &CacheSession::delta, this, [&](const ScanDelta &d) {
            for (const auto &m : d.upserts)
                if (!roots.contains(m.version))
                    roots << m.version;
        });
        QSignalSpy done(&s, &CacheSession::scanFinished);
        s.setRoot(ra);
        s.setRoot(rb);
        QVERIFY(done.wait(20000));
        QCOMPARE(done.count(), 1);  // only the second root's scan reports
        QCOMPARE(s.snapshot().root, rb);
        QVERIFY(s.snapshot().modules.size() < 40);
    }

    void aCacheCreatedLaterIsPickedUp()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/var/tmp/neuron-compile-cache");
        QDir().mkpath(tmp.path() + QStringLiteral("/var/tmp"));
        CacheSession s;
        s.setDebounceMs(100);
        QSignalSpy done(&s, &CacheSession::scanFinished);
        s.setRoot(root);
        QVERIFY(done.wait(5000));
        QVERIFY(!done.last().at(1).toString().isEmpty());
        QCOMPARE(s.watchedFolders(), 1);  // the parent that exists
        // The first compile on this machine creates the cache.
        test::makeModule(root, V15, QStringLiteral("MODULE_1+d41d8cd9"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo_module.pb.lock")});
        QTRY_VERIFY_WITH_TIMEOUT(s.snapshot().fatalError.isEmpty() && s.snapshot().modules.size() == 1, 10000);
    }

    void missingRootReportsAnError()
    {
        CacheSession s;
        QSignalSpy done(&s, &CacheSession::scanFinished);
        s.setRoot(QStringLiteral("/nonexistent/neuron-compile-cache"));
        QVERIFY(done.wait(5000));
        QVERIFY(done.first().at(1).toString().contains(QStringLiteral("does not exist")));
    }
};

QTEST_GUILESS_MAIN(TestCacheSession)
#include "tst_cachesession.moc"
