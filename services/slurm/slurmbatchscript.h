// The batch script of a Slurm training job, as text (a pure function: value types in, text out): the #SBATCH
// header, then one torchrun agent per node started by srun with a static rendezvous on the first allocated node, and
// the script's own exit status written to the job folder so the end is known without accounting. The format and
// the files it writes are in docs/formats.md ("Slurm jobs").
#pragma once

#include <QByteArray>
#include <QPair>
#include <QString>
#include <QVector>

#include <optional>

namespace ingot {

struct SlurmBatchSpec {
    int nodes = 1;
    int processesPerNode = 1;
    QByteArray jobName;     // --job-name; empty: Slurm's (the script's name)
    QByteArray partition;   // empty: the cluster's default partition
    QByteArray timeLimit;   // minutes, [D-]H:MM:SS, M:SS, UNLIMITED; empty: the partition's default
    QByteArray account;     // optional
    QByteArray qos;         // optional
    bool exclusive = true;  // whole nodes, as the Neuron tutorials do
    QVector<QByteArray> extraSbatch;  // whole lines, each "#SBATCH ..." (one line, no control characters)
    // --output; may use Slurm's %j, %x, %N... Empty: Slurm's default (slurm-%j.out in the submit folder). No
    // spaces, quotes or control characters (#SBATCH lines are split at spaces): pass such a path to sbatch's
    // command line instead (SlurmCluster::submit's options).
    QByteArray outputPattern;
    QByteArray jobFolder;   // absolute, on the shared filesystem: exit_status is written there (any bytes)
    QVector<QPair<QByteArray, QByteArray>> environment;  // exported before srun: keys [A-Za-z_][A-Za-z0-9_]*
    QVector<QByteArray> agent;    // the torchrun agent: {"torchrun"} or {"python3", "-m", "torch.distributed.run"}
    QVector<QByteArray> program;  // what every agent runs: the training script and its arguments
    // A command run once on every node before the agents (srun --ntasks-per-node=1), such as bringing compiled graphs
    // into each node's own cache; when it fails the training starts anyway (said in the job's output). Empty: none.
    QVector<QByteArray> nodeSetup;
    // Every rank's stdout and stderr in its own file, as Ingot's jobs keep them: torchrun --redirects=3 with
    // --log_dir JOB_FOLDER/logs on node 0 and JOB_FOLDER/node-K/logs on node K.
    bool rankLogs = false;
    // A file (absolute, any bytes) whose presence means the stop was asked for (Ingot's JOB/stop_request, written
    // before its scancel): the agents then end with torchrun's status for a signal, and the script ends 0 instead,
    // so Slurm records COMPLETED for a stop that went as asked; exit_status keeps the agents' status. Empty: none.
    QByteArray stopRequestFile;
};

// The whole script, or nullopt with the reason in *error (a bad key, an extra line that is not one #SBATCH line,
// a value that cannot go into an #SBATCH line, no agent, counts out of range).
std::optional<QByteArray> slurmBatchScript(const SlurmBatchSpec &spec, QString *error);

// Whether `key` can be an environment variable's name.
bool isEnvironmentKey(const QByteArray &key);

}  // namespace ingot
