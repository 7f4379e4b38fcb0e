#include "tests/support/testslurm.h"

#include "tests/support/testsupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QSysInfo>
#include <QThread>

#include <csignal>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace ingot::test {

namespace {

// The account the daemons run as and the jobs belong to: this process's.
QString userName()
{
    const passwd *pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QStringLiteral("root");
}

QString nodeName(int i)
{
    return QStringLiteral("n%1").arg(i + 1);
}

}  // namespace

TestSlurm::TestSlurm(TestSlurmOptions options) : m_options(std::move(options))
{
    m_options.nodes = qBound(1, m_options.nodes, 2);
}

TestSlurm::~TestSlurm()
{
    stop();
}

// A daemon on the PATH or in the sbin folders (not on an ordinary user's PATH on Debian).
QString TestSlurm::daemon(const QString &name)
{
    const QString found = QStandardPaths::findExecutable(name);
    return found.isEmpty() ? QStandardPaths::findExecutable(name, {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/local/sbin")})
                           : found;
}

bool TestSlurm::available()
{
    return !daemon(QStringLiteral("slurmctld")).isEmpty();
}

QProcessEnvironment TestSlurm::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SLURM_CONF"), confPath());
    return env;
}

bool TestSlurm::writeConfig(QString *error)
{
    const QString d = m_dir.path();
    const QVector<int> ports = freeLoopbackPorts(2 + m_options.nodes);
    if (ports.contains(0)) {
        *error = QStringLiteral("no free port");
        return false;
    }
    const QString host = QSysInfo::machineHostName();
    QString conf = QStringLiteral(
                       "ClusterName=%1\nSlurmctldHost=%2(127.0.0.1)\nSlurmctldPort=%3\nSlurmdPort=%4\n"
                       "AuthType=auth/none\nCredType=cred/none\nProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                       "SwitchType=switch/none\nMpiDefault=none\nStateSaveLocation=%5/state\n"
                       "SlurmctldPidFile=%5/slurmctld.pid\nSlurmctldLogFile=%5/log/slurmctld.log\n"
                       "SlurmdPidFile=%5/slurmd-%n.pid\nSlurmdSpoolDir=%5/spool-%n\nSlurmdLogFile=%5/log/slurmd-%n.log\n"
                       "SlurmUser=%6\nSlurmdUser=%6\nReturnToService=2\nSchedulerType=sched/backfill\n"
                       "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nJobCompType=jobcomp/none\n"
                       "AccountingStorageType=accounting_storage/none\nJobAcctGatherType=jobacct_gather/none\n"
                       "EnforcePartLimits=ALL\nKillWait=5\nMinJobAge=600\nSchedulerParameters=sched_interval=2\n")
                       .arg(clusterName(), host, QString::number(ports[0]), QString::number(ports[1]), d,
                            userName());
    QString gres;
    if (!m_options.gres.isEmpty()) {
        const QString type = m_options.gres.section(QLatin1Char(':'), 0, 0);
        conf += QStringLiteral("GresTypes=") + type + QLatin1Char('\n');
        gres = QStringLiteral(" Gres=") + m_options.gres;
        QFile g(d + QStringLiteral("/gres.conf"));  // next to slurm.conf, where the daemons look
        const QByteArray line = QStringLiteral("Name=%1 Count=%2\n").arg(type, m_options.gres.section(QLatin1Char(':'), -1)).toUtf8();
        if (!g.open(QIODevice::WriteOnly) || g.write(line) != line.size()) {
            *error = QStringLiteral("cannot write gres.conf");
            return false;
        }
    }
    QStringList names;
    for (int i = 0; i < m_options.nodes; ++i) {
        names << nodeName(i);
        conf += QStringLiteral("NodeName=%1 NodeHostname=%2 NodeAddr=127.0.0.1 Port=%3 CPUs=%4 RealMemory=4000%5%6 State=UNKNOWN\n")
                    .arg(nodeName(i), host, QString::number(ports[2 + i]), QString::number(m_options.cpus),
                         m_options.features.isEmpty() ? QString() : QStringLiteral(" Feature=") + m_options.features, gres);
    }
    conf += QStringLiteral("PartitionName=debug Nodes=%1 Default=YES MaxTime=%2 State=UP\n").arg(names.join(QLatin1Char(',')), m_options.maxTime);
    for (const QString &p : m_options.extraPartitions)
        conf += QStringLiteral("PartitionName=") + p + QLatin1Char('\n');
    QDir().mkpath(d + QStringLiteral("/state"));
    QDir().mkpath(d + QStringLiteral("/log"));
    QFile f(confPath());
    if (!f.open(QIODevice::WriteOnly) || f.write(conf.toUtf8()) != conf.toUtf8().size()) {
        *error = QStringLiteral("cannot write ") + confPath();
        return false;
    }
    return true;
}

namespace {

// A daemon gets SIGTERM when the test process ends, however it ends (a watchdog abort runs no destructor): no
// cluster is left running after a test.
void endWithTheTest()
{
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
}

}  // namespace

bool TestSlurm::start(QString *error)
{
    if (!m_dir.isValid() || !writeConfig(error))
        return false;
    m_started = true;
    m_ctld = std::make_unique<QProcess>();
    m_ctld->setProcessEnvironment(environment());
    m_ctld->setStandardOutputFile(QProcess::nullDevice());  // everything is in log/ (log())
    m_ctld->setStandardErrorFile(QProcess::nullDevice());
    m_ctld->setChildProcessModifier(endWithTheTest);
    m_ctld->start(daemon(QStringLiteral("slurmctld")), {QStringLiteral("-D"), QStringLiteral("-i"), QStringLiteral("-f"), confPath()});
    if (!m_ctld->waitForStarted(10000)) {
        *error = QStringLiteral("slurmctld did not start: ") + m_ctld->errorString();
        return false;
    }
    for (int i = 0; i < m_options.nodes; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(environment());
        p->setStandardOutputFile(QProcess::nullDevice());
        p->setStandardErrorFile(QProcess::nullDevice());
        p->setChildProcessModifier(endWithTheTest);
        p->start(daemon(QStringLiteral("slurmd")), {QStringLiteral("-D"), QStringLiteral("-N"), nodeName(i), QStringLiteral("-f"), confPath()});
        if (!p->waitForStarted(10000)) {
            *error = QStringLiteral("slurmd did not start: ") + p->errorString();
            return false;
        }
        m_slurmd.push_back(std::move(p));
    }
    if (!waitIdle(90000)) {
        *error = QStringLiteral("the test cluster's nodes did not become idle:\n") + log();
        return false;
    }
    return true;
}

TestSlurm::Run TestSlurm::client(const QString &program, const QStringList &args, int timeoutMs) const
{
    Run r;
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

bool TestSlurm::drain(const QString &node, const QString &reason, QString *error) const
{
    const Run r = client(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("nodename=") + node,
                                                      QStringLiteral("state=drain"), QStringLiteral("reason=") + reason});
    if (r.code != 0 && error)
        *error = QString::fromLocal8Bit(r.err);
    return r.code == 0;
}

bool TestSlurm::resume(const QString &node, QString *error) const
{
    const Run r = client(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("nodename=") + node, QStringLiteral("state=resume")});
    if (r.code != 0 && error)
        *error = QString::fromLocal8Bit(r.err);
    return r.code == 0;
}

