#include "app/cli/clustercommands.h"

#include "app/cli/clicommon.h"
#include "app/cli/remotecommands.h"
#include "services/remote/sshshell.h"
#include "services/slurm/slurmcluster.h"
#include "services/util/remoteshell.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct ClusterText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

std::string b8(const QByteArray &bytes)
{
    return u8(slurmShown(bytes));
}

json partitionJson(const SlurmPartition &p)
{
    return {{"name", b8(p.name)}, {"state", b8(p.state)}, {"default", p.isDefault}, {"max_time", b8(p.maxTime)},
            {"node_list", b8(p.nodeList)}, {"total_nodes", p.totalNodes}, {"total_cpus", p.totalCpus},
            {"nodes_by_state", {{"idle", p.idle}, {"mixed", p.mixed}, {"allocated", p.allocated},
                                {"drained", p.drained}, {"down", p.down}, {"other", p.other}}}};
}

json nodeJson(const SlurmNode &n)
{
    json parts = json::array();
    for (const QByteArray &p : n.partitions)
        parts.push_back(b8(p));
    return {{"name", b8(n.name)}, {"hostname", b8(n.hostname)}, {"address", b8(n.addr)}, {"state", b8(n.state)},
            {"group", u8(slurmNodeStateName(n.kind))}, {"reason", b8(n.reason)}, {"cpus", n.cpus},
            {"cpus_allocated", n.cpusAllocated}, {"memory_mb", n.memoryMb}, {"gres", b8(n.gres)},
            {"features", b8(n.features)}, {"partitions", parts}};
}

json queueJson(const SlurmQueueJob &j)
{
    return {{"id", b8(j.id)}, {"name", b8(j.name)}, {"partition", b8(j.partition)}, {"state", b8(j.state)},
            {"reason", b8(j.reason)}, {"nodes", j.nodes}, {"node_list", b8(j.nodeList)}, {"time_used", b8(j.timeUsed)},
            {"time_limit", b8(j.timeLimit)}, {"submit_time", b8(j.submitTime)}, {"start_time", b8(j.startTime)},
            {"work_dir", b8(j.workDir)}, {"stdout", b8(j.stdOut)}};
}

void printTables(const SlurmClusterInfo &i, const QString &where)
{
    out(ClusterText::tr("Slurm %1, cluster %2, on %3").arg(i.version, slurmShown(i.clusterName), where));
    Table parts({ClusterText::tr("PARTITION"), ClusterText::tr("STATE"), ClusterText::tr("TIME LIMIT"),
                 ClusterText::tr("NODES"), ClusterText::tr("IDLE"), ClusterText::tr("MIXED"), ClusterText::tr("ALLOC"),
                 ClusterText::tr("DRAINED"), ClusterText::tr("DOWN"), ClusterText::tr("CPUS")},
                {false, false, false, true, true, true, true, true, true, true});
    for (const SlurmPartition &p : i.partitions)
        parts.add({slurmShown(p.name) + (p.isDefault ? QStringLiteral("*") : QString()), slurmShown(p.state),
                   slurmShown(p.maxTime), QString::number(p.totalNodes), QString::number(p.idle),
                   QString::number(p.mixed), QString::number(p.allocated), QString::number(p.drained),
                   QString::number(p.down), QString::number(p.totalCpus)});
    out(QLatin1Char('\n') + parts.render());
    Table nodes({ClusterText::tr("NODE"), ClusterText::tr("STATE"), ClusterText::tr("CPUS"), ClusterText::tr("MEMORY"),
                 ClusterText::tr("GRES"), ClusterText::tr("FEATURES"), ClusterText::tr("REASON")},
                {false, false, true, true, false, false, false});
    for (const SlurmNode &n : i.nodes)
        nodes.add({slurmShown(n.name), slurmShown(n.state), QStringLiteral("%1/%2").arg(n.cpusAllocated).arg(n.cpus),
                   formatMebibytes(n.memoryMb), n.gres.isEmpty() ? QStringLiteral("-") : slurmShown(n.gres),
                   n.features.isEmpty() ? QStringLiteral("-") : slurmShown(n.features),
                   n.reason.isEmpty() ? QStringLiteral("-") : slurmShown(n.reason)});
    out(QLatin1Char('\n') + nodes.render());
    if (i.queue.isEmpty()) {
        out(QLatin1Char('\n') + ClusterText::tr("No jobs of yours in the queue."));
        return;
    }
    Table queue({ClusterText::tr("JOB"), ClusterText::tr("NAME"), ClusterText::tr("PARTITION"), ClusterText::tr("STATE"),
                 ClusterText::tr("REASON"), ClusterText::tr("NODES"), ClusterText::tr("TIME"), ClusterText::tr("LIMIT")});
    for (const SlurmQueueJob &j : i.queue)
        queue.add({slurmShown(j.id), slurmShown(j.name), slurmShown(j.partition), slurmJobStateText(j.state),
                   j.reason.isEmpty() ? QStringLiteral("-") : slurmShown(j.reason),
                   j.nodeList.isEmpty() ? QString::number(j.nodes) : slurmShown(j.nodeList), slurmShown(j.timeUsed),
                   slurmShown(j.timeLimit)});
    out(QLatin1Char('\n') + queue.render());
}

