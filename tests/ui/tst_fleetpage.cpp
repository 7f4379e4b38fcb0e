// The Fleet page, driven like a user would (offscreen): its first show reads every place Ingot knows in the
// background, each row saying "reading…" while its place is read, then its figures or why it could not be read;
// Refresh (F5) and the timer read them again while the page is shown; Open (a double-click) shows a folder on the
// Local cache page and a Hub repo on the Hub page; the saved policies and the gc log's last run are shown. The
// README's picture of the page (fleet.png) at the window's default size: this machine's cache, a folder added, a host
// over a real sshd, a host that refuses, the test S3 server and a repo of the test Hub.
#include "models/fleet/fleetmodel.h"
#include "services/cache/cachepolicy.h"
#include "services/cache/samplecache.h"
#include "services/fleet/gclog.h"
#include "services/remote/remotehosts.h"
#include "services/s3/s3cachestore.h"
#include "services/util/appsettings.h"
#include "tests/s3/pythonserver.h"
#include "tests/support/testhub.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"
#include "ui/fleet/fleetpage.h"
#include "ui/fleet/policydialog.h"
#include "ui/fleet/fleetgcpanel.h"
#include "ui/hub/hubcachepage.h"
#include "ui/localcache/localcachepage.h"
#include "ui/shell/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace ingot;

