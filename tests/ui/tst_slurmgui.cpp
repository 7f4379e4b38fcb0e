// The Jobs page's Slurm path against a real private Slurm cluster: the launcher's Slurm section lists the cluster's
// partitions (from sinfo) and the preview is the batch script as it is submitted; the monitor shows a job waiting
// for nodes with Slurm's reason and a running one with its node, and Stop ends the running one with a checkpoint.
// Saves jobs-slurm-launcher.png, jobs-slurm-pending.png and jobs-slurm-running.png.
#include "services/jobs/jobservice.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testslurm.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/joblauncher.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/slurmsection.h"
#include "ui/remote/remotehostspage.h"
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "tests/support/testsshd.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;
using ingot::test::TestSlurm;
using ingot::test::TestSlurmOptions;

class TestSlurmGui : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSlurm> m_slurm;
    QTemporaryDir m_tmp;
    std::unique_ptr<JobService> m_service;

    JobSpec spec(int maxSteps) const
    {
        JobSpec s;
        s.python = QStringLiteral("/usr/bin/python3");
        s.nprocPerNode = 2;
        s.maxSteps = maxSteps;
        s.slurm.enabled = true;
        s.slurm.timeLimit = QStringLiteral("30");
        s.compileCacheUrl = m_tmp.filePath(QStringLiteral("cache"));
        return s;
    }

    QString launch(const JobSpec &s, QString *error)
    {
        JobManager jobs(m_service->sharedRunner());
        return test::launchSpec(jobs, s, error);
    }

    static QString shots()
    {
        const QString dir = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(dir);
        return dir;
    }

