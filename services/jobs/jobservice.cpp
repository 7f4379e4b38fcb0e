#include "services/jobs/jobservice.h"

#include "services/jobs/jobtext.h"

#include "services/jobs/neuronmonitor.h"
#include "services/jobs/precompile.h"
#include "services/jobs/runimport.h"

#include "services/util/names.h"

#include <QDateTime>
#include <QSet>
#include <QCoreApplication>
#include <QDir>
#include <QFileSystemWatcher>

namespace ingot {


struct JobService::Followed {
    QString where;                          // "local" or the job's host
    std::shared_ptr<JobFollower> follower;  // used by one poll at a time, on a worker
    JobStatus status;
    QVector<MetricPoint> metrics;
    QList<int> ranks;
    QVector<LogChunk> recent;  // bounded by recentLogBytes, the oldest dropped
    qint64 recentBytes = 0;
    bool polling = false;
    bool saved = false;
    double stallAfter = -1;  // a threshold set since the follower was made, handed to it by the next poll; -1 none
    Task task;
};

JobService::JobService(std::shared_ptr<JobRunner> runner, QObject *parent) : JobService(std::move(runner), {}, parent) {}

JobService::JobService(std::shared_ptr<JobRunner> runner, RunnerLookup lookup, QObject *parent)
    : QObject(parent), m_manager(std::make_unique<JobManager>(runner, lookup)), m_lookup(std::move(lookup)),
      m_index(runner->jobsRoot())
{
    qRegisterMetaType<ingot::MetricPoint>();
    qRegisterMetaType<ingot::LogChunk>();
    m_timer.setInterval(m_pollMs);
    connect(&m_timer, &QTimer::timeout, this, &JobService::pollAll);
    m_timer.start();
    if (this->runner().where() == QLatin1String("local")) {
        const QString root = this->runner().jobsRoot();
        QDir().mkpath(root);
        m_folderWatcher = new QFileSystemWatcher(QStringList{root}, this);
        m_folderChanged.setSingleShot(true);
        m_folderChanged.setInterval(300);
        connect(m_folderWatcher, &QFileSystemWatcher::directoryChanged, &m_folderChanged, qOverload<>(&QTimer::start));
        connect(&m_folderChanged, &QTimer::timeout, this, &JobService::refreshHistory);
        if (m_lookup) {
            // Remote jobs launched by ingot-cli appear in the index.
            QDir().mkpath(m_index.folder());
            m_folderWatcher->addPath(m_index.folder());
        }
    }
    if (m_lookup) {
        m_remoteRefresh.setInterval(30000);
        connect(&m_remoteRefresh, &QTimer::timeout, this, [this] {
            if (!m_index.hosts().isEmpty())
                refreshHistory();
        });
        m_remoteRefresh.start();
    }
    refreshHistory();
}

RunnerLookup JobService::lookup() const
{
    return [local = m_manager->sharedRunner(), lookup = m_lookup](const QString &where, QString *error) {
        return runnerFor(local, lookup, where, error);
    };
}

std::shared_ptr<JobRunner> JobService::runnerFor(const std::shared_ptr<JobRunner> &local, const RunnerLookup &lookup,
                                                 const QString &where, QString *error)
{
    if (where.isEmpty() || where == local->where())
        return local;
    if (!lookup) {
        *error = QCoreApplication::translate("ingot::JobService", "Remote hosts are not available here.");
        return nullptr;
    }
    return lookup(where, error);
}

QString JobService::whereOf(const QString &id) const
{
    if (const auto f = m_followed.value(id); f && !f->where.isEmpty())
        return f->where;
    if (const JobSummary *s = find(id))
        return s->record.where;
    JobRecordFile r;
    if (m_index.find(id, &r))
        return r.where;
    return m_manager->runner().where();
}

void JobService::setRemoteRefreshInterval(int ms)
{
    m_remoteRefresh.setInterval(ms);
}

JobService::~JobService()
{
    for (const auto &f : std::as_const(m_followed))
        f->task.discard();
    m_historyTask.discard();
}

void JobService::setPollInterval(int ms)
{
    m_pollMs = ms;
    m_timer.setInterval(ms);
}

const JobSummary *JobService::find(const QString &id) const
{
    for (const JobSummary &s : m_history)
        if (s.record.id == id)
            return &s;
    return nullptr;
}

void JobService::refreshHistory()
{
    if (m_historyTask.isRunning()) {
        m_historyAgain = true;
        return;
    }
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const RemoteJobIndex index = m_index;
    QSet<QString> followed;  // their status comes from the follower: not read twice
    for (auto it = m_followed.cbegin(); it != m_followed.cend(); ++it)
        if (it.value()->follower)
            followed.insert(it.key());
    m_historyTask = runTask(
        this,
        [local, lookup, index, followed](TaskControl &c) {
            return listEveryJob(local, lookup, index, followed, nullptr, true, [&c] { return c.isStopped(); });
        },
        [this](QVector<JobSummary> list) {
            // Jobs that are followed show their live status; running ones are followed (re-attach), and so is a job
            // that ran when its host went out of reach and ended meanwhile: read to its end once it is back.
            QSet<QString> wasOutOfReach;
            for (const JobSummary &old : std::as_const(m_history))
                if (!old.status.unreachable.isEmpty() && !isFinal(old.status.state))
                    wasOutOfReach.insert(old.record.id);
            for (JobSummary &s : list) {
                if (const auto f = m_followed.value(s.record.id)) {
                    s.status = f->status;
                } else if (s.status.unreachable.isEmpty()
                           && (!isFinal(s.status.state) || wasOutOfReach.contains(s.record.id))) {
                    watch(s.record.id, s.record.where);
                }
            }
            m_history = std::move(list);
            Q_EMIT historyChanged();
            if (m_historyAgain) {
                m_historyAgain = false;
                refreshHistory();
            }
        });
}

Task JobService::plan(const JobSpec &spec, PlanDone done, const QStringList &nodes)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    struct Result {
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
    };
    return runTask(
        this,
        [local, lookup, spec, nodes](TaskControl &) {
            Result r;
            const std::shared_ptr<JobRunner> runner = runnerFor(local, lookup, nodes.value(0), &r.error);
            if (runner)
                JobManager(runner, lookup).plan(spec, &r.plan, &r.problems, &r.error, nodes.size() > 1 ? nodes : QStringList());
            return r;
        },
        [done](Result r) { done(r.plan, r.problems, r.error); });
}