bool TestSlurm::waitIdle(int timeoutMs) const
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const Run r = client(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-N"), QStringLiteral("-p"),
                                                       QStringLiteral("debug"), QStringLiteral("-o"), QStringLiteral("%N %T")}, 10000);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        int idle = 0;
        for (const QByteArray &l : lines)
            if (l.endsWith(" idle"))
                ++idle;
        if (r.code == 0 && idle == m_options.nodes && lines.size() == m_options.nodes)
            return true;
        QThread::msleep(300);
    }
    return false;
}

bool TestSlurm::waitQueueEmpty(int timeoutMs) const
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const Run r = client(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%i")}, 10000);
        if (r.code == 0 && r.out.trimmed().isEmpty())
            return true;
        QThread::msleep(300);
    }
    return false;
}

QString TestSlurm::log() const
{
    QString text;
    const QStringList files = QDir(m_dir.path() + QStringLiteral("/log")).entryList(QDir::Files);
    for (const QString &name : files) {
        QFile f(m_dir.path() + QStringLiteral("/log/") + name);
        if (f.open(QIODevice::ReadOnly))
            text += QStringLiteral("--- ") + name + QLatin1Char('\n') + QString::fromLocal8Bit(f.readAll().right(4000));
    }
    return text;
}

// The slurmstepd processes of this cluster (they leave slurmd's process tree): those whose environment has our
// SLURM_CONF (inherited from slurmd) or with a file open under our folder (the slurmd log, spool sockets).
QList<qint64> TestSlurm::steps() const
{
    QList<qint64> found;
    const QByteArray mine = QFile::encodeName(m_dir.path()) + '/';
    const QByteArray conf = "SLURM_CONF=" + QFile::encodeName(confPath());
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        bool ok = false;
        const qint64 n = pid.toLongLong(&ok);
        if (!ok)
            continue;
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (!comm.open(QIODevice::ReadOnly) || !comm.readAll().startsWith("slurmstepd"))
            continue;
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().split('\0').contains(conf)) {
            found << n;
            continue;
        }
        const QString fdDir = QStringLiteral("/proc/%1/fd").arg(pid);
        const QStringList fds = QDir(fdDir).entryList(QDir::System | QDir::NoDotAndDotDot);
        for (const QString &fd : fds) {
            if (QFile::encodeName(QFile::symLinkTarget(fdDir + QLatin1Char('/') + fd)).startsWith(mine)) {
                found << n;
                break;
            }
        }
    }
    return found;
}

