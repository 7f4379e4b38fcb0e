#include "services/remote/sshconnection.h"

#include "services/util/atomicfile.h"
#include "services/util/names.h"
#include "services/util/processrun.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutexLocker>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {

struct SshConnectionText {
    Q_DECLARE_TR_FUNCTIONS(ingot::SshConnection)
};

// A run through a master that is gone falls back to a direct connection: this proxy command stops it at once and
// says so, so that the command never runs over an unchecked path and Ingot reconnects instead.
const char kNoMasterMarker[] = "ingot: no ssh master connection";

QProcessEnvironment sshEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // BatchMode already forbids prompts; no askpass program may pop up either.
    env.remove(QStringLiteral("SSH_ASKPASS"));
    env.insert(QStringLiteral("SSH_ASKPASS_REQUIRE"), QStringLiteral("never"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    return env;
}

// ssh and ssh-keygen as runProcess runs them: one limit for stdout and stderr alike, output past it ends the run (an
// answer that big is not one Ingot asked for: SshError::OutputTooLarge). An empty environment is Ingot's own.
ProcessResult runSsh(const QString &program, const QStringList &args, const QByteArray &stdinBytes, int timeoutMs,
                     qint64 maxOutputBytes, const QProcessEnvironment &env)
{
    ProcessRequest r;
    r.program = program;
    r.arguments = args;
    r.input = stdinBytes;
    r.timeoutMs = timeoutMs;
    r.stdoutLimit = r.stderrLimit = OutputLimit{maxOutputBytes, OutputLimit::Over::Stop};
    r.environment = env;
    return runProcess(r);
}

// ssh's last words, escaped, for the detail of an error message.
QString sshDetail(const QByteArray &err)
{
    QList<QByteArray> lines = err.trimmed().split('\n');
    while (lines.size() > 4)
        lines.removeFirst();
    return displayText(nameFromBytes(lines.join('\n').trimmed().left(1000)));
}

QString composeText(SshError e, const QString &host, const QByteArray &err)
{
    const QString detail = sshDetail(err);
    const QString text = sshErrorText(e, host);
    return detail.isEmpty() ? text : SshConnectionText::tr("%1\n\nssh said: %2").arg(text, detail);
}

}  // namespace

QString sshErrorText(SshError error, const QString &host)
{
    const QString h = displayName(host);
    switch (error) {
    case SshError::None:
        return QString();
    case SshError::InvalidHost:
        return SshConnectionText::tr("\"%1\" is not a host Ingot can connect to: use an alias from your ssh config, host, user@host or "
                  "user@host:port.").arg(h);
    case SshError::SshMissing:
        return SshConnectionText::tr("The OpenSSH client (ssh) cannot be started. Install it (package openssh-client) and try again.");
    case SshError::HostKeyUnknown:
        return SshConnectionText::tr("The host key of %1 is not known yet. Check its fingerprint with the host's administrator before "
                  "you accept it.").arg(h);
    case SshError::HostKeyChanged:
        return SshConnectionText::tr("The host key of %1 has CHANGED since it was last recorded in known_hosts. Someone may be "
                  "intercepting the connection (a man-in-the-middle attack), or the host was reinstalled. Ingot "
                  "will not connect. Ask the host's administrator for the new key's fingerprint; only if it matches, "
                  "remove the old entry yourself (ssh-keygen -R) and connect again.").arg(h);
    case SshError::AuthenticationFailed:
        return SshConnectionText::tr("%1 did not accept any of your keys. Check the user name and that your public key is in "
                  "~/.ssh/authorized_keys there, or load your key into ssh-agent.").arg(h);
    case SshError::ConnectionRefused:
        return SshConnectionText::tr("%1 refused the connection: no ssh server listens on that port. Check the port and that sshd "
                  "runs there.").arg(h);
    case SshError::Timeout:
        return SshConnectionText::tr("%1 did not answer in time. Check the host name, the VPN or security group, and try again.").arg(h);
    case SshError::NameResolution:
        return SshConnectionText::tr("The host name of %1 does not resolve. Check its spelling or the HostName in your ssh config.")
            .arg(h);
    case SshError::Unreachable:
        return SshConnectionText::tr("%1 cannot be reached from this machine (no route). Check the network or VPN.").arg(h);
    case SshError::ConnectionLost:
        return SshConnectionText::tr("The connection to %1 was lost (the server closed it or the network dropped). Connect again.")
            .arg(h);
    case SshError::OutputTooLarge:
        return SshConnectionText::tr("The command on %1 printed more than Ingot reads at once; it was stopped.").arg(h);
    case SshError::Other:
        return SshConnectionText::tr("ssh could not connect to %1.").arg(h);
    }
    return QString();
}

