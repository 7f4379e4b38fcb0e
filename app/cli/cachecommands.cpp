#include "app/cli/cachecommands.h"

#include "services/cache/compilerversion.h"
#include "services/cache/torchneuron.h"
#include "services/cache/neffcache.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachefilter.h"
#include "services/cache/cachescanner.h"
#include "services/cache/cachestats.h"
#include "app/cli/clicommon.h"
#include "app/cli/remotecommands.h"
#include "services/remote/remotehosts.h"
#include "services/remote/sshshell.h"
#include "services/stores/storefactory.h"
#include "services/util/appsettings.h"
#include "services/cache/maintenance.h"
#include "services/cache/samplecache.h"
#include "services/util/names.h"
#include "services/util/format.h"
#include "services/util/units.h"
#include "services/util/csv.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>

#include <cstdio>
#include <optional>

namespace ingot::cli {

using nlohmann::json;

namespace {
// lupdate reads this context from the macro, so the .ts file and the lookups agree.
struct CliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};
}  // namespace


json moduleJson(const CacheModule &m, bool withFiles)
{
    // Names as shown (control characters and bytes that are not UTF-8 escaped as \xNN): JSON is UTF-8 text.
    json j = {{"key", u8(displayName(m.key()))},
              {"version", u8(displayName(m.version))},
              {"name", u8(displayName(m.name))},
              {"kind", u8(kindName(m.kind))},
              {"state", u8(stateName(m.state))},
              {"size", m.size},
              {"allocated", m.allocated},
              {"linked_size", m.linkedSize},
              {"last_used", u8(isoDateTime(m.lastUsedMs))},
              {"file_count", m.fileCount()}};
    json w = json::array();
    for (const QString &s : m.warnings)
        w.push_back(u8(s));
    j["warnings"] = w;
    if (withFiles) {
        json files = json::array();
        for (const CacheFile &f : m.files) {
            json fj = {{"name", u8(displayName(f.name))}, {"size", f.size}, {"mtime", u8(isoDateTime(f.mtimeMs))}};
            if (f.is(CacheFile::Symlink))
                fj["symlink"] = f.is(CacheFile::Broken) ? "broken" : f.is(CacheFile::HubBlob) ? "hub-blob"
                                                               : f.is(CacheFile::OutsideRoot) ? "outside-root" : "inside-root";
            files.push_back(fj);
        }
        j["files"] = files;
    }
    return j;
}

// Resolves the folder and scans it. Returns an exit code (Ok to go on).
int scan(const Common &c, CacheSnapshot *snap)
{
    if (c.cacheDir.isEmpty() && !c.location.isSupported() && c.location.kind != CacheLocation::Kind::S3) {
        err(c.location.unsupportedReason());
        return Unsupported;
    }
    if (c.isS3()) {
        s3::S3Location where;
        QString why;
        if (!s3::S3Location::parse(c.root(), &where, &why)) {
            err(CliText::tr("error: %1").arg(why));
            return Usage;
        }
    }
    QString error;
    const auto storeHandle = makeStore(c.store(), &error);
    if (!storeHandle) {
        err(CliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    CacheStore &store = *storeHandle;
    CacheScanner scanner(store);
    *snap = scanner.scan(nullptr);
    if (!snap->fatalError.isEmpty()) {
        err(CliText::tr("error: %1").arg(snap->fatalError));
        if (c.cacheDir.isEmpty())
            err(CliText::tr("(the location comes from: %1)").arg(c.location.explanation));
        return CacheUnavailable;
    }
    if (c.isS3() && c.host.isEmpty())
        AppSettings::addS3Cache(c.root());  // a place of the fleet from now on (cache fleet, gc --everywhere)
    return Ok;
}

// The options every cache command shares, and where the cache is: here, or as resolved on --host (after
// connecting; an unknown host key is asked about only on a terminal). Returns an exit code (Ok to go on).
int commonOf(const Invocation &inv, Common *c)
{
    c->cacheDir = inv.cacheDir;
    c->json = inv.json;
    c->host = inv.host;
    if (c->host.isEmpty()) {
        c->location = CacheLocation::resolve();
        return Ok;
    }
    std::shared_ptr<SshConnection> conn;
    if (const int e = connectHost(c->host, &conn))
        return e;
    if (!c->cacheDir.isEmpty())
        return Ok;
    SshShell shell(conn);
    QString error;
    if (!CacheLocation::resolveOn(shell, &c->location, &error)) {
        err(CliText::tr("error: %1").arg(error));
        return HostUnreachable;
    }
    return Ok;
}

namespace {


void listOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("state"), CliText::tr("Only entries in this state (SUCCESS, FAILED, LOCKED, INCOMPLETE, EMPTY, UNKNOWN)."), CliText::tr("STATE")});
    p.addOption({QStringLiteral("compiler"), CliText::tr("Only this compiler-version folder (e.g. neuronxcc-2.15.128.0+56dc5a86, or 2.15)."), CliText::tr("VERSION")});
    p.addOption({QStringLiteral("files"), CliText::tr("Include each entry's files (with --json).")});
    p.addOption({QStringLiteral("filter"), CliText::tr("Only entries matching FIELD OP VALUE (repeatable, all must hold): size>1GB, used>30d, "
                                                       "state=failed, compiler=2.15, name=MODULE_12*."),
                 CliText::tr("EXPR")});
    p.addOption({QStringLiteral("sort"), CliText::tr("Order by name, size, used, state or compiler, with :asc or :desc (default: compiler, then name)."),
                 CliText::tr("KEY")});
    p.addOption({QStringLiteral("format"), CliText::tr("table (default), json or csv."), CliText::tr("FORMAT")});
}

