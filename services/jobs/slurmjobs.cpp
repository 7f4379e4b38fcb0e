// Jobs on a Slurm cluster: the batch script written from the job's plan, submitted with sbatch on the login node the
// runner reaches (this machine or a host), stopped with scancel. The job folder lives on the cluster's shared
// filesystem (the login node's jobs folder), so every node writes its ranks' logs where the follower reads them.
#include "services/jobs/jobfollower_p.h"
#include "services/jobs/jobmanager.h"

#include "services/slurm/slurmbatchscript.h"
#include "services/slurm/slurmcluster.h"
#include "services/util/names.h"

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

// What every node's torchrun agent runs after its own options: the program and its arguments.
QVector<QByteArray> programWords(const JobRecordFile &r)
{
    QVector<QByteArray> out;
    switch (r.spec.program) {
    case JobProgram::Backend: out << "-m" << "ingot_train"; break;
    case JobProgram::Module: out << "-m" << nameToBytes(r.spec.module.trimmed()); break;
    case JobProgram::Script: out << nameToBytes(r.spec.script); break;
    }
    for (const QString &a : r.spec.trainingArguments(r.outputDir))
        out << nameToBytes(a);
    return out;
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
    for (const QString &kv : r.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        b.environment.append({nameToBytes(kv.left(eq)), nameToBytes(kv.mid(eq + 1))});
    }
    b.agent = {nameToBytes(r.spec.python), "-m", "ingot_train.launch"};
    b.program = programWords(r);
    b.rankLogs = true;
    const std::optional<QByteArray> script = slurmBatchScript(b, error);
    if (!script)
        return false;
    r.port = 0;  // the rendezvous port is chosen on the first node when the job starts
    plan->batchScript = *script;
    plan->script = nameFromBytes(*script);
    QStringList sbatch{QStringLiteral("sbatch"), QStringLiteral("--parsable")};
    for (const QByteArray &o : submitOptions(plan->paths))
        sbatch << nameFromBytes(o);
    sbatch << plan->paths.slurmScript();
    QStringList env;
    if (!s.slurmConf.isEmpty())
        env << QStringLiteral("SLURM_CONF=") + s.slurmConf;
    plan->commandLine = commandLine(env, sbatch);
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
    QByteArray jobId;
    if (!slurmClusterOf(*m_runner, r.spec).submit(nameToBytes(p.slurmScript()), {}, submitOptions(p), &jobId, error)) {
        removeFolder();  // Slurm refused it: nothing is left behind (its words are the error)
        return false;
    }
    if (!m_runner->writeFile(p.slurmJobIdFile(), jobId + '\n', false, error)) {
        QString ignored;
        slurmClusterOf(*m_runner, r.spec).cancel(jobId, SlurmCluster::Cancel::Kill, &ignored);
        removeFolder();
        return false;
    }
    return true;
}

JobManager::StopResult JobManager::stopSlurm(const JobRecordFile &r, const JobStatus &st, bool force, QString *message)
{
    const JobPaths p = paths(r.id);
    if (!st.alive || st.slurm.jobId.isEmpty()) {
        *message = SlurmJobsText::tr("Job %1 is not running (%2).").arg(r.id, jobStateTitle(st.state));
        return StopResult::NotRunning;
    }
    const auto [asked, askedAt, kill] = recordStopRequest(p, force);
    const QByteArray id = st.slurm.jobId.toLatin1();
    const SlurmCluster cluster = slurmClusterOf(*m_runner, r.spec);
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
        if (s.record.spec.slurm.enabled && SlurmClusterRef{s.record.where, s.record.spec.slurm.slurmConf} == cluster
            && !s.status.slurm.jobId.isEmpty())
            ids.insert(s.status.slurm.jobId.toLatin1());
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