SshError classifySshStderr(const QByteArray &err)
{
    auto has = [&err](const char *s) { return err.contains(s); };
    if (has("REMOTE HOST IDENTIFICATION HAS CHANGED") || has("POSSIBLE DNS SPOOFING") || has("has changed and you have"))
        return SshError::HostKeyChanged;
    if (has("host key is known for") || has("Host key verification failed"))
        return SshError::HostKeyUnknown;
    if (has("Permission denied (") || has("Too many authentication failures"))
        return SshError::AuthenticationFailed;
    if (has("Could not resolve hostname") || has("Name or service not known")
        || has("Temporary failure in name resolution"))
        return SshError::NameResolution;
    if (has("Connection refused"))
        return SshError::ConnectionRefused;
    if (has("timed out") || has("Timeout, server"))
        return SshError::Timeout;
    if (has("No route to host") || has("Network is unreachable"))
        return SshError::Unreachable;
    if (has("Connection closed") || has("Connection reset") || has("closed by remote host") || has("Broken pipe")
        || has("kex_exchange_identification") || has("Shared connection to"))
        return SshError::ConnectionLost;
    return SshError::None;
}

SshConnection::SshConnection(SshHost host, SshClientConfig client, int persistSeconds)
    : m_host(std::move(host)), m_client(std::move(client)), m_persistSeconds(qMax(1, persistSeconds))
{
}

SshConnection::~SshConnection() = default;

SshConnection::State SshConnection::state() const
{
    QMutexLocker lock(&m_mutex);
    return m_state;
}

SshError SshConnection::error() const
{
    QMutexLocker lock(&m_mutex);
    return m_error;
}

QString SshConnection::errorText() const
{
    QMutexLocker lock(&m_mutex);
    return m_errorText;
}

void SshConnection::setState(State s, SshError e, const QString &text)
{
    QMutexLocker lock(&m_mutex);
    m_state = s;
    m_error = e;
    m_errorText = text;
}

SshResult SshConnection::failure(SshError e, const QByteArray &err)
{
    SshResult r;
    r.error = e;
    r.err = err;
    r.errorText = composeText(e, m_host.toString(), err);
    return r;
}

