// A remote host as the user adds it (an ssh config alias, user@host, user@host:port, host:port, [::1]:22), checked
// so that it can never be taken as an ssh option, and the Host names of an ssh config for the "Remote hosts" list.
#pragma once

#include <QString>
#include <QStringList>

namespace ingot {

struct SshHost {
    QString destination;  // the alias or host name handed to ssh (never starts with '-')
    QString user;         // empty: what the ssh config says
    int port = 0;         // 0: what the ssh config says

    bool isValid() const { return !destination.isEmpty(); }
    // user@host:port as the user would type it ([v6]:port for IPv6 addresses).
    QString toString() const;
    // The options and the destination for ssh's argv: [-l user] [-p port] -- destination. The remote command, if
    // any, goes after these.
    QStringList sshArguments() const;
    bool operator==(const SshHost &o) const { return destination == o.destination && user == o.user && port == o.port; }
};

// Parses what the user typed. Rejects (false, `error` says why) anything empty, starting with '-', containing
// whitespace, control characters or characters no host name or alias has (quotes, ';', '$', ...), and bad ports.
bool parseSshHost(const QString &text, SshHost *host, QString *error);

// The Host names of the ssh config `configPath` and the files it Includes (glob patterns; relative ones are taken
// relative to `sshDir`, ~/.ssh of the account by default, as ssh does for a user config). Wildcard patterns ('*',
// '?', negations '!') are skipped; nesting stops at 16 levels (ssh's limit), so a config including itself ends.
// Each name once, in the order found.
QStringList sshConfigHosts(const QString &configPath, const QString &sshDir = QString());

// The home folder of this account from the password database, which ssh uses for ~ (not $HOME).
QString accountHomeDir();
// `path` with a leading ~/ replaced by accountHomeDir().
QString expandTilde(const QString &path);

}  // namespace ingot
