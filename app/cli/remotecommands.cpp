#include "app/cli/remotecommands.h"

#include "app/cli/clicommon.h"
#include "services/remote/remotehosts.h"
#include "services/remote/remotehostsession.h"
#include "services/remote/sshconnection.h"
#include "services/util/appsettings.h"

#include <QCoreApplication>
#include <QEventLoop>

#include <cstdio>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct RemoteText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

// ssh's passphrase prompts, answered on the controlling terminal with echo off. Nothing is kept.
class TerminalAskPass final : public AskPass
{
public:
    std::optional<QByteArray> ask(const QString &prompt) override
    {
        const int fd = ::open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
            return std::nullopt;
        const QByteArray p = terminalSafe(prompt).toUtf8();
        (void)!::write(fd, p.constData(), size_t(p.size()));
        termios old {};
        const bool haveTerm = ::tcgetattr(fd, &old) == 0;
        if (haveTerm) {
            termios quiet = old;
            quiet.c_lflag &= ~tcflag_t(ECHO);
            ::tcsetattr(fd, TCSAFLUSH, &quiet);
        }
        QByteArray answer;
        char c = 0;
        bool ended = false;
        while (answer.size() < 4096) {
            const ssize_t n = ::read(fd, &c, 1);
            if (n <= 0)
                break;
            if (c == '\n' || c == '\r') {
                ended = true;
                break;
            }
            answer += c;
        }
        if (haveTerm)
            ::tcsetattr(fd, TCSAFLUSH, &old);
        (void)!::write(fd, "\n", 1);
        ::close(fd);
        if (!ended)
            return std::nullopt;  // end of input: cancelled
        return answer;
    }
};

// The host key offered on first contact, shown on the terminal; trusted only on "yes".
enum class KeyAnswer { None, Trusted, Rejected };

void askHostKeyOnTerminal(RemoteHostSession &session, const HostKeyOffer &offer, KeyAnswer *answer)
{
    err(RemoteText::tr("The authenticity of host %1 is not known yet.\n%2 key fingerprint: %3\nIt would be added to %4.")
            .arg(session.connection()->host().toString(), offer.keyType, offer.fingerprint, offer.knownHostsFile));
    if (confirm(RemoteText::tr("Trust this key and connect?"))) {
        *answer = KeyAnswer::Trusted;
        session.trustHostKey(offer);
        return;
    }
    *answer = KeyAnswer::Rejected;
    session.rejectHostKey();
}

// Why the session failed, said on stderr, as the exit status.
int failure(const RemoteHostSession &session, bool terminal, KeyAnswer answer)
{
    const std::shared_ptr<SshConnection> conn = session.connection();
    const RemoteHostSession::Status st = session.status();
    if (st.error == SshError::HostKeyUnknown) {
        if (answer == KeyAnswer::Rejected) {
            err(RemoteText::tr("Not connected: the key was not trusted."));
            return HostKey;
        }
        if (!terminal) {
            err(RemoteText::tr("error: %1").arg(conn->errorText()));
            err(RemoteText::tr("Not a terminal, so Ingot does not ask. Check the key and add it with `ssh %1` (or `ingot-cli "
                               "remote hosts` on a terminal), then run this again.")
                    .arg(conn->host().toString()));
            return HostKey;
        }
        err(RemoteText::tr("error: %1").arg(st.detail));  // the key could not be read, or not recorded
        return answer == KeyAnswer::Trusted ? HostKey : HostUnreachable;
    }
    err(RemoteText::tr("error: %1").arg(conn->errorText()));
    if (st.error == SshError::HostKeyChanged)
        return HostKey;
    return st.error == SshError::InvalidHost ? Usage : HostUnreachable;
}

}  // namespace

int connectHost(const QString &hostText, std::shared_ptr<SshConnection> *out)
{
    RemoteHostSession session(hostText);
    QString error;
    std::shared_ptr<SshConnection> conn = session.connection(&error);
    if (!conn) {
        err(RemoteText::tr("error: \"%1\" is not a host: %2").arg(hostText, error));
        return Usage;
    }
    if (out)
        *out = conn;
    const bool terminal = stdinIsTerminal();
    if (terminal)
        session.setAskPassFactory([] { return std::make_shared<TerminalAskPass>(); });
    session.setAsksHostKeys(terminal);
    KeyAnswer answer = KeyAnswer::None;
    QEventLoop loop;
    QObject::connect(&session, &RemoteHostSession::hostKeyOffered, &loop,
                     [&](const HostKeyOffer &offer) { askHostKeyOnTerminal(session, offer, &answer); });
    QObject::connect(&session, &RemoteHostSession::statusChanged, &loop, [&](const RemoteHostSession::Status &st) {
        if (st.state == RemoteHostSession::State::Connected || st.state == RemoteHostSession::State::Failed)
            loop.quit();
    });
    session.connectToHost();
    if (session.status().state != RemoteHostSession::State::Failed)
        loop.exec();
    if (session.status().state == RemoteHostSession::State::Connected)
        return Ok;
    return failure(session, terminal, answer);
}

