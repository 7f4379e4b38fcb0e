#include "services/jobs/jobfollower.h"
#include "services/jobs/jobfollower_p.h"

#include "services/jobs/jobmanager.h"
#include "services/jobs/jobrunner.h"
#include "services/jobs/jobstaterule.h"
#include "services/jobs/torchtitanjob.h"
#include "services/jobs/trainerlog.h"
#include "services/slurm/slurmcluster.h"
#include "services/slurm/slurmparse.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ingot {

using namespace follower;

namespace {

struct JobMonitorText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobMonitor)
};

const QByteArray metricPrefix = "INGOT_METRIC ";
const QByteArray eventPrefix = "INGOT_EVENT ";
const QByteArray backendErrorPrefix = "ingot_train: error: ";

double nowSeconds()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

double num(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : MetricPoint::none;
}

// The last "SomeError: words" line of the last traceback in `text`, and the traceback.
bool lastTraceback(const QByteArray &text, QString *line, QString *detail)
{
    const int at = text.lastIndexOf("Traceback (most recent call last):");
    if (at < 0)
        return false;
    const QByteArray tb = text.mid(at);
    const QList<QByteArray> lines = tb.split('\n');
    static const QRegularExpression exc(QStringLiteral("^[A-Za-z_][\\w.]*(Error|Exception|Interrupt|Exit)\\b.*"));
    for (const QByteArray &l : lines) {
        const QString s = QString::fromUtf8(l).trimmed();
        if (exc.match(s).hasMatch())
            *line = s;  // the last match: a chained traceback's final exception
    }
    if (line->isEmpty())
        *line = QString::fromUtf8(lines.value(lines.size() - 1).trimmed().isEmpty() ? lines.value(lines.size() - 2)
                                                                                  : lines.last()).trimmed();
    *detail = QString::fromUtf8(tb.right(8000));
    return true;
}

// Ingot's own reasons: stored in English with their code and arguments, translated when shown.
struct ReasonText {
    const char *code;
    const char *text;
};
constexpr ReasonText reasonTexts[] = {
    {"stopped_at_step", QT_TRANSLATE_NOOP("ingot::JobMonitor", "Stopped at step %1 (%2); checkpoint: %3")},
    {"killed_after_stop", QT_TRANSLATE_NOOP("ingot::JobMonitor", "Killed after Stop (no checkpoint was written by this stop)")},
    {"stopped_exit_status", QT_TRANSLATE_NOOP("ingot::JobMonitor", "Stopped (the launcher exited with status %1)")},
    {"not_started", QT_TRANSLATE_NOOP("ingot::JobMonitor", "The job did not start (no launcher.pid was written)")},
    {"ended_without_result",
     QT_TRANSLATE_NOOP("ingot::JobMonitor", "The job ended without a result: it was killed, or the machine restarted")},
    {"launcher_exit_status", QT_TRANSLATE_NOOP("ingot::JobMonitor", "The launcher exited with status %1")},
    {"slurm_timeout", QT_TRANSLATE_NOOP("ingot::JobMonitor", "Slurm ended it at its time limit (%1); last checkpoint: %2")},
    {"slurm_node_fail", QT_TRANSLATE_NOOP("ingot::JobMonitor", "A node of the job failed (%1): Slurm ended it")},
    {"slurm_out_of_memory", QT_TRANSLATE_NOOP("ingot::JobMonitor", "Out of memory: Slurm ended it")},
    {"slurm_cancelled", QT_TRANSLATE_NOOP("ingot::JobMonitor", "Cancelled outside Ingot (scancel)")},
    {"slurm_preempted", QT_TRANSLATE_NOOP("ingot::JobMonitor", "Preempted by Slurm")},
    {"slurm_not_submitted", QT_TRANSLATE_NOOP("ingot::JobMonitor", "The job was not submitted to Slurm (no slurm_job_id)")},
    {"precompile_failed",
     QT_TRANSLATE_NOOP("ingot::JobMonitor", "The precompile (neuron_parallel_compile) failed with status %1: the training was not started")},
    {"slurm_precompile_failed",
     QT_TRANSLATE_NOOP("ingot::JobMonitor", "The precompile (Slurm job %1) failed (%2): the training was not started")},
};
const char *const tokenizerWarning = QT_TRANSLATE_NOOP("ingot::JobMonitor", "The data is tokenized as bytes: %1");

