// Where a job's processes run and its files live. Everything the job service does to a job goes through this
// interface: write its folder, start it detached, read its files by byte offset, check and signal its processes,
// find a free port and the Python interpreters there. LocalJobRunner is this machine; ShellJobRunner does the same
// through small POSIX scripts over a RemoteShell (a host over SSH). Every call blocks: call from a worker (runTask)
// or the CLI, never the UI thread.
#pragma once

#include "services/jobs/jobfolder.h"
#include "services/stores/storelocation.h"
#include "services/util/remoteshell.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>
#include <memory>

namespace ingot {

struct FileChunk {
    bool exists = false;
    qint64 size = 0;  // the file's size now
    double modified = 0;  // its last modification, seconds since the epoch (0: unknown)
    QByteArray data;  // from the offset asked, at most the bytes asked
    QString error;    // set when it exists but could not be read
};

enum class ProcessState { Running, Gone, Unknown };  // Unknown: could not be checked (another boot, no /proc)

// What is at a path (not following a link at the path itself).
struct PathInfo {
    bool exists = false;
    bool isLink = false;
    bool isDir = false;         // a folder (a link to one counts, with isLink set)
    bool isFile = false;        // a regular file (or a link to one)
    bool isExecutable = false;  // a file this user may run
    QString error;              // set when it could not be checked (the host could not be reached)
};

struct PythonInfo {
    QString path;
    QString torchVersion;  // empty: torch does not import
    QString version;       // Python's
    bool hasTorchXla = false;
    bool hasTorchNeuronx = false;
    bool hasDTensor = false;       // torch.distributed.tensor (torch 2.4 and later): what the native engine needs
    bool hasNeuronDevice = false;  // torch's PrivateUse1 backend is named "neuron" (TorchNeuron loaded with torch)
    QString error;  // why torch does not import (first line), or why the answer was refused
    QString askedOn;  // a Slurm job's: "" a compute node (srun), else why the login node answered instead
    bool usable() const { return !torchVersion.isEmpty(); }
};

// What a runner asks each Python candidate (python -c): one JSON line with its version, torch's version or why torch
// does not import, whether torch_xla and torch_neuronx are installed, whether torch has torch.distributed.tensor and
// a `neuron` device.
extern const char *const pythonProbeScript;
// The probe's answer read with bounds: one JSON object of known keys, versions of at most 64 characters of
// [0-9A-Za-z.+_-], flags that are booleans. Anything else is refused: `error` says so and the Python is not usable.
PythonInfo parsePythonProbe(const QString &path, const QByteArray &out);

class JobRunner
{
public:
    virtual ~JobRunner() = default;

    virtual QString where() const = 0;  // "local", or the host
    virtual QString describe() const = 0;  // "this machine"
    virtual QString jobsRoot() const = 0;  // where job folders go
    virtual QString backendDir() const = 0;  // the folder that holds the ingot_train package
    virtual int maxNodes() const = 0;
    virtual QString homeDir() const = 0;  // the user's home where the jobs run
    // The address the other nodes of a multi-node job reach this machine at (the rendezvous master).
    virtual QString masterAddress() const { return QStringLiteral("127.0.0.1"); }
    // The Neuron variables a job started here inherits (NEURON_CC_FLAGS, NEURON_COMPILE_CACHE_URL: those set), as
    // startDetached() starts it: this process's environment, or a host's as its shell gives it to a job.
    virtual QProcessEnvironment neuronEnvironment() const = 0;
    // A shell where this runner's jobs run, for the tools there (Slurm's clients on a login node).
    virtual std::shared_ptr<RemoteShell> shell() const = 0;
    // A compile cache at `path` where this runner's jobs run, as a store (this machine's unless a host's).
    virtual StoreLocation cacheStore(const QString &path) const { return StoreLocation::local(path); }

    // Before a launch: makes sure backendDir() holds the backend (a host gets it copied once per version).
    virtual bool prepareLaunch(QString *error)
    {
        Q_UNUSED(error)
        return true;
    }
    // Why the last operation could not reach this runner's machine (the network, the host is down); empty when it
    // could. A follower keeps the last state it saw while this is set: the job itself goes on there.
    virtual QString unreachable() const { return {}; }

