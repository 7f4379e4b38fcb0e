#include "services/cache/explain.h"

#include "services/stores/cachestore.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace ingot {

namespace {
struct ExplainText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Explain)
};

bool safePart(const QString &s)
{
    return !s.isEmpty() && s != QLatin1String(".") && s != QLatin1String("..") && !s.contains(QLatin1Char('/')) &&
           !s.contains(QChar(0));
}

std::optional<ModuleKey> fromParts(const QString &version, const QString &name)
{
    if (!version.startsWith(QLatin1String("neuronxcc-")) || !name.startsWith(QLatin1String("MODULE_")) ||
        !safePart(version) || !safePart(name) || name.size() == 7)
        return std::nullopt;
    ModuleKey k;
    k.version = version;
    k.name = name;
    const QString rest = name.mid(7);
    const qsizetype plus = rest.indexOf(QLatin1Char('+'));
    k.hlo = plus < 0 ? rest : rest.left(plus);
    k.flags = plus < 0 ? QString() : rest.mid(plus + 1);
    if (k.hlo.isEmpty())
        return std::nullopt;
    return k;
}

QStringList fileNames(const CacheModule &m)
{
    QStringList names;
    for (const CacheFile &f : m.files)
        names << f.name;
    return names;
}

// The module name without XLA's trailing ".<number>" (torch-xla numbers its graphs: SyncTensorsGraph.1234).
QString nameStem(const QString &n)
{
    static const QRegularExpression tail(QStringLiteral("\\.\\d+$"));
    QString s = n;
    s.remove(tail);
    return s;
}

int distance(const HloSummary &a, const HloSummary &b)
{
    int d = int(std::abs(a.parameters.size() - b.parameters.size()));
    for (qsizetype i = 0; i < std::min(a.parameters.size(), b.parameters.size()); ++i)
        d += a.parameters[i] != b.parameters[i];
    d += a.result != b.result;
    d += 2 * (a.largestGroup() != b.largestGroup());
    return d;
}

void nearestGraph(const ModuleKey &key, const ExplainTarget &t, const CacheModule *self, const ExplainOptions &o,
                  Explanation *e)
{
    if (!self || !t.store) {
        e->notes << ExplainText::tr("The cache does not hold this entry's HLO, so no other graph can be compared with it.");
        return;
    }
    QString error;
    const std::optional<HloSummary> mine = readEntryHlo(*t.store, *self, &error);
    if (!mine) {
        e->notes << ExplainText::tr("This entry's HLO cannot be read: %1").arg(error);
        return;
    }
    // Candidates: the same compiler first, then the newest.
    QVector<const CacheModule *> candidates;
    for (const CacheModule &m : t.snapshot->modules)
        if (m.isModule() && m.key() != key.key() && !hloFileOf(fileNames(m)).isEmpty())
            candidates << &m;
    std::sort(candidates.begin(), candidates.end(), [&](const CacheModule *a, const CacheModule *b) {
        const bool sa = a->version == key.version, sb = b->version == key.version;
        return sa != sb ? sa : a->lastUsedMs > b->lastUsedMs;
    });
    if (candidates.size() > o.maxCandidates)
        candidates.resize(o.maxCandidates);
    int best = INT_MAX;
    std::optional<HloSummary> nearest;
    for (const CacheModule *m : std::as_const(candidates)) {
        const std::optional<HloSummary> h = readEntryHlo(*t.store, *m, &error);
        if (!h || nameStem(h->moduleName) != nameStem(mine->moduleName))
            continue;
        const int d = distance(*h, *mine);
        if (d < best) {
            best = d;
            nearest = h;
            e->otherKey = m->key();
        }
    }
    if (nearest)
        e->changes = hloDifferences(*nearest, *mine);
}
}  // namespace

std::optional<ModuleKey> ModuleKey::parse(const QString &key)
{
    QString k = key;
    if (k.endsWith(QLatin1Char('/')))
        k.chop(1);
    const QStringList parts = k.split(QLatin1Char('/'));
    if (parts.size() != 2)
        return std::nullopt;
    return fromParts(parts[0], parts[1]);
}

