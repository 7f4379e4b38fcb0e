#include "services/jobs/jobservice.h"

#include <QDir>
#include <QFileSystemWatcher>

namespace ingot {

struct JobService::Followed {
    std::shared_ptr<JobFollower> follower;  // used by one poll at a time, on a worker
    JobStatus status;
    QVector<MetricPoint> metrics;
    QList<int> ranks;
    QVector<LogChunk> recent;  // bounded by recentLogBytes, the oldest dropped
    qint64 recentBytes = 0;
    bool polling = false;
    bool saved = false;
    Task task;
};

JobService::JobService(std::shared_ptr<JobRunner> runner, QObject *parent)
    : QObject(parent), m_manager(std::make_unique<JobManager>(std::move(runner)))
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
    }
    refreshHistory();
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
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    QSet<QString> followed;  // their status comes from the follower: not read twice
    for (auto it = m_followed.cbegin(); it != m_followed.cend(); ++it)
        if (it.value()->follower)
            followed.insert(it.key());
    m_historyTask = runTask(
        this, [runner, followed](TaskControl &) { return JobManager(runner).list(nullptr, followed); },
        [this](QVector<JobSummary> list) {
            // Jobs that are followed show their live status; running ones are followed (re-attach).
            for (JobSummary &s : list) {
                if (const auto f = m_followed.value(s.record.id))
                    s.status = f->status;
                else if (!isFinal(s.status.state))
                    watch(s.record.id);
            }
            m_history = std::move(list);
            Q_EMIT historyChanged();
            if (m_historyAgain) {
                m_historyAgain = false;
                refreshHistory();
            }
        });
}

Task JobService::plan(const JobSpec &spec, PlanDone done)
{
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    struct Result {
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
    };
    return runTask(
        this,
        [runner, spec](TaskControl &) {
            Result r;
            JobManager(runner).plan(spec, &r.plan, &r.problems, &r.error);
            return r;
        },
        [done](Result r) { done(r.plan, r.problems, r.error); });
}

void JobService::launch(const LaunchPlan &plan)
{
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    runTask(
        this,
        [runner, plan](TaskControl &) {
            QString error;
            JobManager(runner).launch(plan, &error);
            return error;
        },
        [this, id = plan.record.id](const QString &error) {
            if (!error.isEmpty()) {
                Q_EMIT launchFailed(error);
                return;
            }
            watch(id);
            refreshHistory();
            Q_EMIT launched(id);
        });
}

void JobService::stop(const QString &id, bool force)
{
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    struct Result {
        JobManager::StopResult result;
        QString message;
    };
    runTask(
        this,
        [runner, id, force](TaskControl &) {
            Result r;
            r.result = JobManager(runner).stop(id, force, &r.message);
            return r;
        },
        [this, id](Result r) {
            Q_EMIT stopAnswered(id, r.message, r.result != JobManager::StopResult::Failed);
            pollOne(id);
        });
}

Task JobService::previewRemove(const QString &id, bool withOutputs, std::function<void(const RemovePreview &)> done)
{
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    return runTask(
        this, [runner, id, withOutputs](TaskControl &) { return JobManager(runner).previewRemove(id, withOutputs); },
        [done](RemovePreview p) { done(p); });
}

void JobService::remove(const QString &id, bool withOutputs)
{
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    runTask(
        this,
        [runner, id, withOutputs](TaskControl &) {
            QString error;
            JobManager(runner).remove(id, withOutputs, &error);
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

void JobService::watch(const QString &id)
{
    if (m_followed.contains(id))
        return;
    auto f = std::make_shared<Followed>();
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
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    return runTask(
        this,
        [runner, id](TaskControl &) {
            QString error;
            return JobManager(runner).summary(id, true, &error).metrics;
        },
        [done](QVector<MetricPoint> m) { done(m); });
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
    std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
    struct Result {
        JobFollower::Update update;
        JobStatus status;
        QList<int> ranks;
        bool loaded = true;
        std::shared_ptr<JobFollower> follower;
    };
    std::shared_ptr<JobFollower> follower = f->follower;
    f->task = runTask(
        this,
        [runner, id, follower](TaskControl &) {
            Result r;
            r.follower = follower;
            if (!r.follower) {
                JobRecordFile record;
                QString error;
                if (!JobManager(runner).load(id, &record, &error)) {
                    r.loaded = false;
                    return r;
                }
                r.follower = std::make_shared<JobFollower>(runner, record);
            }
            r.update = r.follower->poll();
            r.status = r.follower->status();
            r.ranks = r.follower->ranks();
            return r;
        },
        [this, id, f](Result r) {
            f->polling = false;
            if (m_followed.value(id) != f)
                return;  // removed meanwhile
            if (!r.loaded) {
                m_followed.remove(id);
                return;
            }
            f->follower = r.follower;
            const bool wasFinal = isFinal(f->status.state) && f->status.endedAt > 0;
            f->status = r.status;
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
                const JobSummary s{r.follower->record(), f->status, {}};
                std::shared_ptr<JobRunner> runner = m_manager->sharedRunner();
                runTask(this, [runner, s](TaskControl &) { JobManager(runner).saveSummary(s); },
                        [this]() { refreshHistory(); });
            }
        });
}

}  // namespace ingot