// --filter and --sort as the cache page's filter box reads them (CacheFilter, CacheSort).
int filterOf(const Invocation &p, CacheFilter *filter, std::optional<CacheSort> *sort)
{
    QString why;
    if (!CacheFilter::parse(p.values(QStringLiteral("filter")), filter, &why)) {
        err(CliText::tr("error: --filter: %1").arg(why));
        return Usage;
    }
    if (sort && p.isSet(QStringLiteral("sort"))) {
        CacheSort s;
        if (!CacheSort::parse(p.value(QStringLiteral("sort")), &s, &why)) {
            err(CliText::tr("error: %1").arg(why));
            return Usage;
        }
        *sort = s;
    }
    return Ok;
}

int cmdList(const Invocation &p)
{
    Common c;
    if (const int e = commonOf(p, &c))
        return e;
    ModuleState only = ModuleState::Unknown;
    const bool byState = p.isSet(QStringLiteral("state"));
    if (byState && !parseStateName(p.value(QStringLiteral("state")), &only)) {
        err(CliText::tr("error: unknown state \"%1\"").arg(p.value(QStringLiteral("state"))));
        return Usage;
    }
    const QString compiler = p.value(QStringLiteral("compiler"));
    CacheFilter filter;
    std::optional<CacheSort> sort;
    if (const int e = filterOf(p, &filter, &sort))
        return e;
    const QString format = p.isSet(QStringLiteral("format")) ? p.value(QStringLiteral("format")).toLower()
                                                              : (c.json ? QStringLiteral("json") : QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json") && format != QLatin1String("csv")) {
        err(CliText::tr("error: --format takes table, json or csv, not \"%1\"").arg(displayName(p.value(QStringLiteral("format")))));
        return Usage;
    }
    CacheSnapshot snap;
    if (const int e = scan(c, &snap))
        return e;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVector<const CacheModule *> rows;
    for (const auto &m : snap.modules) {
        if (byState && m.state != only)
            continue;
        if (!compiler.isEmpty() && m.version != compiler && !m.version.startsWith(QStringLiteral("neuronxcc-") + compiler))
            continue;
        if (!filter.isEmpty() && !filter.matches(m, now))
            continue;
        rows << &m;
    }
    std::sort(rows.begin(), rows.end(), [](const CacheModule *a, const CacheModule *b) {
        if (a->version != b->version)
            return compareCompilerFolders(a->version, b->version) > 0;
        return a->name < b->name;
    });
    if (sort)
        sort->apply(rows);
    if (format == QLatin1String("csv")) {
        // Names as shown (escaped where they are not UTF-8 text), sizes in bytes, times in ISO 8601 UTC.
        QString text = csvRecord({QStringLiteral("key"), QStringLiteral("compiler"), QStringLiteral("name"), QStringLiteral("state"),
                                  QStringLiteral("size"), QStringLiteral("last_used"), QStringLiteral("file_count")});
        for (auto *m : rows)
            text += csvRecord({displayName(m->key()), displayName(m->version), displayName(m->name), stateName(m->state),
                               QString::number(m->size), isoDateTime(m->lastUsedMs), QString::number(m->fileCount())});
        std::fputs(text.toUtf8().constData(), stdout);
        return Ok;
    }
    if (format == QLatin1String("json")) {
        json entries = json::array();
        for (auto *m : rows)
            entries.push_back(moduleJson(*m, p.isSet(QStringLiteral("files"))));
        json warnings = json::array();
        for (const auto &w : snap.warnings)
            warnings.push_back({{"path", u8(w.path)}, {"message", u8(w.message)}});
        json doc = {{"root", u8(snap.root)}, {"entries", entries}, {"warnings", warnings}};
        if (!filter.isEmpty())
        {
            json f = json::array();
            for (const QString &e : filter.expressions())
                f.push_back(u8(e));
            doc["filter"] = f;
        }
        printJson(doc);
        return Ok;
    }
    Table t({CliText::tr("STATE"), CliText::tr("SIZE"), CliText::tr("LAST USED"), CliText::tr("FILES"), CliText::tr("COMPILER"), CliText::tr("ENTRY")}, {false, true, false, true});
    for (auto *m : rows)
        t.add({stateText(m->state), formatBytes(m->size), formatAge(m->lastUsedMs, now), QString::number(m->fileCount()),
               m->version.isEmpty() ? QStringLiteral("-") : m->version.mid(10), m->name});
    out(t.render());
    if (!snap.warnings.isEmpty())
        err(CliText::tr("%n warning(s); run `ingot-cli cache status` to see them.", nullptr, int(snap.warnings.size())));
    return Ok;
}

