#include "services/remote/remotehostsession.h"

#include "services/remote/remotehosts.h"
#include "services/remote/sshresolve.h"
#include "services/util/remoteshell.h"
#include "services/util/names.h"

#include <QDateTime>
#include <QTimer>

#include <cmath>
#include <tuple>

namespace ingot {

namespace {

// Failures worth trying again by themselves once a working connection dropped: the network, the server, the DNS
// may come back. Keys and authentication need the person.
bool isTransient(SshError e)
{
    switch (e) {
    case SshError::ConnectionRefused:
    case SshError::Timeout:
    case SshError::NameResolution:
    case SshError::Unreachable:
    case SshError::ConnectionLost:
        return true;
    default:
        return false;
    }
}

// A few words for the list ("failed: …"); the detail has the sentences.
QString shortReason(SshError e)
{
    switch (e) {
    case SshError::None: return {};
    case SshError::InvalidHost: return RemoteHostSession::tr("not a valid host name");
    case SshError::SshMissing: return RemoteHostSession::tr("ssh is not installed");
    case SshError::HostKeyUnknown: return RemoteHostSession::tr("host key not confirmed");
    case SshError::HostKeyChanged: return RemoteHostSession::tr("host key CHANGED, refused");
    case SshError::AuthenticationFailed: return RemoteHostSession::tr("authentication failed");
    case SshError::ConnectionRefused: return RemoteHostSession::tr("connection refused");
    case SshError::Timeout: return RemoteHostSession::tr("no answer in time");
    case SshError::NameResolution: return RemoteHostSession::tr("host name does not resolve");
    case SshError::Unreachable: return RemoteHostSession::tr("host unreachable");
    case SshError::ConnectionLost: return RemoteHostSession::tr("connection lost");
    case SshError::OutputTooLarge: return RemoteHostSession::tr("too much output");
    case SshError::Other: return RemoteHostSession::tr("ssh failed");
    }
    return {};
}

// The name a host's key is recorded under in known_hosts, as ssh-keygen -R wants it.
QString knownHostsName(const SshResolved &r)
{
    if (!r.hostKeyAlias.isEmpty())
        return r.hostKeyAlias;
    return r.port == 22 ? r.hostname : QStringLiteral("[%1]:%2").arg(r.hostname).arg(r.port);
}

RemoteHostSession::Status failed(SshError e, const QString &detail, const QString &reason = QString())
{
    return {RemoteHostSession::State::Failed, e, reason.isEmpty() ? shortReason(e) : reason, detail, -1};
}

// Checks a folder on the host: $1 as typed (absolute, or ~/...). Prints the path with ~ expanded; exit 3: missing,
// 4: relative, 5: not a folder, 6: cannot be entered. $1 arrives in printf %b form, as every script argument
// (docs/formats.md, "Scripts, not programs").
const char kFolderScript[] = R"SH(
p=$(printf '%bX' "$1"); p=${p%X}
case $p in
  "~") p=$HOME ;;
  "~/"*) p=$HOME/${p#"~/"} ;;
esac
case $p in
  /*) ;;
  *) exit 4 ;;
esac
[ -e "$p" ] || [ -L "$p" ] || exit 3
[ -d "$p" ] || exit 5
cd -- "$p" 2>/dev/null || exit 6
printf '%s' "$p"
)SH";

RemoteHostSession::FolderProblem folderProblem(int exitCode)
{
    using P = RemoteHostSession::FolderProblem;
    switch (exitCode) {
    case 0: return P::None;
    case 3: return P::Missing;
    case 4: return P::NotAbsolute;
    case 5: return P::NotAFolder;
    case 6: return P::CannotEnter;
    default: return P::Other;
    }
}

}  // namespace

struct RemoteHostSession::ConnectOutcome {
    bool ok = false;
    SshError error = SshError::None;
    QString text;
    QString keyName;  // HostKeyChanged: the known_hosts name and file, for the way out
    QString keyFile;
};

RemoteHostSession::RemoteHostSession(QString host, QObject *parent)
    : QObject(parent), m_host(std::move(host)), m_ticker(new QTimer(this)), m_checkTimer(new QTimer(this))
{
    m_ticker->setInterval(m_secondMs);
    connect(m_ticker, &QTimer::timeout, this, &RemoteHostSession::tick);
    connect(m_checkTimer, &QTimer::timeout, this, [this] { checkConnection(); });
}

RemoteHostSession::~RemoteHostSession()
{
    m_checking.discard();
    m_lookup.discard();
}

std::shared_ptr<SshConnection> RemoteHostSession::connection(QString *error) const
{
    return RemoteHosts::instance().connection(m_host, error);
}

void RemoteHostSession::setRetryDelays(const QVector<int> &seconds)
{
    if (!seconds.isEmpty())
        m_delays = seconds;
}

void RemoteHostSession::setSecondMs(int ms)
{
    m_secondMs = qMax(1, ms);
    m_ticker->setInterval(m_secondMs);
}

void RemoteHostSession::setCheckIntervalMs(int ms)
{
    if (ms <= 0) {
        m_checkTimer->stop();
        return;
    }
    m_checkTimer->setInterval(ms);
    m_checkTimer->start();
}

void RemoteHostSession::setStatus(const Status &status)
{
    if (m_status == status)
        return;
    m_status = status;
    Q_EMIT statusChanged(status);
}

quint64 RemoteHostSession::beginBusy()
{
    m_busyGeneration = ++m_generation;
    Q_EMIT busyChanged();
    return m_busyGeneration;
}

// Ends the step `generation`; true when no later step replaced it (its answer still counts).
bool RemoteHostSession::endBusy(quint64 generation)
{
    if (m_busyGeneration == generation) {
        m_busyGeneration = 0;
        Q_EMIT busyChanged();
    }
    return m_generation == generation;
}

void RemoteHostSession::connectToHost()
{
    m_retryAtMs = 0;  // a manual connect retries now
    startConnect(true);
}

void RemoteHostSession::startConnect(bool manual)
{
    if (isBusy())
        return;
    QString error;
    std::shared_ptr<SshConnection> conn = connection(&error);
    if (!conn) {
        m_then.clear();
        setStatus(failed(SshError::InvalidHost, displayText(error)));
        return;
    }
    const quint64 gen = beginBusy();
    m_manualAttempt = manual;
    m_keyGeneration = 0;
    if (m_autoRetry)
        setStatus(Status{State::Lost, m_status.error, m_status.reason, m_status.detail, 0});
    else
        setStatus(Status{State::Connecting, SshError::None, {}, {}, -1});
    Q_EMIT message(tr("Connecting to %1…").arg(displayName(m_host)), true);
    std::shared_ptr<AskPass> ask = m_askPassFactory ? m_askPassFactory() : nullptr;
    runTask(
        this,
        [conn, ask](TaskControl &) {
            ConnectOutcome o;
            o.ok = conn->connect(30000, ask.get());
            o.error = conn->error();
            o.text = conn->errorText();
            if (o.error == SshError::HostKeyChanged) {
                SshResolved resolved;
                QString ignored;
                if (resolveSshHost(SshClientConfig::fromSettings(), conn->host(), &resolved, &ignored)) {
                    o.keyName = knownHostsName(resolved);
                    o.keyFile = resolved.userKnownHostsFiles.value(0);
                }
            }
            return o;
        },
        [this, gen](const ConnectOutcome &o) { onConnectFinished(gen, o); });
}

void RemoteHostSession::onConnectFinished(quint64 generation, const ConnectOutcome &o)
{
    if (!endBusy(generation))
        return;
    if (o.ok) {
        const bool wasLost = m_autoRetry;
        m_attempt = 0;
        m_autoRetry = false;
        m_retryAtMs = 0;
        setStatus(Status{State::Connected, SshError::None, {}, {}, -1});
        Q_EMIT message(tr("Connected to %1.").arg(displayName(m_host)), false);
        const auto then = std::exchange(m_then, {});
        for (const auto &fn : then)
            fn();
        if (wasLost)
            Q_EMIT reconnected();
        return;
    }
    const QString detail = displayText(o.text);
    if (o.error == SshError::HostKeyUnknown && m_manualAttempt && m_asksHostKeys) {
        askHostKey();  // what waits for the connection still waits
        return;
    }
    m_then.clear();
    if (o.error == SshError::HostKeyChanged) {
        m_autoRetry = false;
        setStatus(failed(o.error, detail));
        Q_EMIT message(tr("The host key of %1 changed: Ingot refused to connect.").arg(displayName(m_host)), false);
        Q_EMIT hostKeyChanged(o.keyName, o.keyFile, o.text);
        return;
    }
    if (m_autoRetry && isTransient(o.error)) {
        scheduleRetry(detail, o.error);
        return;
    }
    m_autoRetry = false;
    m_retryAtMs = 0;
    setStatus(failed(o.error, detail));
    Q_EMIT message(tr("Could not connect to %1: %2").arg(displayName(m_host), shortReason(o.error)), false);
}

// First contact: learn the key off this thread and offer it; trustHostKey() records it and connects.
void RemoteHostSession::askHostKey()
{
    std::shared_ptr<SshConnection> conn = connection();
    if (!conn)
        return;
    const quint64 gen = beginBusy();
    setStatus(Status{State::Connecting, SshError::None, {}, {}, -1});
    Q_EMIT message(tr("Asking %1 for its host key…").arg(displayName(m_host)), true);
    runTask(
        this,
        [conn](TaskControl &) {
            std::pair<HostKeyOffer, QString> out;
            if (!conn->scanHostKey(&out.first, &out.second) && out.second.isEmpty())
                out.second = tr("The host did not present a key.");
            return out;
        },
        [this, gen](const std::pair<HostKeyOffer, QString> &scan) {
            if (!endBusy(gen))
                return;
            if (!scan.second.isEmpty()) {
                m_then.clear();
                setStatus(failed(SshError::HostKeyUnknown, displayText(scan.second)));
                Q_EMIT message(tr("Could not read the host key of %1.").arg(displayName(m_host)), false);
                return;
            }
            m_keyGeneration = gen;
            Q_EMIT message(tr("Check the host key of %1.").arg(displayName(m_host)), false);
            Q_EMIT hostKeyOffered(scan.first);
        });
}

void RemoteHostSession::rejectHostKey()
{
    if (m_keyGeneration == 0 || m_keyGeneration != m_generation)
        return;
    m_keyGeneration = 0;
    m_then.clear();
    setStatus(failed(SshError::HostKeyUnknown,
                     tr("You did not trust the key %1 presented; nothing was recorded. Connect again to see it again.")
                         .arg(displayName(m_host))));
    Q_EMIT message(tr("Not connected to %1: its host key was not trusted.").arg(displayName(m_host)), false);
}

void RemoteHostSession::trustHostKey(const HostKeyOffer &offer)
{
    std::shared_ptr<SshConnection> conn = connection();
    if (m_keyGeneration == 0 || m_keyGeneration != m_generation || !conn)
        return;
    m_keyGeneration = 0;
    const quint64 gen = beginBusy();
    runTask(
        this,
        [conn, offer](TaskControl &) {
            QString error;
            conn->acceptHostKey(offer, &error);
            return error;
        },
        [this, gen](const QString &error) {
            if (!endBusy(gen))
                return;
            if (!error.isEmpty()) {
                m_then.clear();
                setStatus(failed(SshError::HostKeyUnknown, displayText(error), tr("host key not recorded")));
                return;
            }
            startConnect(true);
        });
}

void RemoteHostSession::scheduleRetry(const QString &detail, SshError error)
{
    m_autoRetry = true;
    const int delay = m_delays.at(qMin(m_attempt, int(m_delays.size()) - 1));
    ++m_attempt;
    m_retryAtMs = QDateTime::currentMSecsSinceEpoch() + qint64(delay) * m_secondMs;
    setStatus(Status{State::Lost, error, tr("connection lost"), detail, delay});
    Q_EMIT message(tr("The connection to %1 was lost; retrying in %n s.", nullptr, delay).arg(displayName(m_host)),
                   false);
    Q_EMIT retryScheduled(m_attempt, delay);
    if (!m_ticker->isActive())
        m_ticker->start();
}

void RemoteHostSession::connectionLost()
{
    m_attempt = 0;
    scheduleRetry(tr("The master connection to %1 is gone (the network dropped, the machine slept, or the server "
                     "restarted). Ingot reconnects by itself; Retry now tries at once.")
                      .arg(displayName(m_host)),
                  SshError::ConnectionLost);
}

// Counts down the wait of a dropped connection and reconnects when it is over.
void RemoteHostSession::tick()
{
    if (!m_autoRetry || m_retryAtMs == 0) {
        m_ticker->stop();
        return;
    }
    if (isBusy())
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const int left = int(std::ceil(double(m_retryAtMs - now) / double(m_secondMs)));
    if (left <= 0) {
        m_retryAtMs = 0;
        m_ticker->stop();
        startConnect(false);
        return;
    }
    Status st = m_status;
    st.retryInSeconds = left;
    setStatus(st);
}

void RemoteHostSession::checkConnection(bool adoptRunning)
{
    const State s = m_status.state;
    if (m_checking.isRunning() || isBusy() || !(s == State::Connected || (adoptRunning && s == State::NotConnected)))
        return;
    std::shared_ptr<SshConnection> conn = connection();
    if (!conn)
        return;
    const quint64 gen = m_generation;
    m_checking = runTask(this, [conn](TaskControl &) { return conn->check(); },  // ssh -O check: the local socket
                         [this, gen](bool running) {
                             if (m_generation != gen || isBusy())
                                 return;
                             const State s = m_status.state;
                             if (running && s == State::NotConnected)
                                 setStatus(Status{State::Connected, SshError::None, {}, {}, -1});
                             else if (!running && s == State::Connected)
                                 connectionLost();
                         });
}

void RemoteHostSession::noteTrouble()
{
    if (m_status.state == State::Connected)
        checkConnection();
}

void RemoteHostSession::disconnectFromHost()
{
    if (isBusy())
        return;
    std::shared_ptr<SshConnection> conn = connection();
    if (!conn)
        return;
    m_autoRetry = false;
    m_retryAtMs = 0;
    m_ticker->stop();
    m_then.clear();
    const quint64 gen = beginBusy();
    Q_EMIT message(tr("Disconnecting from %1…").arg(displayName(m_host)), true);
    runTask(this, [conn](TaskControl &) { conn->close(); },
            [this, gen] {
                if (!endBusy(gen))
                    return;
                setStatus(Status{State::NotConnected, SshError::None, {}, {}, -1});
                Q_EMIT message(tr("Disconnected from %1.").arg(displayName(m_host)), false);
            });
}

void RemoteHostSession::whenConnected(std::function<void()> fn)
{
    if (m_status.state == State::Connected && !isBusy()) {
        fn();
        return;
    }
    m_then.push_back(std::move(fn));
    if (!isBusy()) {
        m_retryAtMs = 0;
        startConnect(true);
    }
}

void RemoteHostSession::cancelLookup()
{
    if (!m_lookup.isRunning())
        return;
    m_lookup.discard();
    m_lookup = Task();
    Q_EMIT busyChanged();
}

void RemoteHostSession::failLookup(const QString &text, FolderProblem problem)
{
    Q_EMIT message(text, false);
    Q_EMIT busyChanged();
    Q_EMIT lookupFailed(text, problem);
    noteTrouble();
}

void RemoteHostSession::lookupCompileCache()
{
    whenConnected([this] { runCacheLookup(); });
}

void RemoteHostSession::runCacheLookup()
{
    QString error;
    std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(m_host, &error);
    if (!shell)
        return failLookup(displayText(error), FolderProblem::None);
    Q_EMIT message(tr("Asking %1 where its compile cache is…").arg(displayName(m_host)), true);
    m_lookup.discard();
    m_lookup = runTask(
        this,
        [shell](TaskControl &) {
            std::tuple<bool, CacheLocation, QString> out;
            std::get<0>(out) = CacheLocation::resolveOn(*shell, &std::get<1>(out), &std::get<2>(out));
            return out;
        },
        [this](const std::tuple<bool, CacheLocation, QString> &r) {
            const auto &[ok, loc, why] = r;
            if (!ok)
                return failLookup(tr("Could not ask %1 where its compile cache is: %2")
                                      .arg(displayName(m_host), displayText(why)),
                                  FolderProblem::None);
            if (!loc.isSupported() && loc.kind != CacheLocation::Kind::S3)  // an S3 cache opens from here
                return failLookup(displayText(loc.unsupportedReason()) + QStringLiteral("\n\n")
                                      + displayText(loc.explanation),
                                  FolderProblem::None);
            Q_EMIT busyChanged();
            Q_EMIT compileCacheFound(loc);
        });
    Q_EMIT busyChanged();
}

void RemoteHostSession::askSlurm()
{
    whenConnected([this] {
        QString error;
        std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(m_host, &error);
        if (!shell) {
            Q_EMIT slurmAnswered({}, displayText(error));
            return;
        }
        m_slurm.discard();
        m_slurm = askSlurmCluster(this, shell, [this](const SlurmClusterState &state, const QString &error) {
            Q_EMIT slurmAnswered(state, error);
        });
    });
}

void RemoteHostSession::checkFolder(const QString &path)
{
    if (path.isEmpty())
        return;
    whenConnected([this, path] { runFolderCheck(path); });
}

void RemoteHostSession::runFolderCheck(const QString &path)
{
    QString error;
    std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(m_host, &error);
    if (!shell)
        return failLookup(displayText(error), FolderProblem::NotChecked);
    Q_EMIT message(tr("Looking for %1 on %2…").arg(displayName(path), displayName(m_host)), true);
    m_lookup.discard();
    m_lookup = runTask(
        this,
        [shell, path](TaskControl &) { return shell->run(kFolderScript, {nameToBytes(path)}, {}, 1 << 16, 30000); },
        [this, path](const ShellResult &r) {
            const QString p = displayName(path), h = displayName(m_host);
            if (!r.ran())
                return failLookup(tr("Could not look for %1 on %2: %3").arg(p, h, displayText(r.error)),
                                  FolderProblem::NotChecked);
            const FolderProblem problem = folderProblem(r.exitCode);
            switch (problem) {
            case FolderProblem::None:
                Q_EMIT busyChanged();
                Q_EMIT folderFound(nameFromBytes(r.out));
                return;
            case FolderProblem::Missing:
                return failLookup(tr("There is no folder %1 on %2. Check the path, or open the compile cache the "
                                     "Neuron tools there use.").arg(p, h), problem);
            case FolderProblem::NotAbsolute:
                return failLookup(tr("%1 is not an absolute path: start it with / (or ~/ for the home folder on %2).")
                                      .arg(p, h), problem);
            case FolderProblem::NotAFolder:
                return failLookup(tr("%1 on %2 is not a folder.").arg(p, h), problem);
            case FolderProblem::CannotEnter:
                return failLookup(tr("%1 on %2 cannot be entered: permission denied for the user Ingot logs in as.")
                                      .arg(p, h), problem);
            default:
                return failLookup(tr("Could not check %1 on %2 (exit status %3).").arg(p, h).arg(r.exitCode), problem);
            }
        });
    Q_EMIT busyChanged();
}

}  // namespace ingot
