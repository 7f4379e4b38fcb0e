// LocalJobRunner: jobs on this machine. Processes are found through /proc and signalled through pidfds, so a pid
// that was reused by another process is never signalled.
#include "services/jobs/jobrunner.h"

#include "services/util/errnotext.h"
#include "services/util/names.h"
#include "services/util/processrun.h"
#include "services/util/saferemove.h"

#include <QCoreApplication>
#include <QDir>

#include <functional>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>

#include <arpa/inet.h>
#include <csignal>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ingot {

namespace {

struct LocalJobRunnerText {
    Q_DECLARE_TR_FUNCTIONS(ingot::LocalJobRunner)
};

QByteArray readSmall(const QString &path, qint64 max = 1 << 16)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(max);
}

QString readBootId()
{
    return QString::fromLatin1(readSmall(QStringLiteral("/proc/sys/kernel/random/boot_id")).trimmed());
}

// The identity of `pid` now, and its state letter; false when it does not exist.
bool currentIdentity(qint64 pid, ProcessIdentity *id, char *state)
{
    const QByteArray stat = readSmall(QStringLiteral("/proc/%1/stat").arg(pid));
    return !stat.isEmpty() && parseProcStat(stat, id, state);
}

bool sameProcess(const ProcessIdentity &want, const ProcessIdentity &now)
{
    return now.pid == want.pid && now.startTime == want.startTime;
}

int pidfdOpen(qint64 pid)
{
#ifdef SYS_pidfd_open
    return int(::syscall(SYS_pidfd_open, pid_t(pid), 0));
#else
    errno = ENOSYS;
    return -1;
#endif
}

// Signals `pid` if it is still `want` (checked after a pidfd pins it, so the check and the signal see one process).
int signalIfSame(const ProcessIdentity &want, int sig)
{
    const int fd = pidfdOpen(want.pid);
    ProcessIdentity now;
    char state = 0;
    if (!currentIdentity(want.pid, &now, &state) || !sameProcess(want, now) || state == 'Z' || state == 'X') {
        if (fd >= 0)
            ::close(fd);
        return ESRCH;
    }
    int rc = 0;
    if (fd >= 0) {
#ifdef SYS_pidfd_send_signal
        rc = ::syscall(SYS_pidfd_send_signal, fd, sig, nullptr, 0) == 0 ? 0 : errno;
#else
        rc = ::kill(pid_t(want.pid), sig) == 0 ? 0 : errno;
#endif
        ::close(fd);
    } else {
        rc = ::kill(pid_t(want.pid), sig) == 0 ? 0 : errno;  // no pidfds (old kernel): checked just before
    }
    return rc;
}

bool environHas(qint64 pid, const QByteArray &entry)
{
    const QByteArray env = readSmall(QStringLiteral("/proc/%1/environ").arg(pid), 1 << 20);
    const QByteArray withEnd = entry + QByteArray(1, '\0');
    return env.startsWith(withEnd) || env.contains(QByteArray(QByteArray(1, '\0') + withEnd));
}