void JobService::launch(const LaunchPlan &plan)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const RemoteJobIndex index = m_index;
    runTask(
        this,
        [local, lookup, index, plan](TaskControl &) {
            QString error;
            const std::shared_ptr<JobRunner> runner = runnerFor(local, lookup, plan.record.where, &error);
            if (!runner)
                return error;
            JobManager jobs(runner, lookup);
            launchRecorded(jobs, plan, runner != local, index, &error);
            return error;
        },
        [this, id = plan.record.id, where = plan.record.where](const QString &error) {
            if (!error.isEmpty()) {
                Q_EMIT launchFailed(error);
                return;
            }
            watch(id, where);
            refreshHistory();
            Q_EMIT launched(id);
        });
}

void JobService::stop(const QString &id, bool force)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const QString where = whereOf(id);
    struct Result {
        JobManager::StopResult result;
        QString message;
    };
    runTask(
        this,
        [local, lookup, where, id, force](TaskControl &) {
            Result r;
            const std::shared_ptr<JobRunner> runner = runnerFor(local, lookup, where, &r.message);
            r.result = runner ? JobManager(runner, lookup).stop(id, force, &r.message) : JobManager::StopResult::Failed;
            return r;
        },
        [this, id](Result r) {
            Q_EMIT stopAnswered(id, r.message, r.result != JobManager::StopResult::Failed);
            pollOne(id);
        });
}

Task JobService::previewRemove(const QString &id, bool withOutputs, std::function<void(const RemovePreview &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const QString where = whereOf(id);
    return runTask(
        this,
        [local, lookup, where, id, withOutputs](TaskControl &) {
            RemovePreview p;
            const std::shared_ptr<JobRunner> runner = runnerFor(local, lookup, where, &p.refusal);
            return runner ? JobManager(runner, lookup).previewRemove(id, withOutputs) : p;
        },
        [done](RemovePreview p) { done(p); });
}

void JobService::remove(const QString &id, bool withOutputs)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const QString where = whereOf(id);
    const RemoteJobIndex index = m_index;
    runTask(
        this,
        [local, lookup, where, index, id, withOutputs](TaskControl &) {
            QString error;
            const std::shared_ptr<JobRunner> runner = runnerFor(local, lookup, where, &error);
            if (runner) {
                JobManager jobs(runner, lookup);
                removeRecorded(jobs, id, withOutputs, runner != local, index, &error);
            }
            return error;
        },
        [this, id](const QString &error) {
            if (error.isEmpty()) {
                if (const auto f = m_followed.take(id))
                    f->task.discard();
            }
            Q_EMIT removed(id, error);
            refreshHistory();
        });
}

