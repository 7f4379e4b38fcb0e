// A training job on a remote host, driven through the launcher like a user: "Run on" a host (a real sshd on
// 127.0.0.1), the Python found there, Launch; the job runs on the "host" (its own job folder and backend copy
// there), the history names the host, the monitor charts it to the end; its Consolidate, run by the host's ingot-cli,
// cancelled by the same button, and a consolidation there stopped half way. Saves the README's picture of a remote job.
#include "models/jobs/joblistmodel.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/remotejobindex.h"
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/joblogview.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/joblauncher.h"
#include "ui/jobs/metricchart.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QMessageBox>
#include <QScopeGuard>
#include <QTimer>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <thread>

using namespace ingot;
using ingot::test::TestSshd;

class TestRemoteJobs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<TestSshd> m_sshd;

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        m_sshd = std::make_unique<TestSshd>(QStringLiteral("trn1-dev"));
        // The host has Ingot: its ingot-cli on the PATH of its sessions (what Consolidate runs there).
        const QString bin = m_dir.filePath(QStringLiteral("host-bin"));
        QVERIFY(QDir().mkpath(bin) && QFile::link(QStringLiteral(INGOT_CLI_PATH), bin + QStringLiteral("/ingot-cli")));
        m_sshd->setSessionEnvironment(
            {QStringLiteral("PATH=%1:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin").arg(bin)});
        QString error;
        QVERIFY2(m_sshd->start(&error), qPrintable(error));
        QVERIFY(m_sshd->trustHostKey());
        // The host keeps its jobs and the backend copy in this test's folder (the runner's own defaults there).
        const QString config = m_dir.filePath(QStringLiteral("ssh_config"));
        test::writeFile(config, (m_sshd->configBlock()
                                 + QStringLiteral("  SetEnv XDG_DATA_HOME=\"%1\" XDG_CACHE_HOME=\"%2\"\n")
                                       .arg(m_dir.filePath(QStringLiteral("host-data")), m_dir.filePath(QStringLiteral("host-cache"))))
                                    .toUtf8());
        AppSettings::setSshConfigFile(config);
        RemoteHosts::instance().reset();
        QDir().mkpath(localJobsRoot());
    }

    void cleanupTestCase()
    {
        if (auto c = RemoteHosts::instance().connection(m_sshd->alias()))
            c->close();
    }

    void launchOnAHostFromTheForm()
    {
        JobService *service = makeJobService(nullptr);
        service->setPollInterval(200);
        JobsPage page(service);
        auto *launcher = new JobLauncher(service);
        page.setLauncher(launcher);
        page.resize(1400, 900);
        page.show();
        page.newJob();
        auto *runOn = qobject_cast<QComboBox *>(launcher->fieldWidget(QStringLiteral("host")));
        QVERIFY(runOn);
        const int at = runOn->findData(m_sshd->alias());
        QVERIFY2(at > 0, "the host of the ssh config is offered");
        runOn->setCurrentIndex(at);
        auto *nproc = qobject_cast<QSpinBox *>(launcher->fieldWidget(QStringLiteral("nproc_per_node")));
        auto *steps = qobject_cast<QSpinBox *>(launcher->fieldWidget(QStringLiteral("max_steps")));
        QVERIFY(nproc && steps);
        nproc->setValue(2);
        for (QRadioButton *r : launcher->findChildren<QRadioButton *>())
            if (r->text().contains(QStringLiteral("steps")))
                r->click();
        steps->setValue(60);
        // Python detected on the host, the plan made there: Launch is enabled.
        QTRY_VERIFY_WITH_TIMEOUT(launcher->launchButton()->isEnabled() && launcher->hasPlan(), 120000);
        const LaunchPlan plan = launcher->currentPlan();
        QCOMPARE(plan.record.where, m_sshd->alias());
        QVERIFY2(plan.paths.root.startsWith(m_dir.filePath(QStringLiteral("host-data"))), qPrintable(plan.paths.root));
        QSignalSpy launched(service, &JobService::launched);
        QTest::mouseClick(launcher->launchButton(), Qt::LeftButton);
        QVERIFY(launched.wait(60000));
        const QString id = launched.first().first().toString();
        QCOMPARE(id, plan.record.id);
        // Recorded here with its host; its folder and the backend copy are there.
        JobRecordFile indexed;
        QVERIFY(RemoteJobIndex().find(id, &indexed));
        QCOMPARE(indexed.where, m_sshd->alias());
        QVERIFY(QFileInfo(plan.paths.root).isDir());
        QVERIFY(plan.record.backendDir.startsWith(m_dir.filePath(QStringLiteral("host-cache"))));
        QTRY_VERIFY_WITH_TIMEOUT(page.showsMonitor() && page.monitor()->jobId() == id, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowOf(id) >= 0, 30000);
        const QString where = page.model()->index(page.model()->rowOf(id), JobListModel::Where).data().toString();
        QCOMPARE(where, m_sshd->alias());

        // The README's picture, while it runs (when this machine is not too slow to catch it running).
        QTRY_VERIFY_WITH_TIMEOUT(page.monitor()->chart(MetricKind::Loss)->points().size() >= 20, 180000);
        if (!isFinal(page.monitor()->status().state)) {
            for (MetricKind k : {MetricKind::Loss, MetricKind::LearningRate, MetricKind::GradNorm, MetricKind::Throughput})
                page.monitor()->chart(k)->refresh();
            const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
            QDir().mkpath(shots);
            QVERIFY(page.grab().save(shots + QStringLiteral("/jobs-remote.png")));
        }
        QTRY_COMPARE_WITH_TIMEOUT(page.monitor()->status().state, JobState::Finished, 240000);
        // Its output is a folder on the host: nothing to open here, the tooltip says where.
        auto *open = page.monitor()->findChild<QPushButton *>(QString());
        for (QPushButton *b : page.monitor()->findChildren<QPushButton *>())
            if (b->text().contains(QStringLiteral("output folder")))
                open = b;
        QVERIFY(open && open->text().contains(QStringLiteral("output folder")));
        QVERIFY(!open->isEnabled());
        QVERIFY(open->toolTip().contains(m_sshd->alias()));
        QTRY_COMPARE_WITH_TIMEOUT(page.monitor()->chart(MetricKind::Loss)->points().size(), 60, 30000);
        // Both ranks' logs were found there, and rank 0's lines came over the connection into the view.
        QTRY_COMPARE_WITH_TIMEOUT(service->ranks(id), (QList<int>{0, 1}), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(page.monitor()->logView()->lineCount(0) > 0, 30000);
        cancelAConsolidationThere(page.monitor(), plan.record.outputDir);
        delete service;  // also when the above failed
    }

    // A consolidation on the host stopped half way, as JobService's task stop (the monitor's Cancel) does: the
    // ingot-cli there is ended there (ending ssh here left it running), nothing of its output is left beside the
    // checkpoint, and the folder it ran in is removed.
    void aConsolidationThereStopsHalfWay()
    {
        const QString checkpoint = m_dir.filePath(QStringLiteral("big checkpoint"));
        QVERIFY(test::writeLargeCheckpoint(checkpoint));
        const QStringList before = QDir(checkpoint).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        QVERIFY(!before.contains(QStringLiteral("consolidated")));
        std::unique_ptr<JobService> service(makeJobService(nullptr));
        QString error;
        const std::shared_ptr<JobRunner> host = service->lookup()(m_sshd->alias(), &error);
        QVERIFY2(host, qPrintable(error));
        std::atomic_bool stop{false};
        int code = 0;
        QByteArray output;
        std::thread there([&] {
            code = JobManager(host).consolidateThere(checkpoint, {QStringLiteral("--verify")}, 600000, &output, &error, &stop);
        });
        auto joinThere = qScopeGuard([&] {
            stop = true;
            there.join();
        });
        // The CLI there is consolidating: its folder holds its pid and its first progress line.
        const QString hostJobs = m_dir.filePath(QStringLiteral("host-data")) + QStringLiteral("/Ingot/ingot/jobs");
        QString cliDir;
        QTRY_VERIFY_WITH_TIMEOUT(!(cliDir = test::startedCliFolder(hostJobs, true)).isEmpty(), 120000);
        const qint64 pid = test::readFile(cliDir + QStringLiteral("/pid")).trimmed().toLongLong();
        QVERIFY(pid > 1 && ::kill(pid_t(pid), 0) == 0);
        stop = true;
        there.join();
        joinThere.dismiss();
        QCOMPARE(code, -1);
        QVERIFY2(error.startsWith(QStringLiteral("Stopped")), qPrintable(error));
        QVERIFY(::kill(pid_t(pid), 0) != 0 && errno == ESRCH);  // ended there
        QVERIFY(!QFileInfo::exists(cliDir));
        QCOMPARE(QDir(checkpoint).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), before);
        QVERIFY(QDir(checkpoint).removeRecursively());
    }

