// The precedence of a job's states and reasons (jobstaterule.h). Every branch reads only the facts: the follower
// read them before (jobfollower.cpp), the table in tests/jobs/tst_jobstaterule.cpp checks each combination.
#include "services/jobs/jobstaterule.h"

#include <algorithm>

namespace ingot {

namespace {

JobVerdict live(JobState s)
{
    JobVerdict v;
    v.state = s;
    return v;
}

JobVerdict ended(JobState s, const char *code = nullptr, const QStringList &args = {})
{
    JobVerdict v;
    v.state = s;
    v.judged = true;
    v.reasonCode = code;
    v.reasonArgs = args;
    return v;
}

// A job on this machine or a host that has not written launcher.pid yet: run.sh writes it at once, so it gets a moment
// before its start is called a failure.
bool withinStartGrace(const JobStateFacts &f)
{
    return !f.pidsKnown && !f.slurm && f.sinceCreated < jobStartGraceSeconds;
}

// The last `n` lines of a log (empty lines left out where `skipEmpty`).
QString lastLines(const QByteArray &log, qsizetype n, bool skipEmpty)
{
    QList<QByteArray> lines = skipEmpty ? log.split('\n') : log.trimmed().split('\n');
    if (skipEmpty)
        lines.removeIf([](const QByteArray &l) { return l.isEmpty(); });
    return QString::fromUtf8(lines.mid(std::max<qsizetype>(0, lines.size() - n)).join('\n'));
}

// Whether a Slurm precompile phase ended without success: its script recorded another status than 0, or Slurm ended
// it (a time limit, a node, a cancel) before the script could record anything.
bool slurmPrecompileFailed(const SchedulerStatus &p)
{
    if (p.jobId.isEmpty())
        return false;
    if (p.batchExitStatus >= 0)
        return p.batchExitStatus != 0;
    return (p.known && slurmStateIsOver(p.state) && p.state != QLatin1String("COMPLETED")) || p.forgotten;
}

// While it runs: pending while the scheduler says so and it has written nothing yet (its files are fresher than the
// scheduler's last word), then stopping, saving, running, compiling, starting.
JobState liveState(const JobStateFacts &f)
{
    const bool wroteNothing = !f.wroteMetrics && f.lastEvent.isEmpty();
    if (wroteNothing && precompilePhaseRuns(f.precompileExit, f.precompileJob, f.slurmJob))
        return slurmStateIsWaiting(f.precompileJob.state) ? JobState::Pending : JobState::Compiling;
    if (wroteNothing && !f.slurmJob.jobId.isEmpty() && (slurmStateIsWaiting(f.slurmJob.state) || !f.slurmJob.known))
        return JobState::Pending;
    if (f.stopRequested)
        return JobState::Stopping;
    if (f.lastEvent == QLatin1String("saving") || !f.metricSinceSave)
        return JobState::Saving;
    if (f.wroteMetrics || f.trainerStepped)
        return JobState::Running;
    if (f.lastEvent == QLatin1String("started") || f.lastEvent == QLatin1String("first_step"))
        return JobState::Compiling;
    return JobState::Starting;
}

// Slurm ended it (its precompile failed, a time limit, a node, memory, preemption, scancel by someone else): its word
// decides, whatever the job wrote on its way out. `out` untouched when Slurm did not end it.
bool slurmEnd(const JobStateFacts &f, JobVerdict *out)
{
    // A precompile that failed: Slurm cancels the training job that waited on it (its dependency can never be met).
    const SchedulerStatus &p = f.precompileJob;
    if (!f.stopRequested && f.exitStatus < 0 && slurmPrecompileFailed(p)) {
        *out = ended(JobState::Failed, "slurm_precompile_failed",
                     {p.jobId, p.batchExitStatus >= 0 ? QStringLiteral("exit status %1").arg(p.batchExitStatus)
                               : p.forgotten          ? QStringLiteral("ended without an exit status")
                                                      : p.state});
        out->reasonDetail = lastLines(f.precompileLog, 20, false);
        return true;
    }
    const SchedulerStatus &s = f.slurmJob;
    if (!s.known)
        return false;
    if (s.state == QLatin1String("TIMEOUT"))
        *out = ended(JobState::Failed, "slurm_timeout",
                     {s.timeLimit, f.lastCheckpoint.isEmpty() ? QStringLiteral("-") : f.lastCheckpoint});
    else if (s.state == QLatin1String("NODE_FAIL") || s.state == QLatin1String("BOOT_FAIL"))
        *out = ended(JobState::Failed, "slurm_node_fail", {s.nodeList});
    else if (s.state == QLatin1String("OUT_OF_MEMORY"))
        *out = ended(JobState::Failed, "slurm_out_of_memory");
    else if (s.state == QLatin1String("PREEMPTED"))
        *out = ended(JobState::Failed, "slurm_preempted");
    else if (s.state == QLatin1String("CANCELLED") && !f.stopRequested)
        *out = ended(JobState::Stopped, "slurm_cancelled");
    else
        return false;
    return true;
}

// A failure nothing above explains: the job's own words, else Ingot's.
JobVerdict failure(const JobStateFacts &f)
{
    if (!f.logs.reason.isEmpty()) {
        JobVerdict v = ended(JobState::Failed);
        v.reason = f.logs.reason;
        v.reasonDetail = f.logs.detail;
        v.reasonRank = f.logs.rank;
        return v;
    }
    if (f.slurm && f.slurmJob.jobId.isEmpty())
        return ended(JobState::Failed, "slurm_not_submitted");
    if (!f.pidsKnown && f.slurmJob.jobId.isEmpty())
        return ended(JobState::Failed, "not_started");
    if (f.exitStatus < 0)
        return ended(JobState::Failed, "ended_without_result");
    return ended(JobState::Failed, "launcher_exit_status", {QString::number(f.exitStatus)});
}

// After it ended: the finished event, Slurm's word, the stopped and failed events, the precompile phase, the exit
// status and a Stop, in that order.
JobVerdict endState(const JobStateFacts &f)
{
    if (f.finishedEvent)
        return ended(JobState::Finished);
    JobVerdict v;
    if (slurmEnd(f, &v))
        return v;
    if (!f.stoppedSignal.isEmpty())
        return ended(JobState::Stopped, "stopped_at_step", {QString::number(f.step), f.stoppedSignal, f.lastCheckpoint});
    if (!f.failedWords.isEmpty()) {
        // The backend's own words are the reason; the files give its detail (a traceback).
        v = ended(JobState::Failed);
        v.reason = f.failedWords;
        v.reasonDetail = f.logs.detail;
        v.reasonRank = 0;
        return v;
    }
    if (f.precompileExit > 0 && !f.stopRequested) {
        // Its precompile phase failed: the training was not started. Why: the tool's last lines.
        v = ended(JobState::Failed, "precompile_failed", {QString::number(f.precompileExit)});
        v.reasonDetail = lastLines(f.precompileLog.right(16 << 10), 30, true);
        return v;
    }
    if (f.exitStatus == 0)
        return ended(JobState::Finished);
    if (f.stopRequested)
        return f.exitStatus < 0 ? ended(JobState::Stopped, "killed_after_stop")
                                : ended(JobState::Stopped, "stopped_exit_status", {QString::number(f.exitStatus)});
    return failure(f);
}

}  // namespace

bool slurmStateIsWaiting(const QString &schedulerState)
{
    return schedulerState == QLatin1String("PENDING") || schedulerState == QLatin1String("CONFIGURING");
}

bool slurmStateIsOver(const QString &schedulerState)
{
    static const QStringList over = {QStringLiteral("COMPLETED"), QStringLiteral("FAILED"), QStringLiteral("CANCELLED"),
                                     QStringLiteral("TIMEOUT"), QStringLiteral("NODE_FAIL"), QStringLiteral("OUT_OF_MEMORY"),
                                     QStringLiteral("PREEMPTED"), QStringLiteral("BOOT_FAIL"), QStringLiteral("DEADLINE")};
    return over.contains(schedulerState);
}

bool slurmSettled(const SchedulerStatus &s)
{
    return (s.known && slurmStateIsOver(s.state)) || s.forgotten;
}

bool precompilePhaseRuns(int precompileExit, const SchedulerStatus &p, const SchedulerStatus &job)
{
    if (precompileExit == -1)  // on this machine or a host: its first phase has not ended
        return true;
    return !p.jobId.isEmpty() && p.batchExitStatus < 0 && !slurmSettled(p)
        && (job.jobId.isEmpty() || slurmStateIsWaiting(job.state) || !job.known);
}

bool isPrecompiling(const JobStatus &st)
{
    return precompilePhaseRuns(st.precompileExit, st.precompile, st.slurm);
}

bool endToJudge(const JobStateFacts &f)
{
    return !f.alive && !withinStartGrace(f) && !(isFinal(f.previous) && f.previousEnded);
}

JobVerdict jobStateRule(const JobStateFacts &f)
{
    if (f.alive)
        return live(liveState(f));
    if (withinStartGrace(f))
        return live(JobState::Starting);
    if (!endToJudge(f))
        return live(f.previous);  // an end is judged once
    return endState(f);
}

}  // namespace ingot