// %1..%9 replaced in one pass (an argument holding "%2" stays as it is).
QString fillIn(const QString &text, const QStringList &args)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        const int n = c == QLatin1Char('%') && i + 1 < text.size() ? text.at(i + 1).digitValue() : -1;
        if (n >= 1 && n <= args.size()) {
            out += args.at(n - 1);
            ++i;
        } else {
            out += c;
        }
    }
    return out;
}

const ReasonText *findReason(const QString &code)
{
    for (const ReasonText &r : reasonTexts)
        if (code == QLatin1String(r.code))
            return &r;
    return nullptr;
}

}  // namespace

void follower::setReason(JobStatus &st, const char *code, const QStringList &args)
{
    st.reasonCode = QLatin1String(code);
    st.reasonArgs = args;
    st.reason = fillIn(QString::fromLatin1(findReason(st.reasonCode)->text), args);
}

QString jobReasonText(const JobStatus &s)
{
    if (const ReasonText *r = findReason(s.reasonCode))
        return fillIn(QCoreApplication::translate("ingot::JobMonitor", r->text), s.reasonArgs);
    return s.reason;
}

QString jobWarningText(const QString &warning)
{
    const QString english = QString::fromLatin1(tokenizerWarning);
    const QString prefix = english.left(english.indexOf(QLatin1String("%1")));
    if (warning.startsWith(prefix))
        return QCoreApplication::translate("ingot::JobMonitor", tokenizerWarning).arg(warning.mid(prefix.size()));
    return warning;
}

QString jobStateName(JobState s)
{
    switch (s) {
    case JobState::Starting: return QStringLiteral("starting");
    case JobState::Compiling: return QStringLiteral("compiling");
    case JobState::Running: return QStringLiteral("running");
    case JobState::Saving: return QStringLiteral("saving");
    case JobState::Stopping: return QStringLiteral("stopping");
    case JobState::Finished: return QStringLiteral("finished");
    case JobState::Failed: return QStringLiteral("failed");
    case JobState::Stopped: return QStringLiteral("stopped");
    case JobState::Pending: return QStringLiteral("pending");
    case JobState::Stalled: return QStringLiteral("stalled");
    }
    return {};
}

QString jobStateTitle(JobState s)
{
    switch (s) {
    case JobState::Starting: return JobMonitorText::tr("Starting");
    case JobState::Compiling: return JobMonitorText::tr("Compiling / first step");
    case JobState::Running: return JobMonitorText::tr("Running");
    case JobState::Saving: return JobMonitorText::tr("Saving a checkpoint");
    case JobState::Stopping: return JobMonitorText::tr("Stopping");
    case JobState::Finished: return JobMonitorText::tr("Finished");
    case JobState::Failed: return JobMonitorText::tr("Failed");
    case JobState::Stopped: return JobMonitorText::tr("Stopped");
    case JobState::Pending: return JobMonitorText::tr("Pending (Slurm)");
    case JobState::Stalled: return JobMonitorText::tr("Stalled (no step)");
    }
    return {};
}

bool isFinal(JobState s)
{
    return s == JobState::Finished || s == JobState::Failed || s == JobState::Stopped;
}

double JobStatus::elapsed(double now) const
{
    if (startedAt <= 0)
        return 0;
    return std::max(0.0, (endedAt > 0 ? endedAt : now) - startedAt);
}

double JobStatus::runSeconds(double now) const
{
    return slurm.runSeconds >= 0 ? double(slurm.runSeconds) : elapsed(now);
}