namespace {

// Whether a control socket in `dir` fits a unix socket path (108 bytes, with %C's 40 characters and the 17-byte
// temporary suffix ssh adds while it creates the master's socket).
bool socketPathFits(const QString &dir)
{
    return QFile::encodeName(dir).size() + 1 + 40 + 17 < 108;
}

// Whether `dir` is a folder only this user can change: itself a folder (not a link), owned by the effective user,
// writable by nobody else. `exact`: also private (0700, nobody else may even look).
bool ownFolder(const QByteArray &dir, bool exact)
{
    struct stat st {};
    if (dir.isEmpty() || ::lstat(dir.constData(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
        return false;
    return exact ? (st.st_mode & 0777) == 0700 : (st.st_mode & 022) == 0;
}

// `dir` made 0700 by this user, or found so; empty when it is anything else (someone else's, a link, open to others).
QString privateFolder(const QByteArray &dir)
{
    if (::mkdir(dir.constData(), 0700) != 0 && errno != EEXIST)
        return {};
    return ownFolder(dir, true) ? QFile::decodeName(dir) : QString();
}

QMutex controlDirMutex;
QHash<QString, QString> madeControlDirs;  // temporary folder -> the folder this process made there with mkdtemp

}  // namespace

QString SshConnection::chooseControlDir(const QString &runtimeDir, const QString &sharedDir, const QString &tempDir,
                                        QString *error)
{
    // 1. <runtime folder>/ingot-ssh, where the runtime folder is this user's own (a link or someone else's is not).
    const QByteArray runtime = QFile::encodeName(runtimeDir);
    if (!runtime.isEmpty() && ownFolder(runtime, false) && socketPathFits(runtimeDir + QStringLiteral("/ingot-ssh"))) {
        const QString dir = privateFolder(runtime + "/ingot-ssh");
        if (!dir.isEmpty())
            return dir;
    }
    // 2. The short shared folder (/tmp/ingot-ssh-<uid>): masters are still shared between Ingot's processes.
    if (!sharedDir.isEmpty() && socketPathFits(sharedDir)) {
        const QString dir = privateFolder(QFile::encodeName(sharedDir));
        if (!dir.isEmpty())
            return dir;
    }
    // 3. Someone else made (or spoiled) both: a folder of this process's own from mkdtemp, kept for the process.
    QString base = tempDir;
    if (base.isEmpty() || !socketPathFits(base + QStringLiteral("/ingot-ssh-4294967295.XXXXXX")))
        base = QStringLiteral("/tmp");
    QMutexLocker lock(&controlDirMutex);
    const QString made = madeControlDirs.value(base);
    if (!made.isEmpty() && ownFolder(QFile::encodeName(made), true))
        return made;
    QByteArray tmpl = QFile::encodeName(base) + "/ingot-ssh-" + QByteArray::number(::geteuid()) + ".XXXXXX";
    if (!::mkdtemp(tmpl.data()) || !ownFolder(tmpl, true)) {
        const int err = errno;
        if (error)
            *error = SshConnectionText::tr("Ingot found no private folder for ssh's control sockets: %1 is not a folder "
                                           "of yours only, and a new one cannot be made in %2 (%3).")
                         .arg(displayName(sharedDir), displayName(base), QString::fromLocal8Bit(::strerror(err)));
        return {};
    }
    madeControlDirs.insert(base, QFile::decodeName(tmpl));
    return QFile::decodeName(tmpl);
}

QString SshConnection::controlDir(QString *error)
{
    return chooseControlDir(QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation),
                            QStringLiteral("/tmp/ingot-ssh-%1").arg(::geteuid()), QDir::tempPath(), error);
}

QString SshConnection::controlPath() const
{
    QString dir = controlDir();
    if (dir.isEmpty())
        return QStringLiteral("none");  // connect() refuses first: no master is used nor made
    dir.replace(QLatin1Char('%'), QStringLiteral("%%"));  // ssh expands % tokens in ControlPath
    return dir + QStringLiteral("/%C");
}

QStringList SshConnection::commonOptions(bool batch) const
{
    return m_client.baseArguments()
           + QStringList{QStringLiteral("-o"), QStringLiteral("ControlPath=") + controlPath(), QStringLiteral("-o"),
                         batch ? QStringLiteral("BatchMode=yes") : QStringLiteral("BatchMode=no"),
                         QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes")};
}

bool SshConnection::connect(int timeoutMs, AskPass *askPass)
{
    QMutexLocker connectLock(&m_connectMutex);
    if (!m_host.isValid()) {
        setState(State::Failed, SshError::InvalidHost, sshErrorText(SshError::InvalidHost, m_host.toString()));
        return false;
    }
    // The control socket goes only to a folder of this user's own (another local user could otherwise put a fake
    // master there, one that answers without SSH and reads every command and transfer).
    QString dirError;
    const QString dir = controlDir(&dirError);
    if (dir.isEmpty()) {
        setState(State::Failed, SshError::Other, dirError);
        return false;
    }
    if (check())
        return true;
    setState(State::Connecting);
    const int seconds = qMax(1, timeoutMs / 1000);
    // -f: ssh goes to the background once authenticated, so its exit status says whether the master is up; with
    // ControlPersist the backgrounded master keeps serving clients.
    QProcessEnvironment env = sshEnvironment();
    std::unique_ptr<AskPassServer> askPassServer;
    if (askPass) {
        askPassServer = std::make_unique<AskPassServer>(askPass, dir);
        if (!askPassServer->isListening()) {
            setState(State::Failed, SshError::Other, SshConnectionText::tr("Cannot listen for passphrase prompts in %1.")
                                                         .arg(displayName(dir)));
            return false;
        }
        const QString helper = m_client.askPassProgram.isEmpty() ? askPassProgram() : m_client.askPassProgram;
        env.insert(QStringLiteral("SSH_ASKPASS"), helper);
        env.insert(QStringLiteral("SSH_ASKPASS_REQUIRE"), QStringLiteral("force"));
        env.insert(QStringLiteral("INGOT_ASKPASS_SOCKET"), askPassServer->socketPath());
    }
    const QStringList args = commonOptions(askPass == nullptr)
                             + QStringList{QStringLiteral("-M"), QStringLiteral("-N"), QStringLiteral("-f"),
                                           QStringLiteral("-o"), QStringLiteral("ControlMaster=yes"),
                                           QStringLiteral("-o"),
                                           QStringLiteral("ControlPersist=%1s").arg(m_persistSeconds),
                                           QStringLiteral("-o"), QStringLiteral("ConnectTimeout=%1").arg(seconds),
                                           QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=15"),
                                           QStringLiteral("-o"), QStringLiteral("ServerAliveCountMax=3")}
                             + m_host.sshArguments();
    // A person answering prompts gets their time: up to 10 minutes more.
    const int limit = timeoutMs + (askPass ? 600000 : 5000);
    const ProcessResult p = runSsh(m_client.program, args, {}, limit, 1 << 20, env);
    askPassServer.reset();
    if (!p.started) {
        setState(State::Failed, SshError::SshMissing, sshErrorText(SshError::SshMissing, m_host.toString()));
        return false;
    }
    if (p.exitCode == 0 && !p.timedOut) {
        setState(State::Connected);
        return true;
    }
    SshError e = p.timedOut ? SshError::Timeout : classifySshStderr(p.err);
    if (e == SshError::None)
        e = SshError::Other;
    setState(State::Failed, e, composeText(e, m_host.toString(), p.err));
    return false;
}

bool SshConnection::check()
{
    const QStringList args = commonOptions() + QStringList{QStringLiteral("-O"), QStringLiteral("check")}
                             + m_host.sshArguments();
    const ProcessResult p = runSsh(m_client.program, args, {}, 10000, 1 << 16, sshEnvironment());
    const bool running = p.started && p.exitCode == 0;
    {
        QMutexLocker lock(&m_mutex);
        if (running)
            m_state = State::Connected, m_error = SshError::None, m_errorText.clear();
        else if (m_state == State::Connected)
            m_state = State::NotConnected;
    }
    return running;
}

void SshConnection::close()
{
    const QStringList args = commonOptions() + QStringList{QStringLiteral("-O"), QStringLiteral("exit")}
                             + m_host.sshArguments();
    runSsh(m_client.program, args, {}, 10000, 1 << 16, sshEnvironment());
    setState(State::NotConnected);
}

SshResult SshConnection::run(const QString &remoteCommand, const QByteArray &stdinBytes, int timeoutMs,
                             qint64 maxOutputBytes)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (state() != State::Connected && !connect()) {
            SshResult r;
            r.error = error();
            r.errorText = errorText();
            return r;
        }
        const QStringList args
            = commonOptions()
              + QStringList{QStringLiteral("-T"), QStringLiteral("-o"), QStringLiteral("ControlMaster=no"),
                            QStringLiteral("-o"),
                            QStringLiteral("ProxyCommand=echo '%1' >&2").arg(QLatin1String(kNoMasterMarker))}
              + m_host.sshArguments() + QStringList{remoteCommand};
        const ProcessResult p = runSsh(m_client.program, args, stdinBytes, timeoutMs, maxOutputBytes,
                                       sshEnvironment());
        if (!p.started)
            return failure(SshError::SshMissing);
        if (p.timedOut)
            return failure(SshError::Timeout);
        if (p.tooMuchOutput)
            return failure(SshError::OutputTooLarge);
        // A master whose server died can still accept a session request and then fail it before any exchange:
        // nothing ran either.
        const bool neverStarted = p.err.contains(kNoMasterMarker) || p.err.contains("kex_exchange_identification");
        if (p.exitCode == 255 && neverStarted) {
            // The master is gone or cannot open sessions any more (the server or the network dropped it; a master
            // can still answer -O check for a moment after its server died): nothing ran. End it, connect again once.
            close();
            continue;
        }
        if (p.exitCode == 255 || p.crashed) {
            SshError e = p.crashed ? SshError::Other : classifySshStderr(p.err);
            // 255 without a word from ssh: the command's own status, or the connection died under it. Ask the master.
            if (e == SshError::None && p.err.trimmed().isEmpty() && !check())
                e = SshError::ConnectionLost;
            if (e != SshError::None) {
                if (e == SshError::ConnectionLost)
                    setState(State::NotConnected);
                return failure(e, p.err);
            }
        }
        SshResult r;
        r.exitCode = p.exitCode;
        r.out = p.out;
        r.err = p.err;
        return r;
    }
    return failure(SshError::ConnectionLost);
}

SshConnection::StreamCommand SshConnection::streamCommand(const QString &remoteCommand) const
{
    StreamCommand c;
    c.program = m_client.program;
    c.arguments = commonOptions()
                  + QStringList{QStringLiteral("-T"), QStringLiteral("-o"), QStringLiteral("ControlMaster=no"),
                                QStringLiteral("-o"),
                                QStringLiteral("ProxyCommand=echo '%1' >&2").arg(QLatin1String(kNoMasterMarker))}
                  + m_host.sshArguments() + QStringList{remoteCommand};
    c.environment = sshEnvironment();
    return c;
}

bool SshConnection::scanHostKey(HostKeyOffer *offer, QString *error)
{
    SshResolved resolved;
    if (!resolveSshHost(m_client, m_host, &resolved, error))
        return false;
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        *error = SshConnectionText::tr("Cannot create a temporary folder: %1").arg(tmp.errorString());
        return false;
    }
    const QString scanned = tmp.path() + QStringLiteral("/known_hosts");
    // accept-new into an empty file of our own: ssh records the key it negotiated, exactly as it would write it.
    // No authentication method is offered, so nothing (not even a public key) goes to the unverified server.
    QStringList args = m_client.baseArguments();
    const char *const options[] = {
        "BatchMode=yes", "StrictHostKeyChecking=accept-new", "GlobalKnownHostsFile=/dev/null",
        "ControlMaster=no", "ControlPath=none", "PreferredAuthentications=none", "PubkeyAuthentication=no",
        "PasswordAuthentication=no", "KbdInteractiveAuthentication=no", "GSSAPIAuthentication=no",
        "HostbasedAuthentication=no", "ConnectTimeout=20", "UpdateHostKeys=no"};
    for (const char *o : options)
        args << QStringLiteral("-o") << QLatin1String(o);
    args << QStringLiteral("-o") << QStringLiteral("UserKnownHostsFile=") + scanned;
    args << QStringLiteral("-o")
         << QStringLiteral("HashKnownHosts=") + (resolved.hashKnownHosts ? QLatin1String("yes") : QLatin1String("no"));
    args << QStringLiteral("-T") << m_host.sshArguments() << QStringLiteral("true");
    const ProcessResult p = runSsh(m_client.program, args, {}, 30000, 1 << 20, sshEnvironment());
    QFile f(scanned);
    const QByteArray lines = f.open(QIODevice::ReadOnly) ? f.read(1 << 16) : QByteArray();
    const QByteArray line = lines.split('\n').value(0).trimmed();
    if (line.isEmpty()) {
        SshError e = p.timedOut ? SshError::Timeout : classifySshStderr(p.err);
        if (e == SshError::None || e == SshError::AuthenticationFailed)
            e = SshError::Other;
        *error = composeText(e, m_host.toString(), p.err);
        return false;
    }
    const ProcessResult fp = runSsh(m_client.keygenProgram, {QStringLiteral("-l"), QStringLiteral("-f"), scanned}, {},
                                    15000, 1 << 16, {});
    // "256 SHA256:... [127.0.0.1]:2222 (ED25519)"
    const QList<QByteArray> parts = fp.out.trimmed().split('\n').value(0).split(' ');
    if (fp.exitCode != 0 || parts.size() < 3) {
        *error = SshConnectionText::tr("Cannot read the fingerprint of the key %1 offered.").arg(displayName(m_host.toString()));
        return false;
    }
    HostKeyOffer o;
    o.knownHostsLine = line;
    o.fingerprint = QString::fromLatin1(parts.at(1));
    o.keyType = QString::fromLatin1(parts.last()).remove(QLatin1Char('(')).remove(QLatin1Char(')'));
    o.knownHostsFile = resolved.userKnownHostsFiles.value(0, accountHomeDir() + QStringLiteral("/.ssh/known_hosts"));
    *offer = o;
    return true;
}

