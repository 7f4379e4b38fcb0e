#include "services/remote/shellquote.h"

#include "services/util/names.h"

namespace ingot {

std::optional<QString> shellQuoteBytes(const QByteArray &arg)
{
    if (arg.contains('\0'))
        return std::nullopt;
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

}  // namespace ingot
