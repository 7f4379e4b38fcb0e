// Jobs on a Slurm cluster: the batch script written from the job's plan, submitted with sbatch on the login node the
// runner reaches (this machine or a host), stopped with scancel. The job folder lives on the cluster's shared
// filesystem (the login node's jobs folder), so every node writes its ranks' logs where the follower reads them.
#include "services/jobs/jobmanager.h"

#include "services/slurm/slurmbatchscript.h"
#include "services/slurm/slurmcluster.h"
#include "services/util/names.h"
#include "services/util/remoteshell.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

namespace ingot {

namespace {

struct SlurmJobsText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobManager)
};

double nowSeconds()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

// What every node's torchrun agent runs after its own options: the program and its arguments, writing into
// `outputDir`.
QVector<QByteArray> programWords(const JobRecordFile &r, const QString &outputDir)
{
    QVector<QByteArray> out;
    switch (r.spec.program) {
    case JobProgram::Backend: out << "-m" << "ingot_train"; break;
    case JobProgram::Module: out << "-m" << nameToBytes(r.spec.module.trimmed()); break;
    case JobProgram::Script: out << nameToBytes(r.spec.script); break;
    }
    for (const QString &a : r.spec.trainingArguments(outputDir))
        out << nameToBytes(a);
    return out;
}


// The options of the training job's sbatch when a precompile job goes first: it starts only once that one ended
// with status 0, and is cancelled by Slurm when it failed (its dependency can never be met).
QVector<QByteArray> afterPrecompile(const QByteArray &precompileJob)
{
    return {"--dependency=afterok:" + precompileJob, "--kill-on-invalid-dep=yes"};
}

QVector<QByteArray> submitOptions(const JobPaths &p)
{
    return {"--output=" + nameToBytes(p.launcherLog()), "--chdir=" + nameToBytes(p.root)};
}

}  // namespace

SlurmCluster slurmClusterOf(const JobRunner &runner, const JobSpec &spec)
{
    return SlurmCluster(runner.shell(), nameToBytes(spec.slurm.slurmConf));
}

