#include "tests/support/testsupport.h"

#include "services/cache/samplecache.h"
#include "services/stores/cachestore.h"
#include "services/util/names.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QRandomGenerator>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <arpa/inet.h>
#include <csignal>
#include <new>
#include <netinet/in.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ingot::test {

namespace {
QString describe(const StoreEntry &e)
{
    return QStringLiteral("%1 type=%2 size=%3 alloc=%4 m=%5 a=%6 c=%7 broken=%8 out=%9 hub=%10 dir=%11 id=%12")
        .arg(displayName(e.name))
        .arg(int(e.type))
        .arg(e.size)
        .arg(e.allocated)
        .arg(e.mtimeMs)
        .arg(e.atimeMs)
        .arg(e.ctimeMs)
        .arg(e.linkBroken)
        .arg(e.linkOutsideRoot)
        .arg(e.linkToHubBlob)
        .arg(e.linkTargetIsDir)
        .arg(e.linkId);
}

QStringList described(const QVector<StoreEntry> &entries)
{
    QStringList out;
    for (const StoreEntry &e : entries)
        out << describe(e);
    out.sort();
    return out;
}

}  // namespace

void readEveryFolder(const QString &root)
{
    // nftw: QDir cannot open a folder whose name is not UTF-8.
    ::nftw(QFile::encodeName(root).constData(), [](const char *, const struct stat *, int, FTW *) { return 0; }, 32,
           FTW_PHYS);
}

void removeTree(const QString &root)
{
    ::nftw(QFile::encodeName(root).constData(),
           [](const char *path, const struct stat *, int type, FTW *) {
               return type == FTW_DP ? ::rmdir(path) * 0 : ::unlink(path) * 0;
           },
           32, FTW_PHYS | FTW_DEPTH);
}

void compareStores(CacheStore &expected, CacheStore &actual, const QString &rel, int *folders)
{
    const ListResult a = expected.list(rel);
    const ListResult b = actual.list(rel);
    QVERIFY2(a.ok && b.ok, qPrintable(displayName(rel) + QStringLiteral(": ") + a.error + b.error));
    QCOMPARE(described(b.entries), described(a.entries));
    if (!rel.isEmpty())
        QCOMPARE(describe(b.self), describe(a.self));
    ++*folders;
    for (const StoreEntry &e : a.entries)
        if (e.type == StoreEntry::Type::Dir)
            compareStores(expected, actual, rel.isEmpty() ? e.name : rel + QLatin1Char('/') + e.name, folders);
}

QString makeSampleCache(const QTemporaryDir &dir, int modules, quint64 seed, qint64 nowMs)
{
    SampleCacheOptions o;
    o.modules = modules;
    o.seed = seed;
    o.nowMs = nowMs;
    const QString root = dir.path() + QStringLiteral("/cache");
    QString error;
    if (!writeSampleCache(root, o, nullptr, &error))
        qFatal("sample cache: %s", qPrintable(error));
    return root;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray randomBytes(qint64 n, quint32 seed)
{
    QByteArray b(n, Qt::Uninitialized);
    QRandomGenerator g(seed);
    for (qint64 i = 0; i < n; i += 4) {
        const quint32 v = g.generate();
        for (qint64 k = 0; k < 4 && i + k < n; ++k)
            b[i + k] = char(v >> (8 * k));
    }
    return b;
}

ProgramRun runProgram(const QString &program, const QStringList &args, int timeoutMs)
{
    return runProgram(program, args, QProcessEnvironment::systemEnvironment(), timeoutMs);
}

ProgramRun runProgram(const QString &program, const QStringList &args, const QProcessEnvironment &env, int timeoutMs)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        return {-1, p.readAllStandardOutput(), p.readAllStandardError()};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
}

void setAge(const QString &path, double ageDays)
{
    const qint64 t = QDateTime::currentMSecsSinceEpoch() - qint64(ageDays * 86400000.0);
    struct timespec ts[2];
    ts[0].tv_sec = time_t(t / 1000);
    ts[0].tv_nsec = 0;
    ts[1] = ts[0];
    ::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), ts, AT_SYMLINK_NOFOLLOW);
}

