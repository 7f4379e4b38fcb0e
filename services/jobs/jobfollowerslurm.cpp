// Following a Slurm job (JobFollower's scheduler side): its state from `scontrol show job` at most every few seconds
// while it lives and its precompile phase (a Slurm job of its own the training job depends on). What Slurm's word
// means for the job's state is in jobstaterule.cpp; the files the job writes are read as any job's (jobfollower.cpp).
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobfollower_p.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobrunner.h"
#include "services/jobs/jobstaterule.h"
#include "services/slurm/slurmcluster.h"
#include "services/slurm/slurmparse.h"

#include <QDateTime>
#include <QRegularExpression>

namespace ingot {

using namespace follower;

namespace {

double nowSeconds()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

// A phase's Slurm job id: the one Ingot kept on this machine when it submitted the job, else (a job submitted from
// another machine) what the phase's slurm_job_id holds; "" while there is none (being submitted) or it is no job id.
QString recordedJobId(JobRunner &runner, const QString &where, const JobPaths &phase)
{
    const QString kept = keptSlurmJobId(where, phase.root);
    if (!kept.isEmpty())
        return kept;
    const FileChunk c = runner.readFile(phase.slurmJobIdFile(), 0, 64);
    static const QRegularExpression id(QStringLiteral("^[0-9]{1,12}(_[0-9]{1,9})?$"));
    const QString read = QString::fromLatin1(c.data.trimmed());
    return c.exists && id.match(read).hasMatch() ? read : QString();
}

}  // namespace

int JobFollower::askScheduler(SchedulerStatus &s)
{
    SlurmJobDetails d;
    QString error;
    bool gone = false;
    if (!slurmClusterOf(*m_runner, m_record.spec).job(s.jobId.toLatin1(), &d, &error, &gone)) {
        if (!gone)
            return -1;
        s.known = false;
        s.forgotten = true;
        return 0;
    }
    s.known = true;
    s.forgotten = false;
    s.state = slurmShown(d.state);
    s.reason = d.reason == "None" ? QString() : slurmShown(d.reason);
    s.position = d.pendingPosition;
    s.partition = slurmShown(d.partition);
    s.nodeList = d.nodeList == "(null)" ? QString() : slurmShown(d.nodeList);
    s.runTime = slurmShown(d.runTime);
    s.timeLimit = slurmShown(d.timeLimit);
    s.nodes = d.numNodes;
    s.submitTime = slurmShown(d.submitTime);
    const bool waiting = slurmStateIsWaiting(s.state);
    s.startTime = waiting ? QString() : slurmShown(d.startTime);  // a pending job's StartTime is a forecast
    s.queueWaitSeconds = waiting ? -1 : slurmSecondsBetween(d.submitTime, d.startTime);
    s.runSeconds = slurmDurationSeconds(d.runTime);
    return slurmStateIsOver(s.state) ? 0 : 1;
}

int JobFollower::pollScheduler()
{
    SchedulerStatus &s = m_status.slurm;
    if (m_record.spec.slurm.precompile)
        pollPrecompile();
    if (s.jobId.isEmpty()) {
        s.jobId = recordedJobId(*m_runner, m_record.where, m_paths);
        if (s.jobId.isEmpty())  // being submitted (a precompile job first), or never was
            return nowSeconds() - m_status.startedAt < 60 ? 1 : 0;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // A job the scheduler last called pending that has started writing is asked again at once.
    const bool started = slurmStateIsWaiting(s.state) && (!m_metrics.isEmpty() || !m_lastEvent.isEmpty());
    if (m_schedulerAnswer == 1 && !started && now - m_schedulerAskedMs < schedulerIntervalMs)
        return 1;
    m_schedulerAskedMs = now;
    return m_schedulerAnswer = askScheduler(s);
}

void JobFollower::pollPrecompile()
{
    SchedulerStatus &p = m_status.precompile;
    const JobPaths phase = m_paths.precompilePhase();
    if (p.jobId.isEmpty()) {
        p.jobId = recordedJobId(*m_runner, m_record.where, phase);
        if (p.jobId.isEmpty())
            return;
    }
    if (p.batchExitStatus < 0) {
        const FileChunk e = m_runner->readFile(phase.exitFile(), 0, 64);
        bool ok = false;
        const int code = e.exists ? QString::fromLatin1(e.data.trimmed()).toInt(&ok) : -1;
        if (ok && code >= 0)
            p.batchExitStatus = code;
    }
    // Asked with the training job (at most every few seconds) until Slurm called it over, or forgot it (then its
    // exit_status tells its end).
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (slurmSettled(p) || now - m_precompileAskedMs < schedulerIntervalMs)
        return;
    m_precompileAskedMs = now;
    askScheduler(p);
}

}  // namespace ingot