namespace {

int cmdHosts(const Invocation &p)
{
    const QVector<RemoteHostEntry> hosts = RemoteHosts::instance().hosts();
    const SshClientConfig client = SshClientConfig::fromSettings();
    json rows = json::array();
    Table t({RemoteText::tr("HOST"), RemoteText::tr("FROM"), RemoteText::tr("RESOLVES TO"), RemoteText::tr("VIA"),
             RemoteText::tr("CONNECTED")});
    for (const RemoteHostEntry &h : hosts) {
        SshResolved r;
        QString error;
        const bool resolved = resolveSshHost(client, h.host, &r, &error);
        const bool connected = RemoteHosts::instance().connection(h.name)->check();
        const QString from = h.fromSshConfig ? RemoteText::tr("ssh config") : RemoteText::tr("added");
        const QString target = resolved ? QStringLiteral("%1@%2:%3").arg(r.user, r.hostname).arg(r.port) : QString();
        if (p.json) {
            json j = {{"host", u8(h.name)}, {"from", h.fromSshConfig ? "ssh-config" : "added"}, {"connected", connected}};
            if (resolved) {
                json ids = json::array();
                for (const QString &f : r.identityFiles)
                    ids.push_back(u8(f));
                json known = json::array();
                for (const QString &f : r.userKnownHostsFiles)
                    known.push_back(u8(f));
                j["resolved"] = {{"hostname", u8(r.hostname)}, {"user", u8(r.user)}, {"port", r.port},
                                 {"proxy_jump", r.proxyJump.isEmpty() ? json(nullptr) : json(u8(r.proxyJump))},
                                 {"identity_files", ids}, {"known_hosts_files", known}};
            } else {
                j["resolved"] = nullptr;
                j["error"] = u8(error);
            }
            rows.push_back(j);
        } else {
            t.add({h.name, from, resolved ? target : RemoteText::tr("(%1)").arg(error.section(QLatin1Char('\n'), 0, 0)),
                   r.proxyJump.isEmpty() ? QStringLiteral("-") : r.proxyJump,
                   connected ? RemoteText::tr("yes") : RemoteText::tr("no")});
        }
    }
    if (p.json) {
        printJson({{"ssh_config", u8(RemoteHosts::sshConfigPath())}, {"hosts", rows}});
        return Ok;
    }
    if (hosts.isEmpty()) {
        out(RemoteText::tr("No hosts: none in %1 and none added (ingot-cli remote add HOST).").arg(RemoteHosts::sshConfigPath()));
        return Ok;
    }
    out(t.render());
    return Ok;
}

void hostArgument(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("host"), RemoteText::tr("An ssh config alias, or user@host:port."), RemoteText::tr("HOST"));
}

int cmdAdd(const Invocation &p)
{
    if (p.positional().size() != 1) {
        err(RemoteText::tr("error: name one host"));
        return Usage;
    }
    SshHost host;
    QString error;
    if (!parseSshHost(p.positional().first(), &host, &error)) {
        err(RemoteText::tr("error: \"%1\" is not a host: %2").arg(p.positional().first(), error));
        return Usage;
    }
    AppSettings::addRemoteHost(p.positional().first());
    out(RemoteText::tr("Added %1.").arg(p.positional().first()));
    return Ok;
}

int cmdRemove(const Invocation &p)
{
    if (p.positional().size() != 1) {
        err(RemoteText::tr("error: name one host"));
        return Usage;
    }
    if (!AppSettings::remoteHosts().contains(p.positional().first())) {
        err(RemoteText::tr("error: %1 is not a host added in Ingot (hosts of the ssh config are edited there)")
                .arg(p.positional().first()));
        return Usage;
    }
    AppSettings::removeRemoteHost(p.positional().first());
    out(RemoteText::tr("Removed %1.").arg(p.positional().first()));
    return Ok;
}

int cmdConnect(const Invocation &p)
{
    if (p.positional().size() != 1) {
        err(RemoteText::tr("error: name one host"));
        return Usage;
    }
    std::shared_ptr<SshConnection> conn;
    if (const int e = connectHost(p.positional().first(), &conn))
        return e;
    out(RemoteText::tr("Connected to %1.").arg(conn->host().toString()));
    return Ok;
}

}  // namespace

QVector<Command> remoteCommands()
{
    const QString g = QStringLiteral("remote");
    return {
        {g, QStringLiteral("hosts"), RemoteText::tr("The hosts of the ssh config and those added, what each resolves to (ssh -G)"),
         JsonOption, {}, cmdHosts},
        {g, QStringLiteral("add"), RemoteText::tr("Add a host by name (alias, user@host:port)"), NoSharedOptions, hostArgument,
         cmdAdd},
        {g, QStringLiteral("remove"), RemoteText::tr("Remove a host added in Ingot"), NoSharedOptions, hostArgument, cmdRemove},
        {g, QStringLiteral("connect"), RemoteText::tr("Connect (first contact: check and trust the host key on a terminal)"),
         NoSharedOptions, hostArgument, cmdConnect},
    };
}

}  // namespace ingot::cli
