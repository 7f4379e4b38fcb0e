#include "services/jobs/jobstall.h"

#include "services/jobs/stallrule.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QThread>

#include <algorithm>
#include <csignal>

namespace ingot {

namespace {

struct StackText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobMonitor)
};

bool isThreadHeader(const QByteArray &line)
{
    return (line.startsWith("Thread 0x") || line.startsWith("Current thread 0x") || line.startsWith("Stack ("))
        && line.endsWith("(most recent call first):");
}

struct RankLogAt {
    int node = 0;
    QString path;
    qint64 from = 0;
    QByteArray seen;
    bool done = false;
};

}  // namespace

QString faulthandlerDump(const QByteArray &text)
{
    QList<QByteArray> out;
    bool in = false;
    qsizetype bytes = 0;
    for (const QByteArray &line : text.split('\n')) {
        if (isThreadHeader(line))
            in = true;
        else if (in && !line.startsWith("  File ") && !line.startsWith("  <") && !line.trimmed().isEmpty())
            break;  // the dump ended: what the rank wrote next is not part of it
        if (!in)
            continue;
        bytes += line.size() + 1;
        if (bytes > (256 << 10))
            break;
        out << line;
    }
    while (!out.isEmpty() && out.last().trimmed().isEmpty())
        out.removeLast();
    return QString::fromUtf8(out.join('\n'));
}

bool setJobStallAfter(JobManager &jobs, const QString &id, double seconds, QString *error)
{
    if (!(seconds >= 0 && seconds <= 30 * 86400.0)) {
        *error = StackText::tr("A stall threshold is at most 30 days (0: the default rule).");
        return false;
    }
    JobRecordFile record;
    if (!jobs.load(id, &record, error))
        return false;
    record.spec.stallAfterSeconds = seconds;
    return jobs.runner().writeFile(jobs.paths(id).jobJson(), record.toJson(), false, error);
}

StackDump dumpJobStacks(JobManager &jobs, const QString &id, int waitMs, const std::atomic_bool *stop)
{
    StackDump d;
    JobRecordFile record;
    if (!jobs.load(id, &record, &d.error))
        return d;
    if (record.spec.slurm.enabled) {
        // scancel --signal reaches every process of the job's steps (torchrun too, which SIGUSR2 ends), and Ingot
        // does not record torchrun's pid on the nodes.
        d.error = StackText::tr("Stacks of a Slurm job are not asked for: scancel --signal would reach torchrun too, "
                                "which SIGUSR2 ends. Run py-spy dump --pid PID on its nodes if it is installed there.");
        return d;
    }
    JobFollower f(jobs.sharedRunner(), record, jobs.lookup());
    f.setKeepMetrics(false);
    f.setKeepLogs(false);
    for (int i = 0; i < 100000 && !f.poll(4 << 20).caughtUp; ++i) {
    }
    const JobStatus &st = f.status();
    if (!st.alive || isFinal(st.state)) {
        d.error = StackText::tr("The job is not running: there are no stacks to ask for.");
        return d;
    }
    if (record.spec.program != JobProgram::Backend || !st.stall.stacksReady) {
        d.error = record.spec.program != JobProgram::Backend
            ? StackText::tr("This job runs its own program, not Ingot's backend: no signal is sent (SIGUSR2 would end a "
                            "program that does not handle it). Run py-spy dump --pid PID where it runs if py-spy is "
                            "installed, or have the program call faulthandler.register(signal.SIGUSR2, "
                            "all_threads=True) at its start.")
            : StackText::tr("Not every rank has said that it dumps its stacks on SIGUSR2 yet (an older backend, or "
                            "ranks still starting): no signal is sent.");
        return d;
    }
    const int perNode = std::max(1, record.spec.nprocPerNode);
    QHash<int, RankLogAt> logs;
    QVector<std::shared_ptr<JobRunner>> runners;
    const QVector<LauncherPids> pids = f.nodePids();
    for (int node = 0; node < pids.size(); ++node) {
        QString error;
        runners << (node == 0 ? jobs.sharedRunner() : jobs.nodeRunner(record, node, &error));
    }
    for (int rank : f.ranks()) {
        RankLogAt at;
        at.node = rank / perNode;
        at.path = f.rankLog(rank, true);
        if (at.node >= runners.size() || !runners.at(at.node) || at.path.isEmpty())
            continue;
        at.from = runners.at(at.node)->readFile(at.path, 0, 0).size;
        logs.insert(rank, at);
    }
    for (int node = 0; node < runners.size(); ++node)
        if (runners.at(node))
            d.signalled += runners.at(node)->signalChildren(pids.at(node).launcher, record.id, SIGUSR2);
    if (d.signalled == 0) {
        d.error = StackText::tr("No rank process of the job was found to signal (it may have just ended).");
        return d;
    }
    // Each rank's dump is complete when its stderr holds one and has not grown since the last look.
    QElapsedTimer t;
    t.start();
    for (;;) {
        bool all = true;
        for (auto it = logs.begin(); it != logs.end(); ++it) {
            RankLogAt &at = it.value();
            if (at.done)
                continue;
            const FileChunk c = runners.at(at.node)->readFile(at.path, at.from, 1 << 20);
            at.done = c.data == at.seen && c.data.contains("(most recent call first):");
            at.seen = c.data;
            all = all && at.done;
        }
        if (all || t.elapsed() > waitMs || (stop && *stop))
            break;
        QThread::msleep(100);
    }
    QList<int> ranks = logs.keys();
    std::sort(ranks.begin(), ranks.end());
    for (int rank : ranks)
        d.ranks.append({rank, faulthandlerDump(logs.value(rank).seen)});
    return d;
}

}  // namespace ingot
