#include "services/util/shellquote.h"

#include "services/util/names.h"

namespace ingot {

namespace {

bool isBareWord(const QByteArray &w)
{
    if (w.isEmpty())
        return false;
    for (const char ch : w) {
        const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
            || QByteArrayView("_@%+:,./-=").contains(ch);
        if (!ok)
            return false;
    }
    // "NAME=value" as a first word is an assignment, not a command: quote anything that could read as one.
    const qsizetype eq = w.indexOf('=');
    if (eq == 0)
        return false;
    if (eq > 0) {
        bool name = !(w.at(0) >= '0' && w.at(0) <= '9');
        for (qsizetype i = 0; i < eq && name; ++i)
            name = w.at(i) == '_' || (w.at(i) >= 'a' && w.at(i) <= 'z') || (w.at(i) >= 'A' && w.at(i) <= 'Z')
                || (w.at(i) >= '0' && w.at(i) <= '9');
        if (name)
            return false;
    }
    return true;
}

}  // namespace

std::optional<QString> shellQuoteBytes(const QByteArray &arg)
{
    if (arg.contains('\0'))
        return std::nullopt;
    if (isBareWord(arg))
        return QString::fromLatin1(arg);
    const QString name = nameFromBytes(arg);  // undecodable bytes become U+DC80 + byte
    QString out = QStringLiteral("'");
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        const ushort u = c.unicode();
        if (c.isHighSurrogate() && i + 1 < name.size() && name.at(i + 1).isLowSurrogate()) {
            out += c;
            out += name.at(++i);  // a character outside the BMP, whose low half may look like an escaped byte
        } else if (u >= 0xDC80 && u <= 0xDCFF) {
            // Close the quotes, the byte from printf (octal, POSIX), open them again. A command substitution only
            // strips newlines, and this byte is never one (0x80..0xFF).
            out += QStringLiteral("'\"$(printf '\\%1')\"'").arg(u - 0xDC00, 3, 8, QLatin1Char('0'));
        } else if (c == QLatin1Char('\'')) {
            out += QStringLiteral("'\\''");
        } else {
            out += c;
        }
    }
    out += QLatin1Char('\'');
    return out;
}

std::optional<QString> shellQuote(const QString &arg)
{
    return shellQuoteBytes(nameToBytes(arg));
}

std::optional<QString> shellCommand(const QStringList &argv)
{
    QStringList parts;
    for (const QString &a : argv) {
        const std::optional<QString> q = shellQuote(a);
        if (!q)
            return std::nullopt;
        parts << *q;
    }
    return parts.join(QLatin1Char(' '));
}

QString shellWord(const QString &arg)
{
    QByteArray bytes = nameToBytes(arg);
    bytes.replace('\0', QByteArray());
    return *shellQuoteBytes(bytes);
}

bool splitShellWords(const QString &text, QStringList *words)
{
    words->clear();
    QString word;
    bool inWord = false;
    enum { None, Single, Double } quote = None;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quote == Single) {
            if (c == QLatin1Char('\''))
                quote = None;
            else
                word += c;
        } else if (quote == Double) {
            if (c == QLatin1Char('"')) {
                quote = None;
            } else if (c == QLatin1Char('\\') && i + 1 < text.size()
                       && QStringLiteral("$`\"\\\n").contains(text.at(i + 1))) {
                if (text.at(++i) != QLatin1Char('\n'))
                    word += text.at(i);
            } else {
                word += c;
            }
        } else if (c.isSpace()) {
            if (inWord)
                *words << word;
            word.clear();
            inWord = false;
        } else if (c == QLatin1Char('\'')) {
            quote = Single;
            inWord = true;
        } else if (c == QLatin1Char('"')) {
            quote = Double;
            inWord = true;
        } else if (c == QLatin1Char('\\')) {
            if (i + 1 >= text.size())
                return false;
            if (text.at(++i) != QLatin1Char('\n'))
                word += text.at(i);
            inWord = true;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (quote != None)
        return false;
    if (inWord)
        *words << word;
    return true;
}

QString joinShellWords(const QStringList &words)
{
    QStringList quoted;
    for (const QString &w : words)
        quoted << shellWord(w);
    return quoted.join(QLatin1Char(' '));
}

}  // namespace ingot
