// The jobs of one runner: plan a launch (id, folder, port, the exact command), launch it detached, list the
// history, stop, remove. Blocking (the CLI calls it directly, the UI through JobService on workers).
#pragma once

#include "services/jobs/jobfollower.h"
#include "services/jobs/jobrunner.h"
#include "services/jobs/jobvalidate.h"
#include "services/slurm/slurmtypes.h"

#include <QSet>

#include <memory>

namespace ingot {

// Node 1.. of a multi-node job: its record (node rank, its folder, its backend) and folder on its host.
struct NodePlan {
    JobRecordFile record;
    JobPaths paths;
};

struct LaunchPlan {
    JobRecordFile record;
    JobPaths paths;
    QVector<NodePlan> otherNodes;  // a multi-node job's nodes after the first
    QString commandLine;  // what the preview shows: one line for a shell
    QString script;       // "copy as a shell script"; a Slurm job: the batch script exactly as it is submitted
    QByteArray batchScript;  // a Slurm job's batch script (written to JOB/slurm.sh and submitted)
    QByteArray precompileScript;  // its precompile phase's (JOB/precompile/slurm.sh), when it has one
    QVector<JobNote> notes;  // what is said before it starts (jobNotes: the engine, its warnings)
};

// What a finished job's history row shows; cached in the job's summary.json once the job has ended.
struct JobSummary {
    JobRecordFile record;
    JobStatus status;
    QVector<MetricPoint> metrics;  // only when asked for (loadMetrics)
    QStringList unreadable;        // the job's files that could not be read now ("path: why"; not stored)
};

struct RemovePreview {
    QString jobFolder;
    qint64 jobFolderBytes = 0;
    QString outputFolder;  // empty: outputs are kept (or the output is inside the job folder: listed there)
    qint64 outputBytes = 0;
    QString refusal;  // the job runs, or the output folder is not one Ingot may remove
};

class JobManager final
{
public:
    // `lookup` finds the runners of a multi-node job's other nodes (hosts).
    explicit JobManager(std::shared_ptr<JobRunner> runner, RunnerLookup lookup = {});
    JobRunner &runner() const { return *m_runner; }
    std::shared_ptr<JobRunner> sharedRunner() const { return m_runner; }

    static constexpr int stopGraceSeconds = 10;  // a second Stop within this many seconds sends SIGTERM again

    // Validates (problems, by field) and plans. `nodes`: a multi-node job's hosts, this runner's first (spec.nnodes
    // of them); empty: one node here.
    bool plan(const JobSpec &spec, LaunchPlan *out, QVector<JobProblem> *problems, QString *error,
              const QStringList &nodes = {});
    // Writes the job's folder (each node's) and starts it; waits (up to 10 s per node) for the wrapper to record the
    // launcher's pid. When a node does not start, the nodes already started are killed. The record's createdMs is
    // the time of this call (the job starts when it is launched, not when it was planned).
    bool launch(const LaunchPlan &plan, QString *error);
    // A Slurm job's plan written again after its record changed (a step before the training added to it): its batch
    // scripts and command line. False with why.
    bool replanSlurm(LaunchPlan *plan, QString *error) const { return planSlurm(plan, error); }

    JobPaths paths(const QString &id) const;
    bool load(const QString &id, JobRecordFile *out, QString *error) const;
    // Every job folder, newest first; statuses from summary.json for ended jobs, else read now. Jobs in
    // `followed` (whose status the caller has from its own follower) only get their record.
    QVector<JobSummary> list(QStringList *warnings = nullptr, const QSet<QString> &followed = {});
    // Reads a job's files to the end now (the CLI's status; a re-attach catching up).
    JobSummary summary(const QString &id, bool loadMetrics, QString *error);
    // Records a final status in summary.json (once a job has ended; nothing for running jobs). Written once: a final
    // summary already there is kept as it is.
    void saveSummary(const JobSummary &s);
    // The final status summary.json holds; false when there is none (the job runs, or its end was not recorded yet).
    bool finalSummary(const QString &id, JobStatus *out) const;

    enum class StopResult { Signalled, Killed, NotRunning, Failed };
    // First Stop: SIGTERM to the launcher (the backend saves checkpoint-N). A Stop after the grace period (or
    // force): SIGKILL to every process of the job's group.
    StopResult stop(const QString &id, bool force, QString *message);

    RemovePreview previewRemove(const QString &id, bool withOutputs);
    bool remove(const QString &id, bool withOutputs, QString *error);

    // The compile cache a job of `spec` uses where this manager's runner starts it: the Neuron runtime's rule over
    // the environment the job gets there (JobSpec::compileCacheLocation with the runner's inherited variables and
    // home); `where` names the host of a job that runs on one. The launcher, the monitor and the CLI all ask this.
    CacheLocation compileCache(const JobSpec &spec) const;
    // That cache as a store, to read it where it is (a host's over SSH).
    StoreLocation compileCacheStore(const CacheLocation &cache) const { return m_runner->cacheStore(cache.path); }

