// The one shell quoting of Ingot: remote commands (ssh hands them to the user's login shell there), job scripts and
// the command previews users paste. Words made only of [A-Za-z0-9_@%+:,./-] (and '=' after the first character,
// unless the word would read as an assignment) stay bare; everything else is single-quoted. Bytes that are not
// UTF-8 travel as "$(printf '\NNN')", so a name that is not UTF-8 arrives byte for byte while argv stays text.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace ingot {

// One argument, bare or single-quoted ('it'\''s'). nullopt when it contains a NUL byte (no argument can).
std::optional<QString> shellQuoteBytes(const QByteArray &arg);
// A name kept as nameFromBytes() makes it: quoted as the bytes it stands for.
std::optional<QString> shellQuote(const QString &arg);
// Every argument quoted, joined by spaces: `program arg...` for the remote shell.
std::optional<QString> shellCommand(const QStringList &argv);
// For text that is never NUL-free by construction (previews, job scripts): a NUL is dropped (no argv can hold one;
// validation refuses such settings before they run).
QString shellWord(const QString &arg);

// Splits a line the way a POSIX shell splits words: whitespace separates, '…' and "…" quote, a backslash escapes
// (inside "…" only before $ ` " \ and a newline). False for an unterminated quote or a trailing backslash.
bool splitShellWords(const QString &text, QStringList *words);
// The inverse: words quoted where a shell needs it, joined by spaces.
QString joinShellWords(const QStringList &words);

}  // namespace ingot
