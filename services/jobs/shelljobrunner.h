// ShellJobRunner: jobs wherever a RemoteShell runs (a host over SSH; /bin/sh here in tests). Every operation is one
// small POSIX sh script with its names passed as printf %b arguments, so nothing is installed on the host and any
// name survives. Files are written whole (mktemp in the same folder, size checked, rename), read by byte offset
// (bounded), listed with NUL separators without following links; processes are checked and signalled only when
// /proc/<pid>/stat's start time and the boot id are still the job's. The bundled backend is copied to the host once
// per version: <cache>/backend/<sha256 of its files>/, unpacked in a staging folder, checked, then renamed.
#pragma once

#include "services/jobs/jobrunner.h"

#include "services/util/remoteshell.h"

#include <QMutex>

namespace ingot {

struct ShellJobRunnerOptions {
    QString where;     // the runner's name: the host ("shell" for /bin/sh here)
    QString describe;  // for messages: the host
    // Empty: what Ingot itself uses there: ${XDG_DATA_HOME:-$HOME/.local/share}/Ingot/ingot/jobs.
    QString jobsRoot;
    // Empty: ${XDG_CACHE_HOME:-$HOME/.cache}/ingot (the backend goes to <cacheRoot>/backend/<hash>).
    QString cacheRoot;
    // The backend to copy (a folder holding ingot_train/); empty: backendLocation().
    QString backendSource;
    int maxNodes = 64;
    // The kind of store that reads a compile cache where the jobs run ("ssh" for a host: remotehosts.h); empty: the
    // shell runs on this machine (tests), its caches are local ones.
    QString storeKind;
};

// The backend's files (relative paths, sorted as `LC_ALL=C sort` does) and their digest: the sha256 of the lines
// `sha256sum` prints for them ("<hex>  ./<path>\n"), so the host can check a copy with coreutils alone.
struct BackendBundle {
    QStringList files;
    QString hash;  // hex; empty with `error` set when the folder cannot be read
    QString error;
};
BackendBundle scanBackend(const QString &folder);
// A ustar archive of those files (what the host unpacks with tar -x).
QByteArray tarBackend(const QString &folder, const QStringList &files);

class ShellJobRunner final : public JobRunner
{
public:
    ShellJobRunner(std::shared_ptr<RemoteShell> shell, ShellJobRunnerOptions options);
    ~ShellJobRunner() override;

    // Resolves the home, the jobs and cache folders there and the address the shell reached (one round trip) and
    // hashes the local backend. Every other call needs a successful open().
    bool open(QString *error);
    bool isOpen() const;
    std::shared_ptr<RemoteShell> shell() const override { return m_shell; }

    QString where() const override { return m_options.where; }
    QString describe() const override { return m_options.describe; }
    QString jobsRoot() const override;
    QString backendDir() const override;
    int maxNodes() const override { return m_options.maxNodes; }
    QString homeDir() const override;
    QProcessEnvironment neuronEnvironment() const override;
    StoreLocation cacheStore(const QString &path) const override;
    QString masterAddress() const override;
    bool prepareLaunch(QString *error) override;
    QString unreachable() const override;

    bool makeFolder(const QString &folder, QString *error) override;
    bool writeFile(const QString &path, const QByteArray &data, bool executable, QString *error) override;
    bool startDetached(const QString &script, const QString &folder, QString *error) override;
    FileChunk readFile(const QString &path, qint64 offset, qint64 maxBytes) override;
    QStringList listFiles(const QString &folder, int depth) override;
    bool removeTree(const QString &folder, const QString &root, QString *error) override;
    qint64 treeSize(const QString &folder) override;
    PathInfo pathInfo(const QString &path) override;
    ProcessState processState(const ProcessIdentity &id) override;
    bool signalProcess(const ProcessIdentity &id, int signal, QString *error) override;
    int signalJobGroup(qint64 pgid, const QString &jobId, int signal) override;
    int signalChildren(const ProcessIdentity &parent, const QString &jobId, int signal) override;
    int freePort(const QList<int> &taken, QString *error) override;
    QVector<PythonInfo> detectPythons(const std::atomic_bool *stop) override;
    QString bootId() override;

    // The host's ingot-cli: on its PATH, in ~/.local/bin, /usr/local/bin or /usr/bin.
    int runIngotCli(const QStringList &args, int timeoutMs, QByteArray *output, QString *error,
                    const std::atomic_bool *stop) override;

    // Whether the backend of this version is on the host now (complete and unchanged), without copying it.
    bool backendPresent(QString *error);
    // Where ingot-cli is on the host; empty when it has none (*error set only when the host cannot be reached).
    QString findIngotCli(QString *error);

private:
    ShellResult run(const char *script, const QVector<QByteArray> &args, const QByteArray &input = QByteArray(),
            qint64 maxOut = 1 << 20, int timeoutMs = 60000, const char *functions = nullptr);

    std::shared_ptr<RemoteShell> m_shell;
    ShellJobRunnerOptions m_options;
    mutable QMutex m_mutex;
    bool m_open = false;
    QString m_home, m_jobsRoot, m_cacheRoot, m_reached, m_backendHash, m_unreachable;
    QProcessEnvironment m_neuronEnv;
    QStringList m_backendFiles;
    bool m_backendChecked = false;
};

}  // namespace ingot
