// The one place stores are made: the local kind from the start, unknown kinds refused with words, and a new kind
// is a registration.
#include "services/stores/storefactory.h"
#include "services/stores/storewatcher.h"
#include "tests/support/otherstore.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

using namespace ingot;

class TestStoreFactory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void localKindFromTheStart()
    {
        QVERIFY(StoreFactory::instance().hasKind(QStringLiteral("local")));
        QTemporaryDir tmp;
        auto store = makeStore(StoreLocation::local(tmp.path()));
        QVERIFY(store);
        QVERIFY(store->isLocal());
        QCOMPARE(store->displayRoot(), tmp.path());
        QString error;
        QVERIFY(store->open(&error));
    }

    void unknownKindIsRefusedWithWords()
    {
        QString error;
        auto store = makeStore(StoreLocation{QStringLiteral("s3"), QString(), QStringLiteral("bucket/prefix")}, &error);
        QVERIFY(!store);
        QVERIFY(error.contains(QStringLiteral("s3")));
        QVERIFY(error.contains(QStringLiteral("bucket/prefix")));
    }

    void aNewKindIsARegistration()
    {
        test::OtherHostStore::registerKind();
        QVERIFY(StoreFactory::instance().kinds().contains(QStringLiteral("other")));
        QTemporaryDir tmp;
        test::makeModule(tmp.path(), QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_1+aa"),
                         {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        auto store = makeStore(test::OtherHostStore::location(tmp.path()));
        QVERIFY(store);
        QVERIFY(!store->isLocal());
        QCOMPARE(store->displayRoot(), QStringLiteral("trn1-test:") + tmp.path());
        QString error;
        QVERIFY(store->open(&error));
        const ListResult versions = store->list(QString());
        QVERIFY(versions.ok);
        QCOMPARE(versions.entries.size(), 1);
        QVERIFY(!store->createWatcher(this));  // this kind cannot be watched
    }

    void locationValues()
    {
        const StoreLocation a = StoreLocation::local(QStringLiteral("/var/tmp/neuron-compile-cache"));
        QVERIFY(a.isValid());
        QVERIFY(a.isLocal());
        QCOMPARE(a.display(), QStringLiteral("/var/tmp/neuron-compile-cache"));
        const StoreLocation b = test::OtherHostStore::location(QStringLiteral("/var/tmp/neuron-compile-cache"));
        QVERIFY(a != b);
        QVERIFY(!b.isLocal());
        QCOMPARE(b.display(), QStringLiteral("trn1-test:/var/tmp/neuron-compile-cache"));
        QVERIFY(!StoreLocation().isValid());
    }

    void localWatcherReportsChanges()
    {
        QTemporaryDir tmp;
        QDir().mkpath(tmp.path() + QStringLiteral("/cache/v1"));
        auto store = makeStore(StoreLocation::local(tmp.path() + QStringLiteral("/cache")));
        std::unique_ptr<StoreWatcher> w(store->createWatcher(nullptr));
        QVERIFY(w);
        w->watchFolders({QString(), QStringLiteral("v1")});
        QCOMPARE(w->watchedCount(), 2);
        QSignalSpy changed(w.get(), &StoreWatcher::changed);
        test::writeFile(tmp.path() + QStringLiteral("/cache/v1/model.hlo_module.pb.lock"), {});
        QVERIFY(changed.wait(5000));
        w->watchFolders({QString()});
        QCOMPARE(w->watchedCount(), 1);
        w->clear();
        QCOMPARE(w->watchedCount(), 0);
    }

    void localWatcherWaitsForTheRootToAppear()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/var/tmp/neuron-compile-cache");
        auto store = makeStore(StoreLocation::local(root));
        std::unique_ptr<StoreWatcher> w(store->createWatcher(nullptr));
        w->watchForRoot();
        QCOMPARE(w->watchedCount(), 1);  // the nearest existing parent: tmp
        QSignalSpy changed(w.get(), &StoreWatcher::changed);
        QVERIFY(QDir().mkpath(tmp.path() + QStringLiteral("/var")));
        QVERIFY(changed.wait(5000));
    }
};

QTEST_GUILESS_MAIN(TestStoreFactory)
#include "tst_storefactory.moc"