JobFollower::JobFollower(std::shared_ptr<JobRunner> runner, JobRecordFile record, RunnerLookup lookup)
    : m_runner(std::move(runner)), m_record(std::move(record)), m_lookup(std::move(lookup)),
      m_trainer(std::make_unique<TrainerLogParser>())
{
    for (int k = 1; k < m_record.nodes.size(); ++k)
        m_nodes << std::make_shared<Node>();
    // A Slurm job's nodes write into the same shared job folder: node K's in node-K, read through this runner.
    for (int k = 1; m_record.spec.slurm.enabled && k < m_record.spec.nnodes; ++k) {
        auto n = std::make_shared<Node>();
        n->runner = m_runner;
        n->paths = JobPaths{nodeFolder(m_runner->jobsRoot(), m_record.id, k)};
        n->pidsKnown = true;  // no launcher.pid: the scheduler says whether it runs
        m_nodes << n;
    }
    m_paths.root = m_runner->jobsRoot() + QLatin1Char('/') + m_record.id;
    m_status.startedAt = double(m_record.createdMs) / 1000.0;
    m_status.worldSize = m_record.spec.worldSize();
    m_status.dataParallel = m_record.spec.dataParallel();
    m_status.tensorParallel = m_record.spec.tensorParallel;
    m_status.pipelineParallel = m_record.spec.pipelineParallel;
    m_status.maxSteps = m_record.spec.maxSteps > 0 ? m_record.spec.maxSteps : -1;
    auto launcher = std::make_shared<Stream>();
    launcher->path = m_paths.launcherLog();
    m_streams << launcher;
}

JobFollower::~JobFollower() = default;

QList<int> JobFollower::ranks() const
{
    QList<int> r;
    for (const auto &s : m_streams)
        if (s->rank >= 0 && !r.contains(s->rank))
            r << s->rank;
    std::sort(r.begin(), r.end());
    return r;
}

QVector<LauncherPids> JobFollower::nodePids() const
{
    QVector<LauncherPids> out{m_status.pids};
    for (const auto &n : m_nodes)
        out << n->pids;
    return out;
}

JobRunner *JobFollower::nodeRunner(int node)
{
    if (node == 0)
        return m_runner.get();
    Node &n = *m_nodes.at(node - 1);
    if (!n.runner && m_lookup && m_polls >= n.lookupAfterPoll) {
        QString error;
        n.runner = m_lookup(m_record.nodes.at(node), &error);
        n.lookupAfterPoll = m_polls + 20;  // not every poll: finding a host that is down takes a while
        if (n.runner)
            n.paths = JobPaths{nodeFolder(n.runner->jobsRoot(), m_record.id, node)};
    }
    return n.runner.get();
}

// Whether a process of another node still runs (a node that cannot be checked does not count).
bool JobFollower::otherNodesAlive()
{
    bool alive = false;
    for (int k = 1; k <= m_nodes.size(); ++k) {
        JobRunner *runner = nodeRunner(k);
        Node &n = *m_nodes.at(k - 1);
        if (!runner)
            continue;
        if (!n.pidsKnown) {
            const FileChunk pids = runner->readFile(n.paths.pidFile(), 0, 1 << 16);
            n.pidsKnown = pids.exists && parseLauncherPids(pids.data, &n.pids);
        }
        if (n.pidsKnown)
            alive = alive || runner->processState(n.pids.wrapper) == ProcessState::Running
                || runner->processState(n.pids.launcher) == ProcessState::Running;
    }
    return alive;
}

QString JobFollower::rankLog(int rank, bool isStderr) const
{
    for (const auto &s : m_streams)
        if (s->rank == rank && s->isStderr == isStderr)
            return s->path;
    return {};
}

