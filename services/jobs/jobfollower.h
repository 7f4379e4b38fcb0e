// Following a job from its files: the backend's INGOT_EVENT / INGOT_METRIC lines (or a Hugging Face Trainer's
// log for user scripts), per-rank stdout/stderr as torchrun writes them, torchrun's error files, the wrapper's
// launcher.pid and exit_status. JobFollower keeps byte offsets, so it reads each byte once, and re-attaching after
// a restart is just a new follower reading from the start. All data points are kept; log text is handed on.
#pragma once

#include "services/jobs/jobfolder.h"
#include "services/jobs/jobrunner.h"
#include "services/jobs/metrics.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include <memory>

namespace ingot {

class TrainerLogParser;
struct FailureWords;
struct JobStateFacts;

// Stalled: running, but its step has not advanced for longer than its threshold while its processes live
// (stallrule.h); it is Running again when a step comes.
enum class JobState { Starting, Compiling, Running, Saving, Stopping, Finished, Failed, Stopped, Pending, Stalled };
QString jobStateName(JobState s);   // "starting", ... (JSON, files: never translated)
QString jobStateTitle(JobState s);  // "Compiling / first step", ... (what the GUI and the CLI show: translated)
bool isFinal(JobState s);

// A Slurm job as the scheduler tells it (scontrol show job; squeue's queue position).
struct SchedulerStatus {
    QString jobId;      // "": not a Slurm job, or not submitted yet
    bool known = false; // the scheduler still knows it (it forgets a job MinJobAge after its end, 300 s by default)
    QString state;      // Slurm's word: PENDING, RUNNING, COMPLETING, COMPLETED, TIMEOUT, NODE_FAIL, ...
    QString reason;     // why it waits: Resources, Priority, Dependency, ReqNodeNotAvail, ...
    int position = 0;   // in its partition's pending queue (1: next); 0 when not pending
    QString partition, nodeList, runTime, timeLimit;
    int nodes = 0;
    QString submitTime, startTime;  // Slurm's words (2026-11-26T19:50:01, the controller's time zone)
    qint64 queueWaitSeconds = -1;   // from submission to start; -1 while pending or unknown
    qint64 runSeconds = -1;         // Slurm's RunTime; -1 unknown
    int batchExitStatus = -1;       // what its batch script recorded in its exit_status (-1: nothing yet)
    bool forgotten = false;         // Slurm answered that it no longer knows the job
};

// What is known of a stall (JobState::Stalled), and whether the job's stacks can be asked for.
struct StallStatus {
    double lastStepAt = 0;        // when the step last advanced (seconds since the epoch); 0: no step yet
    double thresholdSeconds = 0;  // the threshold in force (stallrule.h); 0: nothing to judge yet
    struct RankLog {
        int rank = -1;
        double at = 0;  // the last modification of the rank's log files the follower reads
    };
    // While stalled: the ranks that logged last, newest first (at most 4). What the follower reads: every rank's
    // stderr and rank 0's stdout (the others' stdout only where the logs are kept, as in the monitor).
    QVector<RankLog> lastLogs;
    // The backend registered faulthandler on SIGUSR2 (every rank's first stderr lines say so): a stack dump is safe.
    bool stacksReady = false;
};
// As a status's "stall" object (the CLI's --json, summary.json, a follower's saved state).
QJsonObject stallToJson(const StallStatus &s);
StallStatus stallFromJson(const QJsonObject &o);

struct JobStatus {
    JobState state = JobState::Starting;
    // Why it failed or stopped: the backend's words, a traceback's last line, torchrun's summary, or Ingot's own
    // words, in English (files Ingot writes stay English). Ingot's own words also have a code and arguments, so they
    // are shown translated: jobReasonText().
    QString reason;
    QString reasonCode;      // "" (the job's own words), "stopped_at_step", ... (docs/formats.md)
    QStringList reasonArgs;  // the code's arguments
    QString reasonDetail;  // the traceback or log lines behind the reason
    int reasonRank = -1;   // the rank the reason comes from (-1: the launcher or none)
    qint64 step = 0;
    qint64 maxSteps = -1;
    double lastLoss = MetricPoint::none;
    double tokensPerSecond = MetricPoint::none;
    double startedAt = 0;  // seconds since the epoch: the job's creation
    // When it ended (0: running): when the wrapper recorded the launcher's exit status (exit_status's modification
    // time), else when the job last wrote a log; never the time Ingot happened to look.
    double endedAt = 0;
    double etaSeconds = MetricPoint::none;
    int worldSize = 0, dataParallel = 0, tensorParallel = 0, pipelineParallel = 0;
    qint64 parameters = 0;
    qint64 peakMemory = -1;  // rank 0's latest
    QVector<qint64> peakMemoryPerRank;  // at the end (backend)
    QString lastCheckpoint;
    QString device;
    int exitStatus = -1;  // torchrun's, -1: unknown
    bool stopRequested = false;
    bool alive = false;
    LauncherPids pids;
    QStringList warnings;  // e.g. the tokenizer warning (English: shown through jobWarningText())
    // The job's host could not be reached at the last poll (why): the state is the last one seen; the job itself
    // goes on there, and the next poll that reaches it continues where reading stopped.
    QString unreachable;
    SchedulerStatus slurm;  // a Slurm job's scheduler state (empty jobId otherwise)
    StallStatus stall;
    bool stacksReady() const { return stall.stacksReady; }
    // Its precompile phase (JOB/precompile: a Slurm job of its own the training job depends on); empty jobId when
    // it has none.
    SchedulerStatus precompile;
    // The precompile phase of a job on this machine or a host (JOB/precompile/exit_status): -2 none, -1 runs or has
    // not ended, else its exit status (0: every graph compiled; the training then runs).
    int precompileExit = -2;
    double elapsed(double now) const;
    // How long it has run: a Slurm job's run time as Slurm counts it (the wait for nodes is not run time), else
    // elapsed().
    double runSeconds(double now) const;
};

// Whether a Slurm job is in its precompile phase: the precompile job runs or waits, and the training job has not
// started.
bool isPrecompiling(const JobStatus &s);
// A status's reason as shown to the user: Ingot's own reasons translated from their code, the job's words as they are.
QString jobReasonText(const JobStatus &s);
// A stored warning as shown to the user (translated when it is one of Ingot's).
QString jobWarningText(const QString &warning);

struct LogChunk {
    int rank = -1;  // -1: torchrun's own output (launcher.log)
    bool isStderr = false;
    QByteArray bytes;
};

class JobFollower final
{
public:
    // `lookup` finds the runners of a multi-node job's other nodes, whose ranks are followed too.
    JobFollower(std::shared_ptr<JobRunner> runner, JobRecordFile record, RunnerLookup lookup = {});
    ~JobFollower();
    JobFollower(const JobFollower &) = delete;
    JobFollower &operator=(const JobFollower &) = delete;

