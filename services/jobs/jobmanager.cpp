#include "services/jobs/jobmanager.h"
#include "services/jobs/torchtitanjob.h"
#include "services/jobs/remotejobindex.h"

#include "services/util/atomicfile.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QRegularExpression>
#include <QSet>
#include <QThread>

#include <cmath>
#include <csignal>

namespace ingot {

namespace {

struct JobManagerText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobManager)
};

double nowSeconds()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

// The Python a job uses when none is chosen: the first detected one that imports torch.
QString defaultPython(JobRunner &runner)
{
    for (const PythonInfo &p : detectedPythons(runner))
        if (p.usable())
            return p.path;
    return {};
}

QString outputDirFromArgs(const QStringList &args)
{
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if ((a == QLatin1String("--output_dir") || a == QLatin1String("--output-dir")) && i + 1 < args.size())
            return args.at(i + 1);
        if (a.startsWith(QLatin1String("--output_dir=")) || a.startsWith(QLatin1String("--output-dir=")))
            return a.mid(a.indexOf(QLatin1Char('=')) + 1);
    }
    return {};
}

}  // namespace

QVector<PythonInfo> detectedPythons(JobRunner &runner, const std::atomic_bool *stop)
{
    // Asked once a process and runner (each probe imports torch: seconds); the launcher's list and the
    // "automatic" choice of a plan share the answer. An interrupted detection is not kept.
    static QMutex mutex;
    static QHash<QString, QVector<PythonInfo>> found;
    QMutexLocker lock(&mutex);
    const auto it = found.constFind(runner.where());
    if (it != found.cend())
        return *it;
    const QVector<PythonInfo> pythons = runner.detectPythons(stop);
    if (!(stop && stop->load()))
        found.insert(runner.where(), pythons);
    return pythons;
}

JobManager::JobManager(std::shared_ptr<JobRunner> runner, RunnerLookup lookup)
    : m_runner(std::move(runner)), m_lookup(std::move(lookup))
{
}

CacheLocation JobManager::compileCache(const JobSpec &spec) const
{
    CacheLocation loc = spec.compileCacheLocation(m_runner->neuronEnvironment(), m_runner->homeDir());
    if (m_runner->where() != QLatin1String("local")) {
        loc.where = m_runner->describe();
        loc.explanation = JobManagerText::tr("On %1: %2").arg(displayName(loc.where), loc.explanation);
    }
    return loc;
}

QString JobManager::latestCheckpoint(const JobRecordFile &r, bool *outputExists) const
{
    if (const std::optional<TorchTitanJob> titan = torchTitanJob(r.spec))
        return latestTorchTitanCheckpoint(*m_runner, r, *titan, outputExists);
    static const QRegularExpression name(QStringLiteral("^checkpoint-(\\d+)$"));
    const QString out = r.outputDir;
    const QStringList files = out.isEmpty() ? QStringList() : m_runner->listFiles(out, 2);
    if (outputExists)
        *outputExists = !files.isEmpty() || (!out.isEmpty() && m_runner->pathInfo(out).exists);
    QString best;
    qint64 bestStep = -1;
    for (const QString &rel : files) {
        const QString top = rel.section(QLatin1Char('/'), 0, 0);
        const QRegularExpressionMatch m = name.match(top);
        if (m.hasMatch() && rel.contains(QLatin1Char('/')) && m.captured(1).toLongLong() > bestStep) {
            bestStep = m.captured(1).toLongLong();
            best = out + QLatin1Char('/') + top;
        }
    }
    return best;
}

int JobManager::consolidateThere(const QString &checkpoint, const QStringList &args, int timeoutMs, QByteArray *output,
                                 QString *error, const std::atomic_bool *stop) const
{
    return m_runner->runIngotCli(QStringList{QStringLiteral("consolidate"), checkpoint} + args, timeoutMs, output, error, stop);
}

JobPaths JobManager::paths(const QString &id) const
{
    return JobPaths{m_runner->jobsRoot() + QLatin1Char('/') + id};
}

std::shared_ptr<JobRunner> JobManager::nodeRunner(const JobRecordFile &r, int rank, QString *error) const
{
    if (rank == 0)
        return m_runner;
    if (rank >= r.nodes.size() || !m_lookup) {
        *error = JobManagerText::tr("Job %1 has no node %2 that Ingot can reach from here.").arg(r.id).arg(rank);
        return nullptr;
    }
    return m_lookup(r.nodes.at(rank), error);
}