int cmdInfo(const Invocation &p)
{
    const QStringList pos = p.positional();
    if (pos.size() > 1) {
        err(ClusterText::tr("error: name at most one host (or local)"));
        return Usage;
    }
    const QString where = pos.isEmpty() ? QStringLiteral("local") : pos.first();
    std::shared_ptr<RemoteShell> shell;
    if (where == QLatin1String("local")) {
        shell = makeLocalShell();
    } else {
        std::shared_ptr<SshConnection> conn;
        if (const int e = connectHost(where, &conn))
            return e;
        shell = std::make_shared<SshShell>(conn);
    }
    const SlurmCluster cluster(shell, nameToBytes(p.value(QStringLiteral("slurm-conf"))));
    SlurmClusterState state;
    QString error;
    if (!cluster.info(&state, &error)) {
        err(ClusterText::tr("error: %1").arg(error));
        return where == QLatin1String("local") ? PartialFailure : HostUnreachable;
    }
    if (p.json) {
        json j = {{"where", u8(where)}, {"found", state.found}};
        if (state.found) {
            const SlurmClusterInfo &i = state.info;
            j["version"] = u8(i.version);
            j["cluster"] = b8(i.clusterName);
            j["partitions"] = json::array();
            for (const SlurmPartition &part : i.partitions)
                j["partitions"].push_back(partitionJson(part));
            j["nodes"] = json::array();
            for (const SlurmNode &n : i.nodes)
                j["nodes"].push_back(nodeJson(n));
            j["queue"] = json::array();
            for (const SlurmQueueJob &q : i.queue)
                j["queue"].push_back(queueJson(q));
        }
        printJson(j);
    } else if (state.found) {
        printTables(state.info, cluster.describe());
    }
    if (!state.found) {
        err(ClusterText::tr("No Slurm on %1: sinfo and sbatch are not on the PATH there.").arg(cluster.describe()));
        return Unsupported;
    }
    return Ok;
}

}  // namespace

QVector<Command> clusterCommands()
{
    return {
        {QStringLiteral("cluster"), QStringLiteral("info"),
         ClusterText::tr("A Slurm cluster's partitions, nodes by state and your queue"), JsonOption,
         [](QCommandLineParser &p) {
             p.addPositionalArgument(QStringLiteral("where"),
                                     ClusterText::tr("A login node (ssh config alias or user@host:port), or local "
                                                     "(this machine; SLURM_CONF honoured). Default: local."),
                                     ClusterText::tr("[HOST|local]"));
             p.addOption({QStringLiteral("slurm-conf"),
                          ClusterText::tr("The slurm.conf to use there (exported as SLURM_CONF)."), ClusterText::tr("FILE")});
         },
         cmdInfo},
    };
}

}  // namespace ingot::cli
