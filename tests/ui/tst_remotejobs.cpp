// A training job on a remote host, driven through the launcher like a user: "Run on" a host (a real sshd on
// 127.0.0.1), the Python found there, Launch; the job runs on the "host" (its own job folder and backend copy
// there), the history names the host, the monitor charts it to the end. Saves the README's picture of a remote job.
#include "models/jobs/joblistmodel.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/remotejobindex.h"
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
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
        delete service;
    }
};

QTEST_MAIN(TestRemoteJobs)
#include "tst_remotejobs.moc"
