// The Jobs page's Slurm path against a real private Slurm cluster: the launcher's Slurm section lists the cluster's
// partitions (from sinfo) and the preview is the batch script as it is submitted; the monitor shows a job waiting
// for nodes with Slurm's reason and a running one with its node, and Stop ends the running one with a checkpoint.
// Saves jobs-slurm-launcher.png, jobs-slurm-pending.png and jobs-slurm-running.png.
#include "models/jobs/joblistmodel.h"
#include "services/jobs/jobservice.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testslurm.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/joblauncher.h"
#include "ui/jobs/jobfiledialog.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/slurmqueuesection.h"
#include "ui/jobs/slurmsection.h"
#include "ui/remote/remotehostspage.h"
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "tests/support/testsshd.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

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
        // Precompile first needs the Neuron SDK's neuron_parallel_compile, which this machine lacks: no command, and
        // why (tst_slurmjobs submits one with a stand-in).
        section->precompileCheck()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.preview()->toPlainText().contains(QLatin1String("neuron_parallel_compile")), 30000);
        QVERIFY(!w.hasPlan());
        QVERIFY(w.spec().slurm.precompile);
        section->precompileCheck()->setChecked(false);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.hasPlan(), 30000);
        // Launch again (settings set on the launcher again) while a job holds the node: the cluster is asked afresh,
        // and the summary counts the job, where it said the queue was empty.
        QVERIFY2(section->clusterLabel()->text().contains(QLatin1String("your queue holds 0 job")), qPrintable(section->clusterLabel()->text()));
        const TestSlurm::Run held = m_slurm->client(QStringLiteral("sbatch"), {QStringLiteral("--parsable"), QStringLiteral("--output=/dev/null"),
                                                                              QStringLiteral("--wrap=sleep 300")});
        QCOMPARE(held.code, 0);
        w.setSpec(spec(5));
        QTRY_VERIFY2_WITH_TIMEOUT(section->clusterLabel()->text().contains(QLatin1String("your queue holds 1 job")),
                                  qPrintable(section->clusterLabel()->text()), 30000);
        m_slurm->client(QStringLiteral("scancel"), {QString::fromLatin1(held.out.trimmed())});
        QVERIFY(m_slurm->waitQueueEmpty(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.hasPlan(), 30000);
        // The engine proposed from the login node, said so; "Ask a compute node" asks one (srun --immediate) and the
        // proposal says no more that the login node answered.
        QTRY_VERIFY_WITH_TIMEOUT(w.engineProposalLabel()->text().startsWith(QLatin1String("Proposed:")), 60000);
        QVERIFY2(w.engineProposalLabel()->text().contains(QLatin1String("asked on the login node")),
                 qPrintable(w.engineProposalLabel()->text()));
        QVERIFY(w.askComputeNodeButton()->isVisible() && w.askComputeNodeButton()->isEnabled());
        w.askComputeNodeButton()->click();
        QTRY_VERIFY2_WITH_TIMEOUT(w.engineProposalLabel()->text().startsWith(QLatin1String("Proposed:"))
                                      && !w.engineProposalLabel()->text().contains(QLatin1String("asked on the login node")),
                                  qPrintable(w.engineProposalLabel()->text()), 90000);
        QVERIFY(!w.askComputeNodeButton()->isEnabled());  // asked: the node's answer stands
        QVERIFY(m_slurm->waitQueueEmpty(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.hasPlan(), 30000);
        // Off: the same form runs the job here, without a batch script.
        section->setChecked(false);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.hasPlan(), 30000);
        QVERIFY(!w.currentPlan().script.contains(QLatin1String("#SBATCH")));
        QVERIFY(!w.spec().slurm.enabled);
        QVERIFY(!w.askComputeNodeButton()->isVisible());
    }

    // A host that is a Slurm login node is marked so on the Remote hosts page once it is connected: the version, the
    // cluster and each partition's nodes by state (a real sshd on loopback whose sessions see the cluster). This
    // machine, a login node of the same cluster, is shown below the hosts.
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
        QVERIFY2(text.contains(QLatin1String("debug: 1 node (1 idle")), qPrintable(text));
        // This machine is a login node of the same cluster (SLURM_CONF of this process): it is shown too.
        QTRY_VERIFY_WITH_TIMEOUT(page.localSlurmBox()->isVisible(), 60000);
        QVERIFY2(page.localSlurmLabel()->text().contains(QLatin1String("cluster ingottest")), qPrintable(page.localSlurmLabel()->text()));
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

        // The batch script as submitted, read from the job's folder.
        QVERIFY(monitor.batchScriptButton()->isVisible());
        JobFileDialog *script = monitor.showBatchScript();
        QVERIFY(script);
        QTRY_VERIFY_WITH_TIMEOUT(script->text()->toPlainText().contains(QLatin1String("#SBATCH --job-name=ingot-") + waiting), 30000);
        script->close();

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

    // The user's queue is whole on the Jobs page: a job submitted by hand (sbatch) on the cluster Ingot's jobs use
    // is listed read-only with its state and output file, Ingot's own job is not listed twice, and the output's end
    // is shown with its odd bytes escaped.
    void theJobsPageListsTheOtherJobsOfYourQueue()
    {
        const QString out = m_tmp.filePath(QStringLiteral("by-hand-%j.out"));
        const TestSlurm::Run submitted = m_slurm->client(
            QStringLiteral("sbatch"), {QStringLiteral("--parsable"), QStringLiteral("-J"), QStringLiteral("by hand"),
                                       QStringLiteral("--output=") + out,
                                       QStringLiteral("--wrap=echo hello from outside; printf 'bell\\007 end\\n'; sleep 120")});
        QVERIFY2(submitted.code == 0, submitted.err.constData());
        const QString outside = QString::fromLatin1(submitted.out.trimmed());
        QString error;
        const QString ours = launch(spec(100000), &error);  // exclusive: waits behind the job by hand
        QVERIFY2(!ours.isEmpty(), qPrintable(error));

        JobsPage page(m_service.get());
        page.resize(1280, 820);
        page.show();
        m_service->refreshHistory();
        QTRY_VERIFY_WITH_TIMEOUT(m_service->find(ours), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!page.historyView()->isColumnHidden(JobListModel::Queued), 20000);  // a Slurm job: its wait
        SlurmQueueSection *section = page.otherSlurmJobs();
        QTRY_VERIFY_WITH_TIMEOUT(section->isVisible() && section->list()->topLevelItemCount() == 1, 60000);
        const QTreeWidgetItem *item = section->list()->topLevelItem(0);
        QCOMPARE(item->text(SlurmQueueSection::Job), outside);
        QCOMPARE(item->text(SlurmQueueSection::Name), QStringLiteral("by hand"));
        QCOMPARE(item->text(SlurmQueueSection::Cluster), QStringLiteral("this machine"));  // SLURM_CONF of the environment
        QCOMPARE(item->text(SlurmQueueSection::Output), QString(out).replace(QStringLiteral("%j"), outside));
        for (const OtherSlurmJob &j : section->jobs())
            QVERIFY(j.job.name != "ingot-" + ours.toLatin1());
        QTRY_VERIFY_WITH_TIMEOUT(QFile(QString(out).replace(QStringLiteral("%j"), outside)).size() > 0, 60000);
        section->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(section->list()->topLevelItemCount() == 1
                                     && section->list()->topLevelItem(0)->text(SlurmQueueSection::State) == QLatin1String("RUNNING"),
                                 60000);
        test::deliverPostedEvents();
        QVERIFY(page.grab().save(shots() + QStringLiteral("/jobs-slurm-queue.png")));

        section->list()->topLevelItem(0)->setSelected(true);
        QVERIFY(section->outputButton()->isEnabled());
        JobFileDialog *dialog = section->showOutput();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->text()->toPlainText().contains(QLatin1String("hello from outside")), 30000);
        QVERIFY2(!dialog->text()->toPlainText().contains(QLatin1Char('\a')), qPrintable(dialog->text()->toPlainText()));
        dialog->close();

        QSignalSpy stopped(m_service.get(), &JobService::stopAnswered);
        m_service->stop(ours);  // still pending: cancelled outright
        QTRY_VERIFY_WITH_TIMEOUT(!stopped.isEmpty(), 30000);
        QVERIFY(m_slurm->client(QStringLiteral("scancel"), {outside}).code == 0);
        QVERIFY(m_slurm->waitQueueEmpty(60000));
        section->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(section->list()->topLevelItemCount() == 0 && !section->statusLabel()->text().contains(QLatin1String("…")), 30000);
        QVERIFY(section->isVisible());  // still a cluster of the history: its empty queue is said
    }
};

QTEST_MAIN(TestSlurmGui)
#include "tst_slurmgui.moc"