void makeModule(const QString &root, const QString &version, const QString &name, const QStringList &files,
                double ageDays, qint64 neffBytes)
{
    const QString dir = root + QLatin1Char('/') + version + QLatin1Char('/') + name;
    QDir().mkpath(dir);
    for (const QString &f : files) {
        const QString p = dir + QLatin1Char('/') + f;
        if (f == QLatin1String("model.neff")) {
            QFile file(p);
            file.open(QIODevice::WriteOnly);
            file.resize(neffBytes);
        } else if (f == QLatin1String("model.log")) {
            writeFile(p, "ERROR: compilation failed\nline 2\nlast line of the log\n");
        } else if (f == QLatin1String("compile_flags.json")) {
            writeFile(p, "[\"--model-type=transformer\"]");
        } else {
            writeFile(p, QByteArray(100, 'x'));
        }
        setAge(p, ageDays);
    }
    setAge(dir, ageDays);
}

bool isRoot()
{
    return ::geteuid() == 0;
}

bool isUnprivilegedChild()
{
    return qEnvironmentVariableIntValue("INGOT_TEST_UNPRIVILEGED") == 1;
}

int runSelfAsNobody(const QString &testFunction, const QStringList &env, QString *output)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(QStringLiteral("INGOT_TEST_UNPRIVILEGED"), QStringLiteral("1"));
    e.insert(QStringLiteral("HOME"), QDir::tempPath());
    for (const QString &kv : env)
        e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    p.setProcessEnvironment(e);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("setpriv"), {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                        QStringLiteral("--clear-groups"), QCoreApplication::applicationFilePath(),
                                        testFunction});
    p.waitForFinished(120000);
    if (output)
        *output = QString::fromLocal8Bit(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

FileSizeLimit::FileSizeLimit(unsigned long long bytes)
{
    std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim {};
    getrlimit(RLIMIT_FSIZE, &lim);
    m_old = lim.rlim_cur;
    lim.rlim_cur = rlim_t(bytes);
    setrlimit(RLIMIT_FSIZE, &lim);
}

FileSizeLimit::~FileSizeLimit()
{
    struct rlimit lim {};
    getrlimit(RLIMIT_FSIZE, &lim);
    lim.rlim_cur = rlim_t(m_old);
    setrlimit(RLIMIT_FSIZE, &lim);
}

void rerunUnprivileged(const char *testFunction)
{
    QTemporaryDir tmp;
    QFile::setPermissions(tmp.path(), QFile::permissions(tmp.path()) | QFile::ReadOther | QFile::ExeOther | QFile::WriteOther);
    QString out;
    const int rc = runSelfAsNobody(QString::fromLatin1(testFunction), {QStringLiteral("INGOT_TEST_DIR=") + tmp.path()}, &out);
    if (rc == -1 || out.contains(QStringLiteral("setpriv:")))
        QSKIP("cannot switch to an unprivileged user here");
    QVERIFY2(rc == 0, qPrintable(out));
}

FakeCompilerProcess::FakeCompilerProcess(const QTemporaryDir &dir)
{
    const QString exe = dir.path() + QStringLiteral("/bin/neuronx-cc");
    QDir().mkpath(dir.path() + QStringLiteral("/bin"));
    QFile::remove(exe);
    if (!QFile::copy(QStringLiteral("/bin/sleep"), exe))
        qFatal("cannot copy sleep");
    QFile::setPermissions(exe, QFile::permissions(exe) | QFile::ExeUser | QFile::ExeGroup | QFile::ExeOther);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const QByteArray path = QFile::encodeName(exe);
        ::execl(path.constData(), "neuronx-cc", "300", static_cast<char *>(nullptr));
        ::_exit(127);
    }
    m_pid = pid;
    // Ready once exec() has happened and /proc shows the new name (what Ingot looks for).
    const QString comm = QStringLiteral("/proc/%1/comm").arg(pid);
    auto named = [&comm] {
        QFile f(comm);
        return f.open(QIODevice::ReadOnly) && f.readAll().trimmed() == "neuronx-cc";
    };
    if (!QTest::qWaitFor(named, 10000))
        qFatal("the fake neuronx-cc process did not start");
}