int cmdStatus(const Invocation &p)
{
    Common c;
    if (const int e = commonOf(p, &c))
        return e;
    CacheSnapshot snap;
    const QString used = c.shown();
    if (const int e = scan(c, &snap)) {
        if (c.json && e == CacheUnavailable)
            printJson({{"location", cacheLocationJson(c.location, used)}, {"error", u8(snap.fatalError)}});
        return e;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const CacheStats st = computeStats(snap.modules, now);
    QString perr;
    const auto storeHandle = makeStore(c.store());
    const auto compilers = storeHandle ? storeHandle->runningCompilers(&perr) : QVector<qint64>();
    const TorchNeuronLocations tn = resolveTorchNeuronLocations();
    const NeffCacheLocation neff = resolveNeffCacheLocation();
    if (c.json) {
        json states = json::object();
        for (int i = 0; i < ModuleStateCount; ++i)
            if (ModuleState(i) != ModuleState::Unknown)
                states[u8(stateName(ModuleState(i)))] = {{"entries", st.perState[i]}, {"size", st.bytesPerState[i]}};
        json versions = json::array();
        for (const auto &v : st.versions)
            versions.push_back({{"version", u8(v.version)}, {"entries", v.entries}, {"size", v.size},
                                {"failed", v.perState[int(ModuleState::Failed)]},
                                {"locked", v.perState[int(ModuleState::Locked)]}});
        json ages = json::array();
        for (int b = 0; b < CacheStats::AgeBucketCount; ++b)
            ages.push_back({{"bucket", CacheStats::ageBucketSource(b)}, {"entries", st.ageEntries[b]}, {"size", st.ageBytes[b]}});
        json warnings = json::array();
        for (const auto &w : snap.warnings)
            warnings.push_back({{"path", u8(w.path)}, {"message", u8(w.message)}});
        json pids = json::array();
        for (auto pid : compilers)
            pids.push_back(pid);
        printJson({{"location", cacheLocationJson(c.location, used)},
                   {"entries", st.entries},
                   {"unknown_items", st.unknownItems},
                   {"size", st.size},
                   {"allocated", st.allocated},
                   {"linked_size", st.linkedSize},
                   {"states", states},
                   {"versions", versions},
                   {"ages", ages},
                   {"neuronx_cc_running", pids},
                   {"warnings", warnings},
                   {"torchneuron", {{"local", u8(tn.local)}, {"local_why", u8(tn.localWhy)},
                                    {"remote", tn.remote.isEmpty() ? json(nullptr) : json(u8(tn.remote))},
                                    {"disabled", tn.disabled}}},
                   {"torchneuron_neff", {{"path", u8(neff.path)}, {"why", u8(neff.why)}}}});
        return Ok;
    }
    out(CliText::tr("Cache:      %1").arg(used));
    if (c.cacheDir.isEmpty())
        out(CliText::tr("Why here:   %1").arg(c.location.explanation));
    if (c.host.isEmpty())  // the other format's tiers, as this machine's environment places them
        out(CliText::tr("TorchNeuron / vLLM-Neuron cache: %1%2 (ingot-cli torchneuron status)")
                .arg(tn.disabled ? CliText::tr("off; ") : QString(), tn.local)
            + (tn.remote.isEmpty() ? QString() : CliText::tr(", remote tier %1").arg(tn.remote)));
    if (c.host.isEmpty())  // the third format: TorchNeuron's NEFF files (native PyTorch, Neuron 2.30 and later)
        out(CliText::tr("TorchNeuron NEFF cache: %1 (ingot-cli neff status)").arg(displayName(neff.path)));
    out(CliText::tr("Entries:    %1, %2").arg(st.entries).arg(formatBytes(st.size)));
    const qsizetype keys = std::count_if(snap.modules.cbegin(), snap.modules.cend(),
                                         [](const CacheModule &m) { return m.version.isEmpty() && isTorchNeuronKey(m.name); });
    if (keys > 0)
        out(CliText::tr("Also:       %n TorchNeuron / vLLM-Neuron cache keys (another format): ingot-cli torchneuron list "
                        "--cache-dir %1", nullptr, int(keys)).arg(used));
    if (st.linkedSize > 0)
        out(CliText::tr("Linked:     %1 in symlinked files (Hugging Face hub cache), stored elsewhere and not counted above")
                .arg(formatBytes(st.linkedSize)));
    out(QString());
    Table states({CliText::tr("STATE"), CliText::tr("ENTRIES"), CliText::tr("SIZE")}, {false, true, true});
    for (int i = 0; i < ModuleStateCount; ++i)
        if (ModuleState(i) != ModuleState::Unknown)
            states.add({stateText(ModuleState(i)), QString::number(st.perState[i]), formatBytes(st.bytesPerState[i])});
    states.add({CliText::tr("unknown items"), QString::number(st.unknownItems), QString()});
    out(states.render());
    out(QString());
    Table versions({CliText::tr("COMPILER"), CliText::tr("ENTRIES"), CliText::tr("SIZE"), CliText::tr("FAILED"), CliText::tr("LOCKED")}, {false, true, true, true, true});
    for (const auto &v : st.versions)
        versions.add({v.version, QString::number(v.entries), formatBytes(v.size),
                      QString::number(v.perState[int(ModuleState::Failed)]),
                      QString::number(v.perState[int(ModuleState::Locked)])});
    out(versions.render());
    out(QString());
    Table ages({CliText::tr("LAST USED"), CliText::tr("ENTRIES"), CliText::tr("SIZE")}, {false, true, true});
    for (int b = 0; b < CacheStats::AgeBucketCount; ++b)
        ages.add({CacheStats::ageBucketName(b), QString::number(st.ageEntries[b]), formatBytes(st.ageBytes[b])});
    out(ages.render());
    if (!compilers.isEmpty())
        out(QStringLiteral("\n") + CliText::tr("neuronx-cc is running (%n process(es)): its locks are live.", nullptr, int(compilers.size())));
    if (!snap.warnings.isEmpty()) {
        out(QStringLiteral("\n") + CliText::tr("Warnings (%1):").arg(snap.warnings.size()));
        for (const auto &w : snap.warnings)
            out(QStringLiteral("  %1: %2").arg(w.path.isEmpty() ? used : w.path, w.message));
    }
    return Ok;
}

}  // namespace

