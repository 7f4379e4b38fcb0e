// The Hub caches page driven offscreen against the test Hub (a stand-in for huggingface.co): account and write
// access, lazy browsing with local/Hub marks, the registry, lookups with copyable rows and raw entries.
#include "ui/hub/hubcachepage.h"
#include "models/hub/hubtreemodel.h"
#include "models/hub/lookupmodel.h"
#include "tests/support/testhub.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace ingot;

namespace {
const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
}

class TestHubCachePage : public QObject
{
    Q_OBJECT

    test::TestHub *hub = nullptr;
    QTemporaryDir home;

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-hubcachepage"));
        hub = new test::TestHub;
        QString error;
        QVERIFY2(hub->start(&error, 50), qPrintable(error));
        QMap<QString, QByteArray> files = test::registryFixture(QStringLiteral("meta-llama/Llama-2-7b-hf"), 6);
        for (const char *m : {"MODULE_111+d41d8cd9", "MODULE_222+d41d8cd9"}) {
            files.insert(V15 + QLatin1Char('/') + QLatin1String(m) + QStringLiteral("/model.neff"), QByteArray(5000, 'n'));
            files.insert(V15 + QLatin1Char('/') + QLatin1String(m) + QStringLiteral("/compile_flags.json"), "[]");
        }
        hub->makeRepo(QStringLiteral("neuronorg/team-cache"), true, files);
        qputenv("HF_ENDPOINT", hub->url().toUtf8());
        qputenv("HF_HOME", QFile::encodeName(home.path()));
        qputenv("INGOT_KEYCHAIN", "none");
        qputenv("HF_TOKEN", "hf_alice_write");
        qputenv("CUSTOM_CACHE_REPO", "neuronorg/team-cache");
        qunsetenv("HF_HUB_OFFLINE");
    }
    void cleanupTestCase() { delete hub; }

    void browseLookupAndCopy()
    {
        HubCachePage page;
        QAbstractItemModelTester tester(page.filesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester lookupTester(page.lookupModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // The local cache has one module the Hub has too, and one the Hub lacks.
        page.setLocalModulesProvider([] {
            return QSet<QString>{V15 + QStringLiteral("/MODULE_111+d41d8cd9"), V15 + QStringLiteral("/MODULE_999+d41d8cd9")};
        });
        page.resize(1300, 800);
        page.show();
        QSignalSpy account(&page, &HubCachePage::accountChanged);
        page.refresh();
        QVERIFY(account.wait(10000));
        QVERIFY2(page.accountLabel()->text().contains(QStringLiteral("alice")), qPrintable(page.accountLabel()->text()));
        QCOMPARE(page.currentRepo(), QStringLiteral("neuronorg/team-cache"));
        QTRY_VERIFY_WITH_TIMEOUT(page.repoList()->item(0)->text().contains(QStringLiteral("you can write")), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(page.repoList()->item(1)->text().contains(QStringLiteral("no access")), 10000);  // the public default is not on the test Hub

        // Browse: the root lists lazily, a compiler folder lists recursively on expansion.
        HubTreeModel *m = page.filesModel();
        QTRY_VERIFY_WITH_TIMEOUT(m->rowCount() >= 3, 10000);
        const QModelIndex version = m->indexForPath(V15);
        QVERIFY(version.isValid());
        if (m->canFetchMore(version))  // the model tester may have asked already
            m->fetchMore(version);
        QTRY_VERIFY_WITH_TIMEOUT(m->indexForPath(V15 + QStringLiteral("/MODULE_111+d41d8cd9")).isValid(), 10000);
        auto presence = [m](const QString &module) {
            return HubTreeModel::Presence(m->indexForPath(V15 + QLatin1Char('/') + module).data(HubTreeModel::PresenceRole).toInt());
        };
        QCOMPARE(presence(QStringLiteral("MODULE_111+d41d8cd9")), HubTreeModel::Presence::Both);
        QCOMPARE(presence(QStringLiteral("MODULE_222+d41d8cd9")), HubTreeModel::Presence::HubOnly);
        QCOMPARE(presence(QStringLiteral("MODULE_999+d41d8cd9")), HubTreeModel::Presence::LocalOnly);
        const QModelIndex mod = m->indexForPath(V15 + QStringLiteral("/MODULE_111+d41d8cd9"));
        QCOMPARE(mod.siblingAtColumn(HubTreeModel::FilesColumn).data().toInt(), 2);
        QCOMPARE(mod.siblingAtColumn(HubTreeModel::SizeColumn).data().toString(), QStringLiteral("5 kB"));
        // The registry is browsable, and an entry reads as JSON.
        QVERIFY(m->indexForPath(V15 + QStringLiteral("/0_REGISTRY/0.0.25/llama/meta-llama/Llama-2-7b-hf")).isValid());

        // Lookup in the GUI.
        page.tabs()->setCurrentIndex(1);
        page.modelEdit()->setText(QStringLiteral("meta-llama/Llama-2-7b-hf"));
        QSignalSpy done(&page, &HubCachePage::lookupFinished);
        QTest::mouseClick(page.lookupButton(), Qt::LeftButton);
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().first().toInt(), 10);
        QCOMPARE(page.lookupView()->model()->rowCount(), 11);  // and one of an unknown shape, raw
        bool unknownRow = false;
        for (int r = 0; r < page.lookupModel()->rowCount(); ++r)
            unknownRow = unknownRow || page.lookupModel()->index(r, LookupModel::InstanceColumn).data().toString() == QStringLiteral("(unknown shape)");
        QVERIFY(unknownRow);
        QVERIFY(page.lookupStatus()->text().contains(QStringLiteral("unknown shape")));
        // Sorting by batch size, then the raw entry of the selected row on demand.
        page.lookupView()->sortByColumn(LookupModel::BatchColumn, Qt::DescendingOrder);
        page.lookupView()->selectRow(0);
        QVERIFY(page.lookupView()->model()->index(0, LookupModel::BatchColumn).data().toInt() >= 16);
        QVERIFY(page.rawView()->toPlainText().contains(QStringLiteral("\"neuron\"")));
        page.copySelectedLookupRows();
        const QStringList copied = QApplication::clipboard()->text().split(QLatin1Char('\n'));
        QCOMPARE(copied.size(), 2);
        QVERIFY(copied[0].startsWith(QStringLiteral("batch size\tsequence length")));
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(page.grab().save(shots + QStringLiteral("/hub-lookup.png")));
        page.tabs()->setCurrentIndex(0);
        page.filesView()->expand(static_cast<QSortFilterProxyModel *>(page.filesView()->model())->mapFromSource(version));
        QVERIFY(page.grab().save(shots + QStringLiteral("/hub-files.png")));
    }

    void offlineIsShownAndSilent()
    {
        qputenv("HF_HUB_OFFLINE", "1");
        hub->clearLog();
        HubCachePage page;
        page.show();
        page.refresh();
        QTest::qWait(300);
        QVERIFY(page.accountLabel()->text().contains(QStringLiteral("Offline")));
        QCOMPARE(page.filesModel()->rowCount(), 0);
        QCOMPARE(hub->requestLog().size(), size_t(0));
        qunsetenv("HF_HUB_OFFLINE");
    }
};

QTEST_MAIN(TestHubCachePage)
#include "tst_hubcachepage.moc"
