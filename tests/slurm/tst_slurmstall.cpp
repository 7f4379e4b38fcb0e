// A stall of a Slurm job (issue 38), through a real private Slurm cluster (slurmctld + slurmd on 127.0.0.1): the
// backend's test-only INGOT_TRAIN_TEST_HANG makes rank 1 wait after step 2 while the scheduler says the job runs; the
// follower reports it stalled within its threshold, a stack dump is refused with why (scancel --signal would reach
// torchrun too), and once the hang ends the job finishes and leaves the queue.
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobstall.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testslurm.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;
using ingot::test::TestSlurm;
using ingot::test::TestSlurmOptions;

class TestSlurmStall : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSlurm> m_slurm;
    QTemporaryDir m_tmp;
    std::shared_ptr<JobRunner> m_runner;

private Q_SLOTS:
    void initTestCase()
    {
        if (!TestSlurm::available())
            QSKIP("slurmctld/slurmd/slurm-client are not installed (packaging/install-deps.sh --test)");
        TestSlurmOptions o;
        o.nodes = 1;
        o.cpus = 2;
        m_slurm = std::make_unique<TestSlurm>(o);
        QString error;
        QVERIFY2(m_slurm->start(&error), qPrintable(error));
        m_runner = makeLocalJobRunner(m_tmp.filePath(QStringLiteral("jobs")));
    }

    void cleanupTestCase() { m_slurm.reset(); }

    void aHangingSlurmJobIsStalled()
    {
        const QString release = m_tmp.filePath(QStringLiteral("release"));
        JobSpec spec;
        spec.python = QStringLiteral("/usr/bin/python3");
        spec.nprocPerNode = 2;
        spec.maxSteps = 4;
        spec.stallAfterSeconds = 3;
        spec.env << qMakePair(QStringLiteral("INGOT_TRAIN_TEST_HANG"), QStringLiteral("1:2:") + release);
        spec.slurm.enabled = true;
        spec.slurm.slurmConf = m_slurm->confPath();
        JobManager jobs(m_runner);
        QString error;
        const QString id = test::launchSpec(jobs, spec, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        auto cleanup = qScopeGuard([&] { QFile(release).open(QIODevice::WriteOnly); });
        JobRecordFile record;
        QVERIFY(jobs.load(id, &record, &error));
        JobFollower f(m_runner, record);
        JobStatus st = test::followJob(f, 120000, [](const JobFollower &x) { return x.status().state == JobState::Stalled; });
        const double detected = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
        QCOMPARE(jobStateName(st.state), QStringLiteral("stalled"));
        QCOMPARE(st.step, 2);
        QCOMPARE(st.slurm.state, QStringLiteral("RUNNING"));
        QVERIFY2(detected - st.stall.lastStepAt < 3 + 4, qPrintable(QString::number(detected - st.stall.lastStepAt)));
        QVERIFY(!st.stall.lastLogs.isEmpty());

        const StackDump d = dumpJobStacks(jobs, id, 2000);
        QVERIFY2(d.error.contains(QStringLiteral("scancel --signal")), qPrintable(d.error));
        QCOMPARE(d.signalled, 0);

        QVERIFY(QFile(release).open(QIODevice::WriteOnly));
        st = test::followJob(f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("finished"));
        QCOMPARE(st.step, 4);
    }
};

QTEST_GUILESS_MAIN(TestSlurmStall)
#include "tst_slurmstall.moc"