json planJson(const MaintenancePlan &plan, bool dryRun)
{
    json items = json::array();
    for (const auto &it : plan.items)
        items.push_back({{"key", u8(displayName(it.key))}, {"state", u8(stateName(it.state))}, {"bytes", it.bytes},
                         {"last_used", u8(isoDateTime(it.lastUsedMs))}, {"reason", u8(it.reason)},
                         {"operation", it.op == PlanItem::Op::RemoveLocks ? "remove-locks"
                                       : it.op == PlanItem::Op::RemoveFolderIfEmpty ? "remove-empty-folder" : "remove"}});
    json kept = json::array();
    for (const auto &k : plan.kept)
        kept.push_back({{"key", u8(k.key)}, {"reason", u8(k.reason)}});
    json notes = json::array();
    for (const auto &n : plan.notes)
        notes.push_back(u8(n));
    return {{"action", actionTitleSource(plan.action)}, {"dry_run", dryRun}, {"items", items}, {"kept", kept},
            {"bytes", plan.bytes}, {"cache_size_before", plan.cacheBytesBefore}, {"cache_size_after", plan.cacheBytesAfter},
            {"notes", notes}, {"refusal", plan.refusal.isEmpty() ? json(nullptr) : json(u8(plan.refusal))}};
}

void printPlan(const MaintenancePlan &plan)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (plan.items.isEmpty()) {
        out(CliText::tr("%1: nothing to do.").arg(actionTitle(plan.action)));
    } else {
        Table t({CliText::tr("ENTRY"), CliText::tr("STATE"), CliText::tr("SIZE"), CliText::tr("LAST USED"), CliText::tr("WHY")}, {false, false, true, false});
        for (const auto &it : plan.items)
            t.add({it.key, it.op == PlanItem::Op::RemoveFolderIfEmpty ? QStringLiteral("-") : stateText(it.state),
                   formatBytes(it.bytes), formatAge(it.lastUsedMs, now), it.reason});
        out(t.render());
        out(QString());
        const auto [before, after] = formatBytesBeforeAfter(plan.cacheBytesBefore, plan.cacheBytesAfter);
        out(CliText::tr("%1: %n entries, %2 freed (cache %3 -> %4).", nullptr, plan.entryCount())
                .arg(actionTitle(plan.action), formatBytes(plan.bytes), before, after));
    }
    for (const auto &k : plan.kept)
        out(CliText::tr("kept %1: %2").arg(k.key, k.reason));
    for (const auto &n : plan.notes)
        out(n);
}