void JobFollower::discoverRankLogs()
{
    // torchrun --log_dir logs --redirects 3: logs/<run id>_<random>/attempt_<n>/<local rank>/{stdout,stderr}.log.
    // With restarts there are several attempts: follow the last one. Node k's local rank r is global rank
    // k * nproc_per_node + r (torchrun's static rendezvous).
    static const QRegularExpression re(QStringLiteral("^[^/]+/attempt_(\\d+)/(\\d+)/(stdout|stderr)\\.log$"));
    for (int node = 0; node <= m_nodes.size(); ++node) {
        JobRunner *runner = nodeRunner(node);
        if (!runner)
            continue;
        const QString logsDir = node == 0 ? m_paths.logsDir() : m_nodes.at(node - 1)->paths.logsDir();
        const QStringList files = runner->listFiles(logsDir, 3);
        int lastAttempt = -1;
        for (const QString &f : files) {
            const auto m = re.match(f);
            if (m.hasMatch())
                lastAttempt = std::max(lastAttempt, m.captured(1).toInt());
        }
        for (const QString &f : files) {
            const auto m = re.match(f);
            if (!m.hasMatch() || m.captured(1).toInt() != lastAttempt)
                continue;
            const QString path = logsDir + QLatin1Char('/') + f;
            bool known = false;
            for (const auto &s : m_streams)
                known = known || (s->node == node && s->path == path);
            if (known)
                continue;
            auto s = std::make_shared<Stream>();
            s->node = node;
            s->rank = node * std::max(1, m_record.spec.nprocPerNode) + m.captured(2).toInt();
            s->isStderr = m.captured(3) == QLatin1String("stderr");
            s->path = path;
            s->parse = s->rank == 0;
            m_streams << s;
        }
    }
    // Each rank's stderr is read before its stdout: a Trainer's dict (stdout) takes its step from the progress bar
    // (stderr) written before it, so the bar must not be read later than the dict. Listing order (a host's find
    // gives directory order) must not decide that.
    std::stable_sort(m_streams.begin(), m_streams.end(), [](const auto &a, const auto &b) {
        return a->rank != b->rank ? a->rank < b->rank : a->isStderr && !b->isStderr;
    });
}

JobFollower::Update JobFollower::poll(qint64 maxBytesPerFile)
{
    Update u;
    const JobStatus before = m_status;
    const bool catchingUp = m_catchingUp;
    // Liveness first: whatever the job wrote before it ended is on disk by now, so reading after this sees all.
    if (!m_pidsKnown) {
        const FileChunk pids = m_runner->readFile(m_paths.pidFile(), 0, 1 << 16);
        if (pids.exists && parseLauncherPids(pids.data, &m_status.pids))
            m_pidsKnown = true;
    }
    bool wrapperAlive = false;
    ProcessState wrapper = ProcessState::Unknown;
    const bool slurm = m_record.spec.slurm.enabled;
    if (slurm) {
        const int answer = pollScheduler();
        wrapper = answer < 0 ? ProcessState::Unknown : answer > 0 ? ProcessState::Running : ProcessState::Gone;
        // A scheduler that does not answer concludes nothing: the job is taken as still there until it does.
        wrapperAlive = answer != 0;
    } else if (m_pidsKnown) {
        wrapper = m_runner->processState(m_status.pids.wrapper);
        wrapperAlive = wrapper == ProcessState::Running
            || m_runner->processState(m_status.pids.launcher) == ProcessState::Running;
    }
    // The host cannot be reached: nothing is concluded (the job goes on there); the next poll that reaches it
    // reads on from the same offsets.
    const QString unreachable = m_runner->unreachable();
    if (!unreachable.isEmpty() && (wrapper == ProcessState::Unknown || (!m_pidsKnown && !slurm))) {
        u.statusChanged = m_status.unreachable != unreachable;
        m_status.unreachable = unreachable;
        return u;
    }
    m_status.unreachable.clear();
    if (!m_nodes.isEmpty() && !slurm)
        wrapperAlive = otherNodesAlive() || wrapperAlive;
    const FileChunk stop = m_runner->readFile(m_paths.stopFile(), 0, 4096);
    m_status.stopRequested = stop.exists;

    if (m_streams.size() < 1 + 2 * m_status.worldSize || m_polls % 20 == 0)
        discoverRankLogs();
    ++m_polls;
    for (const auto &s : m_streams) {
        readStream(*s, maxBytesPerFile, &u);
    }
    const QVector<MetricPoint> trainerPoints = m_trainer->takeMetrics();
    for (const MetricPoint &p : trainerPoints) {
        m_metrics << p;
        u.metrics << p;
        m_status.step = std::max(m_status.step, p.step);
        if (!std::isnan(p.loss))
            m_status.lastLoss = p.loss;
        if (!std::isnan(p.tokensPerSecond))
            m_status.tokensPerSecond = p.tokensPerSecond;
        if (p.peakMemory >= 0)
            m_status.peakMemory = p.peakMemory;
    }
    dropOldMetrics();
    if (slurm && slurmStateIsWaiting(m_status.slurm.state) && (!m_metrics.isEmpty() || !m_lastEvent.isEmpty()))
        pollScheduler();  // it wrote its first records in this poll: the scheduler's word is asked again, not shown stale
    if (m_record.spec.program != JobProgram::Backend) {
        if (m_trainer->step() > m_status.step)
            m_status.step = m_trainer->step();
        if (m_trainer->total() > 0)
            m_status.maxSteps = m_trainer->total();
    }
    if (m_firstPoll && m_status.maxSteps <= 0)
        readTorchTitanSteps();
    m_firstPoll = false;
    m_status.alive = wrapperAlive;
    if (m_status.step != before.step)
        noteStep(catchingUp);
    finishState(wrapperAlive);
    judgeStall();
    m_catchingUp = !u.caughtUp;
    if (isFinal(m_status.state) && m_record.spec.program != JobProgram::Backend && m_metrics.isEmpty()
        && !m_record.outputDir.isEmpty() && !m_readTrainerState) {
        // A script whose console had no Trainer dicts (logging turned off, or not to stdout): trainer_state.json.
        m_readTrainerState = true;
        const QString path = m_record.outputDir + QStringLiteral("/trainer_state.json");
        const FileChunk c = m_runner->readFile(path, 0, 64 << 20);
        if (c.exists && !c.error.isEmpty())
            m_unreadable << path + QStringLiteral(": ") + c.error;
        if (const auto state = c.exists ? parseTrainerState(c.data) : std::nullopt) {
            m_metrics = state->points;
            u.metrics = state->points;
            if (state->maxSteps > 0)
                m_status.maxSteps = state->maxSteps;
            if (!m_metrics.isEmpty())
                m_status.lastLoss = m_metrics.last().loss;
        }
    }
    u.statusChanged = m_status.state != before.state || m_status.step != before.step || m_status.reason != before.reason
        || m_status.unreachable != before.unreachable
        || m_status.alive != before.alive || m_status.stacksReady() != before.stacksReady() || m_status.stopRequested != before.stopRequested || !u.metrics.isEmpty();
    return u;
}