namespace {

// The exact command of one node: torchrun (the backend's launcher) with the job's layout and rendezvous, the
// program and its arguments; the environment with the node's backend on PYTHONPATH.
void fillCommand(JobRecordFile &r, const JobPaths &p)
{
    const JobSpec &spec = r.spec;
    r.argv.clear();
    r.env.clear();
    r.argv << spec.python << QStringLiteral("-m") << QStringLiteral("ingot_train.launch")
           << QStringLiteral("--nnodes=%1").arg(spec.nnodes) << QStringLiteral("--node_rank=%1").arg(r.nodeRank)
           << QStringLiteral("--nproc_per_node=%1").arg(spec.nprocPerNode)
           << QStringLiteral("--master_addr=%1").arg(r.masterAddr) << QStringLiteral("--master_port=%1").arg(r.port)
           << QStringLiteral("--rdzv_id=%1").arg(r.id) << QStringLiteral("--log_dir=%1").arg(p.logsDir())
           << QStringLiteral("--redirects=3");
    switch (spec.program) {
    case JobProgram::Backend: r.argv << QStringLiteral("-m") << QStringLiteral("ingot_train"); break;
    case JobProgram::Module: r.argv << QStringLiteral("-m") << spec.module.trimmed(); break;
    case JobProgram::Script: r.argv << spec.script; break;
    }
    r.argv << spec.trainingArguments(r.outputDir);
    // NEURON_PROCESS_TAG: the job's Neuron runtimes carry its id, so the monitor's neuron-monitor tells them apart
    // (a value the user sets comes later and wins).
    r.env << QStringLiteral("PYTHONPATH=") + r.backendDir << QStringLiteral("PYTHONUNBUFFERED=1")
          << QStringLiteral("INGOT_JOB_ID=") + r.id << QStringLiteral("NEURON_PROCESS_TAG=") + r.id;
    for (const auto &kv : spec.exportedVariables())
        r.env << kv.first + QLatin1Char('=') + kv.second;
}

}  // namespace

bool JobManager::plan(const JobSpec &specIn, LaunchPlan *out, QVector<JobProblem> *problems, QString *error,
                      const QStringList &nodes)
{
    JobSpec spec = specIn;
    if (spec.program == JobProgram::Script && m_runner->where() == QLatin1String("local") && !spec.script.isEmpty())
        spec.script = QFileInfo(spec.script).absoluteFilePath();
    if (nodes.size() > 1) {
        if (nodes.first() != m_runner->where() || spec.nnodes != nodes.size()) {
            *error = JobManagerText::tr("A job on %1 nodes needs as many hosts, the first being %2.")
                         .arg(spec.nnodes)
                         .arg(displayName(m_runner->describe()));
            return false;
        }
        if (QSet<QString>(nodes.begin(), nodes.end()).size() != nodes.size()) {
            *error = JobManagerText::tr("Each node of a job runs on another host: a host is named twice.");
            return false;
        }
    }
    // A Slurm job's nodes are the scheduler's to allocate; other multi-node jobs need a host per node.
    const JobFacts facts = gatherJobFacts(spec, *m_runner);
    *problems = validateJob(spec, facts, spec.slurm.enabled ? maxSlurmNodes : m_runner->maxNodes());
    if (!problems->isEmpty())
        return false;
    if (spec.nnodes > 1 && nodes.size() != spec.nnodes && !spec.slurm.enabled) {
        *error = JobManagerText::tr("A job on %1 nodes needs %1 hosts (--hosts H1,H2,...).").arg(spec.nnodes);
        return false;
    }
    if (spec.python.isEmpty())
        spec.python = defaultPython(*m_runner);
    if (spec.python.isEmpty()) {
        *error = JobManagerText::tr("No Python with torch was found on %1: choose one (--python).").arg(displayName(m_runner->describe()));
        return false;
    }
    LaunchPlan p;
    JobRecordFile &r = p.record;
    r.id = newJobId();
    r.where = m_runner->where();
    r.createdMs = QDateTime::currentMSecsSinceEpoch();
    r.spec = spec;
    if (nodes.size() > 1) {
        r.nodes = nodes;
        r.masterAddr = m_runner->masterAddress();
    }
    p.paths = paths(r.id);
    r.cwd = p.paths.root;
    r.backendDir = m_runner->backendDir();
    r.port = m_runner->freePort({}, error);
    if (!r.port)
        return false;
    if (spec.program == JobProgram::Backend || spec.passSettings)
        r.outputDir = spec.outputDir.isEmpty() ? p.paths.defaultOutputDir() : spec.outputDir;
    else
        r.outputDir = outputDirFromArgs(spec.extraArgs);
    fillCommand(r, p.paths);
    if (spec.precompile && !spec.slurm.enabled) {
        // The precompile phase: the same command in JOB/precompile (its own logs and output folder: what a trial run
        // writes is not the training's), under neuron_parallel_compile.
        JobRecordFile first = r;
        const JobPaths phase = p.paths.precompilePhase();
        first.outputDir = phase.defaultOutputDir();
        fillCommand(first, phase);
        r.precompileArgv = QStringList{facts.neuronParallelCompile};
        if (spec.precompileParallel > 0)
            r.precompileArgv << QStringLiteral("--num_parallel") << QString::number(spec.precompileParallel);
        r.precompileArgv << first.argv;
    }
    for (int k = 1; k < r.nodes.size(); ++k) {
        const std::shared_ptr<JobRunner> runner = nodeRunner(r, k, error);
        if (!runner)
            return false;
        if (runner->pathInfo(spec.python).error.isEmpty() && !runner->pathInfo(spec.python).isExecutable) {
            *error = JobManagerText::tr("%1 is not an executable on %2 (node %3): every node runs the same Python.")
                         .arg(displayName(spec.python), displayName(runner->describe()))
                         .arg(k);
            return false;
        }
        NodePlan n;
        n.record = r;
        n.record.where = r.nodes.at(k);
        n.record.nodeRank = k;
        n.paths = JobPaths{nodeFolder(runner->jobsRoot(), r.id, k)};
        n.record.cwd = n.paths.root;
        n.record.backendDir = runner->backendDir();
        fillCommand(n.record, n.paths);
        p.otherNodes << n;
    }
    p.commandLine = commandLine(r.env, r.argv);
    if (!r.precompileArgv.isEmpty())
        p.commandLine = commandLine(r.env + QStringList{QStringLiteral("NEURON_PARALLEL_COMPILE_DUMP_RESULTS=1"),
                                                        QStringLiteral("NEURON_PARALLEL_COMPILE_MAX_RETRIES=1")},
                                    r.precompileArgv)
            + QStringLiteral(" && ") + p.commandLine;
    p.script = commandScript(r);
    p.notes = jobNotes(spec, facts);
    if (spec.slurm.enabled && !planSlurm(&p, error))
        return false;
    *out = p;
    return true;
}