enum class Maint { Prune, CleanFailed, ClearLocks, RemoveVersions, RemoveMatching };

std::function<void(QCommandLineParser &)> maintenanceOptions(Maint which)
{
    return [which](QCommandLineParser &p) {
        p.addOption({QStringLiteral("dry-run"), CliText::tr("Only show what would be removed.")});
        p.addOption({{QStringLiteral("y"), QStringLiteral("yes")}, CliText::tr("Do not ask for confirmation.")});
        if (which == Maint::Prune) {
            p.addOption({QStringLiteral("ttl-days"), CliText::tr("Remove entries unused for more than N days; entries used within N days are always kept (default 30, 0 = no TTL)."), CliText::tr("N"), QStringLiteral("30")});
            p.addOption({QStringLiteral("max-size"), CliText::tr("While the cache is larger, remove the least recently used entries outside the TTL (default 100GB, 0 = no limit)."), CliText::tr("SIZE"), QStringLiteral("100GB")});
        }
        if (which == Maint::ClearLocks)
            p.addOption({QStringLiteral("older-than"), CliText::tr("Only locks older than AGE (90m, 2h, 7d). Needed for an S3 cache, where a compile on any machine may hold a lock: older ones are taken as left by a compile that ended."), CliText::tr("AGE")});
        if (which == Maint::RemoveVersions)
            p.addOption({QStringLiteral("keep"), CliText::tr("A compiler-version folder to keep (repeatable)."), CliText::tr("VERSION")});
        if (which == Maint::CleanFailed)
            p.addPositionalArgument(QStringLiteral("entries"), CliText::tr("Only these entries (COMPILER/MODULE keys); default all failed."), CliText::tr("[ENTRY...]"));
        if (which == Maint::RemoveMatching)
            p.addOption({QStringLiteral("filter"), CliText::tr("Remove the entries matching FIELD OP VALUE (repeatable, all must hold), as cache list "
                                                               "--filter selects them: size>1GB, used>30d, state=failed, compiler=2.15, name=MODULE_12*."),
                         CliText::tr("EXPR")});
    };
}

