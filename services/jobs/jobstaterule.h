// A job's state and reason from what its follower read: the whole precedence in one pure function (jobStateRule), so
// the rule can be read, changed and tested row by row without processes. JobFollower gathers the facts (its files,
// the processes, the scheduler's answer) and records the verdict (jobfollower.cpp); docs/formats.md says the rule in
// words ("States", and the Slurm section's reasons).
#pragma once

#include "services/jobs/jobfollower.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ingot {

// What the job's own files say went wrong, the first that has words: torchrun's error.json (the earliest), the
// backend's "ingot_train: error:" lines on a rank's stderr, a rank's last traceback, the end of launcher.log.
struct FailureWords {
    QString reason;
    QString detail;  // the traceback or the log lines behind it
    int rank = -1;   // the rank they come from (-1: the launcher, or none)
};

// What a follower read at one poll.
struct JobStateFacts {
    // Whether it runs: the wrapper or torchrun on any node (same pid and start time), or for a Slurm job the
    // scheduler's word (a scheduler that did not answer counts as running).
    bool alive = false;
    bool slurm = false;      // submitted to Slurm: no launcher.pid, the scheduler says whether it runs
    bool pidsKnown = false;  // launcher.pid was read
    double sinceCreated = 0;  // seconds from the job's creation to now
    // What an earlier poll decided: an end is judged once.
    JobState previous = JobState::Starting;
    bool previousEnded = false;  // an end time was recorded with it
    // What the job wrote: rank 0's INGOT_EVENT / INGOT_METRIC lines, a script's Trainer lines.
    bool wroteMetrics = false;    // a metric (or a Trainer point) was read
    bool trainerStepped = false;  // a script's Trainer progress passed step 0
    QString lastEvent;            // the last event's name ("metric" after a metric); "" none yet
    bool metricSinceSave = true;  // a metric came after the last "saving" event
    bool finishedEvent = false;
    QString stoppedSignal;  // the "stopped" event's signal; "" none
    QString failedWords;    // the "failed" event's reason; "" none
    qint64 step = 0;
    QString lastCheckpoint;
    // Ingot's files and the scheduler.
    bool stopRequested = false;  // stop_request exists
    int precompileExit = -2;     // this machine's or a host's precompile phase: -2 none, -1 not ended, else its status
    SchedulerStatus slurmJob;    // the training job's Slurm state (empty jobId: none)
    SchedulerStatus precompileJob;  // its Slurm precompile job's (empty jobId: none)
    // Read only when endToJudge() says so:
    int exitStatus = -1;  // exit_status: torchrun's status as the wrapper recorded it; -1 none
    FailureWords logs;
    QByteArray precompileLog;  // the end (64 KiB) of precompile/launcher.log
};

struct JobVerdict {
    JobState state = JobState::Starting;
    // The end was judged now: the reason below is the job's, and the follower records its exit status and end time.
    // Otherwise the follower leaves the reason as it was.
    bool judged = false;
    const char *reasonCode = nullptr;  // Ingot's reason (a code of docs/formats.md); nullptr: the job's own words
    QStringList reasonArgs;
    QString reason;  // the job's own words (reasonCode nullptr)
    QString reasonDetail;
    int reasonRank = -1;
};

// Seconds a job on this machine or a host may take to write launcher.pid before it is judged (run.sh writes it at
// once).
constexpr double jobStartGraceSeconds = 15;

// Whether the follower must read the end's files (exit_status, the failure words, the precompile log) for the rule:
// the job no longer runs, had its time to start, and its end was not judged yet.
bool endToJudge(const JobStateFacts &facts);
// The state and, when the end is judged, the reason. Pure: the same facts give the same verdict.
JobVerdict jobStateRule(const JobStateFacts &facts);

// What Slurm calls a job that has not started yet (PENDING, CONFIGURING).
bool slurmStateIsWaiting(const QString &schedulerState);
// What Slurm calls a job that has ended (COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ...).
bool slurmStateIsOver(const QString &schedulerState);
// Slurm has said its last word on a job: over, or forgotten.
bool slurmSettled(const SchedulerStatus &s);
// Whether the precompile phase runs or waits and the training has not started (isPrecompiling is this for a status).
bool precompilePhaseRuns(int precompileExit, const SchedulerStatus &precompile, const SchedulerStatus &job);

}  // namespace ingot
