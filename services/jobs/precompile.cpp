#include "services/jobs/precompile.h"

#include "services/cache/explain.h"
#include "services/jobs/jobrunner.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace ingot {

namespace {
struct PrecompileText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Precompile)
};

// The number after `marker` on a line, -1 without one.
int numberAfter(const QByteArray &line, const QByteArray &marker)
{
    const qsizetype at = line.indexOf(marker);
    if (at < 0)
        return -1;
    qsizetype i = at + marker.size(), j = i;
    while (j < line.size() && j - i < 9 && line[j] >= '0' && line[j] <= '9')
        ++j;
    return j > i ? line.mid(i, j - i).toInt() : -1;
}

QString keyOf(const QString &path)
{
    const auto k = ModuleKey::find(path);
    return k ? k->key() : path;
}
}  // namespace

std::optional<QHash<QString, PrecompileResult>> parsePrecompileResults(const QByteArray &json, QString *error, int maxGraphs)
{
    QJsonParseError e{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &e);
    const QJsonValue report = doc.object().value(QLatin1String("compilation_report"));
    if (e.error != QJsonParseError::NoError || !doc.isObject() || !report.isObject()) {
        if (error)
            *error = PrecompileText::tr("not a neuron_parallel_compile results file (no compilation_report)");
        return std::nullopt;
    }
    QHash<QString, PrecompileResult> out;
    const QJsonObject r = report.toObject();
    for (auto it = r.begin(); it != r.end() && out.size() < maxGraphs; ++it) {
        const QJsonObject g = it.value().toObject();
        PrecompileResult res;
        res.ok = g.value(QLatin1String("status")).toBool(false);
        res.retries = std::max(0, g.value(QLatin1String("retry")).toInt(0));
        res.seconds = g.value(QLatin1String("compile_time")).toDouble(-1);
        out.insert(it.key().left(4096), res);
    }
    return out;
}

void PrecompileLogScanner::line(const QByteArray &l)
{
    if (l.contains("Running trial run"))
        m_trial = true;
    if (l.contains("There was an error in the training script"))
        m_trialFailed = true;
    const qsizetype ex = l.indexOf("Extracting graphs (");
    if (ex >= 0) {
        const qsizetype start = ex + qstrlen("Extracting graphs (");
        const qsizetype end = l.indexOf(')', start);
        const QString path = QString::fromUtf8(l.mid(start, end < 0 ? -1 : end - start)).left(4096);
        if (!path.isEmpty() && !m_seen.contains(path) && m_seen.size() < maxGraphs) {
            m_seen.insert(path);
            m_extracted << path;
        }
    }
    if (const int n = numberAfter(l, "Total graphs: "); n >= 0)
        m_total = n;
    if (const int n = numberAfter(l, "Total successful compilations: "); n >= 0)
        m_succeeded = n;
    if (const int n = numberAfter(l, "Total failed compilations: "); n >= 0)
        m_failed = n;
}

void PrecompileLogScanner::feed(const QByteArray &bytes)
{
    m_lines.feed(bytes, [this](const QByteArray &l) { line(l); });
}

void PrecompileLogScanner::finish()
{
    m_lines.finish([this](const QByteArray &l) { line(l); });
}

QString PrecompileProgress::text() const
{
    if (!phase)
        return {};
    if (trialRunFailed)
        return PrecompileText::tr("Precompile: the trial run failed (the training script's error is in the tool's log).");
    QString counts = PrecompileText::tr("%n graph(s) found: %1 done, %2 compiling, %3 failed, %4 remaining", nullptr, found)
                         .arg(done).arg(locked).arg(failed).arg(remaining);
    if (exitStatus == 0)
        return PrecompileText::tr("Precompile finished: %1.").arg(counts);
    if (exitStatus > 0)
        return PrecompileText::tr("Precompile failed (status %1): %2. The training was not started.").arg(exitStatus).arg(counts);
    return found == 0 ? PrecompileText::tr("Precompile: the trial run traces the graphs…")
                      : PrecompileText::tr("Precompile running: %1.").arg(counts);
}

PrecompileProgress readPrecompileProgress(JobRunner &runner, const JobPaths &paths, const CacheSnapshot *cache)
{
    PrecompileProgress p;
    const JobPaths phase = paths.precompilePhase();
    p.phase = true;
    const FileChunk exit = runner.readFile(phase.exitFile(), 0, 64);
    bool ok = false;
    const int code = exit.exists ? QString::fromLatin1(exit.data.trimmed()).toInt(&ok) : -1;
    p.exitStatus = ok ? code : -1;
    // The tool's log, read in blocks (it holds the whole trial run's output), at most 64 MiB.
    PrecompileLogScanner log;
    qint64 offset = 0;
    QByteArray last;
    while (offset < (64LL << 20)) {
        const FileChunk c = runner.readFile(phase.launcherLog(), offset, 1 << 20);
        if (!c.exists || c.data.isEmpty())
            break;
        log.feed(c.data);
        last = c.data.right(8192);
        offset += c.data.size();
    }
    log.finish();
    QStringList tail = QString::fromUtf8(last).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    p.logTail = tail.mid(std::max<qsizetype>(0, tail.size() - 30)).join(QLatin1Char('\n'));
    p.trialRunFailed = log.trialRunFailed();
    // Results files (one per node and run), merged.
    QHash<QString, PrecompileResult> results;
    for (const QString &f : runner.listFiles(phase.root, 1)) {
        if (!JobPaths::isPrecompileResults(f))
            continue;
        const FileChunk c = runner.readFile(phase.root + QLatin1Char('/') + f, 0, 16 << 20);
        if (const auto r = parsePrecompileResults(c.data, nullptr))
            for (auto it = r->begin(); it != r->end(); ++it)
                results.insert(keyOf(it.key()), it.value());
    }
    QStringList keys;
    for (const QString &path : log.extracted())
        keys << keyOf(path);
    for (auto it = results.cbegin(); it != results.cend(); ++it)
        keys << it.key();
    keys.removeDuplicates();
    for (const QString &k : std::as_const(keys)) {
        PrecompileGraph g;
        g.key = k;
        if (const CacheModule *m = cache ? cache->find(k) : nullptr)
            g.state = m->state;
        if (results.contains(k))
            g.result = results.value(k);
        ++p.found;
        if ((g.result && !g.result->ok) || g.state == ModuleState::Failed)  // the tool's word on this run first
            ++p.failed;
        else if (g.state == ModuleState::Success)
            ++p.done;
        else if (g.state == ModuleState::Locked)
            ++p.locked;
        else
            ++p.remaining;
        p.graphs << g;
    }
    return p;
}

}  // namespace ingot
