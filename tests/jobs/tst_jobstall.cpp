// Stalls with real torchrun (Debian's python3-torch, CPU/gloo), on both runners: LocalJobRunner and ShellJobRunner
// over /bin/sh (what a host over SSH runs, without the network). The backend's test-only INGOT_TRAIN_TEST_HANG makes
// rank 1 wait after step 2 while rank 0 waits for it in the step's all-reduce: the job service reports the job
// stalled within its 3 s threshold (stallChanged), every rank's stack is dumped and names where it waits, the job is
// not harmed by the signal, and once the hang ends it runs again and finishes. A program that is not the backend is
// never signalled.
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/jobstall.h"
#include "services/jobs/jobtext.h"
#include "services/jobs/shelljobrunner.h"
#include "services/util/remoteshell.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QFile>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

constexpr double threshold = 3;
// Polls every 200 ms, and a rank's metric line reaches its log when it is printed (flushed): detection within the
// threshold and this.
constexpr double margin = 2.5;

double now()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

}  // namespace

class TestJobStall : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<JobRunner> m_local, m_shell, m_runner;

    QString launch(const JobSpec &spec)
    {
        JobManager jobs(m_runner);
        QString error;
        const QString id = test::launchSpec(jobs, spec, &error);
        if (id.isEmpty())
            qWarning() << error;
        return id;
    }

