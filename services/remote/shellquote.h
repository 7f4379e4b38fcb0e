// Remote commands for a POSIX shell: ssh hands the remote command to the user's login shell there, so every
// argument is quoted. Bytes that are not UTF-8 travel as "$(printf '\NNN')", so a name that is not UTF-8 arrives
// byte for byte while ssh's argv stays text.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace ingot {

// One argument, single-quoted ('it'\''s'). nullopt when it contains a NUL byte (no argument can).
std::optional<QString> shellQuoteBytes(const QByteArray &arg);
// A name kept as nameFromBytes() makes it: quoted as the bytes it stands for.
std::optional<QString> shellQuote(const QString &arg);
// Every argument quoted, joined by spaces: `program arg...` for the remote shell.
std::optional<QString> shellCommand(const QStringList &argv);

}  // namespace ingot
