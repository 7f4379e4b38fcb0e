#include "services/cache/compilelog.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace ingot {

namespace {
struct CompileLogText {
    Q_DECLARE_TR_FUNCTIONS(ingot::CompileLog)
};

// The path after `marker` up to the first space (or the line's end), without a trailing '.'.
QString pathAfter(const QByteArray &line, const QByteArray &marker)
{
    const qsizetype at = line.indexOf(marker);
    if (at < 0)
        return {};
    QByteArray rest = line.mid(at + marker.size()).trimmed();
    const qsizetype sp = rest.indexOf(' ');
    if (sp >= 0)
        rest.truncate(sp);
    while (rest.endsWith('.') || rest.endsWith(':') || rest.endsWith(','))
        rest.chop(1);
    return QString::fromUtf8(rest);
}
}  // namespace

void CompileLogScanner::add(QStringList *list, QSet<QString> *seen, const QString &v)
{
    if (v.isEmpty() || seen->contains(v) || seen->size() >= maxGraphs)
        return;
    seen->insert(v);
    list->append(v);
}

void CompileLogScanner::line(const QByteArray &l)
{
    if (l.contains("Using a cached neff at ")) {
        if (auto k = ModuleKey::find(pathAfter(l, "Using a cached neff at ")))
            add(&m_hits, &m_seenHits, k->key());
    } else if (l.contains("Got a cached failed neff at ")) {
        if (auto k = ModuleKey::find(pathAfter(l, "Got a cached failed neff at ")))
            add(&m_failed, &m_seenFailed, k->key());
    } else if (l.contains("Call compiler with cmd:")) {
        static const QRegularExpression work(QStringLiteral("model\\.(MODULE_[0-9A-Za-z]+(?:\\+[0-9A-Za-z]+)?)\\.hlo"));
        const QRegularExpressionMatch m = work.match(QString::fromUtf8(l));
        if (m.hasMatch())
            add(&m_compiled, &m_seenCompiled, m.captured(1));
    } else if (l.contains("Compile cache path: ")) {
        m_cachePath = pathAfter(l, "Compile cache path: ").left(4096);
    }
}

void CompileLogScanner::feed(const QByteArray &bytes)
{
    m_lines.feed(bytes, [this](const QByteArray &l) { line(l); });
}

void CompileLogScanner::finish()
{
    m_lines.finish([this](const QByteArray &l) { line(l); });
}

void CompileLogScanner::merge(const CompileLogScanner &o)
{
    for (const QString &k : o.m_hits)
        add(&m_hits, &m_seenHits, k);
    for (const QString &k : o.m_failed)
        add(&m_failed, &m_seenFailed, k);
    for (const QString &k : o.m_compiled)
        add(&m_compiled, &m_seenCompiled, k);
    if (!o.m_cachePath.isEmpty())
        m_cachePath = o.m_cachePath;
}

int JobGraphs::count(Verdict v) const
{
    int n = 0;
    for (const JobGraph &g : graphs)
        n += g.explanation.verdict == v;
    return n;
}

QString JobGraphs::summary() const
{
    if (graphs.isEmpty())
        return CompileLogText::tr("No graphs seen yet.");
    QStringList parts;
    const int hit = count(Verdict::Hit), fresh = count(Verdict::NewGraph), flags = count(Verdict::OtherFlags),
              compiler = count(Verdict::OtherCompiler), cache = count(Verdict::OtherCache), blocked = count(Verdict::Blocked);
    if (hit)
        parts << CompileLogText::tr("%n hit(s)", nullptr, hit);
    if (fresh)
        parts << CompileLogText::tr("%n new", nullptr, fresh);
    if (flags)
        parts << CompileLogText::tr("%n other flags", nullptr, flags);
    if (compiler)
        parts << CompileLogText::tr("%n other compiler", nullptr, compiler);
    if (cache)
        parts << CompileLogText::tr("%n in another cache", nullptr, cache);
    if (blocked)
        parts << CompileLogText::tr("%n blocked", nullptr, blocked);
    return CompileLogText::tr("%n graph(s): %1", nullptr, int(graphs.size())).arg(parts.join(QStringLiteral(", ")));
}

JobGraphs explainJobGraphs(const CompileLogScanner &log, const ExplainTarget &target, const QVector<OtherCache> &others,
                           qint64 startedMs, const QHash<QString, JobGraph> &previous)
{
    JobGraphs out;
    QSet<QString> done;
    for (const QString &k : log.hits()) {
        const auto key = ModuleKey::parse(k);
        if (!key || done.contains(k))
            continue;
        done.insert(k);
        JobGraph g;
        g.seen = JobGraph::Seen::LogHit;
        g.explanation.verdict = Verdict::Hit;
        g.explanation.key = *key;
        g.explanation.cache = target.shown;
        g.explanation.rule = target.rule;
        g.explanation.present = true;
        g.explanation.state = ModuleState::Success;
        g.explanation.notes << CompileLogText::tr("The job's log: \"Using a cached neff\" for this entry.");
        if (const CacheModule *m = target.snapshot ? target.snapshot->find(k) : nullptr)
            g.entryState = m->state, g.size = m->size, g.entryChangedMs = std::max(m->dirCtimeMs, m->lastUsedMs);
        out.graphs << g;
    }
    for (const QString &k : log.failed()) {
        const auto key = ModuleKey::parse(k);
        if (!key || done.contains(k))
            continue;
        done.insert(k);
        const auto before = previous.constFind(k);
        if (before != previous.cend() && before->seen == JobGraph::Seen::LogFailed) {
            out.graphs << *before;
            continue;
        }
        JobGraph g;
        g.seen = JobGraph::Seen::LogFailed;
        g.explanation = explainModule(*key, target, others);
        if (g.explanation.verdict != Verdict::Blocked) {  // removed since: the log still says why the job failed
            g.explanation.verdict = Verdict::Blocked;
            g.explanation.state = ModuleState::Failed;
        }
        g.explanation.notes << CompileLogText::tr("The job's log: \"Got a cached failed neff\" for this entry.");
        if (const CacheModule *m = target.snapshot ? target.snapshot->find(k) : nullptr)
            g.entryState = m->state, g.size = m->size, g.entryChangedMs = std::max(m->dirCtimeMs, m->lastUsedMs);
        out.graphs << g;
    }
    if (!target.snapshot)
        return out;
    ExplainOptions o;
    o.compiledByJob = true;
    for (const CacheModule &m : target.snapshot->modules) {
        if (!m.isModule() || done.contains(m.key()))
            continue;
        const qint64 changed = std::max(m.dirCtimeMs, m.lastUsedMs);
        // Only what the job's log names as compiled: an entry that merely appeared in its cache while it ran (copied
        // in from S3 or a Hub repo, another process's compile) is not the job's, and "written by this job's compile"
        // would contradict where it came from.
        if (!log.compiled().contains(m.name))
            continue;
        if (changed < startedMs - 2000)  // an older entry of the same name (another compiler's folder)
            continue;
        const auto key = ModuleKey::parse(m.key());
        if (!key)
            continue;
        done.insert(m.key());
        const auto before = previous.constFind(m.key());
        if (before != previous.cend() && before->seen == JobGraph::Seen::Written && before->entryState == m.state &&
            before->entryChangedMs == changed) {
            out.graphs << *before;
            continue;
        }
        JobGraph g;
        g.seen = JobGraph::Seen::Written;
        g.explanation = explainModule(*key, target, others, o);
        g.entryState = m.state;
        g.entryChangedMs = changed;
        g.size = m.size;
        out.graphs << g;
    }
    return out;
}

}  // namespace ingot