private Q_SLOTS:
    void initTestCase_data()
    {
        QTest::addColumn<QString>("runner");
        QTest::newRow("local") << QStringLiteral("local");
        QTest::newRow("shell") << QStringLiteral("shell");
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_local = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs")));
        ShellJobRunnerOptions o;
        o.jobsRoot = m_dir.filePath(QStringLiteral("shell jobs"));
        o.cacheRoot = m_dir.filePath(QStringLiteral("shell cache"));
        auto shell = std::make_shared<ShellJobRunner>(makeLocalShell(), o);
        QString error;
        QVERIFY2(shell->open(&error), qPrintable(error));
        m_shell = shell;
    }

    void init()
    {
        QFETCH_GLOBAL(QString, runner);
        m_runner = runner == QLatin1String("local") ? m_local : m_shell;
    }

    void aHangingRankIsStalledAndItsStacksDumped()
    {
        QFETCH_GLOBAL(QString, runner);
        const QString release = m_dir.filePath(QStringLiteral("release-") + runner);
        JobSpec spec;
        spec.python = QStringLiteral("/usr/bin/python3");
        spec.nprocPerNode = 2;
        spec.maxSteps = 5;
        spec.stallAfterSeconds = threshold;
        spec.env << qMakePair(QStringLiteral("INGOT_TRAIN_TEST_HANG"), QStringLiteral("1:2:") + release);
        const QString id = launch(spec);
        QVERIFY(!id.isEmpty());
        auto cleanup = qScopeGuard([&] { QFile(release).open(QIODevice::WriteOnly); });

        JobService service(m_runner);
        service.setPollInterval(200);
        QSignalSpy stalls(&service, &JobService::stallChanged);
        service.watch(id);
        QTRY_VERIFY_WITH_TIMEOUT(service.status(id).step >= 2, 90000);  // torchrun's start, then two steps
        // Stalled within the threshold and the margin of the last step (the wait below is a little longer: the
        // check after it says how long it took).
        QTRY_VERIFY_WITH_TIMEOUT(stalls.size() == 1, int((threshold + margin) * 1000) + 5000);
        double detected = now();
        JobStatus st = service.status(id);
        QCOMPARE(stalls.at(0).at(0).toString(), id);
        QCOMPARE(stalls.at(0).at(1).toBool(), true);
        QCOMPARE(stalls.at(0).at(2).toString(), jobStallText(st));
        QVERIFY(stalls.at(0).at(2).toString().contains(QStringLiteral("rank ")));
        QCOMPARE(st.state, JobState::Stalled);
        QCOMPARE(jobStateName(st.state), QStringLiteral("stalled"));
        QCOMPARE(statusToJson(st).value(QLatin1String("state")).toString(), QStringLiteral("stalled"));
        QCOMPARE(st.step, 2);
        QCOMPARE(st.stall.thresholdSeconds, threshold);
        QVERIFY(st.alive);
        // Within its threshold (and the poll's margin) of the last step, never before it.
        QVERIFY2(detected - st.stall.lastStepAt > threshold, qPrintable(QString::number(detected - st.stall.lastStepAt)));
        QVERIFY2(detected - st.stall.lastStepAt < threshold + margin, qPrintable(QString::number(detected - st.stall.lastStepAt)));
        // Which ranks logged last, and when (both: at their start, before the hang).
        QVERIFY(!st.stall.lastLogs.isEmpty());
        QVERIFY(st.stall.lastLogs.first().at <= detected + 1);
        QVERIFY(st.stall.stacksReady);

        // Dump stacks: each rank's stack names where it waits.
        JobManager jobs(m_runner);
        const StackDump d = dumpJobStacks(jobs, id, 20000);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.signalled, 2);
        QCOMPARE(d.ranks.size(), 2);
        QCOMPARE(d.ranks.at(0).rank, 0);
        QCOMPARE(d.ranks.at(1).rank, 1);
        for (const RankStack &r : d.ranks)
            QVERIFY2(r.stack.contains(QStringLiteral("(most recent call first):")), qPrintable(r.stack));
        QVERIFY2(d.ranks.at(1).stack.contains(QStringLiteral("in test_hang")), qPrintable(d.ranks.at(1).stack));
        QVERIFY2(d.ranks.at(0).stack.contains(QStringLiteral("in all_reduce")), qPrintable(d.ranks.at(0).stack));
        QVERIFY2(d.ranks.at(0).stack.contains(QStringLiteral("in train")), qPrintable(d.ranks.at(0).stack));
        // The signal harmed nothing: still alive, still stalled.
        QTest::qWait(500);  // (two polls of the service: what it shows now is after the dump)
        QVERIFY(service.status(id).alive);
        QCOMPARE(service.status(id).state, JobState::Stalled);

        // The hang ends: steps move again, the stall ends, the job finishes.
        QVERIFY(QFile(release).open(QIODevice::WriteOnly));
        QTRY_VERIFY_WITH_TIMEOUT(stalls.size() == 2, 30000);
        QCOMPARE(stalls.at(1).at(1).toBool(), false);
        QVERIFY(stalls.at(1).at(2).toString().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(service.status(id).state), 60000);
        QCOMPARE(service.status(id).state, JobState::Finished);
        QCOMPARE(service.status(id).step, 5);
        QCOMPARE(stalls.size(), 2);
    }

    void aProgramThatIsNotTheBackendIsNeverSignalled()
    {
        QFETCH_GLOBAL(QString, runner);
        if (runner != QLatin1String("local"))
            QSKIP("the refusal is the same rule on every runner (jobstall.cpp): once is enough");
        const QString script = m_dir.filePath(QStringLiteral("sleeper.py"));
        test::writeFile(script, "import time\nprint('step 1', flush=True)\ntime.sleep(120)\n");
        JobSpec spec;
        spec.python = QStringLiteral("/usr/bin/python3");
        spec.program = JobProgram::Script;
        spec.script = script;
        spec.passSettings = false;
        const QString id = launch(spec);
        QVERIFY(!id.isEmpty());
        JobManager jobs(m_runner);
        auto stop = qScopeGuard([&] { QString m; jobs.stop(id, true, &m); });
        QString error;
        QTRY_VERIFY_WITH_TIMEOUT(!test::rankStdout(jobs.paths(id), 0).isEmpty(), 60000);
        const StackDump d = dumpJobStacks(jobs, id, 2000);
        QVERIFY(d.error.contains(QStringLiteral("py-spy")));
        QVERIFY(d.error.contains(QStringLiteral("faulthandler.register")));
        QCOMPARE(d.signalled, 0);
        QVERIFY(d.ranks.isEmpty());
        const JobSummary s = jobs.summary(id, false, &error);
        QVERIFY(s.status.alive);
        QVERIFY(!s.status.stall.stacksReady);
    }
};

QTEST_GUILESS_MAIN(TestJobStall)
#include "tst_jobstall.moc"