bool JobManager::startNode(JobRunner &runner, const JobRecordFile &record, const JobPaths &p, QString *error)
{
    if (!runner.prepareLaunch(error) || !runner.makeFolder(p.root, error) || !runner.makeFolder(p.logsDir(), error))
        return false;
    if (!record.outputDir.isEmpty() && !runner.makeFolder(record.outputDir, error))
        return false;
    if (!runner.writeFile(p.jobJson(), record.toJson(), false, error)
        || !runner.writeFile(p.runScript(), wrapperScript(record), true, error))
        return false;
    if (!runner.startDetached(p.runScript(), p.root, error))
        return false;
    for (int i = 0; i < 100; ++i) {
        const FileChunk c = runner.readFile(p.pidFile(), 0, 1 << 16);
        LauncherPids pids;
        if (c.exists && parseLauncherPids(c.data, &pids))
            return true;
        QThread::msleep(100);
    }
    *error = JobManagerText::tr("The job's wrapper did not start within 10 s on %1 (see %2).")
                 .arg(displayName(runner.describe()), displayName(p.launcherLog()));
    return false;
}

bool JobManager::launch(const LaunchPlan &shown, QString *error)
{
    // The job starts now, when Launch is pressed, not when its preview was drawn: its records' creation time (the
    // history's time, the time in its name, its elapsed time) is taken here. The rest is the plan shown.
    LaunchPlan plan = shown;
    plan.record.createdMs = QDateTime::currentMSecsSinceEpoch();
    for (NodePlan &n : plan.otherNodes)
        n.record.createdMs = plan.record.createdMs;
    if (plan.record.spec.slurm.enabled)
        return submitSlurm(plan, error);
    // Every node's runner first, so a host that cannot be reached stops the launch before anything starts.
    QVector<std::shared_ptr<JobRunner>> runners{m_runner};
    for (const NodePlan &n : plan.otherNodes) {
        std::shared_ptr<JobRunner> runner = nodeRunner(plan.record, n.record.nodeRank, error);
        if (!runner || !runner->prepareLaunch(error))
            return false;
        runners << runner;
    }
    if (!startNode(*m_runner, plan.record, plan.paths, error))
        return false;
    for (int i = 0; i < plan.otherNodes.size(); ++i) {
        const NodePlan &n = plan.otherNodes.at(i);
        if (startNode(*runners.at(i + 1), n.record, n.paths, error))
            continue;
        *error = JobManagerText::tr("Node %1 on %2 did not start: %3").arg(n.record.nodeRank).arg(displayName(n.record.where), *error);
        // Nothing half started: the nodes already running are killed (their folders stay as the job's record).
        for (int k = 0; k <= i; ++k) {
            const JobPaths p = k == 0 ? plan.paths : plan.otherNodes.at(k - 1).paths;
            LauncherPids pids;
            if (parseLauncherPids(runners.at(k)->readFile(p.pidFile(), 0, 1 << 16).data, &pids))
                runners.at(k)->signalJobGroup(pids.wrapper.pgid, plan.record.id, SIGKILL);
        }
        return false;
    }
    return true;
}

