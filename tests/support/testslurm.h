// A private Slurm cluster on 127.0.0.1 for tests: its own slurm.conf, state, spool and log folders under a temporary
// folder, its own free ports, auth/none + cred/none (no munge), proctrack/linuxproc, no accounting; one slurmctld and
// one slurmd per node (two slurmd on one machine work: a 2-node job runs one task on each, SLURM_NODEID 0 and 1).
// The destructor cancels its jobs and stops every daemon (and the job steps they started) by pid: SIGTERM, then
// SIGKILL after a grace period. Tests QSKIP when slurmctld is not installed (available()).
#pragma once

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <vector>

namespace ingot::test {

struct TestSlurmOptions {
    int nodes = 2;          // 1 or 2
    int cpus = 2;           // per node
    QString maxTime = QStringLiteral("INFINITE");  // of the default partition "debug" (all nodes)
    QStringList extraPartitions;  // whole lines after "PartitionName=", e.g. "short Nodes=n1 MaxTime=00:10:00"
    QString features;       // Feature= of every node (an instance type), empty for none
    QString gres;           // Gres= of every node, TYPE:COUNT (neuron:2; counted only, no device files); empty for none
};

class TestSlurm
{
public:
    explicit TestSlurm(TestSlurmOptions options = {});
    ~TestSlurm();
    TestSlurm(const TestSlurm &) = delete;
    TestSlurm &operator=(const TestSlurm &) = delete;

    // slurmctld is installed (tests QSKIP otherwise; a missing slurmd or client then fails start() with words).
    static bool available();

    // Writes the configuration, starts the daemons and waits until sinfo shows every node idle.
    bool start(QString *error);
    void stop();

    QString dir() const { return m_dir.path(); }
    QString confPath() const { return m_dir.path() + QStringLiteral("/slurm.conf"); }
    QString clusterName() const { return QStringLiteral("ingottest"); }
    // The system environment with SLURM_CONF set to this cluster: for child processes (ingot-cli, sbatch).
    QProcessEnvironment environment() const;

    // Runs a Slurm client (sinfo, squeue, scontrol, sbatch, scancel) against this cluster.
    struct Run {
        int code = -1;
        QByteArray out, err;
    };
    Run client(const QString &program, const QStringList &args, int timeoutMs = 60000) const;

    bool drain(const QString &node, const QString &reason, QString *error = nullptr) const;
    bool resume(const QString &node, QString *error = nullptr) const;
    // Waits (polling sinfo / squeue) until every node is idle / no job is left.
    bool waitIdle(int timeoutMs = 60000) const;
    bool waitQueueEmpty(int timeoutMs = 60000) const;
    QString log() const;  // slurmctld's and the slurmd logs, for a failure message

private:
    static QString daemon(const QString &name);
    bool writeConfig(QString *error);
    QList<qint64> steps() const;

    TestSlurmOptions m_options;
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_ctld;
    std::vector<std::unique_ptr<QProcess>> m_slurmd;
    bool m_started = false;
};

}  // namespace ingot::test
