// A real OpenSSH server (/usr/sbin/sshd) on 127.0.0.1 and a free port for tests: its own host key, a user key pair
// without a passphrase and one with, authorized_keys, and an ssh config (Host alias -> this server, its own
// known_hosts, host key checking left on) that every ssh of the test gets with -F, since ssh reads ~/.ssh from the
// password database, not $HOME. Runs as root (CI) and as an ordinary user. stop(), kill() and restart() for
// servers that go away; replaceHostKey() for a server whose key changed. The server accepts NEURON_CC_FLAGS and
// NEURON_COMPILE_CACHE_URL from the client (SetEnv in a config block), standing in for a host whose profile sets them.
#pragma once

#include <QList>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace ingot::test {

class TestSshd
{
public:
    // `alias`: the Host name in sshConfigFile(). `jump`: reach this server through that one (ProxyJump); the config
    // then also has the jump server's block.
    explicit TestSshd(QString alias = QStringLiteral("ingot-test"), const TestSshd *jump = nullptr);
    ~TestSshd();
    TestSshd(const TestSshd &) = delete;
    TestSshd &operator=(const TestSshd &) = delete;

    // Generates the keys (first time), writes the configs, starts sshd and waits until the port accepts.
    bool start(QString *error);
    void stop();                      // SIGTERM to sshd and every session it started
    void kill();                      // SIGKILL to sshd and every session it started: a server that dies
    bool restart(QString *error);     // same port, same host key
    bool replaceHostKey(QString *error);  // a new host key for the next start (a reinstalled or spoofed host)
    bool isRunning() const;
    // More variables for the sessions' environment, "NAME=value NAME=value" (sshd's SetEnv: no spaces in values),
    // applied by start() (call it before), e.g. "PATH=/dir:/usr/bin:/bin" for a host whose commands (tar,
    // sha256sum) are not what they seem.
    void setSessionEnv(const QString &vars) { m_sessionEnv = vars; }
    // sshd's descendants now: the per-connection processes and what their sessions run. Tests that kill a host
    // command pick from these, never from the whole machine (other tests' servers may run at the same time).
    QList<qint64> sessionProcesses() const;

    QString alias() const { return m_alias; }
    int port() const { return m_port; }
    QString dir() const { return m_dir.path(); }
    QString userName() const;
    QString hostKeyFingerprint() const;  // SHA256:...
    QString hostKeyLine() const;         // "[127.0.0.1]:port ssh-ed25519 AAAA...", as known_hosts has it
    QString identityFile() const { return m_dir.path() + QStringLiteral("/id_ed25519"); }
    QString passphraseIdentityFile() const { return m_dir.path() + QStringLiteral("/id_passphrase"); }
    static QString passphrase() { return QStringLiteral("correct horse battery staple"); }
    QString sshConfigFile() const { return m_dir.path() + QStringLiteral("/ssh_config"); }
    QString knownHostsFile() const { return m_dir.path() + QStringLiteral("/known_hosts"); }
    // Adds this server's key to knownHostsFile(), for tests that are not about host keys.
    bool trustHostKey();
    // The config block for this server (the text of sshConfigFile() without the jump server's block).
    QString configBlock() const;
    QString log() const;
    int acceptedLogins() const;  // "Accepted publickey" lines in the log

private:
    bool generateKeys(QString *error);
    bool launch(QString *error);
    void signalAll(int sig);

    QString m_alias;
    const TestSshd *m_jump = nullptr;
    QTemporaryDir m_dir;
    QProcess m_proc;
    int m_port = 0;
    bool m_keysMade = false;
    QString m_sessionEnv;
};

}  // namespace ingot::test