bool JobManager::load(const QString &id, JobRecordFile *out, QString *error) const
{
    if (!isJobId(id)) {
        *error = JobManagerText::tr("\"%1\" is not a job id.").arg(displayName(id));
        return false;
    }
    const FileChunk c = m_runner->readFile(paths(id).jobJson(), 0, 4 << 20);
    if (!c.exists) {
        *error = JobManagerText::tr("No job %1 in %2.").arg(id, displayName(m_runner->jobsRoot()));
        return false;
    }
    if (!JobRecordFile::fromJson(c.data, out, error))
        return false;
    out->where = m_runner->where();  // as seen from here (a job started on its host by ingot-cli says "local")
    if (out->id != id) {
        *error = JobManagerText::tr("Job folder %1 holds the settings of job %2.").arg(id, out->id);
        return false;
    }
    return true;
}

bool JobManager::finalSummary(const QString &id, JobStatus *out) const
{
    const FileChunk c = m_runner->readFile(paths(id).file("summary.json"), 0, 1 << 20);
    if (!c.exists || !c.error.isEmpty())
        return false;
    const QJsonObject o = QJsonDocument::fromJson(c.data).object();
    if (o.value(QLatin1String("id")).toString() != id)
        return false;
    const JobStatus st = statusFromJson(o.value(QLatin1String("status")).toObject());
    if (!isFinal(st.state))
        return false;
    *out = st;
    return true;
}

JobSummary JobManager::summary(const QString &id, bool loadMetrics, QString *error)
{
    JobSummary s;
    if (!load(id, &s.record, error))
        return s;
    // A final summary is the job's record: its status is never computed again (only its metrics may be read).
    const bool ended = finalSummary(id, &s.status);
    if (ended && !loadMetrics) {
        QFile::remove(followerStateFile(s.record.where, paths(id).root));  // a running job's state, now of no use
        return s;
    }
    // Read in bounded chunks, the metrics kept only when asked for: memory does not grow with the logs. A status
    // of a running job goes on from where the last one stopped reading (its saved state), so each byte of the logs
    // is read once however often the status is asked for.
    JobFollower f(m_runner, s.record, m_lookup);
    f.setKeepMetrics(loadMetrics);
    f.setKeepLogs(false);
    const QString stateFile = loadMetrics ? QString() : followerStateFile(s.record.where, paths(id).root);
    if (!stateFile.isEmpty()) {
        QFile saved(stateFile);
        if (saved.open(QIODevice::ReadOnly) && saved.size() < (64 << 20))
            f.restoreState(saved.readAll());
    }
    for (int i = 0; i < 1000000; ++i) {
        if (f.poll(4 << 20).caughtUp)
            break;
    }
    if (loadMetrics)
        s.metrics = f.metrics();
    s.unreadable = f.unreadable();
    if (ended)
        return s;
    s.status = f.status();
    if (!stateFile.isEmpty()) {
        QString ignored;  // a cache: a state that cannot be saved means reading again next time
        if (isFinal(s.status.state))
            QFile::remove(stateFile);
        else if (QDir().mkpath(QFileInfo(stateFile).path()))
            writeFileAtomically(stateFile, f.saveState(), &ignored, true);
    }
    saveSummary(s);
    return s;
}

void JobManager::saveSummary(const JobSummary &s)
{
    // Written once, by whoever saw the end; a final summary already there is never rewritten.
    JobStatus existing;
    if (!isFinal(s.status.state) || finalSummary(s.record.id, &existing))
        return;
    QJsonObject o;
    o.insert(QStringLiteral("id"), s.record.id);
    o.insert(QStringLiteral("status"), statusToJson(s.status));
    QString error;
    m_runner->writeFile(paths(s.record.id).file("summary.json"), QJsonDocument(o).toJson(), false, &error);
}

