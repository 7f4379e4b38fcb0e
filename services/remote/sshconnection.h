// One remote host through the user's OpenSSH client: one multiplexed master connection (ControlMaster, its socket
// in Ingot's runtime folder) that every command reuses, failures classified into reasons a person can act on, and
// host keys checked strictly: an unknown key is shown and added only with consent, a changed one is refused.
// Every call blocks: call from a worker (runTask) or the CLI, never the UI thread. Thread-safe.
#pragma once

#include "services/remote/askpass.h"
#include "services/remote/sshhost.h"
#include "services/remote/sshresolve.h"

#include <QByteArray>
#include <QMutex>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace ingot {

enum class SshError {
    None,
    InvalidHost,           // the host does not parse (never handed to ssh)
    SshMissing,            // the ssh program cannot be started
    HostKeyUnknown,        // no known key for the host: scanHostKey(), ask, acceptHostKey()
    HostKeyChanged,        // the known key differs: refused, never overridden by Ingot
    AuthenticationFailed,  // no key or passphrase was accepted
    ConnectionRefused,     // nothing listens on the port
    Timeout,               // no answer in time (connect or command)
    NameResolution,        // the host name does not resolve
    Unreachable,           // no route, network down
    ConnectionLost,        // the connection closed or dropped (sshd died, network)
    OutputTooLarge,        // the command printed more than the limit allowed
    Other,                 // another ssh failure: see the detail
};

// What went wrong, for a person: one or two sentences that say what to do.
QString sshErrorText(SshError error, const QString &host);
// The reason from ssh's stderr (exit status 255); None when it names no failure ssh reports.
SshError classifySshStderr(const QByteArray &err);

struct SshResult {
    SshError error = SshError::None;
    QString errorText;  // sshErrorText() plus ssh's own words; empty when error is None
    int exitCode = -1;  // the remote command's status (valid when error is None)
    QByteArray out;
    QByteArray err;
    bool ok() const { return error == SshError::None; }
    bool succeeded() const { return ok() && exitCode == 0; }
};

// A host key the server offered, for the user to confirm.
struct HostKeyOffer {
    QByteArray knownHostsLine;  // exactly what ssh would add to known_hosts
    QString fingerprint;        // SHA256:...
    QString keyType;            // ED25519, ECDSA, RSA
    QString knownHostsFile;     // where acceptHostKey() adds the line
};

class SshConnection final
{
public:
    enum class State { NotConnected, Connecting, Connected, Failed };

    explicit SshConnection(SshHost host, SshClientConfig client = SshClientConfig::fromSettings(),
                           int persistSeconds = 600);
    // Leaves the master running: it ends by itself after persistSeconds without use (close() ends it now).
    ~SshConnection();
    Q_DISABLE_COPY_MOVE(SshConnection)

    const SshHost &host() const { return m_host; }
    State state() const;
    SshError error() const;  // why the state is Failed
    QString errorText() const;

    // Starts the master connection (or finds it running); true when connected. With `askPass`, ssh may ask for a
    // key's passphrase or a password: ingot-askpass forwards each prompt to it (its time is not counted in
    // timeoutMs); without, ssh never asks (BatchMode) and a key that needs a passphrase fails authentication.
    bool connect(int timeoutMs = 30000, AskPass *askPass = nullptr);
    // Whether the master runs (ssh -O check); updates the state.
    bool check();
    // Ends the master (ssh -O exit).
    void close();

    // Runs `remoteCommand` (a shell command line: quote arguments with shellCommand()) through the master,
    // connecting first when needed. `stdinBytes` is its standard input. Past `timeoutMs` the local ssh is killed
    // (Timeout); more than `maxOutputBytes` on stdout or stderr stops it (OutputTooLarge).
    SshResult run(const QString &remoteCommand, const QByteArray &stdinBytes = QByteArray(), int timeoutMs = 60000,
                  qint64 maxOutputBytes = 16 << 20);

    // A command that streams more than run() holds in memory (a tar of gigabytes): the ssh program, arguments and
    // environment that run `remoteCommand` through the master, never falling back to a direct connection. connect()
    // first; the caller starts the process and feeds it. Exit 255 is ssh's own failure: classifySshStderr().
    struct StreamCommand {
        QString program;
        QStringList arguments;
        QProcessEnvironment environment;
    };
    StreamCommand streamCommand(const QString &remoteCommand) const;

    // After HostKeyUnknown: connects once, authenticating with nothing, only to learn the key the server offers
    // (through the same config: ProxyJump, HostKeyAlias and ports apply). Nothing is written to known_hosts.
    bool scanHostKey(HostKeyOffer *offer, QString *error);
    // Only after the user said yes: appends the offer's line to its known_hosts file (atomically, keeping what is
    // there). Never edits or removes an existing entry.
    bool acceptHostKey(const HostKeyOffer &offer, QString *error);

    // Where master sockets live: <runtime folder>/ingot-ssh, mode 0700. Connections to the same user, host and port
    // share one master (as ssh's %C does), also across SshConnection objects and Ingot processes. Only a folder of
    // this user's own is used (lstat: a folder, not a link, owned by the effective user, 0700): without a usable
    // runtime folder (or one too deep for a socket path) /tmp/ingot-ssh-<uid>, and when another user made or spoiled
    // that, a folder this process makes with mkdtemp in the temporary folder. Empty, with words in *error, when
    // there is none (connect() then fails with them).
    static QString controlDir(QString *error = nullptr);
    // The choice controlDir() makes, with the places given (tests pass their own).
    static QString chooseControlDir(const QString &runtimeDir, const QString &sharedDir, const QString &tempDir,
                                    QString *error);
    // The ControlPath handed to ssh (%C: a hash of the host, port and user, so the path stays short).
    QString controlPath() const;

private:
    QStringList commonOptions(bool batch = true) const;
    void setState(State s, SshError e = SshError::None, const QString &text = QString());
    SshResult failure(SshError e, const QByteArray &err = QByteArray());

    const SshHost m_host;
    const SshClientConfig m_client;
    const int m_persistSeconds;
    mutable QMutex m_mutex;
    QMutex m_connectMutex;  // one connect() at a time
    State m_state = State::NotConnected;
    SshError m_error = SshError::None;
    QString m_errorText;
};

}  // namespace ingot
