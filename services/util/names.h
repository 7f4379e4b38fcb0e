// File names are bytes on Linux, and names from disk or a server may be anything: invalid UTF-8, control
// characters, terminal escape sequences. Ingot keeps them in QString without losing a byte, and shows them
// escaped.
//
// nameFromBytes() decodes UTF-8; every byte that is not part of a valid UTF-8 sequence becomes the lone surrogate
// U+DC80 + byte (the "surrogateescape" scheme), which no valid UTF-8 text can produce, so nameToBytes() gives back
// the exact bytes. A name that is not UTF-8 therefore never turns into its U+FFFD twin (a different file).
#pragma once

#include <QByteArray>
#include <QString>

namespace ingot {

QString nameFromBytes(const QByteArray &bytes);
QString nameFromBytes(const char *bytes);  // NUL-terminated (a dirent name): no copy for plain ASCII
QByteArray nameToBytes(const QString &name);

// For screens and terminals: control characters (C0, DEL, C1), undecodable bytes and characters that reorder or
// hide text (bidi overrides, zero-width) as \xNN or \u{NNNN}; everything else as it is. Never contains a control
// character, so a name cannot move the cursor, change the title, clear the screen or split a table row.
QString displayName(const QString &name);
// displayName(displayName(x)) == displayName(x): escaping can be applied at every layer (a message, a table
// cell, the terminal) without doubling. A backslash is therefore left as it is.
// For text made of lines (a message, a log, a traceback): displayName() of every line and tab-separated cell, so
// line breaks and tabs stay while every other control character is escaped.
QString displayText(const QString &text);
// Whether displayName() would change the name.
bool needsEscaping(const QString &name);

}  // namespace ingot