bool JobManager::planSlurm(LaunchPlan *plan, QString *error) const
{
    JobRecordFile &r = plan->record;
    const SlurmSettings &s = r.spec.slurm;
    SlurmBatchSpec b;
    b.nodes = r.spec.nnodes;
    b.processesPerNode = r.spec.nprocPerNode;
    b.jobName = "ingot-" + r.id.toLatin1();
    b.partition = s.partition.toUtf8();
    b.timeLimit = s.timeLimit.toUtf8();
    b.account = s.account.toUtf8();
    b.qos = s.qos.toUtf8();
    b.exclusive = s.exclusive;
    for (const QString &line : s.extraSbatch)
        b.extraSbatch << line.toUtf8();
    b.jobFolder = nameToBytes(plan->paths.root);
    b.stopRequestFile = nameToBytes(plan->paths.stopFile());
    for (const QString &kv : r.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        b.environment.append({nameToBytes(kv.left(eq)), nameToBytes(kv.mid(eq + 1))});
    }
    b.agent = {nameToBytes(r.spec.python), "-m", "ingot_train.launch"};
    b.program = programWords(r, r.outputDir);
    for (const QString &w : r.nodeSetupArgv)
        b.nodeSetup << nameToBytes(w);
    b.rankLogs = true;
    const std::optional<QByteArray> script = slurmBatchScript(b, error);
    if (!script)
        return false;
    r.port = 0;  // the rendezvous port is chosen on the first node when the job starts
    plan->batchScript = *script;
    plan->script = nameFromBytes(*script);
    QStringList env;
    if (!s.slurmConf.isEmpty())
        env << QStringLiteral("SLURM_CONF=") + s.slurmConf;
    const auto sbatchLine = [&](const JobPaths &p, const QVector<QByteArray> &more) {
        QStringList sbatch{QStringLiteral("sbatch"), QStringLiteral("--parsable")};
        for (const QByteArray &o : submitOptions(p) + more)
            sbatch << nameFromBytes(o);
        sbatch << p.slurmScript();
        return commandLine(env, sbatch);
    };
    plan->commandLine = sbatchLine(plan->paths, {});
    if (!s.precompile)
        return true;

    // The precompile phase: the same nodes and command under neuron_parallel_compile, in JOB/precompile (its own
    // logs, exit_status and output folder: what it writes is not the training's output).
    const QString tool = findNeuronParallelCompile(*m_runner, r.spec.python);
    if (tool.isEmpty()) {
        *error = SlurmJobsText::tr("Precompile first needs the Neuron SDK's neuron_parallel_compile: it is neither beside %1 "
                                   "nor on the PATH of %2.")
                     .arg(displayName(r.spec.python), displayName(m_runner->describe()));
        return false;
    }
    const JobPaths pp = plan->paths.precompilePhase();
    SlurmBatchSpec c = b;
    c.jobName = b.jobName + "-precompile";
    c.jobFolder = nameToBytes(pp.root);
    c.stopRequestFile.clear();  // a stop while it runs cancels both jobs
    if (r.spec.precompileParallel > 0) {
        c.agent.prepend(QByteArray::number(r.spec.precompileParallel));
        c.agent.prepend("--num_parallel");
    }
    c.agent.prepend(nameToBytes(tool));
    c.program = programWords(r, pp.defaultOutputDir());
    const auto setDefault = [&c](const QByteArray &key, const QByteArray &value) {
        for (const auto &kv : std::as_const(c.environment))
            if (kv.first == key)
                return;  // the user's own value wins
        c.environment.append({key, value});
    };
    setDefault("NEURON_PARALLEL_COMPILE_DUMP_RESULTS", "1");  // its results file: graph, status, retries, time
    setDefault("NEURON_PARALLEL_COMPILE_MAX_RETRIES", "1");
    const std::optional<QByteArray> first = slurmBatchScript(c, error);
    if (!first)
        return false;
    plan->precompileScript = *first;
    // Both scripts as they are written and submitted, each under a comment naming it (English: a script's text).
    plan->script = QStringLiteral("# 1. The precompile job (%1):\n").arg(pp.slurmScript()) + nameFromBytes(*first)
        + QStringLiteral("\n# 2. The training job (%1), submitted with --dependency=afterok on the first:\n").arg(plan->paths.slurmScript())
        + nameFromBytes(*script);
    // One line for a shell: the second sbatch names the first's id as the shell got it.
    QString second = plan->commandLine;
    second.replace(second.indexOf(QLatin1String("sbatch --parsable")), int(qstrlen("sbatch --parsable")),
                   QStringLiteral("sbatch --parsable --dependency=afterok:\"$ID\" --kill-on-invalid-dep=yes"));
    plan->commandLine = QStringLiteral("ID=$(%1) && %2").arg(sbatchLine(pp, {}), second);
    return true;
}

bool JobManager::submitSlurm(const LaunchPlan &plan, QString *error)
{
    const JobPaths &p = plan.paths;
    const JobRecordFile &r = plan.record;
    if (!m_runner->prepareLaunch(error) || !m_runner->makeFolder(p.root, error) || !m_runner->makeFolder(p.logsDir(), error))
        return false;
    const auto removeFolder = [&] {
        QString ignored;
        m_runner->removeTree(p.root, m_runner->jobsRoot(), &ignored);
    };
    if ((!r.outputDir.isEmpty() && !m_runner->makeFolder(r.outputDir, error))
        || !m_runner->writeFile(p.jobJson(), r.toJson(), false, error)
        || !m_runner->writeFile(p.slurmScript(), plan.batchScript, true, error)) {
        removeFolder();
        return false;
    }
    const SlurmCluster cluster = slurmClusterOf(*m_runner, r.spec);
    QVector<QByteArray> submitted;  // cancelled again when a later step fails
    const auto undo = [&] {
        QString ignored;
        for (const QByteArray &id : std::as_const(submitted))
            cluster.cancel(id, SlurmCluster::Cancel::Kill, &ignored);
        forgetSlurmJobIds(r.where, p.root);
        removeFolder();
        return false;
    };
    // Submits one phase's script and records its id; Slurm's words in *error when it refuses.
    const auto submit = [&](const JobPaths &phase, const QVector<QByteArray> &more) {
        QByteArray jobId;
        if (!cluster.submit(nameToBytes(phase.slurmScript()), {}, submitOptions(phase) + more, &jobId, error))
            return QByteArray();
        submitted << jobId;
        // Kept here first (what follows and stops it), then in the folder (what others who list it read).
        return keepSlurmJobId(r.where, phase.root, jobId, error)
                && m_runner->writeFile(phase.slurmJobIdFile(), jobId + '\n', false, error)
            ? jobId
            : QByteArray();
    };
    QVector<QByteArray> dependency;
    if (!plan.precompileScript.isEmpty()) {
        const JobPaths pp = p.precompilePhase();
        if (!m_runner->makeFolder(pp.root, error) || !m_runner->makeFolder(pp.logsDir(), error)
            || !m_runner->writeFile(pp.slurmScript(), plan.precompileScript, true, error))
            return undo();
        const QByteArray first = submit(pp, {});
        if (first.isEmpty())
            return undo();
        dependency = afterPrecompile(first);
    }
    // Slurm refused it: nothing is left behind (its words are the error).
    return !submit(p, dependency).isEmpty() || undo();
}