QVector<JobSummary> JobManager::list(QStringList *warnings, const QSet<QString> &followed)
{
    QVector<JobSummary> out;
    const QStringList files = m_runner->listFiles(m_runner->jobsRoot(), 1);
    QStringList ids;
    for (const QString &f : files) {
        if (f.endsWith(QLatin1String("/job.json")) && isJobId(f.section(QLatin1Char('/'), 0, 0)))
            ids << f.section(QLatin1Char('/'), 0, 0);  // (a folder being removed is renamed aside: not a job)
    }
    std::sort(ids.begin(), ids.end(), std::greater<QString>());
    for (const QString &id : ids) {
        QString error;
        JobSummary s;
        if (followed.contains(id))
            load(id, &s.record, &error);
        else
            s = summary(id, false, &error);
        if (!error.isEmpty()) {
            if (warnings)
                *warnings << error;
            continue;
        }
        out << s;
    }
    return out;
}

JobManager::StopRequest JobManager::recordStopRequest(const JobPaths &p, bool force)
{
    const FileChunk earlier = m_runner->readFile(p.stopFile(), 0, 4096);
    StopRequest r;
    r.askedAt = jsonNumberOr(QJsonDocument::fromJson(earlier.data).object().value(QLatin1String("time")), 0);
    // Only a stop request Ingot wrote counts (not a link or a FIFO the job put there).
    r.asked = earlier.exists && earlier.error.isEmpty() && r.askedAt > 0;
    r.kill = force || (r.asked && nowSeconds() - r.askedAt >= stopGraceSeconds);
    const QJsonObject o{{QStringLiteral("time"), r.asked ? r.askedAt : nowSeconds()},
                        {QStringLiteral("mode"), r.kill ? QStringLiteral("kill") : QStringLiteral("term")}};
    QString error;
    m_runner->writeFile(p.stopFile(), QJsonDocument(o).toJson(QJsonDocument::Compact), false, &error);
    return r;
}

JobManager::StopResult JobManager::stop(const QString &id, bool force, QString *message)
{
    JobRecordFile r;
    if (!load(id, &r, message))
        return StopResult::Failed;
    const JobPaths p = paths(id);
    JobFollower f(m_runner, r, m_lookup);
    f.poll(0);
    const JobStatus &st = f.status();
    if (r.spec.slurm.enabled)
        return stopSlurm(r, st, force, message);
    if (!st.alive) {
        *message = st.pids.launcher.isValid() ? JobManagerText::tr("Job %1 is not running (%2).").arg(id, jobStateTitle(st.state))
                                              : JobManagerText::tr("Job %1 has no running launcher.").arg(id);
        return StopResult::NotRunning;
    }
    const auto [asked, askedAt, kill] = recordStopRequest(p, force);
    QString error;
    // Every node: node 0 here, the others through their hosts (a node that cannot be reached is skipped).
    const QVector<LauncherPids> nodePids = f.nodePids();
    QVector<std::shared_ptr<JobRunner>> runners;
    for (int k = 0; k < nodePids.size(); ++k)
        runners << nodeRunner(r, k, &error);
    if (kill) {
        int n = 0;
        for (int k = 0; k < nodePids.size(); ++k)
            if (runners.at(k) && nodePids.at(k).wrapper.isValid())
                n += runners.at(k)->signalJobGroup(nodePids.at(k).wrapper.pgid, id, SIGKILL);
        *message = QCoreApplication::translate("ingot::JobManager", "Killed %n process(es) of job %1.", nullptr, n).arg(id);
        return n > 0 ? StopResult::Killed : StopResult::NotRunning;
    }
    if (asked) {
        *message = JobManagerText::tr("Job %1 was asked to stop %2 s ago and is saving a checkpoint; Stop again after %3 s to kill it.")
                       .arg(id)
                       .arg(int(nowSeconds() - askedAt))
                       .arg(stopGraceSeconds);
        return StopResult::Signalled;
    }
    if (!m_runner->signalProcess(st.pids.launcher, SIGTERM, message))
        return StopResult::Failed;
    for (int k = 1; k < nodePids.size(); ++k)  // the other nodes' launchers too: every worker saves and ends
        if (runners.at(k) && nodePids.at(k).launcher.isValid())
            runners.at(k)->signalProcess(nodePids.at(k).launcher, SIGTERM, &error);
    *message = JobManagerText::tr("Asked job %1 to stop (SIGTERM to torchrun, pid %2): it saves a checkpoint and stops.")
                   .arg(id)
                   .arg(st.pids.launcher.pid);
    return StopResult::Signalled;
}