// A TorchTitan run's [training] steps (torchtitanjob.h) for the progress and the ETA: it draws no bar to count from.
void JobFollower::readTorchTitanSteps()
{
    std::optional<TorchTitanJob> titan = torchTitanJob(m_record.spec);
    if (titan && readTorchTitanJob(*m_runner, m_record, &*titan, nullptr) && titan->steps > 0)
        m_status.maxSteps = titan->steps;
}

void JobFollower::dropOldMetrics()
{
    constexpr qsizetype kept = 20;  // what the ETA looks at
    if (!m_keepMetrics && m_metrics.size() > 4 * kept)
        m_metrics.remove(0, m_metrics.size() - kept);
}

void JobFollower::readStream(Stream &s, qint64 max, Update *u)
{
    JobRunner *runner = nodeRunner(s.node);
    if (!runner || (!m_keepLogs && s.rank >= 0 && !s.isStderr && !s.parse))
        return;
    const FileChunk c = runner->readFile(s.path, s.offset, max);
    s.modified = std::max(s.modified, c.modified);
    if (s.isStderr && s.rank >= 0 && s.offset == 0 && !s.faulthandler)  // its first lines: once per rank
        s.faulthandler = c.data.left(64 << 10).contains(faulthandlerLine);
    if (s.node == 0)
        m_lastWrite = std::max(m_lastWrite, c.modified);  // when the job ended, if it left no exit status
    if (c.exists && !c.error.isEmpty()) {
        const QString problem = s.path + QStringLiteral(": ") + c.error;
        if (!m_unreadable.contains(problem))
            m_unreadable << problem;
    }
    if (!c.exists || c.data.isEmpty())
        return;
    s.offset += c.data.size();
    s.lastBytes = c.data.size() >= checkBytes ? c.data.right(checkBytes) : QByteArray(s.lastBytes + c.data).right(checkBytes);
    if (c.size > s.offset)
        u->caughtUp = false;
    if (m_keepLogs)
        u->logs.append({s.rank, s.isStderr, c.data});
    if (s.isStderr || s.rank < 0) {
        s.tail += c.data;
        if (s.tail.size() > tailKeep)
            s.tail.remove(0, s.tail.size() - tailKeep);
    }
    if (!s.parse && s.rank >= 0)
        return;
    if (s.parse && m_record.spec.program != JobProgram::Backend) {
        // A user script: rank 0's stdout and stderr through one Trainer parser (tqdm's step on stderr numbers the
        // dicts on stdout). Times are when Ingot read the bytes; what a re-attach reads at once has no time.
        const double time = m_firstPoll ? MetricPoint::none : nowSeconds() - m_status.startedAt;
        m_trainer->feed(c.data, time, s.isStderr ? TrainerLogParser::Stderr : TrainerLogParser::Stdout);
    }
    QByteArray data = s.partial + c.data;
    int start = 0;
    for (;;) {
        const int nl = data.indexOf('\n', start);
        if (nl < 0)
            break;
        onLine(s, data.mid(start, nl - start), u);
        start = nl + 1;
    }
    s.partial = data.mid(start);
    if (s.partial.size() > maxLine)
        s.partial.truncate(maxLine);  // the rest of an endless line is not a record
}

