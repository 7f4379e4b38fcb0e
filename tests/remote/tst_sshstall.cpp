// A stall on a remote host over SSH (issue 38), against a real OpenSSH server on 127.0.0.1 (TestSshd) and real torchrun
// (Debian's python3-torch): the backend's test-only INGOT_TRAIN_TEST_HANG makes rank 1 wait after step 2; the job is
// read as stalled within its threshold through the host's shell, ingot-cli says so by id (`job status --json`) and
// dumps both ranks' stacks on the host (`job stacks`: SIGUSR2 to torchrun's children there), and once the hang ends
// the job finishes.
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/remotejobindex.h"
#include "services/remote/jobrunners.h"
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;
using ingot::test::TestSshd;

class TestSshStall : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<TestSshd> m_host;
    std::shared_ptr<JobRunners> m_runners;

    QString remoteData() const { return m_dir.filePath(QStringLiteral("host data")); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        m_host = std::make_unique<TestSshd>(QStringLiteral("ingot-stall-host"));
        QString error;
        QVERIFY2(m_host->start(&error), qPrintable(error));
        QVERIFY(m_host->trustHostKey());
        const QString env = QStringLiteral("  SetEnv XDG_DATA_HOME=\"%1\" XDG_CACHE_HOME=\"%2\"\n")
                                .arg(remoteData(), m_dir.filePath(QStringLiteral("host cache")));
        const QString config = m_dir.filePath(QStringLiteral("ssh_config"));
        test::writeFile(config, (m_host->configBlock() + env).toUtf8());
        AppSettings::setSshConfigFile(config);
        RemoteHosts::instance().reset();
        QDir().mkpath(localJobsRoot());
        m_runners = JobRunners::create(makeLocalJobRunner());
    }

    void cleanupTestCase()
    {
        for (const RemoteHostEntry &h : RemoteHosts::instance().hosts())
            if (auto c = RemoteHosts::instance().connection(h.name))
                c->close();
    }

    void aHangOnAHostIsStalledAndItsStacksDumped()
    {
        QString error;
        const auto host = m_runners->runner(m_host->alias(), &error);
        QVERIFY2(host, qPrintable(error));
        const QString release = m_dir.filePath(QStringLiteral("release"));
        JobSpec spec;
        spec.python = QStringLiteral("/usr/bin/python3");
        spec.nprocPerNode = 2;
        spec.maxSteps = 4;
        spec.stallAfterSeconds = 3;
        spec.env << qMakePair(QStringLiteral("INGOT_TRAIN_TEST_HANG"), QStringLiteral("1:2:") + release);
        JobManager jobs(host, m_runners->lookup());
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QVERIFY2(jobs.plan(spec, &plan, &problems, &error), qPrintable(error));
        QVERIFY2(RemoteJobIndex().add(plan.record, &error), qPrintable(error));  // as the service and ingot-cli do
        QVERIFY2(jobs.launch(plan, &error), qPrintable(error));
        const QString id = plan.record.id;
        auto cleanup = qScopeGuard([&] { QFile(release).open(QIODevice::WriteOnly); });

        JobFollower f(host, plan.record);
        JobStatus st = test::followJob(f, 120000, [](const JobFollower &x) { return x.status().state == JobState::Stalled; });
        const double detected = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
        QCOMPARE(jobStateName(st.state), QStringLiteral("stalled"));
        QCOMPARE(st.step, 2);
        QVERIFY(st.stall.stacksReady);
        QVERIFY2(detected - st.stall.lastStepAt < 3 + 4, qPrintable(QString::number(detected - st.stall.lastStepAt)));

        test::ProgramRun run = test::runProgram(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")}, 120000);
        QCOMPARE(run.code, 0);
        const QJsonObject status = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(status.value(QLatin1String("state")).toString(), QStringLiteral("stalled"));
        QCOMPARE(status.value(QLatin1String("stall")).toObject().value(QLatin1String("threshold_seconds")).toDouble(), 3.0);
        QVERIFY(!status.value(QLatin1String("stall")).toObject().value(QLatin1String("last_logs")).toArray().isEmpty());

        run = test::runProgram(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("job"), QStringLiteral("stacks"), id, QStringLiteral("--json")}, 120000);
        QCOMPARE(run.code, 0);
        const QJsonObject stacks = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(stacks.value(QLatin1String("signalled")).toInt(), 2);
        const QJsonArray ranks = stacks.value(QLatin1String("ranks")).toArray();
        QCOMPARE(ranks.size(), 2);
        const QString rank0 = ranks.at(0).toObject().value(QLatin1String("stack")).toString();
        const QString rank1 = ranks.at(1).toObject().value(QLatin1String("stack")).toString();
        QVERIFY2(rank0.contains(QStringLiteral("in all_reduce")), qPrintable(rank0));
        QVERIFY2(rank1.contains(QStringLiteral("in test_hang")), qPrintable(rank1));

        QVERIFY(QFile(release).open(QIODevice::WriteOnly));
        st = test::followJob(f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("finished"));
        QCOMPARE(st.step, 4);
    }
};

QTEST_GUILESS_MAIN(TestSshStall)
#include "tst_sshstall.moc"