void TestSlurm::stop()
{
    if (!m_started)
        return;
    m_started = false;
    // The steps now (while they hold our files; a step that is ending may close them first), and after.
    QList<qint64> stepPids = steps();
    // Jobs first (their steps outlive slurmd otherwise), then the daemons.
    client(QStringLiteral("scancel"), {QStringLiteral("--full"), QStringLiteral("--user=") + userName()}, 10000);
    const Run all = client(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%i")}, 10000);
    for (const QByteArray &id : all.out.split('\n'))
        if (!id.trimmed().isEmpty())
            client(QStringLiteral("scancel"), {QString::fromLatin1(id.trimmed())}, 10000);
    waitQueueEmpty(15000);
    client(QStringLiteral("scontrol"), {QStringLiteral("shutdown")}, 10000);
    std::vector<QProcess *> procs;
    for (auto &p : m_slurmd)
        procs.push_back(p.get());
    if (m_ctld)
        procs.push_back(m_ctld.get());
    QDeadlineTimer grace(10000);
    for (QProcess *p : procs) {
        if (p->state() != QProcess::NotRunning)
            p->terminate();
        if (!p->waitForFinished(int(qMax<qint64>(100, grace.remainingTime())))) {
            p->kill();
            p->waitForFinished(5000);
        }
    }
    for (const qint64 pid : steps())
        if (!stepPids.contains(pid))
            stepPids << pid;
    auto alive = [&stepPids] {
        QList<qint64> left;
        for (const qint64 pid : stepPids) {
            QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
            if (comm.open(QIODevice::ReadOnly) && comm.readAll().startsWith("slurmstepd"))
                left << pid;
        }
        return left;
    };
    // Steps that are ending on their own are given a moment; then TERM, then KILL.
    QDeadlineTimer ending(3000);
    while (!alive().isEmpty() && !ending.hasExpired())
        QThread::msleep(100);
    for (const qint64 pid : alive())
        ::kill(pid_t(pid), SIGTERM);
    QDeadlineTimer stepGrace(5000);
    while (!alive().isEmpty() && !stepGrace.hasExpired())
        QThread::msleep(100);
    for (const qint64 pid : alive())
        ::kill(pid_t(pid), SIGKILL);
    m_slurmd.clear();
    m_ctld.reset();
}

}  // namespace ingot::test