void JobFollower::onLine(Stream &s, const QByteArray &line, Update *u)
{
    if (s.rank != 0 || s.isStderr)
        return;
    const bool metric = line.startsWith(metricPrefix);
    if (!metric && !line.startsWith(eventPrefix))
        return;
    const QJsonDocument doc = QJsonDocument::fromJson(line.mid(metric ? metricPrefix.size() : eventPrefix.size()));
    if (!doc.isObject())
        return;
    if (metric)
        onMetric(doc.object(), u);
    else
        onEvent(doc.object());
}

void JobFollower::onEvent(const QJsonObject &o)
{
    const QString name = o.value(QLatin1String("event")).toString();
    m_lastEvent = name;
    if (name == QLatin1String("started")) {
        m_status.maxSteps = qint64(num(o, "max_steps"));
        m_status.worldSize = o.value(QLatin1String("world_size")).toInt(m_status.worldSize);
        m_status.dataParallel = o.value(QLatin1String("data_parallel")).toInt(m_status.dataParallel);
        m_status.tensorParallel = o.value(QLatin1String("tensor_parallel")).toInt(m_status.tensorParallel);
        m_status.pipelineParallel = o.value(QLatin1String("pipeline_parallel")).toInt(m_status.pipelineParallel);
        m_status.parameters = qint64(o.value(QLatin1String("parameters")).toDouble());
        m_status.device = o.value(QLatin1String("device")).toString();
        m_status.step = o.value(QLatin1String("resumed_from")).toInt();
        const QString warning = o.value(QLatin1String("tokenizer_warning")).toString();
        if (!warning.isEmpty())
            m_status.warnings << fillIn(QString::fromLatin1(tokenizerWarning), {warning});  // English: files stay so
    } else if (name == QLatin1String("saving")) {
        m_sawMetricAfterSave = false;
        m_status.lastCheckpoint = o.value(QLatin1String("path")).toString();
    } else if (name == QLatin1String("stopped")) {
        m_stoppedEvent = o.value(QLatin1String("signal")).toString();
        m_status.step = o.value(QLatin1String("step")).toInt(int(m_status.step));
        m_status.lastCheckpoint = o.value(QLatin1String("checkpoint")).toString();
    } else if (name == QLatin1String("failed")) {
        m_failedEventReason = o.value(QLatin1String("reason")).toString();
    } else if (name == QLatin1String("finished")) {
        m_finishedEvent = true;
        m_status.step = o.value(QLatin1String("step")).toInt(int(m_status.step));
        const double loss = num(o, "loss");
        if (!std::isnan(loss))
            m_status.lastLoss = loss;
        m_status.peakMemoryPerRank.clear();
        for (const QJsonValue &v : o.value(QLatin1String("peak_memory_per_rank")).toArray())
            m_status.peakMemoryPerRank << qint64(v.toDouble(-1));
    }
}