std::optional<ModuleKey> ModuleKey::find(const QString &path)
{
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (qsizetype i = parts.size() - 1; i >= 1; --i) {
        QString name = parts[i];
        if (name.startsWith(QLatin1String("model.MODULE_")))  // the compiler's work file: model.MODULE_x+y.hlo_module.pb
            continue;
        if (auto k = fromParts(parts[i - 1], name))
            return k;
    }
    return std::nullopt;
}

QString verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Hit: return QStringLiteral("hit");
    case Verdict::Blocked: return QStringLiteral("blocked");
    case Verdict::OtherCache: return QStringLiteral("other-cache");
    case Verdict::OtherFlags: return QStringLiteral("other-flags");
    case Verdict::OtherCompiler: return QStringLiteral("other-compiler");
    case Verdict::NewGraph: break;
    }
    return QStringLiteral("new-graph");
}

QString verdictLabel(Verdict v)
{
    switch (v) {
    case Verdict::Hit: return ExplainText::tr("Hit");
    case Verdict::Blocked: return ExplainText::tr("Blocked");
    case Verdict::OtherCache: return ExplainText::tr("In another cache");
    case Verdict::OtherFlags: return ExplainText::tr("Other flags");
    case Verdict::OtherCompiler: return ExplainText::tr("Other compiler");
    case Verdict::NewGraph: break;
    }
    return ExplainText::tr("New graph");
}

bool parseVerdictName(const QString &name, Verdict *out)
{
    for (Verdict v : {Verdict::Hit, Verdict::Blocked, Verdict::OtherCache, Verdict::OtherFlags, Verdict::OtherCompiler,
                      Verdict::NewGraph})
        if (verdictName(v) == name) {
            *out = v;
            return true;
        }
    return false;
}

std::optional<HloSummary> readEntryHlo(CacheStore &store, const CacheModule &m, QString *error, qint64 maxBytes)
{
    const QString file = hloFileOf(fileNames(m));
    if (file.isEmpty()) {
        if (error)
            *error = ExplainText::tr("the entry has no model.hlo_module.pb");
        return std::nullopt;
    }
    for (const CacheFile &f : m.files)
        if (f.name == file && f.size > maxBytes) {
            if (error)
                *error = ExplainText::tr("%1 is over the limit of %2 MiB").arg(file).arg(maxBytes >> 20);
            return std::nullopt;
        }
    QByteArray bytes;
    QString why;
    if (!store.readFile(m.key() + QLatin1Char('/') + file, maxBytes + 1, false, &bytes, &why)) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    if (bytes.size() > maxBytes) {
        if (error)
            *error = ExplainText::tr("%1 is over the limit of %2 MiB").arg(file).arg(maxBytes >> 20);
        return std::nullopt;
    }
    auto h = parseHloModule(bytes, &why);
    if (!h && error)
        *error = ExplainText::tr("%1: %2").arg(file, why);
    return h;
}

std::optional<QStringList> readEntryFlags(CacheStore &store, const CacheModule &m, QString *error)
{
    const QStringList names = fileNames(m);
    const QString file = names.contains(QLatin1String("compile_flags.json")) ? QStringLiteral("compile_flags.json")
                         : names.contains(QLatin1String("compile_flags.txt")) ? QStringLiteral("compile_flags.txt")
                                                                              : QString();
    if (file.isEmpty()) {
        if (error)
            *error = ExplainText::tr("the entry has no compile_flags.json");
        return std::nullopt;
    }
    QByteArray raw;
    if (!store.readFile(m.key() + QLatin1Char('/') + file, 1 << 20, false, &raw, error))
        return std::nullopt;
    return parseCompileFlags(raw, file.endsWith(QLatin1String(".json")), error);
}