private:
    // The monitor's Consolidate on a finished remote job runs ingot-cli on the host; the same button cancels it: the
    // CLI there is ended (SIGTERM), nothing of its output is left beside the checkpoint, its folder is removed.
    void cancelAConsolidationThere(JobMonitor *monitor, const QString &outputDir)
    {
        // A checkpoint large enough to still be consolidating a second after it started (its first progress line),
        // as the job's newest (make_sharded_fixtures.py writes neuronx-distributed's layout).
        const QString checkpoint = outputDir + QStringLiteral("/checkpoint-1000000");
        QVERIFY(test::writeLargeCheckpoint(checkpoint));
        const QStringList before = QDir(checkpoint).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        monitor->setJob(monitor->jobId());
        QTRY_COMPARE_WITH_TIMEOUT(monitor->latestCheckpoint(), checkpoint, 30000);
        QTRY_VERIFY(monitor->consolidateButton()->isEnabled());

        // Whatever box the end shows (information: cancelled) is closed as a user would.
        QTimer closer;
        connect(&closer, &QTimer::timeout, [] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
                box->accept();
        });
        closer.start(100);
        QSignalSpy ended(monitor, &JobMonitor::consolidatedThere);
        QTest::mouseClick(monitor->consolidateButton(), Qt::LeftButton);
        QVERIFY2(monitor->consolidateButton()->text().contains(QStringLiteral("Cancel")), qPrintable(monitor->consolidateButton()->text()));
        const QString hostJobs = m_dir.filePath(QStringLiteral("host-data")) + QStringLiteral("/Ingot/ingot/jobs");
        // Cancelled as soon as the CLI runs there (the monitor gives no consolidation without --verify time enough to
        // wait for its first progress line too: tst_sshjobs stops one half way).
        QString cliDir;
        QTRY_VERIFY_WITH_TIMEOUT(!(cliDir = test::startedCliFolder(hostJobs)).isEmpty(), 120000);
        const qint64 pid = test::readFile(cliDir + QStringLiteral("/pid")).trimmed().toLongLong();
        QVERIFY(pid > 1 && ::kill(pid_t(pid), 0) == 0);
        QTest::mouseClick(monitor->consolidateButton(), Qt::LeftButton);  // Cancel consolidation
        QVERIFY(ended.wait(120000));
        QCOMPARE(ended.first().at(0).toInt(), -1);
        QVERIFY2(ended.first().at(1).toString().startsWith(QStringLiteral("Stopped")), qPrintable(ended.first().at(1).toString()));
        QVERIFY(::kill(pid_t(pid), 0) != 0 && errno == ESRCH);
        QVERIFY(!QFileInfo::exists(cliDir));
        QCOMPARE(QDir(checkpoint).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), before);
        QTRY_VERIFY(monitor->consolidateButton()->text().contains(QStringLiteral("Consolidate")));
        QVERIFY(QDir(checkpoint).removeRecursively());
    }
};

QTEST_MAIN(TestRemoteJobs)
#include "tst_remotejobs.moc"
