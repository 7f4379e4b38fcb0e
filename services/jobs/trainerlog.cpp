#include "services/jobs/trainerlog.h"

#include "services/jobs/torchtitanlog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ingot {

namespace {

constexpr double nan = MetricPoint::none;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdent(char c) { return isIdentStart(c) || isDigit(c) || c == '.'; }

// A step as the logs give it: a finite, non-negative whole number of a sane size; -1 otherwise.
qint64 toStep(double v)
{
    if (!std::isfinite(v) || v < 0 || v > 1e15 || v != std::floor(v))
        return -1;
    return qint64(v);
}

// One value of a flat Python dict repr; only numbers matter to Ingot, anything else is kept as "not a number".
struct Entry {
    QByteArray key;
    bool numeric = false;
    double number = nan;
};

// Reads `{'key': value, …}` as Python's repr prints it. No recursion and no nesting: a dict, list or tuple as a
// value makes the whole line unreadable, so hostile input costs one pass over the line and nothing more.
class DictReader
{
public:
    DictReader(const char *begin, const char *end)
        : m_p(begin)
        , m_end(end)
    {
    }

    bool read(QVector<Entry> *entries)
    {
        if (!take('{'))
            return false;
        skipSpace();
        if (take('}'))
            return atEnd();
        for (;;) {
            Entry e;
            skipSpace();
            if (!string(&e.key))
                return false;
            skipSpace();
            if (!take(':'))
                return false;
            skipSpace();
            if (!value(&e))
                return false;
            entries->append(e);
            skipSpace();
            if (take('}'))
                return atEnd();
            if (!take(','))
                return false;
            skipSpace();
            if (take('}'))  // a trailing comma
                return atEnd();
        }
    }

private:
    bool atEnd()
    {
        skipSpace();
        return m_p == m_end;
    }
    void skipSpace()
    {
        while (m_p < m_end && isSpace(*m_p))
            ++m_p;
    }
    bool take(char c)
    {
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }

    // 'text' or "text", backslash escapes kept as they are (keys are plain names; numbers need no decoding).
    bool string(QByteArray *out)
    {
        if (m_p >= m_end || (*m_p != '\'' && *m_p != '"'))
            return false;
        const char quote = *m_p++;
        const char *start = m_p;
        while (m_p < m_end && *m_p != quote) {
            if (*m_p == '\\' && ++m_p == m_end)
                return false;
            ++m_p;
        }
        if (m_p == m_end)
            return false;  // unterminated
        *out = QByteArray(start, int(m_p - start));
        ++m_p;
        return true;
    }

    bool number(Entry *e, bool negative)
    {
        const char *start = m_p;
        while (m_p < m_end
               && (isDigit(*m_p) || *m_p == '.' || *m_p == 'e' || *m_p == 'E'
                   || ((*m_p == '+' || *m_p == '-') && m_p > start && (m_p[-1] == 'e' || m_p[-1] == 'E'))))
            ++m_p;
        if (m_p == start || m_p - start > 64)
            return false;
        bool ok = false;
        const double v = QByteArray(start, int(m_p - start)).toDouble(&ok);
        if (!ok)
            return false;
        e->numeric = true;
        e->number = negative ? -v : v;
        return true;
    }

    bool identifier(QByteArray *out)
    {
        const char *start = m_p;
        if (m_p >= m_end || !isIdentStart(*m_p))
            return false;
        while (m_p < m_end && isIdent(*m_p))
            ++m_p;
        *out = QByteArray(start, int(m_p - start));
        return true;
    }