// Writes `path` whole (a temp file beside it, then renamed over it) without following a link: the folder is opened
// with O_NOFOLLOW (a folder that is itself a link is refused), the temp file is created O_EXCL | O_NOFOLLOW in it,
// and renameat replaces whatever entry has the name (a planted link is replaced, its target untouched).
bool writeNoFollow(const QByteArray &path, const QByteArray &data, mode_t mode, QString *error)
{
    const qsizetype slash = path.lastIndexOf('/');
    const QByteArray dir = slash > 0 ? path.left(slash) : slash == 0 ? QByteArray("/") : QByteArray(".");
    const QByteArray name = path.mid(slash + 1);
    const QString shown = displayName(nameFromBytes(path));
    if (name.isEmpty() || name == "." || name == "..") {
        *error = LocalJobRunnerText::tr("Refused to write %1: not a file name.").arg(shown);
        return false;
    }
    const int dfd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        *error = errno == ELOOP || errno == ENOTDIR
            ? LocalJobRunnerText::tr("Refused to write %1: its folder is a link (never followed).").arg(shown)
            : LocalJobRunnerText::tr("Cannot write %1: %2").arg(shown, describeErrno(errno));
        return false;
    }
    struct stat st {};
    if (::fstatat(dfd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
        ::close(dfd);
        *error = LocalJobRunnerText::tr("Cannot write %1: a folder has that name.").arg(shown);
        return false;
    }
    QByteArray tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        tmp = ".ingot-write-" + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
        fd = ::openat(dfd, tmp.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    bool ok = fd >= 0;
    int why = ok ? 0 : errno;
    for (qsizetype done = 0; ok && done < data.size();) {
        const ssize_t w = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (w < 0 && errno == EINTR)
            continue;
        ok = w > 0;
        why = ok ? 0 : errno;
        done += ok ? w : 0;
    }
    if (ok && (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0)) {
        ok = false;
        why = errno;
    }
    if (fd >= 0 && ::close(fd) != 0 && ok) {
        ok = false;
        why = errno;
    }
    if (ok && ::renameat(dfd, tmp.constData(), dfd, name.constData()) != 0) {
        ok = false;
        why = errno;
    }
    if (!ok && fd >= 0)
        ::unlinkat(dfd, tmp.constData(), 0);
    ::close(dfd);
    if (!ok)
        *error = LocalJobRunnerText::tr("Cannot write %1: %2").arg(shown, describeErrno(why));
    return ok;
}

// Signals the processes that `pick` takes (by identity and parent pid) and whose environment holds
// INGOT_JOB_ID=<jobId>: a reused pid or group id is never the job's. Zombies are left. How many were signalled.
int signalJobProcesses(const QString &jobId, int sig, const std::function<bool(const ProcessIdentity &, qint64 ppid)> &pick)
{
    const QByteArray entry = "INGOT_JOB_ID=" + jobId.toLatin1();
    int count = 0;
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &name : pids) {
        bool ok = false;
        const qint64 pid = name.toLongLong(&ok);
        if (!ok)
            continue;
        const QByteArray stat = readSmall(QStringLiteral("/proc/%1/stat").arg(pid));
        ProcessIdentity id;
        char state = 0;
        if (stat.isEmpty() || !parseProcStat(stat, &id, &state) || state == 'Z')
            continue;
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');  // state, ppid, ...
        const qint64 ppid = fields.size() >= 2 ? fields.at(1).toLongLong() : -1;
        if (!pick(id, ppid) || !environHas(pid, entry))
            continue;
        if (signalIfSame(id, sig) == 0)
            ++count;
    }
    return count;
}

}  // namespace

const char *const pythonProbeScript =
    "import json, sys, importlib.util as u\n"
    "r = {'python': sys.version.split()[0]}\n"
    "try:\n"
    "    import torch\n"
    "    r['torch'] = str(torch.__version__)\n"
    "    try:\n"
    "        v = tuple(int(x) for x in torch.__version__.split('+')[0].split('.')[:2])\n"
    "        r['dtensor'] = v >= (2, 4) and u.find_spec('torch.distributed.tensor') is not None\n"
    "    except Exception:\n"
    "        r['dtensor'] = False\n"
    "    try:\n"
    "        r['neuron'] = torch._C._get_privateuse1_backend_name() == 'neuron'\n"
    "    except Exception:\n"
    "        r['neuron'] = False\n"
    "except Exception as e:\n"
    "    r['error'] = (type(e).__name__ + ': ' + str(e))[:300]\n"
    "r['xla'] = u.find_spec('torch_xla') is not None\n"
    "r['neuronx'] = u.find_spec('torch_neuronx') is not None\n"
    "print(json.dumps(r))\n";