namespace {

// Whether Slurm says job `jobId` is a phase's: its JobName is the one Ingot gave it and its WorkDir the phase's
// folder. The id may have come from the job folder, which the job can rewrite: a mismatch is refused with words, and
// nothing is cancelled or written.
bool isOwnSlurmJob(const SlurmCluster &cluster, const QString &jobId, const QByteArray &name, const QString &folder,
                   QString *message)
{
    SlurmJobDetails d;
    QString error;
    if (!cluster.job(jobId.toLatin1(), &d, &error)) {
        *message = SlurmJobsText::tr("Slurm job %1 was not cancelled: Ingot could not check that it is this job's (%2).")
                       .arg(jobId, error);
        return false;
    }
    const auto clean = [](QByteArray b) {
        while (b.size() > 1 && b.endsWith('/'))
            b.chop(1);
        return b;
    };
    if (d.name != name || clean(d.workDir) != clean(nameToBytes(folder))) {
        *message = SlurmJobsText::tr("Slurm job %1 is not this job's: Slurm names it %2 in %3, where Ingot submitted %4 in "
                                     "%5. It was not cancelled (the job folder's slurm_job_id was changed).")
                       .arg(jobId, slurmShown(d.name), slurmShown(d.workDir), slurmShown(name), displayName(folder));
        return false;
    }
    return true;
}

}  // namespace