    // Creates `folder` and its parents; the folders it creates are private to the user (0700). A folder that is
    // already there keeps its mode (a shared or sticky /tmp-like folder is never narrowed).
    virtual bool makeFolder(const QString &folder, QString *error) = 0;
    // Writes a file whole or not at all (temp + rename); executable: mode 0700. Never follows a link: a link at the
    // path is replaced, not written through, and a folder that is itself a link is refused.
    virtual bool writeFile(const QString &path, const QByteArray &data, bool executable, QString *error) = 0;
    // Starts `sh script` detached: its own session, stdin/stdout/stderr on /dev/null, cwd `folder`. Not waited for.
    virtual bool startDetached(const QString &script, const QString &folder, QString *error) = 0;
    // Bytes [offset, offset + maxBytes) of a file, and its current size. Only regular files are read (a link, a FIFO
    // or a device is refused with `error` set, never opened in a way that blocks).
    virtual FileChunk readFile(const QString &path, qint64 offset, qint64 maxBytes) = 0;
    // Files under `folder`, relative to it, at most `depth` folders deep (not following links).
    virtual QStringList listFiles(const QString &folder, int depth) = 0;
    // Moves a folder's whole tree out of the way and deletes it, never following links; refuses anything not
    // strictly under `root`.
    virtual bool removeTree(const QString &folder, const QString &root, QString *error) = 0;
    virtual qint64 treeSize(const QString &folder) = 0;
    virtual PathInfo pathInfo(const QString &path) = 0;

    // Whether that very process (pid, start time, boot) still runs.
    virtual ProcessState processState(const ProcessIdentity &id) = 0;
    // Signals that very process; false (and why) when it is gone or another process has its pid now.
    virtual bool signalProcess(const ProcessIdentity &id, int signal, QString *error) = 0;
    // Signals every process of the job: in `pgid`'s process group and carrying INGOT_JOB_ID=jobId. Returns how
    // many were signalled.
    virtual int signalJobGroup(qint64 pgid, const QString &jobId, int signal) = 0;
    // Signals the children of that very process (a job's torchrun: its ranks) that carry INGOT_JOB_ID=jobId, never
    // the process itself; how many were signalled (0 when it is gone or another process has its pid now). How a
    // stack dump reaches the ranks without touching torchrun (jobstall.h).
    virtual int signalChildren(const ProcessIdentity &parent, const QString &jobId, int signal) = 0;
    // A TCP port free on the loopback interface now (for torchrun's rendezvous), avoiding `taken`.
    virtual int freePort(const QList<int> &taken, QString *error) = 0;
    // Interpreters that could run a job; `stop` ends the search early.
    virtual QVector<PythonInfo> detectPythons(const std::atomic_bool *stop) = 0;
    virtual QString bootId() = 0;
    // Runs Ingot's CLI where the jobs run (`ingot-cli ARGS`, waiting up to timeoutMs): its exit code, its output
    // (stdout and stderr, the last 16 MiB) in *output; -1 with words in *error when there is none there or it could
    // not run. This machine's: the ingot-cli beside this program, else on the PATH. `stop` (or the time limit) ends
    // it where it runs with SIGTERM, which it takes as Ctrl-C: what it was writing is removed.
    virtual int runIngotCli(const QStringList &args, int timeoutMs, QByteArray *output, QString *error,
                            const std::atomic_bool *stop) = 0;
};

// The runner of a `where` ("local", or a host), ready to use; nullptr with words in *error when it cannot be had now
// (the host cannot be reached, its key is not trusted). Blocking.
using RunnerLookup = std::function<std::shared_ptr<JobRunner>(const QString &where, QString *error)>;

// Bytes of a file on this machine as LocalJobRunner::readFile reads them: a regular file only (a FIFO or a device:
// `error` set, never waited on); a link at the path is refused too unless `followLinks` (files the user chose: a
// model folder from a Hub snapshot is links).
FileChunk readLocalFile(const QString &path, qint64 offset, qint64 maxBytes, bool followLinks = false);

// This machine. jobsRoot: where job folders go (default localJobsRoot()); backendDir: default backendLocation().
std::shared_ptr<JobRunner> makeLocalJobRunner(const QString &jobsRoot = QString(), const QString &backendDir = QString());

// Where the bundled backend is: $INGOT_BACKEND_DIR, the installed share/ingot/backend beside the executable, or
// the source tree's resources/backend (a build that is not installed).
QString backendLocation();

}  // namespace ingot