namespace {

const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QStringList OK = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")};
const QStringList FAILED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")};

QString makeCache(const QString &root)
{
    test::makeModule(root, V15, QStringLiteral("MODULE_1+a"), OK, 2, 4000);
    test::makeModule(root, V15, QStringLiteral("MODULE_2+a"), OK, 5, 3000);
    test::makeModule(root, V15, QStringLiteral("MODULE_4+a"), FAILED, 3);
    return root;
}

QString cell(const FleetModel *m, const QString &id, int column)
{
    const int row = m->rowOf(id);
    return row < 0 ? QString() : m->index(row, column).data().toString();
}

// A sample cache; `maxNeff` small for one the test S3 server holds in memory (the others' are sparse files).
bool sample(const QString &root, int modules, quint64 seed, qint64 maxNeff = qint64(2400) * 1000 * 1000)
{
    SampleCacheOptions o;
    o.maxNeffBytes = maxNeff;
    o.minNeffBytes = std::min(o.minNeffBytes, maxNeff / 2);
    o.modules = modules;
    o.seed = seed;
    o.oddEntries = false;
    o.hubLinks = false;
    QString error;
    if (!writeSampleCache(root, o, nullptr, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return true;
}

}  // namespace

class TestFleetPage : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_here, m_added, m_missing;

    FleetSummaryOptions quick() const
    {
        FleetSummaryOptions o;
        o.placeTimeoutMs = 20000;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-fleetpage"));
        QSettings().clear();  // what an earlier run added (Hub repos, S3 caches, policies) is no place of this one
        qputenv("INGOT_KEYCHAIN", "none");
        qputenv("HF_HUB_OFFLINE", "1");  // the Hub cache repo in use is a place; never huggingface.co
        qputenv("INGOT_GC_LOG", QFile::encodeName(m_tmp.path() + QStringLiteral("/gc.log")));
        qputenv("VLLM_CACHE_ROOT", QFile::encodeName(m_tmp.path() + QStringLiteral("/no-vllm")));
        qunsetenv("NEURON_LIBTORCH_REMOTE_CACHE");
        qunsetenv("NEURON_COMPILE_CACHE_URL");
        test::writeFile(m_tmp.path() + QStringLiteral("/ssh_config"), "");
        AppSettings::setSshConfigFile(m_tmp.path() + QStringLiteral("/ssh_config"));
        RemoteHosts::instance().reset();
        registerRemoteStores();
        s3::registerS3Store();
        m_here = makeCache(m_tmp.path() + QStringLiteral("/here"));
        m_added = makeCache(m_tmp.path() + QStringLiteral("/added"));
        m_missing = m_tmp.path() + QStringLiteral("/unplugged-disk");
        qputenv("NEURON_CC_FLAGS", QFile::encodeName(QStringLiteral("--cache_dir=") + m_here));
        AppSettings::setCacheRoots({m_added, m_missing});
    }

    void theFirstShowReadsEveryPlaceInTheBackground()
    {
        FleetPage page;
        page.setReadOptions(quick());
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSet<QString> seenReading;
        connect(page.model(), &QAbstractItemModel::dataChanged, this, [&](const QModelIndex &from) {
            if (from.data(FleetModel::ReadingRole).toBool()) {
                seenReading << from.data(FleetModel::PlaceIdRole).toString();
                QCOMPARE(from.siblingAtColumn(FleetModel::StatusColumn).data().toString(), QStringLiteral("reading…"));
            }
        });
        QSignalSpy refreshed(&page, &FleetPage::refreshed);
        QCOMPARE(page.model()->placeCount(), 0);  // nothing is read before someone looks
        page.resize(1000, 500);
        page.show();
        QVERIFY(refreshed.wait(30000));
        const FleetModel *m = page.model();
        QVERIFY(m->rowOf(m_here) >= 0);
        QVERIFY(seenReading.contains(m_here));
        QVERIFY(seenReading.contains(m_missing));
        QCOMPARE(cell(m, m_here, FleetModel::EntriesColumn), QStringLiteral("3"));
        QCOMPARE(cell(m, m_here, FleetModel::FailedColumn), QStringLiteral("1"));
        QCOMPARE(cell(m, m_here, FleetModel::CompilersColumn), QStringLiteral("2.15.128.0+56dc5a86"));
        QVERIFY(cell(m, m_here, FleetModel::StatusColumn).startsWith(QStringLiteral("read in")));
        QCOMPARE(cell(m, m_added, FleetModel::KindColumn), QStringLiteral("Folder"));
        QVERIFY2(cell(m, m_missing, FleetModel::StatusColumn).contains(QStringLiteral("unplugged-disk")),
                 qPrintable(cell(m, m_missing, FleetModel::StatusColumn)));
        QVERIFY(cell(m, m_missing, FleetModel::EntriesColumn).isEmpty());
        // The Hub cache repo in use is a row too; offline, it says so.
        bool hubRow = false;
        for (int r = 0; r < m->placeCount(); ++r)
            if (m->place(r).kind == FleetPlace::Kind::Hub) {
                hubRow = true;
                QVERIFY(m->index(r, FleetModel::StatusColumn).data().toString().contains(QStringLiteral("HF_HUB_OFFLINE")));
            }
        QVERIFY(hubRow);
        QVERIFY2(page.summaryLabel()->text().contains(QStringLiteral("not read")), qPrintable(page.summaryLabel()->text()));
        QVERIFY(!page.isReading());

        // F5 reads them again; so does the timer while the page is shown.
        QCOMPARE(page.refreshAction()->shortcut(), QKeySequence(QKeySequence::Refresh));
        page.refreshAction()->trigger();
        QVERIFY(page.isReading());
        QVERIFY(refreshed.wait(30000));
        page.setRefreshIntervalMs(100);
        QVERIFY(refreshed.wait(30000));
        page.hide();
    }

    void theTimerLeavesAHubRepoReadRecently()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error), qPrintable(error));
        QMap<QString, QByteArray> files;
        files.insert(V15 + QStringLiteral("/MODULE_1+a/model.neff"), QByteArray(1000, 'n'));
        hub.makeRepo(QStringLiteral("neuronorg/timer-cache"), false, files);
        qputenv("HF_ENDPOINT", hub.url().toUtf8());
        qputenv("CUSTOM_CACHE_REPO", "neuronorg/timer-cache");
        qunsetenv("HF_HUB_OFFLINE");
        const QString id = QStringLiteral("hub:neuronorg/timer-cache");
        auto treeRequests = [&hub] {
            int n = 0;
            for (const auto &r : hub.requestLog())
                n += QString::fromStdString(r.value("path", std::string())).contains(QStringLiteral("/tree/")) ? 1 : 0;
            return n;
        };
        FleetPage page;
        page.setReadOptions(quick());
        QSignalSpy refreshed(&page, &FleetPage::refreshed);
        page.show();
        QVERIFY(refreshed.wait(30000));
        QCOMPARE(cell(page.model(), id, FleetModel::EntriesColumn), QStringLiteral("1"));
        const qint64 hereRead = page.model()->summary(page.model()->rowOf(m_here))->readAtMs;
        hub.clearLog();
        page.setRefreshIntervalMs(50);  // the timer: the repo was read just now, so it keeps its row
        QVERIFY(refreshed.wait(30000));
        page.setRefreshIntervalMs(3600000);
        QCOMPARE(treeRequests(), 0);
        QCOMPARE(cell(page.model(), id, FleetModel::EntriesColumn), QStringLiteral("1"));
        QVERIFY(page.model()->summary(page.model()->rowOf(m_here))->readAtMs >= hereRead);  // the folders were read again
        page.refreshAction()->trigger();  // Refresh reads everything
        QVERIFY(refreshed.wait(30000));
        QVERIFY(treeRequests() > 0);
        qputenv("HF_HUB_OFFLINE", "1");
        qunsetenv("HF_ENDPOINT");
        qunsetenv("CUSTOM_CACHE_REPO");
    }

    void openShowsTheCacheOnTheLocalCachePage()
    {
        MainWindow w;
        w.resize(1280, 820);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        FleetPage *page = w.fleetPage();
        page->setReadOptions(quick());
        QSignalSpy refreshed(page, &FleetPage::refreshed);
        QCOMPARE(w.navigation()->item(5)->text(), QStringLiteral("Fleet"));
        w.navigation()->setCurrentRow(5);
        QVERIFY(refreshed.wait(30000));
        page->selectPlace(m_added);
        QCOMPARE(page->currentPlace()->id, m_added);
        QVERIFY(page->openAction()->isEnabled());
        QSignalSpy open(page, &FleetPage::openPlaceRequested);
        const QPoint at = page->view()->visualRect(page->view()->currentIndex()).center();
        QTest::mouseClick(page->view()->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(page->view()->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(open.size(), 1);
        QCOMPARE(w.navigation()->currentRow(), 0);
        QCOMPARE(w.localCachePage()->currentRoot(), m_added);
    }

    void thePoliciesAndTheLastRunAreShown()
    {
        CachePolicy p;
        p.name = QStringLiteral("team-daily");
        p.maxBytes = qint64(200) * 1000 * 1000 * 1000;
        p.unusedDays = 30;
        p.removeFailed = true;
        savePolicy(p);
        GcRun run;
        run.policy = p.name;
        run.trigger = QStringLiteral("schedule");
        run.startedMs = run.finishedMs = QDateTime::currentMSecsSinceEpoch();
        GcPlaceResult a;
        a.place = m_here;
        a.reached = true;
        a.freedBytes = 41000000000;
        GcPlaceResult b;
        b.place = QStringLiteral("host:trn1-b");
        b.error = QStringLiteral("Connection refused");
        run.places = {a, b};
        QString error;
        QVERIFY2(appendGcRun(run, &error), qPrintable(error));
        FleetPage page;
        QSignalSpy logRead(&page, &FleetPage::lastRunRead);
        QVERIFY(logRead.wait(10000));
        QVERIFY(page.policyBox()->findText(p.name) >= 0);
        page.policyBox()->setCurrentIndex(page.policyBox()->findText(p.name));
        QCOMPARE(page.policyLabel()->text(), p.summary());
        QVERIFY2(page.lastRunLabel()->text().contains(run.summary()), qPrintable(page.lastRunLabel()->text()));
        QVERIFY(page.lastRunLabel()->text().contains(QStringLiteral("team-daily")));
        removePolicy(p.name);
        page.reloadPolicies();
        QCOMPARE(page.policyBox()->count(), 0);
        QVERIFY(page.policyLabel()->text().contains(QStringLiteral("cache policy set")));
    }

    void aPolicyIsMadeAndChangedOnThePage()
    {
        FleetPage page;
        PolicyDialog *d = page.editPolicy(true);
        QVERIFY(d);
        QPushButton *ok = d->buttons()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());  // no name, no rule
        QTest::keyClicks(d->nameEdit(), QStringLiteral("night ly"));
        d->failedBox()->setChecked(true);
        QVERIFY(!ok->isEnabled());
        QVERIFY(d->summaryLabel()->text().contains(QStringLiteral("A name")));
        d->nameEdit()->setText(QStringLiteral("nightly"));
        QTest::keyClicks(d->maxSizeEdit(), QStringLiteral("lots"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(d->summaryLabel()->text().contains(QStringLiteral("lots")));
        d->maxSizeEdit()->setText(QStringLiteral("100GB"));
        d->keepVersionsBox()->setValue(2);
        QVERIFY(ok->isEnabled());
        CachePolicy expected;
        expected.maxBytes = qint64(100) * 1000 * 1000 * 1000;
        expected.keepVersions = 2;
        expected.removeFailed = true;
        QCOMPARE(d->summaryLabel()->text(), QStringLiteral("Removes: %1.").arg(expected.summary()));
        QTest::mouseClick(ok, Qt::LeftButton);
        CachePolicy saved;
        QVERIFY(findPolicy(QStringLiteral("nightly"), &saved));
        QCOMPARE(saved.maxBytes, expected.maxBytes);
        QCOMPARE(saved.keepVersions, 2);
        QVERIFY(saved.removeFailed);
        QVERIFY(!saved.clearLocks);
        QCOMPARE(page.policyBox()->currentText(), QStringLiteral("nightly"));
        QCOMPARE(page.policyLabel()->text(), saved.summary());
        // Edit: the chosen one, its name kept, its fields as saved.
        PolicyDialog *e = page.editPolicy(false);
        QVERIFY(e);
        QVERIFY(e->nameEdit()->isReadOnly());
        QCOMPARE(e->maxSizeEdit()->text(), QStringLiteral("100GB"));
        e->unusedDaysBox()->setValue(30);
        e->buttons()->button(QDialogButtonBox::Ok)->click();
        QVERIFY(findPolicy(QStringLiteral("nightly"), &saved));
        QCOMPARE(saved.unusedDays, 30);
        QCOMPARE(saved.maxBytes, expected.maxBytes);
        removePolicy(QStringLiteral("nightly"));
    }

    void screenshot()
    {
        // A team's fleet: this machine's cache, a shared folder, a trn host over SSH, one that refuses, an S3 cache
        // and the team's Hub cache repo.
        QTemporaryDir shots(QDir::tempPath() + QStringLiteral("/fleet-XXXXXX"));
        const QString here = shots.path() + QStringLiteral("/var/tmp/neuron-compile-cache");
        const QString shared = shots.path() + QStringLiteral("/fsx/team/neuron-cache");
        const QString host = shots.path() + QStringLiteral("/trn1-a/neuron-compile-cache");
        const QString seed = shots.path() + QStringLiteral("/s3");
        QVERIFY(sample(here, 40, 3) && sample(shared, 120, 5) && sample(host, 60, 7) && sample(seed + QStringLiteral("/team/cache"), 30, 9, 400000));
        test::TestSshd trn(QStringLiteral("trn1-a"));
        trn.setSessionEnvironment({QStringLiteral("NEURON_CC_FLAGS=--cache_dir=") + host});
        QString error;
        QVERIFY2(trn.start(&error), qPrintable(error));
        QVERIFY(trn.trustHostKey());
        test::writeFile(m_tmp.path() + QStringLiteral("/ssh_config"),
                        (trn.configBlock() + QStringLiteral("Host trn1-b\n  HostName 127.0.0.1\n  Port 1\n")).toUtf8());
        RemoteHosts::instance().reset();
        test::PythonServer s3server("tests/s3/tests3.py", {QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                           QStringLiteral("s3cr3t"), QStringLiteral("--seed"), QStringLiteral("team-cache=") + seed});
        QTRY_VERIFY_WITH_TIMEOUT(!s3server.url().endsWith(QLatin1Char(':')), 20000);  // its port written whole
        qputenv("AWS_ENDPOINT_URL", s3server.url().toUtf8());
        qputenv("AWS_ACCESS_KEY_ID", "AKIDINGOT");
        qputenv("AWS_SECRET_ACCESS_KEY", "s3cr3t");
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        AppSettings::addS3Cache(QStringLiteral("s3://team-cache/team/cache"));
        test::TestHub hub;
        QVERIFY2(hub.start(&error), qPrintable(error));
        QMap<QString, QByteArray> files = test::registryFixture(QStringLiteral("meta-llama/Llama-3.1-8B"), 2);
        for (int i = 0; i < 12; ++i)
            files.insert(V15 + QStringLiteral("/MODULE_%1+4fd3a2c1/model.neff").arg(1000 + i), QByteArray(2000 + 100 * i, 'n'));
        hub.makeRepo(QStringLiteral("neuronorg/llama-cache"), false, files);
        qputenv("HF_ENDPOINT", hub.url().toUtf8());
        qunsetenv("HF_HUB_OFFLINE");
        qputenv("CUSTOM_CACHE_REPO", "neuronorg/llama-cache");
        qputenv("NEURON_CC_FLAGS", QFile::encodeName(QStringLiteral("--cache_dir=") + here));
        AppSettings::setCacheRoots({shared});

        CachePolicy policy;
        policy.name = QStringLiteral("team-daily");
        policy.maxBytes = qint64(200) * 1000 * 1000 * 1000;
        policy.keepVersions = 2;
        policy.unusedDays = 30;
        policy.removeFailed = true;
        savePolicy(policy);
        GcRun run;
        run.policy = policy.name;
        run.trigger = QStringLiteral("schedule");
        run.startedMs = QDateTime::currentMSecsSinceEpoch() - 9 * 3600 * 1000;
        run.finishedMs = run.startedMs + 95000;
        for (const char *id : {"host:trn1-a", "s3://team-cache/team/cache"}) {
            GcPlaceResult r;
            r.place = QString::fromLatin1(id);
            r.reached = true;
            r.freedBytes = qint64(20500) * 1000 * 1000;
            run.places << r;
        }
        GcPlaceResult refused;
        refused.place = QStringLiteral("host:trn1-b");
        refused.error = QStringLiteral("Connection refused");
        run.places << refused;
        QVERIFY2(appendGcRun(run, &error), qPrintable(error));

        MainWindow w;
        w.resize(1280, 820);
        FleetPage *page = w.fleetPage();
        page->setReadOptions(quick());
        QSignalSpy refreshed(page, &FleetPage::refreshed);
        w.navigation()->setCurrentRow(5);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(refreshed.wait(60000));
        const FleetModel *m = page->model();
        QVERIFY2(cell(m, QStringLiteral("host:trn1-a"), FleetModel::StatusColumn).startsWith(QStringLiteral("read in")),
                 qPrintable(cell(m, QStringLiteral("host:trn1-a"), FleetModel::StatusColumn)));
        QVERIFY2(cell(m, QStringLiteral("s3://team-cache/team/cache"), FleetModel::StatusColumn).startsWith(QStringLiteral("read in")),
                 qPrintable(cell(m, QStringLiteral("s3://team-cache/team/cache"), FleetModel::StatusColumn)));
        QVERIFY(cell(m, QStringLiteral("hub:neuronorg/llama-cache"), FleetModel::StatusColumn).startsWith(QStringLiteral("read in")));
        QCOMPARE(cell(m, QStringLiteral("hub:neuronorg/llama-cache"), FleetModel::EntriesColumn), QStringLiteral("13"));  // and the fixture's own
        QVERIFY(!cell(m, QStringLiteral("host:trn1-b"), FleetModel::StatusColumn).startsWith(QStringLiteral("read in")));
        page->selectPlace(QStringLiteral("host:trn1-a"));
        QTRY_VERIFY_WITH_TIMEOUT(page->lastRunLabel()->text().startsWith(QStringLiteral("Last run")), 10000);
        // The chosen policy previewed on every place: what each frees, and the total.
        QSignalSpy previewed(page->gcPanel(), &FleetGcPanel::previewed);
        page->gcPanel()->previewButton()->click();
        QVERIFY(previewed.wait(60000));
        QVERIFY(page->gcPanel()->applyButton()->isEnabled());
        test::deliverPostedEvents();
        const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(dir);
        QVERIFY(w.grab().save(dir + QStringLiteral("/fleet.png")));
        qInfo("screenshot: %s/fleet.png", qPrintable(dir));
        // Open on a Hub repo's row (one added on the Hub page, not the one in use it opens first): the Hub caches
        // page, on that repo once its first look listed the repos.
        hub.makeRepo(QStringLiteral("neuronorg/other-cache"), false, files);
        AppSettings::addHubRepo(QStringLiteral("neuronorg/other-cache"));
        page->refresh();
        QVERIFY(refreshed.wait(60000));
        page->selectPlace(QStringLiteral("hub:neuronorg/other-cache"));
        QCOMPARE(page->currentPlace()->id, QStringLiteral("hub:neuronorg/other-cache"));
        page->openAction()->trigger();
        QCOMPARE(w.navigation()->currentRow(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(w.hubCachePage()->currentRepo(), QStringLiteral("neuronorg/other-cache"), 30000);
        if (auto c = RemoteHosts::instance().connection(trn.alias()))
            c->close();
    }
};

QTEST_MAIN(TestFleetPage)
#include "tst_fleetpage.moc"