private slots:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-slurmgui"));
        if (!TestSlurm::available())
            QSKIP("slurmctld/slurmd/slurm-client are not installed (packaging/install-deps.sh --test)");
        TestSlurmOptions o;
        o.nodes = 1;
        o.cpus = 2;
        m_slurm = std::make_unique<TestSlurm>(o);
        QString error;
        QVERIFY2(m_slurm->start(&error), qPrintable(error));
        qputenv("SLURM_CONF", QFile::encodeName(m_slurm->confPath()));  // the clients' own configuration here
        m_service = std::make_unique<JobService>(makeLocalJobRunner(m_tmp.filePath(QStringLiteral("jobs"))));
        m_service->setPollInterval(200);
    }

    void cleanupTestCase()
    {
        m_service.reset();
        m_slurm.reset();
    }

    void theLauncherSubmitsThroughSlurm()
    {
        JobLauncher w(m_service.get(), nullptr);
        w.setSpec(spec(5));
        w.resize(1280, 900);
        w.show();
        auto *section = w.findChild<SlurmSection *>();
        QVERIFY(section && section->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(section->partitionBox()->findData(QStringLiteral("debug")) >= 0, 30000);
        QVERIFY2(section->clusterLabel()->text().contains(QLatin1String("ingottest")), qPrintable(section->clusterLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.hasPlan(), 30000);
        QCOMPARE(w.spec().slurm.partition, QStringLiteral("debug"));
        QVERIFY(w.currentPlan().script.startsWith(QLatin1String("#!/bin/bash\n#SBATCH --job-name=ingot-")));
        QVERIFY(w.preview()->toPlainText().startsWith(QLatin1String("sbatch --parsable")));
        QVERIFY(w.preview()->toPlainText().endsWith(w.currentPlan().script));  // the batch script, whole
        QVERIFY(w.currentPlan().script.contains(QLatin1String("#SBATCH --partition=debug")));
        QVERIFY(w.currentPlan().script.contains(QLatin1String("#SBATCH --time=30")));
        for (QScrollArea *area : w.findChildren<QScrollArea *>())
            area->ensureWidgetVisible(section);
        test::deliverPostedEvents();
        QVERIFY(w.grab().save(shots() + QStringLiteral("/jobs-slurm-launcher.png")));
        // Off: the same form runs the job here, without a batch script.
        section->setChecked(false);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.hasPlan(), 30000);
        QVERIFY(!w.currentPlan().script.contains(QLatin1String("#SBATCH")));
        QVERIFY(!w.spec().slurm.enabled);
    }

    // A host that is a Slurm login node is marked so on the Remote hosts page once it is connected: the version, the
    // cluster and each partition's nodes by state (a real sshd on loopback whose sessions see the cluster).
    void aLoginNodeIsMarkedOnTheRemoteHostsPage()
    {
        test::TestSshd sshd(QStringLiteral("ingot-login-node"));
        sshd.setSessionEnvironment({QStringLiteral("SLURM_CONF=") + m_slurm->confPath()});
        QString error;
        QVERIFY2(sshd.start(&error), qPrintable(error));
        QVERIFY(sshd.trustHostKey());
        AppSettings::setSshConfigFile(sshd.sshConfigFile());
        RemoteHosts::instance().reset();
        RemoteHostsPage page;
        page.resize(1100, 760);
        QSignalSpy reloaded(&page, &RemoteHostsPage::hostsReloaded);
        page.show();
        QVERIFY(reloaded.wait(15000));
        page.selectHost(sshd.alias());
        page.connectAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(page.slurmLabel()->text().contains(QLatin1String("Slurm 22.")), 60000);
        const QString text = page.slurmLabel()->text();
        QVERIFY2(text.contains(QLatin1String("cluster ingottest")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("debug: 1 nodes (1 idle")), qPrintable(text));
        test::deliverPostedEvents();
        QVERIFY(page.grab().save(shots() + QStringLiteral("/remote-slurm.png")));
        page.disconnectAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(page.status(sshd.alias()).state == RemoteHostStatus::State::NotConnected, 30000);
    }

    void theMonitorShowsWaitingAndRunningJobs()
    {
        QString error;
        const QString running = launch(spec(100000), &error);
        QVERIFY2(!running.isEmpty(), qPrintable(error));
        m_service->refreshHistory();
        QTRY_VERIFY_WITH_TIMEOUT(m_service->find(running), 20000);
        m_service->watch(running);
        QTRY_VERIFY_WITH_TIMEOUT(m_service->status(running).step >= 1, 180000);
        const QString waiting = launch(spec(2), &error);
        QVERIFY2(!waiting.isEmpty(), qPrintable(error));
        m_service->refreshHistory();
        QTRY_VERIFY_WITH_TIMEOUT(m_service->find(waiting), 20000);
        m_service->watch(waiting);
        QTRY_VERIFY_WITH_TIMEOUT(!m_service->status(waiting).slurm.reason.isEmpty(), 60000);

        JobMonitor monitor(m_service.get());
        monitor.resize(1280, 820);
        monitor.show();
        monitor.setJob(waiting);
        QTRY_COMPARE_WITH_TIMEOUT(monitor.stateLabel()->text(), jobStateTitle(JobState::Pending), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.factsLabel()->text().contains(QLatin1String("PENDING")), 20000);
        QVERIFY2(monitor.factsLabel()->text().contains(QLatin1String("Resources")) || monitor.factsLabel()->text().contains(QLatin1String("Priority")),
                 qPrintable(monitor.factsLabel()->text()));
        test::deliverPostedEvents();
        QVERIFY(monitor.grab().save(shots() + QStringLiteral("/jobs-slurm-pending.png")));

        monitor.setJob(running);
        QTRY_COMPARE_WITH_TIMEOUT(monitor.stateLabel()->text(), jobStateTitle(JobState::Running), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.factsLabel()->text().contains(QLatin1String("RUNNING")), 20000);
        QVERIFY(monitor.factsLabel()->text().contains(QLatin1String("nodes n1")));
        QTRY_VERIFY_WITH_TIMEOUT(m_service->status(running).step >= 3, 120000);
        test::deliverPostedEvents();
        QVERIFY(monitor.grab().save(shots() + QStringLiteral("/jobs-slurm-running.png")));

        m_service->stop(running);
        QTRY_COMPARE_WITH_TIMEOUT(m_service->status(running).state, JobState::Stopped, 120000);
        QVERIFY(m_service->status(running).lastCheckpoint.contains(QLatin1String("checkpoint-")));
        QTRY_COMPARE_WITH_TIMEOUT(m_service->status(waiting).state, JobState::Finished, 240000);
        QVERIFY(m_slurm->waitQueueEmpty(60000));
    }
};

QTEST_MAIN(TestSlurmGui)
#include "tst_slurmgui.moc"
