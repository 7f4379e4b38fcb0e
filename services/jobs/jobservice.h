// The job services for the UI: the history, launching, stopping, removing, and following jobs, on this machine and
// on remote hosts. Every file and process operation runs on a worker (runTask); results arrive as signals on the
// service's thread. Jobs that were running when the service was created are followed again (re-attach): the
// follower reads their files from the start, so the monitor shows everything that happened while Ingot was closed.
// Remote jobs come from the hosts this machine launched jobs on (RemoteJobIndex): each such host's jobs folder is
// listed; a host that cannot be reached keeps its jobs listed with their last known record, marked unreachable.
#pragma once

#include "services/jobs/jobmanager.h"
#include "services/jobs/jobstall.h"
#include "services/jobs/remotejobindex.h"
#include "services/slurm/slurmcluster.h"
#include "services/util/task.h"

#include <QHash>
#include <QObject>
#include <QTimer>

class QFileSystemWatcher;

#include <memory>

namespace ingot {

struct PrecompileProgress;
struct ImportedRun;
struct NeuronSample;
struct CacheSnapshot;

class JobService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobService)

public:
    // Jobs on this machine only.
    explicit JobService(std::shared_ptr<JobRunner> runner, QObject *parent = nullptr);
    // `lookup` finds the runner of every other `where` (a host; blocking, called on workers only).
    JobService(std::shared_ptr<JobRunner> runner, RunnerLookup lookup, QObject *parent = nullptr);
    ~JobService() override;

    // This machine's runner.
    JobRunner &runner() const { return m_manager->runner(); }
    std::shared_ptr<JobRunner> sharedRunner() const { return m_manager->sharedRunner(); }
    // The runner of a `where` ("local" or a host): blocking, for workers.
    RunnerLookup lookup() const;
    bool hasRemoteHosts() const { return bool(m_lookup); }
    // Where a job in the history runs ("local" or its host).
    QString whereOf(const QString &id) const;
    void setPollInterval(int ms);
    // How often the hosts' jobs folders are listed again (jobs started there by others appear).
    void setRemoteRefreshInterval(int ms);

    // The history as last read, newest first.
    const QVector<JobSummary> &history() const { return m_history; }
    const JobSummary *find(const QString &id) const;
    void refreshHistory();

    // Validates and plans off the UI thread; `done` gets the plan, the problems and an error.
    using PlanDone = std::function<void(const LaunchPlan &, const QVector<JobProblem> &, const QString &)>;
    // `nodes`: where the job runs: empty for this machine; one host; or a multi-node job's hosts (spec.nnodes).
    Task plan(const JobSpec &spec, PlanDone done, const QStringList &nodes = {});
    void launch(const LaunchPlan &plan);
    void stop(const QString &id, bool force = false);
    void remove(const QString &id, bool withOutputs);
    Task previewRemove(const QString &id, bool withOutputs, std::function<void(const RemovePreview &)> done);
    Task detectPythons(std::function<void(const QVector<PythonInfo> &)> done);
    // The Python interpreters on `where` ("local" or a host); the error when the host cannot be reached.
    Task detectPythonsOn(const QString &where, std::function<void(const QVector<PythonInfo> &, const QString &)> done);

    // A job's compile cache, resolved where the job runs (JobManager::compileCache), and the store that reads it
    // there; the error when the job's host cannot be reached.
    using CacheDone = std::function<void(const CacheLocation &, const StoreLocation &, const QString &error)>;
    Task compileCacheOf(const JobRecordFile &record, CacheDone done);
    // A job's newest checkpoint-N where it runs (JobManager::latestCheckpoint) and whether its output folder is there.
    // A job's precompile phase where it runs (readPrecompileProgress), each graph's state from `cache`.
    Task precompileOf(const JobRecordFile &record, const CacheSnapshot &cache, std::function<void(const PrecompileProgress &)> done);
    // One NeuronCore sample of a running job where it runs (sampleNeuronCores), with its devices when asked.
    Task neuronCoresOf(const JobRecordFile &record, bool withDevices, std::function<void(const NeuronSample &)> done);
    Task latestCheckpointOf(const JobRecordFile &record, std::function<void(bool outputExists, const QString &checkpoint)> done);
    // A running job's Python stacks per rank, where it runs (dumpJobStacks: the backend's ranks only, never a program
    // that did not register faulthandler; StackDump::error says why nothing was asked).
    Task stacksOf(const JobRecordFile &record, std::function<void(const StackDump &)> done);
    // Sets a job's own stall threshold (seconds; 0: the default rule) where it runs (setJobStallAfter) and in the
    // follower that follows it now; `done` gets the error ("" when it is set).
    Task setStallAfter(const QString &id, double seconds, std::function<void(const QString &error)> done);
    // Consolidates a checkpoint where the job ran (JobManager::consolidateThere): the exit code (-1: could not run,
    // or stopped) and what Ingot's CLI said (or why it could not run). The task's stop() ends it there, leaving
    // nothing of its output behind.
    Task consolidateThere(const JobRecordFile &record, const QString &checkpoint,
                          std::function<void(int code, const QString &text)> done);

    // The Slurm cluster of `where` ("local" or a login node): whether its clients are there, its partitions and
    // nodes; the error when it cannot be asked. `slurmConf`: SLURM_CONF there ("": the clients' own).
    Task slurmInfoOn(const QString &where, const QString &slurmConf,
                     std::function<void(const SlurmClusterState &, const QString &error)> done);
    // The user's jobs on the Slurm clusters of the history that Ingot did not submit (otherSlurmJobs()), and the
    // words of each cluster that could not be asked. `clusters` is how many were asked (0: no Slurm job yet).
    Task otherSlurmJobsOnClusters(std::function<void(const QVector<OtherSlurmJob> &, int clusters, const QStringList &errors)> done);
    // The last `maxBytes` of a file where jobs run (an outside Slurm job's output file, read-only).
    Task tailOn(const QString &where, const QString &path, qint64 maxBytes,
                std::function<void(const QByteArray &tail, bool cut, const QString &error)> done);

    // Following: everything read so far of a job (watch() starts reading if it is not followed yet).
    void watch(const QString &id);
    void watch(const QString &id, const QString &where);
    bool isWatched(const QString &id) const { return m_followed.contains(id); }
    QVector<MetricPoint> metrics(const QString &id) const;
    JobStatus status(const QString &id) const;
    QList<int> ranks(const QString &id) const;
    // The most recent log bytes read of a job, in the order they were read (at most recentLogBytes in all): what
    // a view opened after the service started following shows first.
    QVector<LogChunk> recentLogs(const QString &id) const;
    static constexpr qint64 recentLogBytes = 4 << 20;
    // Loads another run's metrics (an overlay from the history).
    Task loadMetrics(const QString &id, std::function<void(const QVector<MetricPoint> &)> done);
    // Adopts a run folder on this machine as a read-only job (importRunFolder: File ▸ Open a run folder…); a folder
    // imported before is refreshed, and read again by whoever follows it. `done` gets the run (its id) or the error;
    // the history is read again.
    Task importRun(const QString &folder, std::function<void(const ImportedRun &, const QString &error)> done);