    // A string, number, nan/inf, True/False/None: what may stand alone or inside a wrapper's parentheses.
    bool scalar(Entry *e)
    {
        QByteArray text;
        if (string(&text)) {
            bool ok = false;
            const double v = text.trimmed().toDouble(&ok);  // '2.5' as some loggers print numbers
            e->numeric = ok;
            e->number = ok ? v : nan;
            return true;
        }
        bool negative = false;
        if (take('-'))
            negative = true;
        else
            take('+');
        if (m_p < m_end && (isDigit(*m_p) || *m_p == '.'))
            return number(e, negative);
        if (!identifier(&text))
            return false;
        if (text == "nan") {
            e->numeric = true;
            e->number = nan;
        } else if (text == "inf") {
            e->numeric = true;
            e->number = negative ? -HUGE_VAL : HUGE_VAL;
        } else if (!negative && (text == "True" || text == "False" || text == "None")) {
            e->numeric = false;
        } else {
            return false;
        }
        return true;
    }

    // A scalar, or a wrapper around one: np.float64(2.3), tensor(2.3, device='xla:0'). The wrapper's first
    // argument is the value; keyword arguments are read and ignored.
    bool value(Entry *e)
    {
        const char *start = m_p;
        QByteArray name;
        if (identifier(&name)) {
            skipSpace();
            if (!take('(')) {
                m_p = start;
                return scalar(e);
            }
            skipSpace();
            if (!scalar(e))
                return false;
            for (;;) {
                skipSpace();
                if (take(')'))
                    return true;
                if (!take(','))
                    return false;
                skipSpace();
                if (take(')'))
                    return true;
                const char *arg = m_p;
                QByteArray keyword;
                if (identifier(&keyword)) {
                    skipSpace();
                    if (!take('='))
                        m_p = arg;
                    skipSpace();
                }
                Entry ignored;
                if (!scalar(&ignored))
                    return false;
            }
        }
        return scalar(e);
    }

    const char *m_p;
    const char *m_end;
};

// Digits at p (at most 18 of them, so the value fits): the value, or -1.
qint64 digits(const char *&p, const char *end)
{
    const char *start = p;
    qint64 v = 0;
    while (p < end && isDigit(*p) && p - start < 18)
        v = v * 10 + (*p++ - '0');
    if (p == start || (p < end && isDigit(*p)))
        return -1;
    return v;
}

// A tqdm bar without description: `12%|█▏   | 12/100 [00:05<00:40,  2.17it/s]`, `12/100 [...]`, `12it [...]`.
bool readProgress(const char *p, const char *end, qint64 *step, qint64 *total)
{
    const char *q = p;
    if (digits(q, end) >= 0 && q < end && *q == '%') {
        ++q;
        if (q == end || *q != '|')
            return false;
        const void *bar = std::memchr(q + 1, '|', size_t(end - q - 1));
        if (!bar)
            return false;
        p = static_cast<const char *>(bar) + 1;
        while (p < end && isSpace(*p))
            ++p;
    }
    const qint64 n = digits(p, end);
    if (n < 0 || p == end)
        return false;
    qint64 t = -1;
    if (*p == '/') {
        ++p;
        if (p < end && *p == '?')
            ++p;
        else if ((t = digits(p, end)) < 0)
            return false;
    } else if (end - p >= 2 && p[0] == 'i' && p[1] == 't') {
        p += 2;
    } else {
        return false;
    }
    if (p == end || !isSpace(*p))
        return false;
    while (p < end && isSpace(*p))
        ++p;
    if (p == end || *p != '[')
        return false;
    *step = n;
    *total = t;
    return true;
}

double entryNumber(const QVector<Entry> &entries, const char *key)
{
    for (const Entry &e : entries)
        if (e.numeric && e.key == key)
            return e.number;
    return nan;
}

bool hasKey(const QVector<Entry> &entries, const char *key)
{
    for (const Entry &e : entries)
        if (e.key == key)
            return true;
    return false;
}

template<typename Get>
TrainerSummary summaryFrom(Get number)
{
    TrainerSummary s;
    s.trainRuntime = number("train_runtime");
    s.trainLoss = number("train_loss");
    s.samplesPerSecond = number("train_samples_per_second");
    s.stepsPerSecond = number("train_steps_per_second");
    s.tokensPerSecond = number("train_tokens_per_second");
    s.epoch = number("epoch");
    return s;
}

}  // namespace