FakeCompilerProcess::~FakeCompilerProcess()
{
    if (m_pid > 0) {
        ::kill(pid_t(m_pid), SIGKILL);
        ::waitpid(pid_t(m_pid), nullptr, 0);
    }
}

QVector<int> freeLoopbackPorts(int count)
{
    QVector<int> fds, ports;
    for (int i = 0; i < count; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof(a);
        int port = 0;
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) == 0
            && ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
            port = ntohs(a.sin_port);
        fds << fd;
        ports << port;
    }
    for (const int fd : fds)
        if (fd >= 0)
            ::close(fd);
    return ports;
}

void deliverPostedEvents()
{
    for (int i = 0; i < 20 && QCoreApplication::instance(); ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
}

namespace {
qint64 statusKb(const char *key)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(qsizetype(qstrlen(key))).trimmed().split(' ').value(0).toLongLong();
    return 0;
}

void writeAll(int fd, const QByteArray &bytes)
{
    for (qsizetype done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += n;
    }
}
}  // namespace

LimitedRun runWithMemoryLimit(const std::function<QByteArray()> &work, qint64 limitMb)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        const qint64 startKb = statusKb("VmRSS:");
        if (memoryBoundKb(0) == 0) {  // not under AddressSanitizer
            const rlim_t cap = rlim_t((statusKb("VmSize:") + limitMb * 1024) * 1024);
            const struct rlimit lim = {cap, cap};
            ::setrlimit(RLIMIT_AS, &lim);
        }
        // Every way out of the child is _exit: an exception (bad_alloc) must not unwind into QTest, which would carry
        // on running the tests in the child.
        try {
            const QByteArray out = work();
            writeAll(fds[1], QByteArray::number(statusKb("VmHWM:") - startKb) + '\n' + out);
        } catch (const std::bad_alloc &) {
            ::_exit(3);
        } catch (...) {
            ::_exit(4);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    QByteArray report;
    char buf[4096];
    for (ssize_t n; pid > 0 && (n = ::read(fds[0], buf, sizeof buf)) != 0;)  // until the child's end closes the pipe
        if (n > 0)
            report.append(buf, n);
        else if (errno != EINTR)
            break;
    ::close(fds[0]);
    LimitedRun r;
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid)
        return r;
    r.exited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    r.status = WIFSIGNALED(status)       ? QStringLiteral("killed by signal %1").arg(WTERMSIG(status))
               : WEXITSTATUS(status) == 3 ? QStringLiteral("std::bad_alloc")
                                          : QStringLiteral("exit %1").arg(WEXITSTATUS(status));
    const qsizetype nl = report.indexOf('\n');
    if (nl >= 0) {
        r.growthKb = report.left(nl).toLongLong();
        r.output = report.mid(nl + 1);
    }
    return r;
}

QString neuronStandIns(const QString &dir)
{
    const QString bin = dir + QStringLiteral("/neuron-venv/bin");
    QDir().mkpath(bin);
    QFile::remove(bin + QStringLiteral("/python3"));
    QFile::link(QStringLiteral("/usr/bin/python3"), bin + QStringLiteral("/python3"));
    const QDir standins(QStringLiteral(INGOT_SOURCE_DIR "/tests/support/standins"));
    for (const QString &f : standins.entryList(QDir::Files)) {
        QFile::remove(bin + QLatin1Char('/') + f);
        QFile::copy(standins.filePath(f), bin + QLatin1Char('/') + f);
        QFile::setPermissions(bin + QLatin1Char('/') + f, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                                              | QFileDevice::ReadUser | QFileDevice::ExeUser);
    }
    return bin;
}

QModelIndex firstChildWith(const QAbstractItemModel *model, int role, int value)
{
    for (int g = 0; g < model->rowCount(); ++g)
        for (int r = 0; r < model->rowCount(model->index(g, 0)); ++r) {
            const QModelIndex i = model->index(r, 0, model->index(g, 0));
            if (i.data(role).toInt() == value)
                return i;
        }
    return {};
}

}  // namespace ingot::test
