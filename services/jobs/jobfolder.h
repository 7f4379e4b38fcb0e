// A job's folder: what Ingot writes there before starting it, what the job writes while it runs, and the names
// of those files (docs/formats.md#training-jobs). Local jobs keep it under the XDG data folder
// (~/.local/share/Ingot/ingot/jobs/<id>); the folder is the job's whole record, so the history is the list of
// these folders.
#pragma once

#include "services/jobs/jobspec.h"

#include <QString>
#include <QStringList>

namespace ingot {

struct JobPaths {
    QString root;  // the job's folder
    QString file(const char *name) const { return root + QLatin1Char('/') + QLatin1String(name); }
    // neuron_parallel_compile's result files (NEURON_PARALLEL_COMPILE_DUMP_RESULTS) in a precompile phase's folder.
    static bool isPrecompileResults(const QString &name)
    {
        return name.startsWith(QLatin1String("neuron_parallel_compile_results_")) && name.endsWith(QLatin1String(".json"));
    }
    QString jobJson() const { return file("job.json"); }            // Ingot: settings, command, port, where
    QString runScript() const { return file("run.sh"); }            // Ingot: the detached wrapper
    QString launcherLog() const { return file("launcher.log"); }    // torchrun's own output
    QString logsDir() const { return file("logs"); }                // torchrun: <run>/attempt_N/<rank>/std{out,err}.log
    QString pidFile() const { return file("launcher.pid"); }        // run.sh: /proc stat lines of itself and torchrun
    QString exitFile() const { return file("exit_status"); }        // run.sh: torchrun's exit status
    QString stopFile() const { return file("stop_request"); }       // Ingot: when Stop was asked, how
    QString defaultOutputDir() const { return file("output"); }
    QString slurmScript() const { return file("slurm.sh"); }       // Ingot: a Slurm job's batch script
    QString slurmJobIdFile() const { return file("slurm_job_id"); } // Ingot: the id sbatch gave it
    // A Slurm job's precompile phase (neuron_parallel_compile): its own batch script, id, output, logs and
    // exit_status, laid out as the job's, in JOB/precompile.
    JobPaths precompilePhase() const { return JobPaths{file("precompile")}; }
};

// The folder of node `rank` of job `id` in a jobs folder: node 0's is the job's own folder, the others' are inside
// it (node-<k>), so nodes on hosts that share a home never write the same files.
QString nodeFolder(const QString &jobsRoot, const QString &id, int rank);

// The folder that holds local jobs: $XDG_DATA_HOME/Ingot/ingot/jobs (QStandardPaths::AppDataLocation).
QString localJobsRoot();
// Where `job status` keeps how far it read a running job's logs (JobFollower::saveState), on this machine whatever
// runs the job: $XDG_CACHE_HOME/ingot/job-status/<sha256 of where and the job's folder>.json. A cache: losing it
// only means reading the logs again.
QString followerStateFile(const QString &where, const QString &jobFolder);
// The Slurm job id sbatch gave a job's phase (its folder: the job's, or its precompile phase's), kept by Ingot on this
// machine, out of the job folder: the job's processes can rewrite JOB/slurm_job_id (they run as the user in that
// folder, on the cluster's shared filesystem), so following and stopping the job go by the id kept here when there is
// one: $XDG_DATA_HOME/Ingot/ingot/slurm-jobs/<sha256 of where and the phase's folder>.
QString keptSlurmJobIdFile(const QString &where, const QString &phaseFolder);
bool keepSlurmJobId(const QString &where, const QString &phaseFolder, const QByteArray &id, QString *error);
QString keptSlurmJobId(const QString &where, const QString &phaseFolder);  // "" when none is kept here
void forgetSlurmJobIds(const QString &where, const QString &jobFolder);   // the job's and its precompile phase's
// A new job id: "20261122-213015-3fa9" (time of creation, then random hex), sortable by time.
QString newJobId();
bool isJobId(const QString &id);  // only [0-9a-z-], 1..64: an id never escapes the jobs folder

// Launch-time facts Ingot records in job.json next to the settings.
struct JobRecordFile {
    QString id;
    JobSpec spec;
    QString where = QStringLiteral("local");  // the runner: "local", or the host
    // A multi-node job: where each node runs, node 0 first (its `where`); empty for one node. Node k's folder is
    // nodeFolder(<that host's jobs folder>, id, k).
    QStringList nodes;
    int nodeRank = 0;      // the node this record's folder is for
    QString masterAddr = QStringLiteral("127.0.0.1");  // torchrun's master: node 0 as the other nodes reach it
    qint64 createdMs = 0;
    int port = 0;
    QString outputDir;     // resolved
    QString backendDir;    // PYTHONPATH for ingot_train
    QStringList argv;      // the exact command
    // Its precompile phase on this machine or a host (JobSpec::precompile): the exact command run first, in
    // JOB/precompile, under neuron_parallel_compile (empty: none).
    QStringList precompileArgv;
    // A Slurm job's step before the training, once on each node (srun --ntasks-per-node=1): *Bring compiled graphs
    // first* into each node's own cache (`ingot-cli cache seed …`, services/neuron/launchseed.h). Empty: none.
    QStringList nodeSetupArgv;
    QStringList env;       // KEY=VALUE set on top of the inherited environment
    QString cwd;
    // A run Ingot did not launch, adopted from its folder (runimport.h): that folder ("": Ingot launched it). Such a
    // job is read-only: nothing stops, resumes or removes the user's files; removing it forgets it.
    QString importedFrom;
    bool imported() const { return !importedFrom.isEmpty(); }

    QByteArray toJson() const;
    static bool fromJson(const QByteArray &data, JobRecordFile *out, QString *error);
};

// The command as one line a user can paste into a shell: VAR=value ... program args.
QString commandLine(const QStringList &env, const QStringList &argv);
// A standalone script (#!/bin/sh, cd, exports, exec) that runs the same command.
QString commandScript(const JobRecordFile &record);
// Ingot's detached wrapper: runs the command with stdin from /dev/null and its output in launcher.log, records the
// /proc stat lines of itself and of torchrun (pid, process group, start time) and the boot id in launcher.pid,
// waits, and records torchrun's exit status in exit_status (files written whole: temp + rename).
QByteArray wrapperScript(const JobRecordFile &record);
// The line the wrapper records for a launcher that ended before its /proc stat could be read: start time 0.
QByteArray endedProcessStat(qint64 pid);

// launcher.pid parsed: who to signal, and how to know it is still the same process.
struct ProcessIdentity {
    qint64 pid = 0;
    qint64 pgid = 0;
    qint64 sid = 0;
    quint64 startTime = 0;  // /proc/<pid>/stat field 22 (clock ticks after boot)
    QString bootId;         // /proc/sys/kernel/random/boot_id at launch
    bool isValid() const { return pid > 0 && startTime > 0; }
};
struct LauncherPids {
    ProcessIdentity wrapper;   // run.sh
    ProcessIdentity launcher;  // torchrun
};
// One line of /proc/<pid>/stat; false when it does not parse (comm may hold spaces and parentheses).
bool parseProcStat(const QByteArray &line, ProcessIdentity *out, char *state = nullptr);
bool parseLauncherPids(const QByteArray &data, LauncherPids *out);

}  // namespace ingot
