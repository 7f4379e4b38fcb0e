// Command-line flags in wrapping text (an explanation's evidence, what to do): a line never breaks inside a flag.
// Qt breaks lines after a hyphen, so "--enable-saturate-infinity" was shown as "--" on one line and
// "enable-saturate-infinity" on the next. The text shown carries a word joiner (U+2060, invisible) after each hyphen
// of a word that starts with '-'; what is copied is the text as written.
#pragma once

#include <QString>

class QLabel;

namespace ingot {

// `text` for a wrapping label: no line break inside a flag.
QString keepFlagsWhole(const QString &text);
// The text as written again (without the joiners).
QString flagsAsWritten(const QString &shown);
// Ctrl+C and the context menu's Copy of a selectable label copy the text as written, not the joiners.
void copyFlagsAsWritten(QLabel *label);

}  // namespace ingot