RemovePreview JobManager::previewRemove(const QString &id, bool withOutputs)
{
    RemovePreview pv;
    JobRecordFile r;
    if (!load(id, &r, &pv.refusal))
        return pv;
    const JobPaths p = paths(id);
    pv.jobFolder = p.root;
    pv.jobFolderBytes = m_runner->treeSize(p.root);
    JobFollower f(m_runner, r, m_lookup);
    f.poll(0);
    if (f.status().alive) {
        pv.refusal = JobManagerText::tr("Job %1 is running: stop it first.").arg(id);
        return pv;
    }
    if (withOutputs && r.imported()) {  // the run's folder is the user's: never Ingot's to remove
        pv.refusal = JobManagerText::tr("%1 is the folder of a run Ingot did not launch: removing the job only forgets it.")
                         .arg(displayName(r.importedFrom));
        return pv;
    }
    if (withOutputs && !r.outputDir.isEmpty()) {
        const QString out = QDir::cleanPath(r.outputDir);
        if (out.startsWith(QDir::cleanPath(p.root) + QLatin1Char('/')))
            return pv;  // inside the job's folder: goes with it
        const QString home = QDir::cleanPath(m_runner->homeDir());
        if (out == QLatin1String("/") || out == home || home.startsWith(out + QLatin1Char('/'))
            || QDir::cleanPath(p.root).startsWith(out + QLatin1Char('/'))) {
            pv.refusal = JobManagerText::tr("The output folder %1 holds more than this job's outputs: remove it by hand.")
                             .arg(displayName(out));
            return pv;
        }
        const PathInfo info = m_runner->pathInfo(out);
        if (info.isDir && !info.isLink) {
            pv.outputFolder = out;
            pv.outputBytes = m_runner->treeSize(out);
        }
    }
    return pv;
}

bool JobManager::remove(const QString &id, bool withOutputs, QString *error)
{
    const RemovePreview pv = previewRemove(id, withOutputs);
    if (!pv.refusal.isEmpty()) {
        *error = pv.refusal;
        return false;
    }
    if (!pv.outputFolder.isEmpty()
        && !m_runner->removeTree(pv.outputFolder, QFileInfo(pv.outputFolder).path(), error))
        return false;
    JobRecordFile r;
    if (!load(id, &r, error))
        return false;
    for (int k = 1; k < r.nodes.size(); ++k) {
        // The other nodes' folders first (on hosts that share the home they are inside node 0's folder).
        const std::shared_ptr<JobRunner> runner = nodeRunner(r, k, error);
        if (!runner)
            return false;
        const QString folder = nodeFolder(runner->jobsRoot(), id, k);
        if (runner->pathInfo(folder).exists && !runner->removeTree(folder, runner->jobsRoot(), error))
            return false;
    }
    if (!m_runner->removeTree(pv.jobFolder, m_runner->jobsRoot(), error))
        return false;
    forgetSlurmJobIds(r.where, pv.jobFolder);
    return true;
}

namespace {

QJsonObject schedulerToJson(const SchedulerStatus &s)
{
    return QJsonObject{{QStringLiteral("job_id"), s.jobId},
                       {QStringLiteral("known"), s.known},
                       {QStringLiteral("state"), s.state},
                       {QStringLiteral("reason"), s.reason},
                       {QStringLiteral("position"), s.position},
                       {QStringLiteral("partition"), s.partition},
                       {QStringLiteral("node_list"), s.nodeList},
                       {QStringLiteral("nodes"), s.nodes},
                       {QStringLiteral("run_time"), s.runTime},
                       {QStringLiteral("time_limit"), s.timeLimit},
                       {QStringLiteral("submit_time"), s.submitTime},
                       {QStringLiteral("start_time"), s.startTime},
                       {QStringLiteral("queue_wait_s"), s.queueWaitSeconds},
                       {QStringLiteral("run_s"), s.runSeconds},
                       {QStringLiteral("batch_exit_status"), s.batchExitStatus}};
}

SchedulerStatus schedulerFromJson(const QJsonObject &o)
{
    SchedulerStatus s;
    s.jobId = o.value(QLatin1String("job_id")).toString();
    s.known = o.value(QLatin1String("known")).toBool();
    s.state = o.value(QLatin1String("state")).toString();
    s.reason = o.value(QLatin1String("reason")).toString();
    s.position = o.value(QLatin1String("position")).toInt();
    s.partition = o.value(QLatin1String("partition")).toString();
    s.nodeList = o.value(QLatin1String("node_list")).toString();
    s.nodes = o.value(QLatin1String("nodes")).toInt();
    s.runTime = o.value(QLatin1String("run_time")).toString();
    s.timeLimit = o.value(QLatin1String("time_limit")).toString();
    s.submitTime = o.value(QLatin1String("submit_time")).toString();
    s.startTime = o.value(QLatin1String("start_time")).toString();
    s.queueWaitSeconds = qint64(jsonNumberOr(o.value(QLatin1String("queue_wait_s")), -1));
    s.runSeconds = qint64(jsonNumberOr(o.value(QLatin1String("run_s")), -1));
    s.batchExitStatus = o.value(QLatin1String("batch_exit_status")).toInt(-1);
    return s;
}

}  // namespace