PythonInfo parsePythonProbe(const QString &path, const QByteArray &out)
{
    PythonInfo info;
    info.path = path;
    const auto refuse = [&info](const QString &why) {
        const QString path = info.path;
        info = PythonInfo();
        info.path = path;
        info.error = LocalJobRunnerText::tr("its answer to Ingot's probe was refused: %1").arg(why);
        return info;
    };
    // One line of JSON (the probe prints one); a Python that prints more first (a sitecustomize) is read by its last.
    QByteArray line = out.trimmed();
    if (line.isEmpty())
        return refuse(LocalJobRunnerText::tr("it printed nothing"));
    line = line.mid(line.lastIndexOf('\n') + 1);
    if (line.size() > 4096)
        return refuse(LocalJobRunnerText::tr("a line of %1 bytes, more than the probe prints").arg(line.size()));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return refuse(LocalJobRunnerText::tr("not a JSON object"));
    const QJsonObject o = doc.object();
    static const QRegularExpression versionText(QRegularExpression::anchoredPattern(QStringLiteral("[0-9A-Za-z.+_-]{1,64}")));
    const auto version = [&](const char *key, QString *to) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return true;
        if (!v.isString() || !versionText.match(v.toString()).hasMatch())
            return false;
        *to = v.toString();
        return true;
    };
    const auto flag = [&](const char *key, bool *to) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return true;
        *to = v.toBool();
        return v.isBool();
    };
    if (!version("python", &info.version) || info.version.isEmpty() || !version("torch", &info.torchVersion))
        return refuse(LocalJobRunnerText::tr("a version that is not a version"));
    if (!flag("xla", &info.hasTorchXla) || !flag("neuronx", &info.hasTorchNeuronx) || !flag("dtensor", &info.hasDTensor)
        || !flag("neuron", &info.hasNeuronDevice))
        return refuse(LocalJobRunnerText::tr("a flag that is not true or false"));
    const QJsonValue error = o.value(QLatin1String("error"));
    if (!error.isUndefined() && !error.isString())
        return refuse(LocalJobRunnerText::tr("an error that is not text"));
    info.error = error.toString().left(300).section(QLatin1Char('\n'), 0, 0);  // shown through displayText
    return info;
}

namespace {

// `stop` ends a probe that hangs (a python on a network file system that does not answer) as well as the search.
PythonInfo probePython(const QString &path, const std::atomic_bool *stop)
{
    PythonInfo info;
    info.path = path;
    // 30 s (an interpreter that imports torch the first time is slow); its answer is a line of JSON, 64 KiB at most.
    ProcessRequest request;
    request.program = path;
    request.arguments = QStringList{QStringLiteral("-c"), QString::fromLatin1(pythonProbeScript)};
    request.timeoutMs = 30000;
    request.stdoutLimit = OutputLimit{1 << 16, OutputLimit::Over::KeepStart};
    request.stderrLimit = OutputLimit{0, OutputLimit::Over::KeepStart};
    request.stop = stop;
    const ProcessResult p = runProcess(request);
    if (!p.started) {
        info.error = LocalJobRunnerText::tr("cannot run: %1").arg(p.startError);
        return info;
    }
    if (p.timedOut) {
        info.error = LocalJobRunnerText::tr("did not answer within 30 s");
        return info;
    }
    if (p.stopped) {
        info.error = LocalJobRunnerText::tr("not asked: the search was stopped");
        return info;
    }
    if (!p.out.trimmed().endsWith('}')) {  // no JSON line at all: not the probe's Python
        info.error = LocalJobRunnerText::tr("does not run Python 3");
        return info;
    }
    return parsePythonProbe(path, p.out);
}

class LocalJobRunner final : public JobRunner
{
public:
    LocalJobRunner(QString jobsRoot, QString backendDir)
        : m_jobsRoot(std::move(jobsRoot)), m_backendDir(std::move(backendDir))
    {
    }

    QString where() const override { return QStringLiteral("local"); }
    QString describe() const override { return LocalJobRunnerText::tr("this machine"); }
    QString jobsRoot() const override { return m_jobsRoot; }
    QString backendDir() const override { return m_backendDir; }
    int maxNodes() const override { return 1; }
    QString homeDir() const override { return QDir::homePath(); }
    QProcessEnvironment neuronEnvironment() const override { return QProcessEnvironment::systemEnvironment(); }
    std::shared_ptr<RemoteShell> shell() const override { return makeLocalShell(); }