Q_SIGNALS:
    void historyChanged();
    void launched(const QString &id);
    void launchFailed(const QString &error);
    void stopAnswered(const QString &id, const QString &message, bool ok);
    void removed(const QString &id, const QString &error);
    void jobUpdated(const QString &id);  // status(id) changed
    void metricsAppended(const QString &id, const QVector<ingot::MetricPoint> &points);
    void logsAppended(const QString &id, const QVector<ingot::LogChunk> &chunks);
    // A followed job became stalled (its step has not advanced for longer than its threshold while its processes
    // live: stallrule.h) or is no longer (a step came, or it ended). `why`, when it stalls: jobStallText() of its
    // status (since when, the threshold, the ranks that logged last), translated; empty when it ends. Emitted once per
    // change, after jobUpdated's status is in place (status(id).stall has the details).
    void stallChanged(const QString &id, bool stalled, const QString &why);

private:
    struct Followed;
    void pollAll();
    void pollOne(const QString &id);
    // The runner of a job (by its where) for a worker; nullptr with words when it cannot be had.
    static std::shared_ptr<JobRunner> runnerFor(const std::shared_ptr<JobRunner> &local, const RunnerLookup &lookup,
                                                const QString &where, QString *error);

    std::unique_ptr<JobManager> m_manager;
    RunnerLookup m_lookup;
    RemoteJobIndex m_index;
    QTimer m_remoteRefresh;
    QVector<JobSummary> m_history;
    QHash<QString, std::shared_ptr<Followed>> m_followed;
    QTimer m_timer;
    int m_pollMs = 500;
    // Jobs started elsewhere (ingot-cli, another Ingot) appear in the history: the jobs folder is watched.
    QFileSystemWatcher *m_folderWatcher = nullptr;
    QTimer m_folderChanged;
    Task m_historyTask;
    bool m_historyAgain = false;
};

}  // namespace ingot

Q_DECLARE_METATYPE(ingot::MetricPoint)
Q_DECLARE_METATYPE(ingot::LogChunk)