    struct Update {
        QVector<MetricPoint> metrics;  // new since the last poll
        QVector<LogChunk> logs;        // new bytes since the last poll
        bool statusChanged = false;
        bool caughtUp = true;  // false: more bytes are waiting than one poll reads
    };
    // Reads what is new (at most maxBytesPerFile of each file) and updates the status. Blocking I/O.
    Update poll(qint64 maxBytesPerFile = 4 << 20);
    const JobStatus &status() const { return m_status; }
    // Every point read so far (by default); without keeping them (a status: memory bounded however long the logs),
    // only the last few are kept, enough for the ETA.
    const QVector<MetricPoint> &metrics() const { return m_metrics; }
    void setKeepMetrics(bool keep) { m_keepMetrics = keep; }
    // Without the log text (a status): Update::logs stays empty and what only the logs show (the other ranks'
    // stdout) is not read, so a poll holds one chunk at a time however many ranks there are.
    void setKeepLogs(bool keep) { m_keepLogs = keep; }
    const JobRecordFile &record() const { return m_record; }
    // The job's own stall threshold changed while it is followed (setJobStallAfter wrote it to job.json).
    void setStallAfter(double seconds) { m_record.spec.stallAfterSeconds = seconds; }
    const JobPaths &paths() const { return m_paths; }
    QList<int> ranks() const;  // ranks whose logs were found (every node's: global ranks)
    // Each node's launcher.pid as read so far (node 0's is status().pids); one entry for a one-node job.
    QVector<LauncherPids> nodePids() const;
    // Files of the job that exist but could not be read (a FIFO or a link planted there, no permission): "path: why",
    // each once.
    QStringList unreadable() const { return m_unreadable; }
    // The files of a rank's stdout/stderr ("" until found).
    QString rankLog(int rank, bool isStderr) const;