// What a maintenance command was asked to do, checked before the cache is read.
struct MaintenanceRequest {
    Maint which = Maint::Prune;
    PruneOptions prune;
    QStringList keep;
    QStringList entries;
    qint64 lockOlderThanMs = 0;  // clear-locks --older-than
    CacheFilter filter;          // rm --filter
};

int parseMaintenance(Maint which, const Invocation &p, MaintenanceRequest *req)
{
    req->which = which;
    if (which != Maint::CleanFailed && !p.positional().isEmpty()) {
        err(CliText::tr("error: unexpected argument \"%1\"").arg(p.positional().first()));
        return Usage;
    }
    req->entries = p.positional();
    if (which == Maint::Prune) {
        bool ok = false;
        req->prune.ttlDays = p.value(QStringLiteral("ttl-days")).toInt(&ok);
        if (!ok || req->prune.ttlDays < 0) {
            err(CliText::tr("error: --ttl-days takes a whole number of days, not \"%1\"").arg(p.value(QStringLiteral("ttl-days"))));
            return Usage;
        }
        req->prune.maxBytes = parseBytes(p.value(QStringLiteral("max-size")));
        if (req->prune.maxBytes < 0) {
            err(CliText::tr("error: --max-size takes a size such as 100GB, 500M or 20GiB, not \"%1\"").arg(p.value(QStringLiteral("max-size"))));
            return Usage;
        }
        req->prune.nowMs = QDateTime::currentMSecsSinceEpoch();
    }
    if (which == Maint::ClearLocks && p.isSet(QStringLiteral("older-than"))) {
        req->lockOlderThanMs = parseLockAge(p.value(QStringLiteral("older-than")));
        if (req->lockOlderThanMs <= 0) {
            err(CliText::tr("error: --older-than takes an age such as 90m, 2h or 7d, not \"%1\"").arg(displayName(p.value(QStringLiteral("older-than")))));
            return Usage;
        }
    }
    if (which == Maint::RemoveMatching) {
        if (const int e = filterOf(p, &req->filter, nullptr))
            return e;
        if (req->filter.isEmpty()) {
            err(CliText::tr("error: name what goes with --filter (e.g. size>1GB, used>30d, state=failed); removing every entry is `rm -r`, not maintenance"));
            return Usage;
        }
    }
    if (which == Maint::RemoveVersions) {
        req->keep = p.values(QStringLiteral("keep"));
        if (req->keep.isEmpty()) {
            err(CliText::tr("error: name at least one --keep VERSION (removing every version is `rm -r`, not maintenance)"));
            return Usage;
        }
    }
    return Ok;
}

// Plans the action on the scanned cache; entries or versions that are not there are reported.
int planMaintenance(const MaintenanceRequest &req, const CacheSnapshot &snap, CacheStore &store, const QString &root,
                    MaintenancePlan *plan)
{
    switch (req.which) {
    case Maint::Prune: *plan = planPrune(snap.modules, req.prune); break;
    case Maint::CleanFailed: {
        // An entry is named as it is shown (a name that is not UTF-8 cannot be typed as it is on disk).
        QHash<QString, QString> shown;
        for (const CacheModule &m : snap.modules)
            shown.insert(displayName(m.key()), m.key());
        QStringList keys;
        for (const QString &k : req.entries) {
            const QString key = snap.find(k) ? k : shown.value(k);
            if (key.isEmpty()) {
                err(CliText::tr("error: no entry %1 in %2").arg(k, root));
                return Usage;
            }
            keys << key;
        }
        *plan = planCleanFailed(snap.modules, keys);
        break;
    }
    case Maint::ClearLocks:
        *plan = planClearLocks(snap.modules, queryRunningCompilers(store), req.lockOlderThanMs, QDateTime::currentMSecsSinceEpoch());
        break;
    case Maint::RemoveVersions:
        for (const QString &k : req.keep) {
            bool found = false;
            for (const auto &m : snap.modules)
                found = found || m.version == k;
            if (!found)
                err(CliText::tr("warning: no compiler-version folder %1 in %2").arg(k, root));
        }
        *plan = planRemoveVersions(snap.modules, req.keep);
        break;
    case Maint::RemoveMatching: *plan = planRemoveMatching(snap.modules, req.filter, QDateTime::currentMSecsSinceEpoch()); break;
    }
    return Ok;
}

