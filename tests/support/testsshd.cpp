#include "tests/support/testsshd.h"

#include "tests/support/testsupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QThread>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot::test {

namespace {

bool portAccepts(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(quint16(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) == 0;
    ::close(fd);
    return ok;
}

bool runTool(const QString &program, const QStringList &args, QString *error, QByteArray *out = nullptr)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = program + QStringLiteral(" failed: ") + QString::fromLocal8Bit(p.readAllStandardError());
        return false;
    }
    if (out)
        *out = p.readAllStandardOutput();
    return true;
}

bool writeText(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

// The pids whose parent is `pid`, and theirs (sshd's per-connection and session processes).
QList<qint64> descendants(qint64 pid)
{
    QList<qint64> out;
    QList<qint64> todo{pid};
    const QStringList procs = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    while (!todo.isEmpty()) {
        const qint64 parent = todo.takeFirst();
        for (const QString &name : procs) {
            bool ok = false;
            const qint64 child = name.toLongLong(&ok);
            if (!ok)
                continue;
            const QByteArray stat = readFile(QStringLiteral("/proc/%1/stat").arg(child));
            const int close = stat.lastIndexOf(')');
            if (close < 0)
                continue;
            const QList<QByteArray> f = stat.mid(close + 2).split(' ');  // state ppid ...
            if (f.size() > 1 && f.at(1).toLongLong() == parent && !out.contains(child)) {
                out << child;
                todo << child;
            }
        }
    }
    return out;
}

}  // namespace

TestSshd::TestSshd(QString alias, const TestSshd *jump)
    : m_alias(std::move(alias)), m_jump(jump)
{
}

TestSshd::~TestSshd()
{
    stop();
}

QString TestSshd::userName() const
{
    const passwd *pw = ::getpwuid(::getuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QString();
}

bool TestSshd::generateKeys(QString *error)
{
    const QString d = m_dir.path();
    QFile::remove(d + QStringLiteral("/host_ed25519"));
    QFile::remove(d + QStringLiteral("/host_ed25519.pub"));
    if (!runTool(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                QStringLiteral("-N"), QString(), QStringLiteral("-C"),
                                                QStringLiteral("ingot-test-host"), QStringLiteral("-f"),
                                                d + QStringLiteral("/host_ed25519")},
                 error))
        return false;
    if (m_keysMade)
        return true;
    if (!runTool(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                QStringLiteral("-N"), QString(), QStringLiteral("-C"),
                                                QStringLiteral("ingot-test"), QStringLiteral("-f"), identityFile()},
                 error)
        || !runTool(QStringLiteral("ssh-keygen"),
                    {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                     passphrase(), QStringLiteral("-C"), QStringLiteral("ingot-test-passphrase"), QStringLiteral("-f"),
                     passphraseIdentityFile()},
                    error))
        return false;
    const QByteArray keys = readFile(identityFile() + QStringLiteral(".pub"))
                            + readFile(passphraseIdentityFile() + QStringLiteral(".pub"));
    if (!writeText(d + QStringLiteral("/authorized_keys"), keys)) {
        *error = QStringLiteral("cannot write authorized_keys");
        return false;
    }
    m_keysMade = true;
    return true;
}

QString TestSshd::configBlock() const
{
    QString block = QStringLiteral("Host %1\n"
                                   "  HostName 127.0.0.1\n"
                                   "  Port %2\n"
                                   "  User %3\n"
                                   "  IdentityFile %4\n"
                                   "  IdentitiesOnly yes\n"
                                   "  UserKnownHostsFile %5\n")
                        .arg(m_alias, QString::number(m_port), userName(), identityFile(), knownHostsFile());
    if (m_jump)
        block += QStringLiteral("  ProxyJump %1\n").arg(m_jump->alias());
    return block;
}

bool TestSshd::start(QString *error)
{
    if (!m_dir.isValid()) {
        *error = QStringLiteral("no temporary folder");
        return false;
    }
    if (!m_keysMade && !generateKeys(error))
        return false;
    if (m_port == 0)
        m_port = freeLoopbackPorts(1).value(0);
    const QString d = m_dir.path();
    const QString config = QStringLiteral("ListenAddress 127.0.0.1\n"
                                          "Port %1\n"
                                          "HostKey %2/host_ed25519\n"
                                          "AuthorizedKeysFile %2/authorized_keys\n"
                                          "StrictModes no\n"
                                          "PasswordAuthentication no\n"
                                          "KbdInteractiveAuthentication no\n"
                                          "UsePAM no\n"
                                          "PermitRootLogin prohibit-password\n"
                                          "PidFile %2/sshd.pid\n"
                                          "Subsystem sftp internal-sftp\n"
                                          "LogLevel VERBOSE\n"
                                          "AcceptEnv NEURON_CC_FLAGS NEURON_COMPILE_CACHE_URL XDG_DATA_HOME XDG_CACHE_HOME\n"
                                          // Sessions start with SHLVL=1, so bash (Debian's sources ~/.bashrc when sshd
                                          // runs it at level 1) skips the account's ~/.bashrc: the tests must not hang on
                                          // this machine's dotfiles (a pyenv rehash lock left by a killed shell made
                                          // every session wait 60 s).
                                          "SetEnv SHLVL=1 %3\n")  // sshd takes the first SetEnv line only
                               .arg(QString::number(m_port), d, m_sessionEnv.join(QLatin1Char(' ')));
    QString client = configBlock();
    if (m_jump)
        client += QLatin1Char('\n') + m_jump->configBlock();
    if (!writeText(d + QStringLiteral("/sshd_config"), config.toUtf8())
        || !writeText(sshConfigFile(), client.toUtf8())) {
        *error = QStringLiteral("cannot write the configs");
        return false;
    }
    if (!QFile::exists(knownHostsFile()))
        writeText(knownHostsFile(), QByteArray());
    return launch(error);
}