QJsonObject statusToJson(const JobStatus &s)
{
    QJsonArray peaks;
    for (qint64 v : s.peakMemoryPerRank)
        peaks.append(double(v));
    QJsonObject o{
        {QStringLiteral("state"), jobStateName(s.state)},
        {QStringLiteral("reason"), s.reason},
        {QStringLiteral("reason_code"), s.reasonCode},
        {QStringLiteral("reason_args"), QJsonArray::fromStringList(s.reasonArgs)},
        {QStringLiteral("reason_detail"), s.reasonDetail},
        {QStringLiteral("reason_rank"), s.reasonRank},
        {QStringLiteral("step"), double(s.step)},
        {QStringLiteral("max_steps"), double(s.maxSteps)},
        {QStringLiteral("last_loss"), jsonNumber(s.lastLoss)},
        {QStringLiteral("tokens_per_second"), jsonNumber(s.tokensPerSecond)},
        {QStringLiteral("started_at"), s.startedAt},
        {QStringLiteral("ended_at"), s.endedAt},
        {QStringLiteral("eta_seconds"), jsonNumber(s.etaSeconds)},
        {QStringLiteral("world_size"), s.worldSize},
        {QStringLiteral("data_parallel"), s.dataParallel},
        {QStringLiteral("tensor_parallel"), s.tensorParallel},
        {QStringLiteral("pipeline_parallel"), s.pipelineParallel},
        {QStringLiteral("parameters"), double(s.parameters)},
        {QStringLiteral("peak_memory"), double(s.peakMemory)},
        {QStringLiteral("peak_memory_per_rank"), peaks},
        {QStringLiteral("last_checkpoint"), s.lastCheckpoint},
        {QStringLiteral("device"), s.device},
        {QStringLiteral("exit_status"), s.exitStatus},
        {QStringLiteral("stop_requested"), s.stopRequested},
        {QStringLiteral("alive"), s.alive},
        {QStringLiteral("launcher_pid"), double(s.pids.launcher.pid)},
        {QStringLiteral("process_group"), double(s.pids.launcher.pgid)},
        {QStringLiteral("warnings"), QJsonArray::fromStringList(s.warnings)},
    };
    if (!s.unreachable.isEmpty())
        o.insert(QStringLiteral("unreachable"), s.unreachable);
    if (s.precompileExit != -2)
        o.insert(QStringLiteral("precompile_exit"), s.precompileExit);
    o.insert(QStringLiteral("stall"), stallToJson(s.stall));
    if (!s.slurm.jobId.isEmpty())
        o.insert(QStringLiteral("slurm"), schedulerToJson(s.slurm));
    if (!s.precompile.jobId.isEmpty())
        o.insert(QStringLiteral("slurm_precompile"), schedulerToJson(s.precompile));
    return o;
}