// Ok to go on and run the plan; otherwise the exit code (a dry run, a refusal, nothing to do, no confirmation).
int confirmPlan(const MaintenancePlan &plan, const Invocation &p, bool *stop)
{
    *stop = true;
    const bool dryRun = p.isSet(QStringLiteral("dry-run"));
    if (!p.json)
        printPlan(plan);
    if (!plan.refusal.isEmpty()) {
        if (p.json)
            printJson(planJson(plan, dryRun));
        err(CliText::tr("refused: %1").arg(plan.refusal));
        return Refused;
    }
    if (dryRun || plan.items.isEmpty()) {
        if (p.json)
            printJson(planJson(plan, dryRun));
        else if (dryRun && !plan.items.isEmpty())
            out(CliText::tr("Dry run: nothing was changed."));
        return Ok;
    }
    if (!p.isSet(QStringLiteral("yes"))) {
        if (!stdinIsTerminal()) {
            if (p.json)
                printJson(planJson(plan, true));
            err(CliText::tr("refused: not a terminal, so nothing is removed without --yes (or use --dry-run)."));
            return Refused;
        }
        if (!confirm(CliText::tr("Remove %n entries (%1)?", nullptr, plan.entryCount()).arg(formatBytes(plan.bytes)))) {
            err(CliText::tr("Nothing was changed."));
            return Ok;
        }
    }
    *stop = false;
    return Ok;
}

json reportJson(const MaintenanceReport &rep)
{
    json outcomes = json::array();
    for (const auto &o : rep.outcomes)
        outcomes.push_back({{"key", u8(o.key)},
                            {"result", o.result == ItemOutcome::Result::Done ? "done" : o.result == ItemOutcome::Result::Skipped ? "skipped" : "failed"},
                            {"freed", o.freed}, {"message", u8(o.message)}});
    return {{"done", rep.done}, {"skipped", rep.skipped}, {"failed", rep.failed}, {"freed", rep.freed}, {"outcomes", outcomes}};
}

void printReport(const MaintenancePlan &plan, const MaintenanceReport &rep, bool asJson)
{
    if (asJson) {
        json j = planJson(plan, false);
        j["result"] = reportJson(rep);
        printJson(j);
        return;
    }
    for (const auto &o : rep.outcomes)
        if (o.result != ItemOutcome::Result::Done)
            (o.result == ItemOutcome::Result::Failed ? err : out)(QStringLiteral("%1 %2: %3").arg(
                o.result == ItemOutcome::Result::Failed ? CliText::tr("FAILED") : CliText::tr("skipped"), o.key, o.message));
    out(CliText::tr("Done: %1 removed, %2 skipped, %3 failed; %4 freed on disk.")
            .arg(rep.done).arg(rep.skipped).arg(rep.failed).arg(formatBytes(rep.freed)));
}

int runPlan(CacheStore &store, const MaintenancePlan &plan, bool asJson)
{
    const bool progress = !asJson && stdinIsTerminal();
    const MaintenanceReport rep = executePlan(store, plan, [progress](int done, int total, const QString &cur) {
        if (progress && !cur.isEmpty())
            std::fprintf(stderr, "\r[%d/%d] %s\033[K", done + 1, total, displayName(cur).toUtf8().constData());
    });
    if (progress)
        std::fprintf(stderr, "\r\033[K");
    if (!rep.refusal.isEmpty()) {
        err(CliText::tr("refused: %1").arg(rep.refusal));
        return Refused;
    }
    printReport(plan, rep, asJson);
    return rep.failed > 0 ? PartialFailure : Ok;
}