    int runIngotCli(const QStringList &args, int timeoutMs, QByteArray *output, QString *error,
                    const std::atomic_bool *stop) override
    {
        QString cli = QCoreApplication::applicationDirPath() + QStringLiteral("/ingot-cli");
        if (!QFileInfo(cli).isExecutable())
            cli = QStandardPaths::findExecutable(QStringLiteral("ingot-cli"));
        if (cli.isEmpty()) {
            *error = LocalJobRunnerText::tr("This machine has no ingot-cli (beside Ingot or on the PATH).");
            return -1;
        }
        // stdout and stderr as one log whose end says how it went: its last 16 MiB are kept.
        ProcessRequest request;
        request.program = cli;
        request.arguments = args;
        request.timeoutMs = timeoutMs;
        request.stop = stop;
        request.mergeStderr = true;
        request.stdoutLimit = OutputLimit{16 << 20, OutputLimit::Over::KeepEnd};
        // A time limit or a stop sends SIGTERM first: ingot-cli takes it as Ctrl-C, and tidies up.
        request.graceMs = 10000;
        const ProcessResult p = runProcess(request);
        *output = p.out;
        if (!p.ranToEnd()) {
            *error = processProblem(request, p);
            return -1;
        }
        return p.exitCode;
    }

    bool makeFolder(const QString &folder, QString *error) override
    {
        // Each missing folder is created 0700; one that is there keeps its mode (a sticky /tmp, a shared output
        // folder of a multi-node job).
        const QByteArray path = nameToBytes(QDir::cleanPath(folder));
        for (qsizetype i = 1; i <= path.size(); ++i) {
            if (i < path.size() && path.at(i) != '/')
                continue;
            const QByteArray part = path.left(i);
            if (::mkdir(part.constData(), 0700) == 0)
                continue;
            struct stat st {};
            if (errno == EEXIST && ::stat(part.constData(), &st) == 0 && S_ISDIR(st.st_mode))
                continue;
            *error = LocalJobRunnerText::tr("Cannot create %1: %2").arg(displayName(nameFromBytes(part)), describeErrno(errno));
            return false;
        }
        return true;
    }

    bool writeFile(const QString &path, const QByteArray &data, bool executable, QString *error) override
    {
        return writeNoFollow(nameToBytes(path), data, executable ? 0700 : 0600, error);
    }

    bool startDetached(const QString &script, const QString &folder, QString *error) override
    {
        // Not runProcess: a job outlives Ingot (docs/architecture.md). QProcess::startDetached forks twice and calls
        // setsid(): the job has a session and process group of its own, is not Ingot's child (no zombie to reap),
        // and no signal to Ingot's terminal or group reaches it.
        QProcess p;
        p.setProgram(QStringLiteral("/bin/sh"));
        p.setArguments({script});
        p.setWorkingDirectory(folder);
        p.setStandardInputFile(QProcess::nullDevice());
        p.setStandardOutputFile(QProcess::nullDevice());
        p.setStandardErrorFile(QProcess::nullDevice());
        qint64 pid = 0;
        if (!p.startDetached(&pid)) {
            *error = LocalJobRunnerText::tr("Cannot start /bin/sh: %1").arg(p.errorString());
            return false;
        }
        return true;
    }

    FileChunk readFile(const QString &path, qint64 offset, qint64 maxBytes) override
    {
        return readLocalFile(path, offset, maxBytes);
    }

    QStringList listFiles(const QString &folder, int depth) override
    {
        QStringList out;
        list(folder, QString(), depth, &out);
        return out;
    }