void JobFollower::onMetric(const QJsonObject &o, Update *u)
{
    MetricPoint p;
    p.step = qint64(num(o, "step"));
    const double t = num(o, "time");
    p.time = std::isnan(t) ? MetricPoint::none : t - m_status.startedAt;
    p.loss = num(o, "loss");
    p.learningRate = num(o, "learning_rate");
    p.gradNorm = num(o, "grad_norm");
    p.tokensPerSecond = num(o, "tokens_per_second");
    p.stepTime = num(o, "step_time");
    p.epoch = num(o, "epoch");
    const double mem = num(o, "peak_memory");
    p.peakMemory = std::isnan(mem) ? -1 : qint64(mem);
    m_metrics << p;
    dropOldMetrics();
    u->metrics << p;
    m_lastEvent = QStringLiteral("metric");
    m_sawMetricAfterSave = true;
    m_status.step = p.step;
    m_status.lastLoss = p.loss;
    m_status.tokensPerSecond = p.tokensPerSecond;
    m_status.peakMemory = p.peakMemory;
}

void JobFollower::finishState(bool alive)
{
    JobStatus &st = m_status;
    if (!m_record.precompileArgv.isEmpty() && st.precompileExit < 0) {
        const FileChunk c = m_runner->readFile(m_paths.precompilePhase().exitFile(), 0, 64);
        bool ok = false;
        const int code = c.exists ? QString::fromLatin1(c.data.trimmed()).toInt(&ok) : -1;
        st.precompileExit = ok && code >= 0 ? code : -1;
    }
    updateEta();
    JobStateFacts facts = gatherFacts(alive);
    double exitWritten = 0;
    if (endToJudge(facts)) {
        const FileChunk exit = m_runner->readFile(m_paths.exitFile(), 0, 64);
        bool ok = false;
        const int code = exit.exists ? QString::fromLatin1(exit.data.trimmed()).toInt(&ok) : -1;
        facts.exitStatus = ok ? code : -1;
        exitWritten = exit.exists ? exit.modified : 0;
        facts.logs = failureWords();
        if (!m_record.precompileArgv.isEmpty() || m_record.spec.slurm.precompile) {
            const QString log = m_paths.precompilePhase().launcherLog();
            const qint64 tail = 64 << 10;
            const qint64 size = m_runner->readFile(log, 0, 0).size;
            facts.precompileLog = m_runner->readFile(log, std::max<qint64>(0, size - tail), tail).data;
        }
    }
    const JobVerdict v = jobStateRule(facts);
    st.state = v.state;
    if (alive)
        st.endedAt = 0;
    if (!v.judged)
        return;
    // The end is when the wrapper recorded the exit status; without one (killed, the machine restarted), the last
    // time the job wrote a log. Never "now": a job read long after it ended keeps its real duration.
    double end = exitWritten > 0 ? exitWritten : m_lastWrite;
    if (end <= 0)
        end = nowSeconds();
    st.endedAt = std::max(st.startedAt, std::min(end, nowSeconds()));
    st.exitStatus = facts.exitStatus;
    if (v.reasonCode) {
        setReason(st, v.reasonCode, v.reasonArgs);
    } else {
        st.reasonCode.clear();
        st.reasonArgs.clear();
        st.reason = v.reason;
    }
    st.reasonDetail = v.reasonDetail;
    st.reasonRank = v.reasonRank;
}

// ETA from the recent pace (the last 20 points with a time).
void JobFollower::updateEta()
{
    JobStatus &st = m_status;
    st.etaSeconds = MetricPoint::none;
    if (st.maxSteps > 0 && m_metrics.size() >= 2) {
        const int n = int(m_metrics.size());
        const MetricPoint &a = m_metrics.at(std::max(0, n - 20)), &b = m_metrics.at(n - 1);
        if (!std::isnan(a.time) && !std::isnan(b.time) && b.step > a.step)
            st.etaSeconds = (b.time - a.time) / double(b.step - a.step) * double(st.maxSteps - b.step);
        else if (!std::isnan(b.stepTime))
            st.etaSeconds = b.stepTime * double(st.maxSteps - b.step);
    }
}