QJsonObject TrainerLogParser::saveState() const
{
    QJsonArray buffers;
    for (const Buffer &b : m_buffers)
        buffers.append(QJsonObject{{QStringLiteral("partial"), QString::fromLatin1(b.partial.toBase64())},
                                   {QStringLiteral("discarding"), b.discarding}});
    QJsonObject o{{QStringLiteral("buffers"), buffers},
                  {QStringLiteral("step"), double(m_step)},
                  {QStringLiteral("total"), double(m_total)},
                  {QStringLiteral("dicts"), double(m_dictCount)},
                  {QStringLiteral("evals"), m_evalCount},
                  {QStringLiteral("dropped"), double(m_droppedLines)}};
    if (m_summary) {
        o.insert(QStringLiteral("summary"), QJsonObject{{QStringLiteral("train_runtime"), jsonNumber(m_summary->trainRuntime)},
                                                        {QStringLiteral("train_loss"), jsonNumber(m_summary->trainLoss)},
                                                        {QStringLiteral("train_samples_per_second"), jsonNumber(m_summary->samplesPerSecond)},
                                                        {QStringLiteral("train_steps_per_second"), jsonNumber(m_summary->stepsPerSecond)},
                                                        {QStringLiteral("train_tokens_per_second"), jsonNumber(m_summary->tokensPerSecond)},
                                                        {QStringLiteral("epoch"), jsonNumber(m_summary->epoch)}});
    }
    return o;
}

bool TrainerLogParser::restoreState(const QJsonObject &o)
{
    const QJsonArray buffers = o.value(QLatin1String("buffers")).toArray();
    if (buffers.size() != 2)
        return false;
    Buffer restored[2];
    for (int i = 0; i < 2; ++i) {
        const QJsonObject b = buffers.at(i).toObject();
        const QJsonValue partial = b.value(QLatin1String("partial"));
        const auto decoded = QByteArray::fromBase64Encoding(partial.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!partial.isString() || !decoded || decoded.decoded.size() > maxLineBytes)
            return false;
        restored[i].partial = decoded.decoded;
        restored[i].discarding = b.value(QLatin1String("discarding")).toBool();
    }
    const qint64 step = qint64(jsonNumberOr(o.value(QLatin1String("step")), -2));
    const qint64 total = qint64(jsonNumberOr(o.value(QLatin1String("total")), -2));
    const qint64 dicts = qint64(jsonNumberOr(o.value(QLatin1String("dicts")), -1));
    if (step < -1 || total < -1 || dicts < 0)
        return false;
    m_buffers[0] = restored[0];
    m_buffers[1] = restored[1];
    m_step = step;
    m_total = total;
    m_dictCount = dicts;
    m_evalCount = std::max(0, o.value(QLatin1String("evals")).toInt());
    m_droppedLines = std::max<qint64>(0, qint64(jsonNumberOr(o.value(QLatin1String("dropped")), 0)));
    m_metrics.clear();
    m_summary.reset();
    if (o.value(QLatin1String("summary")).isObject()) {
        const QJsonObject s = o.value(QLatin1String("summary")).toObject();
        m_summary = summaryFrom([&](const char *key) { return jsonNumberOr(s.value(QLatin1String(key)), nan); });
    }
    return true;
}

