// A Slurm cluster as its login node's clients see it: this machine (makeLocalShell(), SLURM_CONF of the
// environment honoured) or a login node over SSH (SshShell). Every call is one small POSIX script through the
// RemoteShell, so the same code runs in both places; nothing is installed there. Blocking: call off the UI thread.
#pragma once

#include "services/slurm/slurmtypes.h"
#include "services/util/task.h"

#include <QByteArray>
#include <QString>
#include <QVector>

#include <functional>
#include <memory>

namespace ingot {

class RemoteShell;

// What info() found: whether the Slurm clients are there, and what they say.
struct SlurmClusterState {
    bool found = false;  // sinfo and sbatch are on the PATH there
    SlurmClusterInfo info;
};

// What a cluster is, in a few lines a user reads (translated): "Slurm 22.05.8, cluster ingottest" and one line per
// partition with its nodes by state and its time limit; "No Slurm: ..." when there is none. The Remote hosts page
// and the launcher show it.
QString slurmClusterSummary(const SlurmClusterState &state);

// The one line a page shows for Slurm clients without a controller that answers (a workstation with slurm-client):
// their last words; the whole answer goes in a tooltip.
QString slurmNoAnswerText(const QString &error);

class SlurmCluster final
{
public:
    // `slurmConf`: a slurm.conf to use there (exported as SLURM_CONF); empty: the clients' own (the environment's
    // SLURM_CONF on this machine, the default configuration or configless mode on a login node).
    explicit SlurmCluster(std::shared_ptr<RemoteShell> shell, QByteArray slurmConf = {});

    QString describe() const;  // "this machine", or the host

    // Detection, version, cluster name, partitions, nodes and the user's queue in one round trip. false with words
    // in *error when the shell could not run or Slurm did not answer (its own words, e.g. the controller is down);
    // true with found = false when there is no Slurm there.
    bool info(SlurmClusterState *out, QString *error) const;
    // The user's queue alone (`squeue --me`: the jobs submitted outside Ingot too), lighter than info().
    bool queue(QVector<SlurmQueueJob> *out, QString *error) const;
    // One job (`scontrol show job -o`), with its position in its partition's pending queue when it is pending.
    // *gone (when given) is set when Slurm no longer knows the job (it ended more than MinJobAge ago, 300 s by
    // default, or never was) and no accounting database (sacct) has it either: its end is then in the job folder's
    // exit_status.
    bool job(const QByteArray &id, SlurmJobDetails *out, QString *error, bool *gone = nullptr) const;
    // `sbatch --parsable OPTIONS SCRIPT ARGS`: `script` is a path on the cluster, options are sbatch's own
    // (--output=..., --chdir=...: any bytes). The job id in *jobId, or Slurm's words in *error.
    bool submit(const QByteArray &script, const QVector<QByteArray> &args, const QVector<QByteArray> &sbatchOptions,
                QByteArray *jobId, QString *error) const;
    // How a job is stopped (docs/formats.md "Slurm jobs"):
    enum class Cancel {
        TermSteps,  // scancel --signal=TERM ID: the tasks of every step (the torchrun agents srun started) get SIGTERM
                    // and end cleanly; srun and the batch script then end with their status. Ingot's stop.
        TermAll,    // scancel --signal=TERM --full ID: the batch shell and all its children too. srun, signalled
                    // itself, force-terminates its step (SIGKILL): only for batch scripts without srun steps.
        Kill,       // scancel ID: the job is cancelled outright (a second stop).
    };
    // A pending job has nothing to save and Slurm cannot signal it (scancel retries "Job can not be altered now"
    // for minutes): TermSteps and TermAll cancel it outright.
    bool cancel(const QByteArray &id, Cancel how, QString *error) const;

private:
    std::shared_ptr<RemoteShell> m_shell;
    QByteArray m_slurmConf;
};

// info() on a worker; `done` runs on `context`'s thread (never once the task is discarded or `context` is gone).
Task askSlurmCluster(QObject *context, std::shared_ptr<RemoteShell> shell,
                     std::function<void(const SlurmClusterState &, const QString &error)> done);

}  // namespace ingot