    // Where reading has got to (each file's offset and unterminated line, the parsers' state, the status), so that a
    // later follower goes on from there instead of reading the logs again: `job status` on a running job reads what
    // is new since the last one. Only a follower that keeps neither metrics nor logs saves (empty otherwise).
    QByteArray saveState() const;
    // Takes back a saved state when it is this job's and every file still holds, just before the saved offset, the
    // bytes it held then (a log cut or rewritten since is read again from the start). Call before the first poll.
    // False: nothing changed.
    bool restoreState(const QByteArray &saved);

private:
    struct Stream;
    struct Node;
    JobRunner *nodeRunner(int node);
    bool otherNodesAlive();
    void discoverRankLogs();
    void readStream(Stream &s, qint64 max, Update *u);
    void onLine(Stream &s, const QByteArray &line, Update *u);
    void onEvent(const QJsonObject &o);
    void onMetric(const QJsonObject &o, Update *u);
    // The state from what was read (jobstaterule.h holds the precedence), and what it needs.
    void finishState(bool wrapperAlive);
    JobStateFacts gatherFacts(bool wrapperAlive) const;
    FailureWords failureWords() const;
    void updateEta();

    std::shared_ptr<JobRunner> m_runner;
    JobRecordFile m_record;
    JobPaths m_paths;
    JobStatus m_status;
    QVector<MetricPoint> m_metrics;
    QVector<std::shared_ptr<Stream>> m_streams;
    RunnerLookup m_lookup;
    QVector<std::shared_ptr<Node>> m_nodes;  // nodes 1.. of a multi-node job
    std::unique_ptr<TrainerLogParser> m_trainer;
    QString m_lastEvent;
    bool m_sawMetricAfterSave = true;
    bool m_firstPoll = true;
    bool m_pidsKnown = false;
    bool m_readTrainerState = false;
    QString m_failedEventReason;
    QString m_stoppedEvent;
    bool m_finishedEvent = false;
    int m_polls = 0;
    double m_lastWrite = 0;  // the latest modification time of node 0's logs seen
    bool m_keepMetrics = true;
    bool m_keepLogs = true;
    // Slurm (jobfollowerslurm.cpp). pollScheduler: a Slurm job's state from the scheduler; 1 alive, 0 ended, -1 could
    // not tell. askScheduler: one job's (its id in s.jobId), the same answers.
    int pollScheduler();
    int askScheduler(SchedulerStatus &s);
    void pollPrecompile();
    qint64 m_precompileAskedMs = 0;
    // The scheduler is asked at most every schedulerIntervalMs while the job lives (every poll would be two RPCs to
    // slurmctld per job twice a second from the GUI); the files are read every poll.
    static constexpr qint64 schedulerIntervalMs = 5000;
    qint64 m_schedulerAskedMs = 0;
    int m_schedulerAnswer = -1;
    QStringList m_unreadable;
    void dropOldMetrics();
    void readTorchTitanSteps();
    // Stalls (jobfollowerstall.cpp): Running becomes Stalled by stallrule.h; once a poll, from what is kept.
    void judgeStall();
    void noteStep(bool catchingUp);
    double m_stepSeenAt = 0;  // when the step last advanced (noteStep)
    bool m_catchingUp = true;  // the next poll reads what was written before it (the first, or one that did not end)
};

}  // namespace ingot