bool SshConnection::acceptHostKey(const HostKeyOffer &offer, QString *error)
{
    const QByteArray line = offer.knownHostsLine.trimmed();
    if (line.isEmpty() || line.contains('\n') || line.contains('\r') || offer.knownHostsFile.isEmpty()) {
        *error = SshConnectionText::tr("No host key to add.");
        return false;
    }
    const QString path = offer.knownHostsFile;
    QByteArray data;
    QFile::Permissions perms = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                               | QFileDevice::ReadOther;
    QFile f(path);
    if (f.exists()) {
        if (!f.open(QIODevice::ReadOnly)) {
            *error = SshConnectionText::tr("Cannot read %1: %2").arg(displayName(path), f.errorString());
            return false;
        }
        data = f.readAll();
        f.close();
        perms = QFile::permissions(path);
        if (data.split('\n').contains(line))
            return true;  // already there
        if (!data.isEmpty() && !data.endsWith('\n'))
            data += '\n';
    } else {
        const QString dir = QFileInfo(path).absolutePath();
        if (!QDir(dir).exists()) {
            QDir().mkpath(dir);
            QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        }
    }
    data += line + '\n';
    if (!writeFileAtomically(path, data, error))
        return false;
    QFile::setPermissions(path, perms);
    return true;
}

}  // namespace ingot