Explanation explainModule(const ModuleKey &key, const ExplainTarget &t, const QVector<OtherCache> &others,
                          const ExplainOptions &o)
{
    Explanation e;
    e.key = key;
    e.cache = t.shown;
    e.rule = t.rule;
    static const CacheSnapshot empty;
    const CacheSnapshot &snap = t.snapshot ? *t.snapshot : empty;
    const CacheModule *self = snap.find(key.key());
    e.present = self != nullptr;
    e.writtenByJob = self && o.compiledByJob;
    if (self)
        e.state = self->state;
    QString error;

    // This key's flags: its own, or those of any entry with the same flags hash.
    auto flagsOf = [&](const CacheModule &m) -> std::optional<QStringList> {
        return t.store ? readEntryFlags(*t.store, m, &error) : std::nullopt;
    };
    if (self)
        if (auto f = flagsOf(*self))
            e.flags = *f, e.flagsKnown = true;
    if (!e.flagsKnown && !key.flags.isEmpty())
        for (const CacheModule &m : snap.modules)
            if (m.isModule() && m.name.endsWith(QLatin1Char('+') + key.flags))
                if (auto f = flagsOf(m)) {
                    e.flags = *f, e.flagsKnown = true;
                    break;
                }

    if (self && !o.compiledByJob) {
        if (self->state == ModuleState::Success) {
            e.verdict = Verdict::Hit;
            return e;
        }
        if (self->state == ModuleState::Failed || self->state == ModuleState::Locked) {
            e.verdict = Verdict::Blocked;
            e.lockMayBeLive = self->state == ModuleState::Locked && t.compilerRunning;
            e.lockByAge = self->state == ModuleState::Locked && !t.compilerRunning && t.compilersUnseen;
            return e;
        }
        e.notes << ExplainText::tr("An unfinished entry is there (%1): the compiler compiles it again.").arg(stateName(self->state));
    }

    for (const OtherCache &c : others) {
        QString why;
        const std::optional<ModuleState> s = c.lookup ? c.lookup(key, &why) : std::nullopt;
        if (!why.isEmpty())
            e.notes << ExplainText::tr("%1 could not be asked: %2").arg(c.shown, why);
        if (s && *s == ModuleState::Success) {
            e.verdict = Verdict::OtherCache;
            e.otherCache = c.shown;
            return e;
        }
    }

    // The same graph with other flags, in the same compiler's folder: a SUCCESS one first.
    const CacheModule *otherFlags = nullptr;
    const QString prefix = QStringLiteral("MODULE_") + key.hlo + QLatin1Char('+');
    for (const CacheModule &m : snap.modules)
        if (m.isModule() && m.version == key.version && m.name != key.name &&
            m.name.startsWith(prefix) &&
            (!otherFlags || (m.state == ModuleState::Success && otherFlags->state != ModuleState::Success)))
            otherFlags = &m;
    if (!otherFlags && !key.flags.isEmpty())  // a traced module (no flags part) of the same graph
        otherFlags = snap.find(key.version + QStringLiteral("/MODULE_") + key.hlo);
    if (otherFlags) {
        e.verdict = Verdict::OtherFlags;
        e.otherKey = otherFlags->key();
        if (auto f = flagsOf(*otherFlags)) {
            e.otherFlags = *f;
            if (e.flagsKnown) {
                for (const QString &s : std::as_const(e.flags))
                    if (!e.otherFlags.contains(s))
                        e.flagsAdded << s;
                for (const QString &s : std::as_const(e.otherFlags))
                    if (!e.flags.contains(s))
                        e.flagsRemoved << s;
            }
        }
        return e;
    }

    // The same key under another compiler version: the newest such folder.
    const CacheModule *otherCompiler = nullptr;
    for (const CacheModule &m : snap.modules)
        if (m.isModule() && m.name == key.name && m.version != key.version &&
            (!otherCompiler || m.lastUsedMs > otherCompiler->lastUsedMs))
            otherCompiler = &m;
    if (otherCompiler) {
        e.verdict = Verdict::OtherCompiler;
        e.otherKey = otherCompiler->key();
        return e;
    }

    e.verdict = Verdict::NewGraph;
    nearestGraph(key, t, self, o, &e);
    return e;
}