    bool removeTree(const QString &folder, const QString &root, QString *error) override
    {
        const QString cleanRoot = QDir::cleanPath(root), cleanFolder = QDir::cleanPath(folder);
        const QFileInfo parent(cleanFolder);
        if (!cleanFolder.startsWith(cleanRoot + QLatin1Char('/')) || parent.fileName().isEmpty()) {
            *error = LocalJobRunnerText::tr("Refused to remove %1: it is not inside %2.").arg(displayName(folder), displayName(root));
            return false;
        }
        // Renamed aside, checked, then removed through descriptors without following a link (saferemove.h).
        const int pfd = ::open(nameToBytes(parent.path()).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (pfd < 0) {
            *error = LocalJobRunnerText::tr("Cannot remove %1: %2").arg(displayName(folder), describeErrno(errno));
            return false;
        }
        qint64 freed = 0;
        const FolderRemoval r = removeFolderAt(pfd, nameToBytes(parent.fileName()), &freed);
        ::close(pfd);
        if (r.step == FolderRemoval::Done)
            return true;
        const QString where = r.where.isEmpty() ? displayName(folder) : displayName(folder + QLatin1Char('/') + nameFromBytes(r.where));
        *error = r.putBack ? LocalJobRunnerText::tr("Cannot remove %1: %2").arg(where, describeErrno(r.error))
                           : LocalJobRunnerText::tr("Cannot remove %1: %2 (what remains is in %3)")
                                 .arg(where, describeErrno(r.error), displayName(parent.path() + QLatin1Char('/') + nameFromBytes(r.aside)));
        return false;
    }

    qint64 treeSize(const QString &folder) override
    {
        qint64 total = 0;
        QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            total += it.fileInfo().size();
        }
        return total;
    }

    PathInfo pathInfo(const QString &path) override
    {
        // By bytes: a name that is not UTF-8 is looked up as it is.
        PathInfo p;
        const QByteArray n = nameToBytes(path);
        struct stat st {};
        if (::lstat(n.constData(), &st) != 0)
            return p;
        p.exists = true;
        p.isLink = S_ISLNK(st.st_mode);
        if (p.isLink && ::stat(n.constData(), &st) != 0)
            return p;  // a dangling link
        p.isDir = S_ISDIR(st.st_mode);
        p.isFile = S_ISREG(st.st_mode);
        p.isExecutable = p.isFile && ::access(n.constData(), X_OK) == 0;
        return p;
    }

    ProcessState processState(const ProcessIdentity &id) override
    {
        if (!id.isValid())
            return ProcessState::Unknown;
        if (!id.bootId.isEmpty() && id.bootId != readBootId())
            return ProcessState::Gone;  // the machine restarted since: that process is gone
        ProcessIdentity now;
        char state = 0;
        if (!currentIdentity(id.pid, &now, &state) || !sameProcess(id, now) || state == 'Z' || state == 'X')
            return ProcessState::Gone;
        return ProcessState::Running;
    }

    bool signalProcess(const ProcessIdentity &id, int sig, QString *error) override
    {
        if (!id.bootId.isEmpty() && id.bootId != readBootId()) {
            *error = LocalJobRunnerText::tr("The machine restarted since the job started: process %1 is not the job's.").arg(id.pid);
            return false;
        }
        const int rc = signalIfSame(id, sig);
        if (rc == ESRCH)
            *error = LocalJobRunnerText::tr("Process %1 has ended (its pid is not the job's launcher any more).").arg(id.pid);
        else if (rc)
            *error = LocalJobRunnerText::tr("Cannot signal process %1: %2").arg(id.pid).arg(describeErrno(rc));
        return rc == 0;
    }

    int signalJobGroup(qint64 pgid, const QString &jobId, int sig) override
    {
        if (pgid <= 1)
            return 0;
        return signalJobProcesses(jobId, sig, [pgid](const ProcessIdentity &id, qint64) { return id.pgid == pgid; });
    }

    int signalChildren(const ProcessIdentity &parent, const QString &jobId, int sig) override
    {
        if (processState(parent) != ProcessState::Running)
            return 0;
        return signalJobProcesses(jobId, sig, [&parent](const ProcessIdentity &id, qint64 ppid) {
            return ppid == parent.pid && id.pid != parent.pid;
        });
    }

    int freePort(const QList<int> &taken, QString *error) override
    {
        for (int attempt = 0; attempt < 50; ++attempt) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (fd < 0)
                break;
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            a.sin_port = 0;
            socklen_t len = sizeof a;
            int port = 0;
            if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0
                && ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
                port = ntohs(a.sin_port);
            ::close(fd);
            if (port > 0 && port != 29400 && !taken.contains(port))
                return port;
        }
        *error = LocalJobRunnerText::tr("No free TCP port on 127.0.0.1 for the rendezvous.");
        return 0;
    }