void TrainerLogParser::feed(const QByteArray &bytes, double time, Stream stream)
{
    Buffer &buf = m_buffers[stream == Stderr ? 1 : 0];
    const char *p = bytes.constData();
    const char *const end = p + bytes.size();
    while (p < end) {
        const char *sep = p;
        while (sep < end && *sep != '\n' && *sep != '\r')
            ++sep;
        const qsizetype piece = sep - p;
        if (sep == end) {  // no separator yet: keep the start of the line, within bounds
            if (buf.discarding)
                return;
            if (buf.partial.size() + piece > maxLineBytes) {
                buf.partial.clear();
                buf.discarding = true;
                ++m_droppedLines;
                return;
            }
            buf.partial.append(p, piece);
            // A bar is not ended until the next redraw: read it now. Bars are short; a long line is no bar.
            if (buf.partial.size() <= 512)
                progress(buf.partial.constData(), buf.partial.constData() + buf.partial.size());
            return;
        }
        if (buf.discarding) {
            buf.discarding = false;
        } else if (buf.partial.size() + piece > maxLineBytes) {
            buf.partial.clear();
            ++m_droppedLines;
        } else if (buf.partial.isEmpty()) {
            line(p, sep, time);
        } else {
            buf.partial.append(p, piece);
            line(buf.partial.constData(), buf.partial.constData() + buf.partial.size(), time);
            buf.partial.clear();
        }
        p = sep + 1;
    }
}

void TrainerLogParser::finish(double time)
{
    for (Buffer &buf : m_buffers) {
        if (!buf.discarding && !buf.partial.isEmpty())
            line(buf.partial.constData(), buf.partial.constData() + buf.partial.size(), time);
        buf.partial.clear();
        buf.discarding = false;
    }
}

QVector<MetricPoint> TrainerLogParser::takeMetrics()
{
    QVector<MetricPoint> out;
    out.swap(m_metrics);
    return out;
}

namespace {
// Leading terminal escapes (tqdm moves the cursor for nested bars) and blanks, trailing blanks.
void trim(const char *&p, const char *&end)
{
    for (;;) {
        while (p < end && isSpace(*p))
            ++p;
        if (end - p >= 2 && p[0] == '\x1b' && p[1] == '[') {
            p += 2;
            while (p < end && !(*p >= 0x40 && *p <= 0x7e))
                ++p;
            if (p < end)
                ++p;
            continue;
        }
        break;
    }
    while (end > p && isSpace(end[-1]))
        --end;
}
}  // namespace

bool TrainerLogParser::progress(const char *p, const char *end)
{
    trim(p, end);
    qint64 step = -1, total = -1;
    if (!readProgress(p, end, &step, &total))
        return false;
    if (m_total < 0 || total == m_total) {
        m_step = step;
        m_total = total;
    }
    return true;
}

void TrainerLogParser::line(const char *p, const char *end, double time)
{
    trim(p, end);
    if (p == end)
        return;
    MetricPoint titan;
    if (readTorchTitanStep(p, end, &titan)) {
        titan.time = time;
        m_metrics.append(titan);
        return;
    }
    if (*p == '{' && end[-1] == '}') {
        dict(p, end, time);
        return;
    }
    if (end[-1] == '}') {
        // `  5%|▌    | 5/100 [00:05<01:35,  1.00it/s]{'loss': 2.0}`: a bar not yet ended, then a dict from the
        // other stream. Only a bar may come before the dict.
        const char *brace = static_cast<const char *>(std::memchr(p, '{', size_t(end - p)));
        const char *barEnd = brace;
        while (barEnd && barEnd > p && isSpace(barEnd[-1]))
            --barEnd;
        if (brace && barEnd > p && barEnd[-1] == ']' && progress(p, barEnd)) {
            dict(brace, end, time);
            return;
        }
    }
    progress(p, end);
}

void TrainerLogParser::dict(const char *p, const char *end, double time)
{
    QVector<Entry> entries;
    if (!DictReader(p, end).read(&entries))
        return;
    if (hasKey(entries, "train_runtime")) {
        m_summary = summaryFrom([&](const char *key) { return entryNumber(entries, key); });
        return;
    }
    for (const Entry &e : entries) {
        if (e.key.startsWith("eval_") || e.key.startsWith("test_")) {
            ++m_evalCount;
            return;
        }
    }
    MetricPoint point;
    point.time = time;
    point.loss = entryNumber(entries, "loss");
    point.learningRate = entryNumber(entries, "learning_rate");
    point.gradNorm = entryNumber(entries, "grad_norm");
    point.tokensPerSecond = entryNumber(entries, "tokens_per_second");
    if (!hasKey(entries, "tokens_per_second"))
        point.tokensPerSecond = entryNumber(entries, "train_tokens_per_second");
    point.epoch = entryNumber(entries, "epoch");
    const bool known = hasKey(entries, "loss") || hasKey(entries, "learning_rate") || hasKey(entries, "grad_norm")
                       || hasKey(entries, "tokens_per_second") || hasKey(entries, "train_tokens_per_second");
    if (!known)
        return;
    ++m_dictCount;
    const qint64 own = toStep(entryNumber(entries, "step"));
    point.step = own >= 0 ? own : m_step >= 0 ? m_step : m_dictCount;
    m_metrics.append(point);
}

