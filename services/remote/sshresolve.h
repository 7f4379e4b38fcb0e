// Which ssh Ingot runs and with which config, and what a host resolves to: `ssh -G`, so every rule of the user's
// ssh config (Host/Match blocks, Include, ProxyJump, HostKeyAlias, ...) applies exactly as ssh applies it.
#pragma once

#include "services/remote/sshhost.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace ingot {

struct SshClientConfig {
    QString program = QStringLiteral("ssh");
    QString keygenProgram = QStringLiteral("ssh-keygen");
    // Passed as -F: an ssh config file used INSTEAD of ~/.ssh/config (and /etc/ssh/ssh_config); empty: ssh's
    // defaults. ssh finds ~/.ssh through the password database, not $HOME.
    QString configFile;
    // The SSH_ASKPASS helper; empty: askPassProgram() (ingot-askpass next to this program).
    QString askPassProgram;

    // From AppSettings::sshConfigFile().
    static SshClientConfig fromSettings();
    // [-F configFile]: what every ssh invocation starts with.
    QStringList baseArguments() const;
};

struct SshResolved {
    QString hostname;
    QString user;
    int port = 22;
    QStringList identityFiles;  // ~ expanded
    QString proxyJump;          // empty: none
    QString controlPath;        // from the config (Ingot uses its own)
    QStringList userKnownHostsFiles;  // ~ expanded; the first is where ssh (and Ingot) adds keys
    bool hashKnownHosts = false;
    QString hostKeyAlias;
    QMap<QString, QStringList> options;  // every line of `ssh -G`: keyword (lower case) -> values in order
};

// Runs `ssh -G [-F config] [-l user] [-p port] -- destination`. False with `error` when ssh is missing or rejects
// the host or the config.
bool resolveSshHost(const SshClientConfig &client, const SshHost &host, SshResolved *out, QString *error);
// The parsing half, for tests and fuzzing.
SshResolved parseSshG(const QByteArray &output);

}  // namespace ingot