JobManager::StopResult JobManager::stopSlurm(const JobRecordFile &r, const JobStatus &st, bool force, QString *message)
{
    const JobPaths p = paths(r.id);
    if (!st.alive || st.slurm.jobId.isEmpty()) {
        *message = SlurmJobsText::tr("Job %1 is not running (%2).").arg(r.id, jobStateTitle(st.state));
        return StopResult::NotRunning;
    }
    const SlurmCluster cluster = slurmClusterOf(*m_runner, r.spec);
    const QByteArray name = "ingot-" + r.id.toLatin1();
    const bool precompiling = isPrecompiling(st);
    if (!isOwnSlurmJob(cluster, st.slurm.jobId, name, p.root, message)
        || (precompiling
            && !isOwnSlurmJob(cluster, st.precompile.jobId, name + "-precompile", p.precompilePhase().root, message)))
        return StopResult::Failed;
    const QByteArray id = st.slurm.jobId.toLatin1();
    const auto [asked, askedAt, kill] = recordStopRequest(p, force);
    if (precompiling) {
        // Its precompile phase runs or waits: nothing to save yet (what it compiled is in the cache already), so
        // both jobs are cancelled.
        if (!cluster.cancel(st.precompile.jobId.toLatin1(), SlurmCluster::Cancel::Kill, message)
            || !cluster.cancel(id, SlurmCluster::Cancel::Kill, message))
            return StopResult::Failed;
        *message = SlurmJobsText::tr("Cancelled the precompile (Slurm job %1) and the training job (Slurm job %2) of job %3.")
                       .arg(st.precompile.jobId, st.slurm.jobId, r.id);
        return StopResult::Killed;
    }
    if (kill) {
        if (!cluster.cancel(id, SlurmCluster::Cancel::Kill, message))
            return StopResult::Failed;
        *message = SlurmJobsText::tr("Cancelled Slurm job %1 (job %2).").arg(st.slurm.jobId, r.id);
        return StopResult::Killed;
    }
    if (asked) {
        *message = SlurmJobsText::tr("Job %1 was asked to stop %2 s ago and is saving a checkpoint; Stop again after %3 s to cancel it.")
                       .arg(r.id)
                       .arg(int(nowSeconds() - askedAt))
                       .arg(stopGraceSeconds);
        return StopResult::Signalled;
    }
    // SIGTERM to the steps' tasks (the torchrun agents): each saves checkpoint-N and ends; a pending job is cancelled.
    if (!cluster.cancel(id, SlurmCluster::Cancel::TermSteps, message))
        return StopResult::Failed;
    *message = st.state == JobState::Pending
        ? SlurmJobsText::tr("Cancelled pending Slurm job %1 (job %2): it had not started.").arg(st.slurm.jobId, r.id)
        : SlurmJobsText::tr("Asked job %1 to stop (SIGTERM to its torchrun agents through Slurm job %2): it saves a checkpoint and stops.")
              .arg(r.id, st.slurm.jobId);
    return StopResult::Signalled;
}

QStringList slurmScriptsOf(const JobRecordFile &record)
{
    if (!record.spec.slurm.enabled)
        return {};
    const JobPaths paths{record.cwd};  // the job's folder on the login node
    QStringList files;
    if (record.spec.slurm.precompile)
        files << paths.precompilePhase().slurmScript();
    files << paths.slurmScript();
    return files;
}

QVector<SlurmClusterRef> slurmClustersOf(const QVector<JobSummary> &history)
{
    QVector<SlurmClusterRef> out;
    for (const JobSummary &s : history) {
        const SlurmClusterRef c{s.record.where, s.record.spec.slurm.slurmConf};
        if (s.record.spec.slurm.enabled && !out.contains(c))
            out << c;
    }
    return out;
}

QVector<SlurmQueueJob> jobsOutsideIngot(const QVector<SlurmQueueJob> &queue, const SlurmClusterRef &cluster,
                                        const QVector<JobSummary> &history)
{
    QSet<QByteArray> ids, names;
    for (const JobSummary &s : history) {
        names.insert("ingot-" + s.record.id.toLatin1());
        names.insert("ingot-" + s.record.id.toLatin1() + "-precompile");
        if (s.record.spec.slurm.enabled && SlurmClusterRef{s.record.where, s.record.spec.slurm.slurmConf} == cluster)
            for (const SchedulerStatus *phase : {&s.status.slurm, &s.status.precompile})
                if (!phase->jobId.isEmpty())
                    ids.insert(phase->jobId.toLatin1());
    }
    QVector<SlurmQueueJob> out;
    for (const SlurmQueueJob &j : queue)
        if (!ids.contains(j.id) && !names.contains(j.name))
            out << j;
    return out;
}

QVector<OtherSlurmJob> otherSlurmJobs(const RunnerLookup &runnerAt, const QVector<SlurmClusterRef> &clusters,
                                      const QVector<JobSummary> &history, QStringList *errors)
{
    QVector<OtherSlurmJob> out;
    for (const SlurmClusterRef &c : clusters) {
        QString error;
        const std::shared_ptr<JobRunner> runner = runnerAt(c.where, &error);
        QVector<SlurmQueueJob> queue;
        if (!runner || !SlurmCluster(runner->shell(), nameToBytes(c.slurmConf)).queue(&queue, &error)) {
            *errors << error;
            continue;
        }
        for (const SlurmQueueJob &j : jobsOutsideIngot(queue, c, history))
            out << OtherSlurmJob{c, j};
    }
    return out;
}

}  // namespace ingot