namespace {

// Python's json.dump writes NaN, Infinity and -Infinity, which are not JSON: read them as null (absent).
QByteArray withoutNonFinite(const QByteArray &json)
{
    QByteArray out;
    bool inString = false;
    qsizetype copied = 0;
    const qsizetype n = json.size();
    const char *d = json.constData();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = d[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        qsizetype len = 0;
        if (c == 'N' && n - i >= 3 && std::memcmp(d + i, "NaN", 3) == 0)
            len = 3;
        else if (c == 'I' && n - i >= 8 && std::memcmp(d + i, "Infinity", 8) == 0)
            len = 8;
        else if (c == '-' && n - i >= 9 && std::memcmp(d + i, "-Infinity", 9) == 0)
            len = 9;
        if (len == 0)
            continue;
        out.append(d + copied, i - copied).append("null");
        i += len - 1;
        copied = i + 1;
    }
    if (copied == 0)
        return json;
    out.append(d + copied, n - copied);
    return out;
}

double jsonNumber(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : nan;
}

}  // namespace

std::optional<TrainerState> parseTrainerState(const QByteArray &json, QString *error)
{
    auto fail = [error](const QString &why) -> std::optional<TrainerState> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (json.size() > qsizetype(256) * 1024 * 1024)
        return fail(QStringLiteral("trainer_state.json is over 256 MiB; not read"));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(withoutNonFinite(json), &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(QStringLiteral("trainer_state.json is not valid JSON (%1 at byte %2)")
                        .arg(pe.errorString())
                        .arg(pe.offset));
    if (!doc.isObject())
        return fail(QStringLiteral("trainer_state.json is not a JSON object"));
    const QJsonObject root = doc.object();
    TrainerState state;
    state.globalStep = toStep(jsonNumber(root, "global_step"));
    state.maxSteps = toStep(jsonNumber(root, "max_steps"));
    const QJsonValue history = root.value(QLatin1String("log_history"));
    if (history.isUndefined() || history.isNull())
        return state;
    if (!history.isArray())
        return fail(QStringLiteral("trainer_state.json: log_history is not an array"));
    const QJsonArray entries = history.toArray();
    for (const QJsonValue &v : entries) {
        if (!v.isObject()) {
            ++state.skippedEntries;
            continue;
        }
        const QJsonObject o = v.toObject();
        if (o.contains(QLatin1String("train_runtime"))) {
            state.summary = summaryFrom([&](const char *key) { return jsonNumber(o, key); });
            continue;
        }
        const QJsonValue loss = o.value(QLatin1String("loss"));
        if (loss.isUndefined())
            continue;  // an eval entry, or something else that is no training point
        const qint64 step = toStep(jsonNumber(o, "step"));
        if (step < 0 || !(loss.isDouble() || loss.isNull())) {
            ++state.skippedEntries;
            continue;
        }
        MetricPoint p;
        p.step = step;
        p.loss = loss.isDouble() ? loss.toDouble() : nan;
        p.learningRate = jsonNumber(o, "learning_rate");
        p.gradNorm = jsonNumber(o, "grad_norm");
        p.tokensPerSecond = jsonNumber(o, "tokens_per_second");
        p.epoch = jsonNumber(o, "epoch");
        state.points.append(p);
    }
    return state;
}

}  // namespace ingot