QString Explanation::headline() const
{
    switch (verdict) {
    case Verdict::Hit:
        return ExplainText::tr("Hit: %1 is compiled (SUCCESS) in %2; a job that looks there does not compile it.")
            .arg(key.key(), cache);
    case Verdict::Blocked:
        if (state == ModuleState::Failed)
            return ExplainText::tr("Blocked: %1 is FAILED in %2; the compiler will not retry it, and the job fails on it.")
                .arg(key.key(), cache);
        return lockMayBeLive
                   ? ExplainText::tr("Blocked: %1 is LOCKED in %2 and a neuronx-cc process runs there: another compile "
                                     "of it may be under way.").arg(key.key(), cache)
                   : ExplainText::tr("Blocked: %1 is LOCKED in %2 but no compiler runs there: a stale lock left by a "
                                     "killed job.").arg(key.key(), cache);
    case Verdict::OtherCache:
        return ExplainText::tr("In another cache: %1 is compiled in %2, not in %3 where the job looked.")
            .arg(key.key(), otherCache, cache);
    case Verdict::OtherFlags:
        return ExplainText::tr("Other flags: the same graph is in %1 as %2, compiled with other flags.")
            .arg(cache, otherKey);
    case Verdict::OtherCompiler:
        return ExplainText::tr("Other compiler: %1 is in %2 under %3, not under %4.")
            .arg(key.name, cache, otherKey.section(QLatin1Char('/'), 0, 0), key.version);
    case Verdict::NewGraph:
        break;
    }
    return otherKey.isEmpty() ? ExplainText::tr("New graph: nothing close to %1 is in %2.").arg(key.key(), cache)
                              : ExplainText::tr("New graph: the nearest graph of the same name in %1 is %2.").arg(cache, otherKey);
}

QStringList Explanation::evidence() const
{
    QStringList l;
    l << ExplainText::tr("Cache: %1").arg(cache);
    if (!rule.isEmpty())
        l << ExplainText::tr("Chosen by: %1").arg(rule);
    l << (!present        ? ExplainText::tr("This key there: absent")
          : writtenByJob ? ExplainText::tr("This key there: %1, written by this job's compile").arg(stateName(state))
                         : ExplainText::tr("This key there: %1").arg(stateName(state)));
    if (verdict == Verdict::OtherCompiler)
        l << ExplainText::tr("Compiler versions: %1 (wanted) and %2 (held)")
                 .arg(key.version, otherKey.section(QLatin1Char('/'), 0, 0));
    if (flagsKnown)
        l << ExplainText::tr("Flags of this key: %1").arg(flags.isEmpty() ? ExplainText::tr("(none)") : flags.join(QLatin1Char(' ')));
    if (verdict == Verdict::OtherFlags) {
        l << ExplainText::tr("Flags of %1: %2").arg(otherKey, otherFlags.isEmpty() ? ExplainText::tr("(none)") : otherFlags.join(QLatin1Char(' ')));
        if (!flagsKnown)
            l << ExplainText::tr("The flags of this key are unknown: no entry with flags hash %1 is in the cache.").arg(key.flags);
        for (const QString &f : flagsAdded)
            l << QStringLiteral("+ ") + f;
        for (const QString &f : flagsRemoved)
            l << QStringLiteral("- ") + f;
    }
    for (const QString &c : changes)
        l << ExplainText::tr("Changed: %1").arg(c);
    l << notes;
    return l;
}

// The menu items named here are the main window's (Cache menu); tst_mainwindow checks they exist as written.
QString Explanation::fix() const
{
    switch (verdict) {
    case Verdict::Blocked:
        if (state == ModuleState::Failed)
            return ExplainText::tr("Remove the failed entry (Cache → Delete failed entries…, or `ingot-cli cache clean-failed`), "
                                   "or add --retry_failed_compilation to NEURON_CC_FLAGS.");
        if (lockByAge)
            return ExplainText::tr("Clear the lock once it is older than any compile still running could be (Local cache → "
                                   "Clear locks with an age, or `ingot-cli cache clear-locks --older-than 2h`): whether a "
                                   "compile holds an S3 cache's lock cannot be seen, so only locks older than the age given "
                                   "are removed.");
        return lockMayBeLive ? ExplainText::tr("Wait for the running compile, or stop it.")
                             : ExplainText::tr("Clear the stale lock (Cache → Clear stale locks…, or `ingot-cli cache clear-locks`).");
    case Verdict::OtherCache:
        return ExplainText::tr("Pull or copy the entry from %1 into %2, or point the job at that cache.").arg(otherCache, cache);
    case Verdict::OtherFlags:
        return ExplainText::tr("Run with the same NEURON_CC_FLAGS as the entry that is there to reuse it.");
    case Verdict::OtherCompiler:
        return ExplainText::tr("Use the compiler version that made the cached entry, or precompile with this one.");
    case Verdict::Hit:
    case Verdict::NewGraph:
        break;
    }
    return {};
}

}  // namespace ingot