Task JobService::detectPythons(std::function<void(const QVector<PythonInfo> &)> done)
{
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    return runTask(
        this, [runner](TaskControl &c) { return detectedPythons(*runner, c.stopFlag()); },
        [done](QVector<PythonInfo> v) { done(v); });
}

Task JobService::detectPythonsOn(const QString &where,
                                 std::function<void(const QVector<PythonInfo> &, const QString &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    struct Result {
        QVector<PythonInfo> pythons;
        QString error;
    };
    return runTask(
        this,
        [local, lookup, where](TaskControl &c) {
            Result r;
            if (const auto runner = runnerFor(local, lookup, where, &r.error))
                r.pythons = detectedPythons(*runner, c.stopFlag());
            return r;
        },
        [done](Result r) { done(r.pythons, r.error); });
}

Task JobService::compileCacheOf(const JobRecordFile &record, CacheDone done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    struct Result {
        CacheLocation cache;
        StoreLocation store;
        QString error;
    };
    return runTask(
        this,
        [local, lookup, record](TaskControl &) {
            Result r;
            if (const auto runner = runnerFor(local, lookup, record.where, &r.error)) {
                const JobManager jobs(runner);
                r.cache = jobs.compileCache(record.spec);
                r.store = jobs.compileCacheStore(r.cache);
            }
            return r;
        },
        [done](Result r) { done(r.cache, r.store, r.error); });
}

Task JobService::latestCheckpointOf(const JobRecordFile &record, std::function<void(bool, const QString &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    struct Result {
        bool exists = false;
        QString checkpoint;
    };
    return runTask(
        this,
        [local, lookup, record](TaskControl &) {
            Result r;
            QString error;
            if (const auto runner = runnerFor(local, lookup, record.where, &error))
                r.checkpoint = JobManager(runner).latestCheckpoint(record, &r.exists);
            return r;
        },
        [done](Result r) { done(r.exists, r.checkpoint); });
}

Task JobService::stacksOf(const JobRecordFile &record, std::function<void(const StackDump &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    return runTask(
        this,
        [local, lookup, record](TaskControl &control) {
            StackDump d;
            if (const auto runner = runnerFor(local, lookup, record.where, &d.error)) {
                JobManager jobs(runner, lookup);
                d = dumpJobStacks(jobs, record.id, 10000, control.stopFlag());
            }
            return d;
        },
        [done](StackDump d) { done(d); });
}

Task JobService::setStallAfter(const QString &id, double seconds, std::function<void(const QString &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const QString where = whereOf(id);
    return runTask(
        this,
        [local, lookup, where, id, seconds](TaskControl &) {
            QString error;
            if (const auto runner = runnerFor(local, lookup, where, &error)) {
                JobManager jobs(runner, lookup);
                setJobStallAfter(jobs, id, seconds, &error);
            }
            return error;
        },
        [this, id, seconds, done](const QString &error) {
            if (error.isEmpty())
                if (const auto f = m_followed.value(id))
                    f->stallAfter = seconds;
            done(error);
        });
}

Task JobService::precompileOf(const JobRecordFile &record, const CacheSnapshot &cache,
                              std::function<void(const PrecompileProgress &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    return runTask(
        this,
        [local, lookup, record, cache](TaskControl &) {
            QString error;
            const auto runner = runnerFor(local, lookup, record.where, &error);
            if (!runner)
                return PrecompileProgress();
            return readPrecompileProgress(*runner, JobManager(runner).paths(record.id), &cache);
        },
        std::move(done));
}

Task JobService::neuronCoresOf(const JobRecordFile &record, bool withDevices, std::function<void(const NeuronSample &)> done)
{
    const JobStatus st = status(record.id);
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    return runTask(
        this,
        [local, lookup, record, st, withDevices](TaskControl &) {
            NeuronSample s;
            const auto runner = runnerFor(local, lookup, record.where, &s.error);
            return runner ? sampleJobNeuronCores(*runner, record, st, withDevices) : s;
        },
        std::move(done));
}

Task JobService::consolidateThere(const JobRecordFile &record, const QString &checkpoint,
                                  std::function<void(int, const QString &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    struct Result {
        int code = -1;
        QString text;
    };
    return runTask(
        this,
        [local, lookup, record, checkpoint](TaskControl &control) {
            Result r;
            const auto runner = runnerFor(local, lookup, record.where, &r.text);
            if (!runner)
                return r;
            QByteArray output;
            r.code = JobManager(runner).consolidateThere(checkpoint, {}, 60 * 60 * 1000, &output, &r.text, control.stopFlag());
            if (r.code >= 0)
                r.text = displayText(QString::fromUtf8(output.right(4000)));
            return r;
        },
        [done](Result r) { done(r.code, r.text); });
}

Task JobService::slurmInfoOn(const QString &where, const QString &slurmConf,
                             std::function<void(const SlurmClusterState &, const QString &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    struct Result {
        SlurmClusterState state;
        QString error;
    };
    return runTask(
        this,
        [local, lookup, where, slurmConf](TaskControl &) {
            Result r;
            if (const auto runner = runnerFor(local, lookup, where, &r.error))
                SlurmCluster(runner->shell(), nameToBytes(slurmConf)).info(&r.state, &r.error);
            return r;
        },
        [done](Result r) { done(r.state, r.error); });
}

Task JobService::otherSlurmJobsOnClusters(std::function<void(const QVector<OtherSlurmJob> &, int, const QStringList &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const QVector<JobSummary> history = m_history;
    const QVector<SlurmClusterRef> clusters = slurmClustersOf(history);
    struct Result {
        QVector<OtherSlurmJob> jobs;
        QStringList errors;
    };
    return runTask(
        this,
        [local, lookup, history, clusters](TaskControl &) {
            Result r;
            const RunnerLookup runnerAt = [&](const QString &where, QString *error) { return runnerFor(local, lookup, where, error); };
            r.jobs = otherSlurmJobs(runnerAt, clusters, history, &r.errors);
            return r;
        },
        [done, n = int(clusters.size())](Result r) { done(r.jobs, n, r.errors); });
}

Task JobService::tailOn(const QString &where, const QString &path, qint64 maxBytes,
                        std::function<void(const QByteArray &, bool, const QString &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    struct Result {
        QByteArray tail;
        bool cut = false;
        QString error;
    };
    return runTask(
        this,
        [local, lookup, where, path, maxBytes](TaskControl &) {
            Result r;
            const auto runner = runnerFor(local, lookup, where, &r.error);
            if (!runner)
                return r;
            FileChunk c = runner->readFile(path, 0, maxBytes);
            if (c.exists && c.size > maxBytes)  // its end, not its start
                c = runner->readFile(path, c.size - maxBytes, maxBytes);
            if (!c.exists)
                r.error = QCoreApplication::translate("ingot::JobService", "%1 does not exist (yet)").arg(displayName(path));
            else if (!c.error.isEmpty())
                r.error = c.error;
            r.tail = c.data;
            r.cut = c.size > c.data.size();
            return r;
        },
        [done](Result r) { done(r.tail, r.cut, r.error); });
}

void JobService::watch(const QString &id)
{
    watch(id, whereOf(id));
}

void JobService::watch(const QString &id, const QString &where)
{
    if (m_followed.contains(id))
        return;
    auto f = std::make_shared<Followed>();
    f->where = where;
    m_followed.insert(id, f);
    pollOne(id);
}

QVector<MetricPoint> JobService::metrics(const QString &id) const
{
    const auto f = m_followed.value(id);
    return f ? f->metrics : QVector<MetricPoint>();
}

JobStatus JobService::status(const QString &id) const
{
    if (const auto f = m_followed.value(id))
        return f->status;
    if (const JobSummary *s = find(id))
        return s->status;
    return {};
}

QVector<LogChunk> JobService::recentLogs(const QString &id) const
{
    const auto f = m_followed.value(id);
    return f ? f->recent : QVector<LogChunk>();
}

QList<int> JobService::ranks(const QString &id) const
{
    const auto f = m_followed.value(id);
    return f ? f->ranks : QList<int>();
}

Task JobService::loadMetrics(const QString &id, std::function<void(const QVector<MetricPoint> &)> done)
{
    if (const auto f = m_followed.value(id); f && !f->metrics.isEmpty()) {
        done(f->metrics);
        return {};
    }
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const QString where = whereOf(id);
    return runTask(
        this,
        [local, lookup, where, id](TaskControl &) {
            QString error;
            const std::shared_ptr<JobRunner> runner = runnerFor(local, lookup, where, &error);
            return runner ? JobManager(runner, lookup).summary(id, true, &error).metrics : QVector<MetricPoint>();
        },
        [done](QVector<MetricPoint> m) { done(m); });
}

Task JobService::importRun(const QString &folder, std::function<void(const ImportedRun &, const QString &)> done)
{
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    using Result = std::pair<ImportedRun, QString>;
    return runTask(
        this,
        [local, folder](TaskControl &) {
            Result r;
            if (!importRunFolder(local, folder, &r.first, &r.second) && r.second.isEmpty())
                r.second = tr("The run folder could not be imported.");
            return r;
        },
        [this, done](Result r) {
            if (r.second.isEmpty())
                m_followed.remove(r.first.id);  // refreshed: followed again from its new points
            refreshHistory();
            done(r.first, r.second);
        });
}

void JobService::pollAll()
{
    const QStringList ids = m_followed.keys();
    for (const QString &id : ids) {
        const auto f = m_followed.value(id);
        if (f && !(isFinal(f->status.state) && f->saved))
            pollOne(id);
    }
}

void JobService::pollOne(const QString &id)
{
    const auto f = m_followed.value(id);
    if (!f || f->polling)
        return;
    f->polling = true;
    std::shared_ptr<JobRunner> local = m_manager->sharedRunner();
    const RunnerLookup lookup = m_lookup;
    const QString where = f->where;
    struct Result {
        JobFollower::Update update;
        JobStatus status;
        QList<int> ranks;
        bool loaded = true;
        std::shared_ptr<JobFollower> follower;
    };
    std::shared_ptr<JobFollower> follower = f->follower;
    const double stallAfter = f->stallAfter;
    f->task = runTask(
        this,
        [local, lookup, where, id, follower, stallAfter](TaskControl &) {
            Result r;
            r.follower = follower;
            if (!r.follower) {
                QString error;
                const std::shared_ptr<JobRunner> runner = runnerFor(local, lookup, where, &error);
                if (!runner) {
                    r.status.unreachable = error;  // asked again at the next poll
                    return r;
                }
                JobRecordFile record;
                if (!JobManager(runner, lookup).load(id, &record, &error)) {
                    r.loaded = runner->unreachable().isEmpty();
                    r.status.unreachable = runner->unreachable();
                    return r;
                }
                r.follower = std::make_shared<JobFollower>(runner, record, lookup);
            }
            if (stallAfter >= 0)
                r.follower->setStallAfter(stallAfter);
            r.update = r.follower->poll();
            r.status = r.follower->status();
            r.ranks = r.follower->ranks();
            return r;
        },
        [this, id, f, local, lookup, where](Result r) {
            f->polling = false;
            if (m_followed.value(id) != f)
                return;  // removed meanwhile
            if (!r.loaded) {
                m_followed.remove(id);
                return;
            }
            if (!r.follower) {  // the host cannot be reached yet
                if (f->status.unreachable != r.status.unreachable) {
                    f->status.unreachable = r.status.unreachable;
                    Q_EMIT jobUpdated(id);
                }
                return;
            }
            f->follower = r.follower;
            const bool wasFinal = isFinal(f->status.state) && f->status.endedAt > 0;
            const bool wasStalled = f->status.state == JobState::Stalled;
            f->status = r.status;
            if (wasStalled != (f->status.state == JobState::Stalled))
                Q_EMIT stallChanged(id, !wasStalled, wasStalled ? QString() : jobStallText(f->status));
            f->ranks = r.ranks;
            if (!r.update.metrics.isEmpty()) {
                f->metrics += r.update.metrics;
                Q_EMIT metricsAppended(id, r.update.metrics);
            }
            if (!r.update.logs.isEmpty()) {
                for (const LogChunk &c : std::as_const(r.update.logs)) {
                    f->recent.append(c);
                    f->recentBytes += c.bytes.size();
                }
                qsizetype drop = 0;
                while (f->recentBytes > recentLogBytes && drop < f->recent.size() - 1)
                    f->recentBytes -= f->recent.at(drop++).bytes.size();
                f->recent.remove(0, drop);
                Q_EMIT logsAppended(id, r.update.logs);
            }
            if (r.update.statusChanged || !wasFinal)
                Q_EMIT jobUpdated(id);
            if (!r.update.caughtUp) {
                pollOne(id);  // more waiting: read on at once
                return;
            }
            if (isFinal(f->status.state) && !f->saved) {
                f->saved = true;
                JobSummary s;
                s.record = r.follower->record();
                s.status = f->status;
                runTask(this, [local, lookup, where, s](TaskControl &) {
                    QString error;
                    if (const auto runner = runnerFor(local, lookup, where, &error))
                        JobManager(runner, lookup).saveSummary(s);
                },
                        [this]() { refreshHistory(); });
            }
        });
}

}  // namespace ingot
