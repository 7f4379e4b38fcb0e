// The whole app pulling from the test Hub (a stand-in for huggingface.co) like a user: the Hub caches page lists a
// team cache repo against a local cache, the user selects the "Hub only" modules and clicks Pull; the modules are
// marked "in transfer", the Transfers page shows the transfer, and when it ends the local cache holds them
// byte-identical and the marks read "Hub and local". The real engine runs (no scripted parts).
#include "models/hub/hubtreemodel.h"
#include "models/transfer/transfersmodel.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachesession.h"
#include "services/transfer/transferqueue.h"
#include "tests/support/testhub.h"
#include "tests/support/testsupport.h"
#include "ui/hub/hubcachepage.h"
#include "ui/localcache/localcachepage.h"
#include "ui/shell/mainwindow.h"
#include "ui/transfers/transferspage.h"

#include <QApplication>
#include <QDir>
#include <QItemSelectionModel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace ingot;

namespace {
const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString kRepo = QStringLiteral("neuronorg/team-cache");

}  // namespace

class TestTransfersGui : public QObject
{
    Q_OBJECT

    test::TestHub *hub = nullptr;
    QTemporaryDir home;
    QTemporaryDir cache;
    QMap<QString, QByteArray> files;

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("Ingot"));
        QApplication::setApplicationName(QStringLiteral("ingot"));
        hub = new test::TestHub;
        QString error;
        QVERIFY2(hub->start(&error, 1000, 100000), qPrintable(error));
        int seed = 0;
        for (const char *m : {"MODULE_111+d41d8cd9", "MODULE_222+d41d8cd9", "MODULE_333+d41d8cd9"}) {
            const QString dir = V + QLatin1Char('/') + QLatin1String(m);
            files.insert(dir + QStringLiteral("/model.neff"), test::randomBytes(3'000'000, quint32(++seed)));  // LFS, through the "CDN"
            files.insert(dir + QStringLiteral("/model.done"), QByteArray());
            files.insert(dir + QStringLiteral("/compile_flags.json"), "[\"--model-type=transformer\"]");
            files.insert(dir + QStringLiteral("/model.hlo_module.pb"), test::randomBytes(2000, quint32(seed + 100)));
        }
        hub->makeRepo(kRepo, true, files);
        // The local cache has MODULE_111 already.
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            if (it.key().contains(QStringLiteral("MODULE_111"))) {
                QDir().mkpath(cache.filePath(it.key().section(QLatin1Char('/'), 0, 1)));
                QFile f(cache.filePath(it.key()));
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write(it.value());
            }
        qputenv("HF_ENDPOINT", hub->url().toUtf8());
        qputenv("HF_HOME", QFile::encodeName(home.path()));
        qputenv("INGOT_KEYCHAIN", "none");
        qputenv("HF_TOKEN", "hf_alice_write");
        qputenv("CUSTOM_CACHE_REPO", kRepo.toUtf8());
        qunsetenv("HF_HUB_OFFLINE");
        QDir(TransferQueue::defaultStateDir()).removeRecursively();
    }
    void cleanupTestCase() { delete hub; }

    void pullHubOnlyModulesFromTheHubPage()
    {
        MainWindow w;
        w.resize(1400, 860);
        w.show();
        CacheLocation loc;
        loc.path = cache.path();
        QSignalSpy scanned(w.localCachePage()->session(), &CacheSession::scanFinished);
        w.start(loc);
        QVERIFY(scanned.wait(20000));

        // The Hub page, the team repo, its compiler folder listed.
        HubCachePage *page = w.hubCachePage();
        QSignalSpy ready(page, &HubCachePage::ready);
        w.navigation()->setCurrentRow(1);
        QVERIFY(ready.wait(20000));
        QCOMPARE(page->currentRepo(), kRepo);
        HubTreeModel *m = page->filesModel();
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V).isValid(), 10000);
        if (m->canFetchMore(m->indexForPath(V)))
            m->fetchMore(m->indexForPath(V));
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V + QStringLiteral("/MODULE_333+d41d8cd9")).isValid(), 10000);
        auto presence = [m](const char *module) {
            return HubTreeModel::Presence(m->indexForPath(V + QLatin1Char('/') + QLatin1String(module)).data(HubTreeModel::PresenceRole).toInt());
        };
        auto where = [m](const char *module) {
            return m->indexForPath(V + QLatin1Char('/') + QLatin1String(module)).siblingAtColumn(HubTreeModel::WhereColumn).data().toString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(presence("MODULE_111+d41d8cd9"), HubTreeModel::Presence::Both, 10000);
        QCOMPARE(presence("MODULE_222+d41d8cd9"), HubTreeModel::Presence::HubOnly);
        QCOMPARE(presence("MODULE_333+d41d8cd9"), HubTreeModel::Presence::HubOnly);

        // Select the compiler folder: Pull takes the Hub-only modules in it (not MODULE_111, which is local).
        auto *proxy = static_cast<QSortFilterProxyModel *>(page->filesView()->model());
        page->filesView()->expand(proxy->mapFromSource(m->indexForPath(V)));
        page->filesView()->selectionModel()->select(proxy->mapFromSource(m->indexForPath(V)),
                                                    QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(page->pullButton()->isEnabled());
        QCOMPARE(page->pullButton()->text().remove(QLatin1Char('&')), QStringLiteral("Pull 2 to local cache"));
        QVERIFY(!page->pushButton()->isEnabled());

        // A slow Hub, so the "in transfer" marks can be seen.
        QVERIFY(hub->fault({{"kind", "latency"}, {"ms", 400}, {"count", 6}, {"path", "/cdn/"}}));
        QTest::mouseClick(page->pullButton(), Qt::LeftButton);
        TransferQueue *q = w.transferQueue();
        QCOMPARE(q->records().size(), 1);
        const TransferRecord r = q->records().first();
        QCOMPARE(r.kind, TransferKind::Pull);
        QCOMPARE(r.items.size(), 2);
        QVERIFY(r.to == TransferPlace::ofCache(StoreLocation::local(cache.path())));
        QTRY_COMPARE_WITH_TIMEOUT(where("MODULE_222+d41d8cd9"), QStringLiteral("in transfer…"), 5000);
        QVERIFY(!page->pullButton()->isEnabled());  // nothing left to pull in the selection
        QCOMPARE(w.transfersPage()->model()->rowCount(), 1);

        // The Transfers page shows it moving; it ends with both entries done.
        w.navigation()->setCurrentRow(4);
        QTRY_VERIFY_WITH_TIMEOUT(q->record(r.id)->finished() && !q->isRunning(r.id), 30000);
        QCOMPARE(q->record(r.id)->count(TransferItem::State::Done), 2);
        QCOMPARE(w.transfersPage()->model()->index(0, TransfersModel::StateColumn).data().toString(), QStringLiteral("Done"));

        // The cache page rescans, and the Hub page's marks change.
        w.navigation()->setCurrentRow(1);
        QTRY_COMPARE_WITH_TIMEOUT(presence("MODULE_222+d41d8cd9"), HubTreeModel::Presence::Both, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(presence("MODULE_333+d41d8cd9"), HubTreeModel::Presence::Both, 20000);
        QCOMPARE(where("MODULE_333+d41d8cd9"), QStringLiteral("Hub and local"));
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QCOMPARE(test::readFile(cache.filePath(it.key())), it.value());
        // Nothing of the transfer is left in the cache but the entries.
        QCOMPARE(QDir(cache.filePath(V)).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).size(), 3);

        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(w.grab().save(shots + QStringLiteral("/hub-pulled.png")));
    }
};

QTEST_MAIN(TestTransfersGui)
#include "tst_transfersgui.moc"
