#include "services/util/names.h"

#include <QStringList>
#include <QUtf8StringView>

namespace ingot {

namespace {
constexpr char16_t kEscapeBase = 0xDC80;  // U+DC80 + byte, for bytes 0x80..0xFF that are not valid UTF-8

// Length of the valid UTF-8 sequence starting at p (1..4), or 0 when it is not one.
int validSequence(const unsigned char *p, qsizetype left, char32_t *cp)
{
    const unsigned char c = p[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    int n = 0;
    char32_t v = 0, min = 0;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        v = c & 0x1F;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        v = c & 0x0F;
        min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        v = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    for (int i = 1; i < n; ++i) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (p[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;  // overlong, out of range, or an encoded surrogate
    *cp = v;
    return n;
}

bool isHidden(char32_t c)
{
    return (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) ||
           c == 0xFEFF || c == 0x061C;
}
}  // namespace

QString nameFromBytes(const char *bytes)
{
    const char *p = bytes;
    while (*p != 0 && static_cast<unsigned char>(*p) < 0x80)  // plain ASCII so far
        ++p;
    if (*p == 0)
        return QString::fromLatin1(bytes, p - bytes);
    return nameFromBytes(QByteArray(bytes));
}

QString nameFromBytes(const QByteArray &bytes)
{
    // Nearly every name is valid UTF-8: Qt's decoder is the fast path. (QUtf8StringView::isValidUtf8 also
    // refuses encoded surrogates and overlong forms, as the slow path below does.)
    if (QUtf8StringView(bytes).isValidUtf8())
        return QString::fromUtf8(bytes);
    QString out;
    out.reserve(bytes.size());
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype n = bytes.size();
    for (qsizetype i = 0; i < n;) {
        char32_t cp = 0;
        const int len = validSequence(p + i, n - i, &cp);
        if (len == 0) {
            out.append(QChar(char16_t(kEscapeBase + (p[i] - 0x80))));
            ++i;
            continue;
        }
        if (cp >= 0x10000) {
            const char32_t v = cp - 0x10000;
            out.append(QChar(char16_t(0xD800 + (v >> 10))));
            out.append(QChar(char16_t(0xDC00 + (v & 0x3FF))));
        } else {
            out.append(QChar(char16_t(cp)));
        }
        i += len;
    }
    return out;
}

QByteArray nameToBytes(const QString &name)
{
    QByteArray out;
    out.reserve(name.size());
    const qsizetype n = name.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = name.at(i).unicode();
        char32_t cp = u;
        if (QChar::isHighSurrogate(u) && i + 1 < n && QChar::isLowSurrogate(name.at(i + 1).unicode())) {
            cp = QChar::surrogateToUcs4(u, name.at(i + 1).unicode());
            ++i;
        } else if (u >= kEscapeBase && u <= kEscapeBase + 0x7F) {
            out.append(char(0x80 + (u - kEscapeBase)));  // an escaped byte
            continue;
        } else if (QChar::isSurrogate(u)) {
            cp = 0xFFFD;  // a lone surrogate that no name from disk produces
        }
        if (cp < 0x80) {
            out.append(char(cp));
        } else if (cp < 0x800) {
            out.append(char(0xC0 | (cp >> 6)));
            out.append(char(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            out.append(char(0xE0 | (cp >> 12)));
            out.append(char(0x80 | ((cp >> 6) & 0x3F)));
            out.append(char(0x80 | (cp & 0x3F)));
        } else {
            out.append(char(0xF0 | (cp >> 18)));
            out.append(char(0x80 | ((cp >> 12) & 0x3F)));
            out.append(char(0x80 | ((cp >> 6) & 0x3F)));
            out.append(char(0x80 | (cp & 0x3F)));
        }
    }
    return out;
}

bool needsEscaping(const QString &name)
{
    for (const QChar c : name) {
        const char16_t u = c.unicode();
        if (u < 0x20 || (u >= 0x7F && u <= 0x9F) || QChar::isSurrogate(u) || isHidden(u))
            return true;
    }
    return false;
}

QString displayName(const QString &name)
{
    if (!needsEscaping(name))
        return name;
    QString out;
    out.reserve(name.size() + 8);
    const qsizetype n = name.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t u = name.at(i).unicode();
        if (QChar::isHighSurrogate(u) && i + 1 < n && QChar::isLowSurrogate(name.at(i + 1).unicode())) {
            out.append(name.at(i));
            out.append(name.at(++i));
        } else if (u >= kEscapeBase && u <= kEscapeBase + 0x7F) {
            out += QStringLiteral("\\x%1").arg(0x80 + (u - kEscapeBase), 2, 16, QLatin1Char('0'));
        } else if (u < 0x20 || (u >= 0x7F && u <= 0x9F)) {
            out += QStringLiteral("\\x%1").arg(int(u), 2, 16, QLatin1Char('0'));
        } else if (QChar::isSurrogate(u) || isHidden(u)) {
            out += QStringLiteral("\\u{%1}").arg(int(u), 4, 16, QLatin1Char('0'));
        } else {
            out.append(name.at(i));
        }
    }
    return out;
}

QString displayText(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &line : lines) {
        QStringList cells = line.split(QLatin1Char('\t'));
        for (QString &c : cells)
            c = displayName(c);
        line = cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ingot