    // The newest checkpoint-N folder (one with files in it) in a job's output folder where the job runs; "" when there
    // is none. *outputExists: whether the output folder is there at all. A TorchTitan job (torchtitanjob.h): its newest
    // step-N with a .metadata in {dump_folder}/{checkpoint.folder}, *outputExists for that folder. Blocking.
    QString latestCheckpoint(const JobRecordFile &r, bool *outputExists = nullptr) const;
    // Consolidates a checkpoint where the job ran, by Ingot's CLI there (`ingot-cli consolidate CHECKPOINT ARGS`):
    // a host's shards never cross the network. Its exit code and output; -1 with words in *error. Blocking; `stop`
    // ends it there, leaving nothing of its output behind.
    int consolidateThere(const QString &checkpoint, const QStringList &args, int timeoutMs, QByteArray *output,
                         QString *error, const std::atomic_bool *stop = nullptr) const;

    // The runner of node `rank` of a job (this manager's for node 0); nullptr with words when it cannot be had.
    std::shared_ptr<JobRunner> nodeRunner(const JobRecordFile &r, int rank, QString *error) const;
    const RunnerLookup &lookup() const { return m_lookup; }

    static constexpr int maxSlurmNodes = 4096;

private:
    bool startNode(JobRunner &runner, const JobRecordFile &record, const JobPaths &paths, QString *error);
    // Writes stop_request (its first time kept) and says whether Stop was asked before and whether this one kills:
    // forced, or the grace period since the first is over. The one rule for every kind of job.
    struct StopRequest {
        bool asked = false;
        double askedAt = 0;
        bool kill = false;
    };
    StopRequest recordStopRequest(const JobPaths &paths, bool force);
    // Slurm jobs (jobmanagerslurm.cpp): the batch script, sbatch, scancel.
    bool planSlurm(LaunchPlan *plan, QString *error) const;
    bool submitSlurm(const LaunchPlan &plan, QString *error);
    StopResult stopSlurm(const JobRecordFile &r, const JobStatus &st, bool force, QString *message);

    std::shared_ptr<JobRunner> m_runner;
    RunnerLookup m_lookup;
};

class RemoteJobIndex;

// Every job this machine knows: `local`'s, then the whole jobs folder of each host the index records jobs on
// (through `lookup`; jobs started there by others too). A host that cannot be used keeps its recorded jobs listed,
// their status saying why (status.unreachable) and a warning. With `pruneIndex`, jobs that a host that answered no
// longer has are forgotten by the index (not ones recorded moments ago: their folder may not be written yet).
// `stopped` ends it early. Newest first. Blocking.
QVector<JobSummary> listEveryJob(const std::shared_ptr<JobRunner> &local, const RunnerLookup &lookup,
                                 const RemoteJobIndex &index, const QSet<QString> &followed, QStringList *warnings,
                                 bool pruneIndex, const std::function<bool()> &stopped = {});

// The Python interpreters where `runner` runs jobs (detected once a process; blocking).
QVector<PythonInfo> detectedPythons(JobRunner &runner, const std::atomic_bool *stop = nullptr);

class SlurmCluster;
// The cluster a Slurm job of `spec` is submitted to and followed on: the Slurm clients where `runner` runs, with the
// job's slurm.conf (JobManager's sbatch and scancel, JobFollower's scontrol).
SlurmCluster slurmClusterOf(const JobRunner &runner, const JobSpec &spec);

// A Slurm cluster as Ingot's jobs reach it: the runner (its login node: "local" or a host) and the slurm.conf.
struct SlurmClusterRef {
    QString where;
    QString slurmConf;
    bool operator==(const SlurmClusterRef &o) const { return where == o.where && slurmConf == o.slurmConf; }
};
// A job of the user's Slurm queue that Ingot did not submit (sbatch by hand, another tool): shown beside the
// history, read-only.
struct OtherSlurmJob {
    SlurmClusterRef cluster;
    SlurmQueueJob job;
};
// A Slurm job's batch scripts where it runs, in the order they were submitted (its precompile phase's first); empty
// for other jobs (jobmanagerslurm.cpp).
QStringList slurmScriptsOf(const JobRecordFile &record);
// The clusters the history's Slurm jobs were submitted to, each once, newest first (jobmanagerslurm.cpp).
QVector<SlurmClusterRef> slurmClustersOf(const QVector<JobSummary> &history);
// The jobs of a cluster's queue that are not Ingot's: neither a history job's Slurm id there nor named as Ingot names
// its jobs (ingot-<id of a history job>; a job submitted a moment ago is named so before its id is recorded).
QVector<SlurmQueueJob> jobsOutsideIngot(const QVector<SlurmQueueJob> &queue, const SlurmClusterRef &cluster,
                                        const QVector<JobSummary> &history);
// The queue of every cluster in `clusters`, Ingot's own jobs left out; a cluster that cannot be asked adds its
// words to *errors. `runnerAt` gives the runner of a `where` ("local" included). Blocking.
QVector<OtherSlurmJob> otherSlurmJobs(const RunnerLookup &runnerAt, const QVector<SlurmClusterRef> &clusters,
                                      const QVector<JobSummary> &history, QStringList *errors);

// A job's status as one JSON object (the CLI's --json, summary.json).
QJsonObject statusToJson(const JobStatus &s);
JobStatus statusFromJson(const QJsonObject &o);

}  // namespace ingot