namespace {

int cmdMaintenance(Maint which, const Invocation &p)
{
    MaintenanceRequest req;
    if (const int e = parseMaintenance(which, p, &req))
        return e;
    Common c;
    if (const int e = commonOf(p, &c))
        return e;
    CacheSnapshot snap;
    if (const int e = scan(c, &snap))
        return e;
    const QString root = c.shown();
    QString error;
    const auto store = makeStore(c.store(), &error);
    if (!store) {
        err(CliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    MaintenancePlan plan;
    if (const int e = planMaintenance(req, snap, *store, root, &plan))
        return e;
    plan.rootIdentity = snap.rootIdentity;  // run only on the folder that was scanned
    bool stop = true;
    const int e = confirmPlan(plan, p, &stop);
    return stop ? e : runPlan(*store, plan, p.json);
}

void sampleOptions(QCommandLineParser &p)
{
    // By default the sample the GUI opens (Open a sample cache).
    const SampleCacheOptions shown = shownSampleOptions();
    p.addOption({QStringLiteral("modules"), CliText::tr("How many module folders (default %1).").arg(shown.modules), CliText::tr("N"),
                 QString::number(shown.modules)});
    p.addOption({QStringLiteral("seed"), CliText::tr("Random seed (default %1).").arg(shown.seed), CliText::tr("N"),
                 QString::number(shown.seed)});
    p.addPositionalArgument(QStringLiteral("dir"), CliText::tr("The folder to create."));
}

int cmdSample(const Invocation &p)
{
    if (p.positional().size() != 1) {
        err(CliText::tr("error: name one folder to write the sample cache into"));
        return Usage;
    }
    SampleCacheOptions o;
    o.modules = p.value(QStringLiteral("modules")).toInt();
    o.seed = p.value(QStringLiteral("seed")).toULongLong();
    SampleCacheResult r;
    QString error;
    if (!writeSampleCache(p.positional().first(), o, &r, &error)) {
        err(CliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    const QString files = CliText::tr("%n file(s)", nullptr, r.files);  // two counts: two plurals
    out(CliText::tr("Wrote %n entries (%1, %2 apparent size) to %3", nullptr, r.modules)
            .arg(files, formatBytes(r.bytes), p.positional().first()));
    return Ok;
}
}  // namespace

QVector<Command> cacheCommands()
{
    const QString g = QStringLiteral("cache");
    const unsigned cache = JsonOption | CacheDirOption | HostOption;
    auto maint = [&](const QString &name, const QString &summary, Maint which) {
        return Command{g, name, summary, cache, maintenanceOptions(which),
                       [which](const Invocation &p) { return cmdMaintenance(which, p); }};
    };
    return {
        {g, QStringLiteral("list"), CliText::tr("List the entries (compiler version / module) with state, size and last use"),
         cache, listOptions, cmdList},
        {g, QStringLiteral("status"), CliText::tr("Where the cache is and why, totals per state, per compiler, per age; warnings"),
         cache, {}, cmdStatus},
        maint(QStringLiteral("prune"), CliText::tr("Remove entries unused longer than --ttl-days, then LRU down to --max-size"), Maint::Prune),
        maint(QStringLiteral("clean-failed"), CliText::tr("Remove FAILED entries so they compile again"), Maint::CleanFailed),
        maint(QStringLiteral("clear-locks"), CliText::tr("Remove stale *.lock files (refused while neuronx-cc runs)"), Maint::ClearLocks),
        maint(QStringLiteral("remove-versions"), CliText::tr("Remove compiler-version folders other than --keep ones"), Maint::RemoveVersions),
        maint(QStringLiteral("rm"), CliText::tr("Remove the entries --filter selects (previewed; never locked ones)"), Maint::RemoveMatching),
        {g, QStringLiteral("sample"), CliText::tr("Write a realistic sample cache (sparse files) into an empty folder"),
         NoSharedOptions, sampleOptions, cmdSample},
    };
}

}  // namespace ingot::cli