// What the state rule needs that was read before this point: the processes, the events, the stop request, the
// scheduler. The end's files are read only when the rule will judge the end (finishState).
JobStateFacts JobFollower::gatherFacts(bool alive) const
{
    const JobStatus &st = m_status;
    JobStateFacts f;
    f.alive = alive;
    f.slurm = m_record.spec.slurm.enabled;
    f.pidsKnown = m_pidsKnown;
    f.sinceCreated = nowSeconds() - st.startedAt;
    f.previous = st.state;
    f.previousEnded = st.endedAt > 0;
    f.wroteMetrics = !m_metrics.isEmpty();
    f.trainerStepped = m_record.spec.program != JobProgram::Backend && m_trainer->step() > 0;
    f.lastEvent = m_lastEvent;
    f.metricSinceSave = m_sawMetricAfterSave;
    f.finishedEvent = m_finishedEvent;
    f.stoppedSignal = m_stoppedEvent;
    f.failedWords = m_failedEventReason;
    f.step = st.step;
    f.lastCheckpoint = st.lastCheckpoint;
    f.stopRequested = st.stopRequested;
    f.precompileExit = st.precompileExit;
    f.slurmJob = st.slurm;
    f.precompileJob = st.precompile;
    return f;
}

FailureWords JobFollower::failureWords() const
{
    FailureWords w;
    // 1. torchrun's error files (a worker that used @record): the first failing rank by timestamp.
    const QStringList files = m_runner->listFiles(m_paths.logsDir(), 3);
    double firstTime = 0;
    for (const QString &f : files) {
        if (!f.endsWith(QLatin1String("/error.json")))
            continue;
        const FileChunk c = m_runner->readFile(m_paths.logsDir() + QLatin1Char('/') + f, 0, 1 << 20);
        const QJsonObject o = QJsonDocument::fromJson(c.data).object();
        const QJsonValue m = o.value(QLatin1String("message"));
        QString message, detail;
        double time = 0;
        if (m.isObject()) {
            message = m.toObject().value(QLatin1String("message")).toString();
            const QJsonObject extra = m.toObject().value(QLatin1String("extraInfo")).toObject();
            detail = extra.value(QLatin1String("py_callstack")).toString();
            time = extra.value(QLatin1String("timestamp")).toVariant().toDouble();
        } else {
            message = m.toString();
        }
        if (message.isEmpty() || (firstTime > 0 && time >= firstTime))
            continue;
        firstTime = time > 0 ? time : 1;
        w.reason = message.trimmed();
        w.detail = detail.right(8000);
        const QStringList parts = f.split(QLatin1Char('/'));
        w.rank = parts.size() >= 3 ? parts.at(parts.size() - 2).toInt() : -1;
    }
    if (!w.reason.isEmpty())
        return w;
    // 2. The backend's own words (bad settings, data): "ingot_train: error: ..." on a rank's stderr.
    // 3. The last traceback of the first rank that has one.
    for (const auto &s : m_streams) {
        if (!s->isStderr || s->rank < 0)
            continue;
        QStringList words;
        for (const QByteArray &l : s->tail.split('\n'))
            if (l.startsWith(backendErrorPrefix))
                words << QString::fromUtf8(l.mid(backendErrorPrefix.size())).trimmed();
        if (!words.isEmpty()) {
            w.reason = words.join(QLatin1String("; "));
            w.rank = s->rank;
            return w;
        }
    }
    for (const auto &s : m_streams) {
        if (!s->isStderr || s->rank < 0)
            continue;
        if (lastTraceback(s->tail, &w.reason, &w.detail)) {
            w.rank = s->rank;
            return w;
        }
    }
    // 4. torchrun itself (a Python without torch, a port in use, ...).
    for (const auto &s : m_streams) {
        if (s->rank >= 0)
            continue;
        QString line, detail;
        if (lastTraceback(s->tail, &line, &detail)) {
            w.reason = line;
            w.detail = detail;
        } else if (!s->tail.trimmed().isEmpty()) {
            const QList<QByteArray> lines = s->tail.trimmed().split('\n');
            w.reason = QString::fromUtf8(lines.last()).trimmed();
            w.detail = QString::fromUtf8(s->tail.right(4000));
        }
    }
    return w;
}

}  // namespace ingot
