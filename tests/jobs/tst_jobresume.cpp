// Resuming a job, as rules of what was read (services/jobs/jobresume.h): when a job may be resumed, the settings that
// resume it, and which job of a history a job resumed. The monitor, the history and ingot-cli all ask these; the
// CLI's tests (tst_jobcli) run them on real jobs.
#include "services/jobs/jobresume.h"

#include <QTest>

using namespace ingot;

namespace {

JobSummary job(const QString &id, const QString &where, const QString &outputDir)
{
    JobSummary s;
    s.record.id = id;
    s.record.where = where;
    s.record.outputDir = outputDir;
    return s;
}

}  // namespace

class TestJobResume : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void onlyAnEndedJobWithACheckpointResumes()
    {
        JobRecordFile r;
        r.id = QStringLiteral("20260101-000000-aaaa");
        JobStatus st;
        for (const JobState s : {JobState::Starting, JobState::Compiling, JobState::Running, JobState::Saving,
                                 JobState::Stopping, JobState::Pending}) {
            st.state = s;
            QVERIFY2(resumeRefusal(r, st, QStringLiteral("/out/checkpoint-4")).contains(QLatin1String("has not ended")),
                     qPrintable(jobStateName(s)));
        }
        for (const JobState s : {JobState::Finished, JobState::Failed, JobState::Stopped}) {
            st.state = s;
            QVERIFY(resumeRefusal(r, st, QString()).contains(QLatin1String("No checkpoint-N")));
            QCOMPARE(resumeRefusal(r, st, QStringLiteral("/out/checkpoint-4")), QString());
        }
    }

    void theSameSettingsFromTheCheckpoint()
    {
        JobRecordFile r;
        r.id = QStringLiteral("20260101-000000-aaaa");
        r.spec.name = QStringLiteral("run");
        r.spec.nprocPerNode = 2;
        r.spec.resumeFrom = QStringLiteral("/older/checkpoint-1");
        const JobSpec s = resumeSpec(r, QStringLiteral("/out/checkpoint-4"));
        QCOMPARE(s.resumeFrom, QStringLiteral("/out/checkpoint-4"));
        QCOMPARE(s.resumedFromJob, r.id);
        QCOMPARE(s.name, r.spec.name);
        QCOMPARE(s.nprocPerNode, 2);
    }

    void theJobResumedIsTheOneRecordedElseTheOneWhoseOutputHoldsTheCheckpoint()
    {
        const QVector<JobSummary> history = {job(QStringLiteral("a"), QStringLiteral("local"), QStringLiteral("/runs/a")),
                                             job(QStringLiteral("h"), QStringLiteral("host1"), QStringLiteral("/runs/b")),
                                             job(QStringLiteral("b"), QStringLiteral("local"), QStringLiteral("/runs/b/")),
                                             job(QStringLiteral("n"), QStringLiteral("local"), QString())};
        JobRecordFile r;
        r.id = QStringLiteral("c");
        QCOMPARE(resumedFromJob(r, history), QString());  // started from scratch
        r.spec.resumeFrom = QStringLiteral("/runs/b/checkpoint-2");
        QCOMPARE(resumedFromJob(r, history), QStringLiteral("b"));  // this machine's, the folder's path cleaned
        r.where = QStringLiteral("host1");
        QCOMPARE(resumedFromJob(r, history), QStringLiteral("h"));  // the same path on another machine is another folder
        r.where = QStringLiteral("local");
        r.spec.resumedFromJob = QStringLiteral("removed-since");
        QCOMPARE(resumedFromJob(r, history), QStringLiteral("removed-since"));  // the recorded one wins, listed or not
        r.spec.resumedFromJob.clear();
        r.spec.resumeFrom = QStringLiteral("/elsewhere/checkpoint-2");
        QCOMPARE(resumedFromJob(r, history), QString());
        JobRecordFile self = history[0].record;  // a job resumed from its own output folder is not its own origin
        self.spec.resumeFrom = QStringLiteral("/runs/a/checkpoint-1");
        QCOMPARE(resumedFromJob(self, history), QString());
    }
};

QTEST_GUILESS_MAIN(TestJobResume)
#include "tst_jobresume.moc"
