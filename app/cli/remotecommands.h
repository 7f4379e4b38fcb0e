// ingot-cli and remote hosts: connecting for a command run with --host (host keys and passphrases asked only on a
// terminal, never without one) and `ingot-cli remote hosts|add|remove`.
#pragma once

#include "app/cli/commandtable.h"

#include <QVector>

#include <memory>

namespace ingot {
class SshConnection;
}

namespace ingot::cli {

// Connects to `hostText` through its shared connection. Returns Ok, or the exit code after saying why on stderr:
// Usage (a name that is no host), HostKey (unknown key without a terminal, declined, or a changed key),
// HostUnreachable (anything else: refused, timeout, authentication, ...). With a terminal an unknown key's
// fingerprint is shown and asked about, and ssh's passphrase prompts are answered there (echo off).
int connectHost(const QString &hostText, std::shared_ptr<SshConnection> *out = nullptr);

QVector<Command> remoteCommands();

}  // namespace ingot::cli
