// What Ingot knows about a Slurm cluster: its partitions, nodes and the user's queue, as value types filled from
// the Slurm clients' output (slurmparse.h). Names and free text are bytes as Slurm printed them: show them with
// slurmShown() (control characters and undecodable bytes escaped).
#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

namespace ingot {

// A node's state as Ingot groups them (Slurm's own word stays in SlurmNode::state).
enum class SlurmNodeState { Idle, Mixed, Allocated, Drained, Draining, Down, Other };

struct SlurmNode {
    QByteArray name;      // NodeName (n1, trn1-st-trn132xl-1)
    QByteArray hostname;  // NodeHostName
    QByteArray addr;      // NodeAddr
    QByteArray state;     // sinfo's long state: idle, mixed, allocated, drained, draining, down*, ...
    SlurmNodeState kind = SlurmNodeState::Other;
    QByteArray reason;    // why it is down or drained; empty otherwise
    int cpus = 0;
    int cpusAllocated = 0;
    qint64 memoryMb = 0;
    QByteArray gres;      // gpu:8, neuron:16; empty for none
    QByteArray features;  // available features (the instance type on ParallelCluster); empty for none
    QVector<QByteArray> partitions;
};

struct SlurmPartition {
    QByteArray name;
    QByteArray state;      // UP, DOWN, DRAIN, INACTIVE
    bool isDefault = false;
    QByteArray maxTime;    // UNLIMITED or [days-]hours:minutes:seconds
    QByteArray nodeList;   // compressed (n[1-2])
    int totalNodes = 0;
    int totalCpus = 0;
    // Filled from the nodes: how many of its nodes are in each state.
    int idle = 0, mixed = 0, allocated = 0, drained = 0, down = 0, other = 0;
};

// One job of `squeue --me`.
struct SlurmQueueJob {
    QByteArray id;
    QByteArray name;
    QByteArray partition;
    QByteArray state;      // PENDING, RUNNING, COMPLETING, ...
    QByteArray reason;     // Resources, Priority, Dependency, None, ...
    int nodes = 0;
    QByteArray nodeList;
    QByteArray timeUsed;
    QByteArray timeLimit;
    QByteArray submitTime;
    QByteArray startTime;  // N/A when unknown
    QByteArray workDir;
    QByteArray stdOut;
};

// One job as `scontrol show job -o` tells it.
struct SlurmJobDetails {
    QByteArray id;
    QByteArray name;
    QByteArray state;
    QByteArray reason;
    QByteArray nodeList;
    QByteArray batchHost;
    QByteArray partition;
    QByteArray runTime;
    QByteArray timeLimit;
    QByteArray exitCode;   // status:signal (0:0)
    QByteArray stdOut;
    QByteArray workDir;
    QByteArray submitTime;
    QByteArray startTime;
    int numNodes = 0;
    int pendingPosition = 0;  // 1 = next in its partition's pending queue; 0 when not pending (or unknown)
};

struct SlurmClusterInfo {
    QString version;        // "22.05.8"
    QByteArray clusterName;
    QVector<SlurmPartition> partitions;
    QVector<SlurmNode> nodes;
    QVector<SlurmQueueJob> queue;
};

// Slurm's bytes for a screen or a terminal: decoded as a name, control characters and odd bytes escaped.
QString slurmShown(const QByteArray &bytes);
// A job's state for people ("COMPLETED", "FAILED" ... in their language); Slurm's own word stays in files and --json.
QString slurmJobStateText(const QByteArray &state);
QString slurmNodeStateName(SlurmNodeState state);  // "idle", "mixed", ... (stable, English: JSON and tables)

}  // namespace ingot