JobStatus statusFromJson(const QJsonObject &o)
{
    JobStatus s;
    const QString state = o.value(QLatin1String("state")).toString();
    for (JobState st : {JobState::Starting, JobState::Compiling, JobState::Running, JobState::Saving, JobState::Stopping,
                        JobState::Finished, JobState::Failed, JobState::Stopped, JobState::Pending, JobState::Stalled})
        if (jobStateName(st) == state)
            s.state = st;
    s.reason = o.value(QLatin1String("reason")).toString();
    s.reasonCode = o.value(QLatin1String("reason_code")).toString();
    for (const QJsonValue &v : o.value(QLatin1String("reason_args")).toArray())
        s.reasonArgs << v.toString();
    s.reasonDetail = o.value(QLatin1String("reason_detail")).toString();
    s.reasonRank = o.value(QLatin1String("reason_rank")).toInt(-1);
    s.step = qint64(jsonNumberOr(o.value(QLatin1String("step")), 0));
    s.maxSteps = qint64(jsonNumberOr(o.value(QLatin1String("max_steps")), -1));
    s.lastLoss = jsonNumberOr(o.value(QLatin1String("last_loss")), MetricPoint::none);
    s.tokensPerSecond = jsonNumberOr(o.value(QLatin1String("tokens_per_second")), MetricPoint::none);
    s.startedAt = jsonNumberOr(o.value(QLatin1String("started_at")), 0);
    s.endedAt = jsonNumberOr(o.value(QLatin1String("ended_at")), 0);
    s.worldSize = o.value(QLatin1String("world_size")).toInt();
    s.dataParallel = o.value(QLatin1String("data_parallel")).toInt();
    s.tensorParallel = o.value(QLatin1String("tensor_parallel")).toInt();
    s.pipelineParallel = o.value(QLatin1String("pipeline_parallel")).toInt();
    s.parameters = qint64(jsonNumberOr(o.value(QLatin1String("parameters")), 0));
    s.peakMemory = qint64(jsonNumberOr(o.value(QLatin1String("peak_memory")), -1));
    for (const QJsonValue &v : o.value(QLatin1String("peak_memory_per_rank")).toArray())
        s.peakMemoryPerRank << qint64(v.toDouble(-1));
    s.lastCheckpoint = o.value(QLatin1String("last_checkpoint")).toString();
    s.device = o.value(QLatin1String("device")).toString();
    s.exitStatus = o.value(QLatin1String("exit_status")).toInt(-1);
    s.stopRequested = o.value(QLatin1String("stop_requested")).toBool();
    for (const QJsonValue &v : o.value(QLatin1String("warnings")).toArray())
        s.warnings << v.toString();
    s.stall = stallFromJson(o.value(QLatin1String("stall")).toObject());
    s.slurm = schedulerFromJson(o.value(QLatin1String("slurm")).toObject());
    s.precompile = schedulerFromJson(o.value(QLatin1String("slurm_precompile")).toObject());
    s.precompileExit = std::max(-2, o.value(QLatin1String("precompile_exit")).toInt(-2));
    return s;
}

}  // namespace ingot

namespace ingot {

QVector<JobSummary> listEveryJob(const std::shared_ptr<JobRunner> &local, const RunnerLookup &lookup,
                                 const RemoteJobIndex &index, const QSet<QString> &followed, QStringList *warnings,
                                 bool pruneIndex, const std::function<bool()> &stopped)
{
    // How long a remote job recorded here is kept although its host does not list it (yet).
    constexpr qint64 graceMs = 10 * 60 * 1000;
    QVector<JobSummary> all = JobManager(local, lookup).list(warnings, followed);
    if (lookup) {
        const QVector<JobRecordFile> recorded = index.all(warnings);
        QStringList hosts;
        for (const JobRecordFile &r : recorded)
            if (!hosts.contains(r.where))
                hosts << r.where;
        for (const QString &host : std::as_const(hosts)) {
            if (stopped && stopped())
                break;
            QString error;
            const std::shared_ptr<JobRunner> runner = lookup(host, &error);
            QSet<QString> listed;
            if (runner) {
                for (JobSummary &s : JobManager(runner, lookup).list(warnings, followed)) {
                    listed.insert(s.record.id);
                    all << s;
                }
                error = runner->unreachable();
            }
            if (error.isEmpty()) {
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                for (const JobRecordFile &r : recorded)
                    if (pruneIndex && r.where == host && !listed.contains(r.id) && now - r.createdMs > graceMs)
                        RemoteJobIndex(index).remove(r.id);
                continue;
            }
            if (warnings)
                *warnings << QStringLiteral("%1: %2").arg(host, error);
            for (const JobRecordFile &r : recorded) {
                if (r.where != host || listed.contains(r.id))
                    continue;
                JobSummary s;
                s.record = r;
                s.status.startedAt = double(r.createdMs) / 1000.0;
                s.status.unreachable = error;
                all << s;
            }
        }
    }
    std::sort(all.begin(), all.end(), [](const JobSummary &a, const JobSummary &b) { return a.record.id > b.record.id; });
    return all;
}

}  // namespace ingot