bool TestSshd::launch(QString *error)
{
    // As root sshd wants its privilege separation folder; as another user it runs without one.
    if (::getuid() == 0)
        ::mkdir("/run/sshd", 0755);
    m_proc.setStandardErrorFile(m_dir.path() + QStringLiteral("/sshd.log"), QIODevice::Append);
    m_proc.setStandardOutputFile(QProcess::nullDevice());
    m_proc.setStandardInputFile(QProcess::nullDevice());
    m_proc.start(QStringLiteral("/usr/sbin/sshd"),
                 {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                  m_dir.path() + QStringLiteral("/sshd_config")});
    if (!m_proc.waitForStarted(10000)) {
        *error = QStringLiteral("/usr/sbin/sshd did not start: ") + m_proc.errorString();
        return false;
    }
    QDeadlineTimer deadline(15000);
    while (!deadline.hasExpired()) {
        if (portAccepts(m_port))
            return true;
        if (m_proc.waitForFinished(50)) {
            *error = QStringLiteral("sshd exited: ") + log().right(2000);
            return false;
        }
    }
    *error = QStringLiteral("sshd does not accept connections: ") + log().right(2000);
    return false;
}

QList<qint64> TestSshd::sessionProcesses() const
{
    if (m_proc.state() == QProcess::NotRunning)
        return {};
    return descendants(m_proc.processId());
}

void TestSshd::signalAll(int sig)
{
    if (m_proc.state() == QProcess::NotRunning)
        return;
    const qint64 pid = m_proc.processId();
    const QList<qint64> children = descendants(pid);
    ::kill(pid_t(pid), sig);
    for (qint64 c : children)
        ::kill(pid_t(c), sig);
    m_proc.waitForFinished(10000);
    // The sessions die with the listener's SIGKILL only if signalled: wait until they are gone too.
    for (int i = 0; i < 100; ++i) {
        bool any = false;
        for (qint64 c : children)
            any = any || ::kill(pid_t(c), 0) == 0;
        if (!any)
            break;
        QThread::msleep(20);
    }
}

void TestSshd::stop()
{
    signalAll(SIGTERM);
}

void TestSshd::kill()
{
    signalAll(SIGKILL);
}

bool TestSshd::restart(QString *error)
{
    stop();
    return launch(error);
}

bool TestSshd::replaceHostKey(QString *error)
{
    return generateKeys(error);
}

bool TestSshd::isRunning() const
{
    return m_proc.state() != QProcess::NotRunning;
}

QString TestSshd::hostKeyFingerprint() const
{
    QString error;
    QByteArray out;
    if (!runTool(QStringLiteral("ssh-keygen"), {QStringLiteral("-l"), QStringLiteral("-f"),
                                                m_dir.path() + QStringLiteral("/host_ed25519.pub")},
                 &error, &out))
        return QString();
    return QString::fromLatin1(out.split(' ').value(1));
}

QString TestSshd::hostKeyLine() const
{
    const QList<QByteArray> pub = readFile(m_dir.path() + QStringLiteral("/host_ed25519.pub")).trimmed().split(' ');
    return QStringLiteral("[127.0.0.1]:%1 %2 %3")
        .arg(QString::number(m_port), QString::fromLatin1(pub.value(0)), QString::fromLatin1(pub.value(1)));
}

bool TestSshd::trustHostKey()
{
    QFile f(knownHostsFile());
    return f.open(QIODevice::Append) && f.write(hostKeyLine().toUtf8() + '\n') > 0;
}

QString TestSshd::log() const
{
    return QString::fromUtf8(readFile(m_dir.path() + QStringLiteral("/sshd.log")));
}

int TestSshd::acceptedLogins() const
{
    return int(log().count(QStringLiteral("Accepted publickey")));
}

}  // namespace ingot::test
