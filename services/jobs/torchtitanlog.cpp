#include "services/jobs/torchtitanlog.h"

#include <QByteArray>
#include <QByteArrayList>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace ingot {

namespace {

// The line without terminal escapes (CSI sequences: ESC [ parameters final byte; an unfinished one ends the line).
QByteArray withoutEscapes(const char *p, const char *end)
{
    QByteArray out;
    out.reserve(end - p);
    while (p < end) {
        if (*p == '\x1b') {
            if (end - p < 2 || p[1] != '[')
                return {};  // another escape: not a line TorchTitan wrote
            p += 2;
            while (p < end && !(*p >= 0x40 && *p <= 0x7e))
                ++p;
            if (p == end)
                return out;
            ++p;
            continue;
        }
        out += *p++;
    }
    return out;
}

// The logged message: after torchrun's "[rankN]:" and the "[titan] <time> - <logger> - INFO - " of the log format.
QByteArray message(QByteArray line)
{
    line = line.trimmed();
    if (line.startsWith("[rank")) {
        const qsizetype close = line.indexOf("]:");
        if (close < 0 || close > 16)
            return {};
        line = line.mid(close + 2).trimmed();
    }
    if (line.startsWith("[titan]")) {
        const qsizetype at = line.indexOf(" - INFO - ");
        if (at < 0)
            return {};
        line = line.mid(at + 10).trimmed();
    }
    return line;
}

// A number as Python's format printed it: digits, '.', an exponent, the thousands commas of "{:,}", nan/inf.
bool number(QByteArray text, double *out)
{
    text.replace(',', QByteArray());
    if (text.isEmpty() || text.size() > 64)
        return false;
    const QByteArray lower = text.toLower();
    if (lower == "nan" || lower == "-nan" || lower == "inf" || lower == "-inf") {
        *out = MetricPoint::none;  // an absent value, as everywhere in Ingot's metrics
        return true;
    }
    char *stop = nullptr;
    const double v = std::strtod(text.constData(), &stop);
    if (stop != text.constData() + text.size() || !std::isfinite(v))
        return false;
    *out = v;
    return true;
}

// "1.23GiB(3.45%)": the GiB (max reserved memory / 1024^3) in bytes.
bool memory(const QByteArray &text, qint64 *bytes)
{
    const qsizetype unit = text.indexOf("GiB");
    double gib = 0;
    if (unit <= 0 || !number(text.left(unit), &gib) || std::isnan(gib) || gib < 0 || gib > 1e9)
        return false;
    *bytes = qint64(std::llround(gib * 1024.0 * 1024.0 * 1024.0));
    return true;
}

}  // namespace

bool readTorchTitanStep(const char *begin, const char *end, MetricPoint *out)
{
    if (end - begin > torchTitanMaxLineBytes || std::memchr(begin, 's', size_t(end - begin)) == nullptr)
        return false;
    const QByteArray msg = message(withoutEscapes(begin, end));
    if (!msg.startsWith("step:"))
        return false;  // another line ("validate step:" included)
    QByteArrayList tokens;
    for (const QByteArray &t : msg.split(' '))
        if (!t.isEmpty())
            tokens << t;
    MetricPoint p;
    bool haveStep = false, haveLoss = false;
    QByteArrayList seen;
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const QByteArray &key = tokens.at(i);
        if (!key.endsWith(':') || key.size() < 2)
            continue;  // a value of a field Ingot does not know
        if (seen.contains(key) || i + 1 >= tokens.size())
            return false;
        seen << key;
        const QByteArray value = tokens.at(++i);
        double v = 0;
        if (key == "step:") {
            if (!number(value, &v) || std::isnan(v) || v < 0 || v > 1e15 || v != std::floor(v)
                || value.contains(','))
                return false;
            p.step = qint64(v);
            haveStep = true;
        } else if (key == "loss:") {
            if (!number(value, &p.loss))
                return false;
            haveLoss = true;
        } else if (key == "grad_norm:") {
            if (!number(value, &p.gradNorm))
                return false;
        } else if (key == "tps:" || key == "wps:") {
            if (!number(value, &p.tokensPerSecond) || p.tokensPerSecond < 0)
                return false;
        } else if (key == "memory:") {
            if (!memory(value, &p.peakMemory))
                return false;
        }
    }
    if (!haveStep || !haveLoss)
        return false;
    *out = p;
    return true;
}

}  // namespace ingot