    QVector<PythonInfo> detectPythons(const std::atomic_bool *stop) override
    {
        QStringList candidates;
        auto add = [&](const QString &p) {
            if (!p.isEmpty() && QFileInfo(p).isExecutable() && !candidates.contains(p))
                candidates << p;
        };
        const QString venv = qEnvironmentVariable("VIRTUAL_ENV");
        if (!venv.isEmpty())
            add(venv + QStringLiteral("/bin/python3"));
        const QStringList neuron = QDir(QStringLiteral("/opt")).entryList({QStringLiteral("aws_neuronx_venv_*")},
                                                                         QDir::Dirs, QDir::Name);
        for (const QString &d : neuron)
            add(QStringLiteral("/opt/") + d + QStringLiteral("/bin/python3"));
        add(QStandardPaths::findExecutable(QStringLiteral("python3")));
        add(QStringLiteral("/usr/bin/python3"));
        add(QStringLiteral("/opt/conda/bin/python3"));
        QVector<PythonInfo> out;
        for (const QString &c : candidates) {
            if (stop && stop->load())
                break;
            out << probePython(c, stop);
        }
        return out;
    }

    QString bootId() override { return readBootId(); }

private:
    void list(const QString &base, const QString &rel, int depth, QStringList *out)
    {
        const QDir dir(rel.isEmpty() ? base : base + QLatin1Char('/') + rel);
        const QFileInfoList entries = dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                                                        QDir::Name);
        for (const QFileInfo &fi : entries) {
            const QString r = rel.isEmpty() ? fi.fileName() : rel + QLatin1Char('/') + fi.fileName();
            if (fi.isSymLink())
                continue;
            if (fi.isDir()) {
                if (depth > 0)
                    list(base, r, depth - 1, out);
            } else {
                out->append(r);
            }
            if (out->size() > 100000)
                return;
        }
    }

    QString m_jobsRoot;
    QString m_backendDir;
};

}  // namespace

FileChunk readLocalFile(const QString &path, qint64 offset, qint64 maxBytes, bool followLinks)
{
    FileChunk c;
    const QByteArray n = nameToBytes(path);
    // O_NONBLOCK: a FIFO planted in a job's folder must not hang the open; only regular files are read.
    const int fd = ::open(n.constData(), O_RDONLY | (followLinks ? 0 : O_NOFOLLOW) | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP) {
            c.exists = true;
            c.error = LocalJobRunnerText::tr("a symbolic link (not followed)");
        } else if (errno != ENOENT) {
            c.error = describeErrno(errno);
        }
        return c;
    }
    c.exists = true;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        c.error = LocalJobRunnerText::tr("not a regular file");
        ::close(fd);
        return c;
    }
    c.size = st.st_size;
    c.modified = double(st.st_mtim.tv_sec) + double(st.st_mtim.tv_nsec) / 1e9;
    if (offset < c.size && maxBytes > 0) {
        const qint64 want = std::min(maxBytes, c.size - offset);
        c.data.resize(want);
        qint64 got = 0;
        while (got < want) {
            const ssize_t r = ::pread(fd, c.data.data() + got, size_t(want - got), off_t(offset + got));
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                if (r < 0)
                    c.error = describeErrno(errno);
                break;
            }
            got += r;
        }
        c.data.truncate(got);
    }
    ::close(fd);
    return c;
}

std::shared_ptr<JobRunner> makeLocalJobRunner(const QString &jobsRoot, const QString &backendDir)
{
    return std::make_shared<LocalJobRunner>(jobsRoot.isEmpty() ? localJobsRoot() : jobsRoot,
                                            backendDir.isEmpty() ? backendLocation() : backendDir);
}

QString backendLocation()
{
    const QString fromEnv = qEnvironmentVariable("INGOT_BACKEND_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/ingot/backend");
    if (QFileInfo::exists(installed + QStringLiteral("/ingot_train/__init__.py")))
        return QDir::cleanPath(installed);
#ifdef INGOT_SOURCE_BACKEND
    return QStringLiteral(INGOT_SOURCE_BACKEND);
#else
    return QDir::cleanPath(installed);
#endif
}

}  // namespace ingot
