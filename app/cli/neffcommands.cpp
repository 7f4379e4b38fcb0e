#include "app/cli/neffcommands.h"

#include "app/cli/clicommon.h"
#include "services/cache/neffcache.h"
#include "services/stores/storefactory.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct NeffText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

constexpr int defaultTtlDays = 30;

// The folder (--cache-dir, else as TorchNeuron resolves it here), scanned; an exit code (Ok to go on).
int scanned(const Invocation &p, NeffCacheSnapshot *snap, std::unique_ptr<CacheStore> *store, QString *shown)
{
    const QString dir = p.cacheDir.isEmpty() ? resolveNeffCacheLocation().path : p.cacheDir;
    if (dir.contains(QLatin1String("://"))) {
        err(NeffText::tr("error: the NEFF cache is a folder on this machine; %1 is not one.").arg(displayName(dir)));
        return Usage;
    }
    const StoreLocation loc = StoreLocation::local(dir);
    QString error;
    *store = makeStore(loc, &error);
    if (!*store) {
        err(NeffText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    *shown = loc.display();
    *snap = scanNeffCache(**store);
    if (!snap->fatalError.isEmpty()) {
        err(NeffText::tr("error: %1").arg(snap->fatalError));
        return CacheUnavailable;
    }
    for (const QString &w : std::as_const(snap->warnings))
        err(NeffText::tr("warning: %1").arg(displayName(w)));
    return Ok;
}

int ttlOf(const Invocation &p, int *ttl)
{
    bool ok = false;
    *ttl = p.value(QStringLiteral("ttl-days")).toInt(&ok);
    if (!ok || *ttl < 0) {
        err(NeffText::tr("error: --ttl-days takes a whole number of days, 0 or more."));
        return Usage;
    }
    return Ok;
}

void ttlOption(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("ttl-days"), NeffText::tr("NEFF files unused for more than N days (default %1).").arg(defaultTtlDays),
                 NeffText::tr("N"), QString::number(defaultTtlDays)});
}

int cmdStatus(const Invocation &p)
{
    const NeffCacheLocation where = resolveNeffCacheLocation();
    NeffCacheSnapshot snap;
    std::unique_ptr<CacheStore> store;
    QString shown;
    int ttl = defaultTtlDays;
    if (const int e = ttlOf(p, &ttl))
        return e;
    if (const int e = scanned(p, &snap, &store, &shown))
        return e;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 oldBytes = 0;
    const int old = snap.unusedFor(ttl, now, &oldBytes);
    if (p.json) {
        printJson({{"cache", u8(displayName(shown))}, {"resolved", u8(where.path)}, {"why", u8(where.why)},
                   {"neff_files", snap.neffs.size()}, {"size", snap.size()},
                   {"unused", {{"days", ttl}, {"neff_files", old}, {"size", oldBytes}}},
                   {"other_files", snap.otherFiles}, {"links", snap.links}, {"folders_not_read", snap.foldersNotRead}});
        return Ok;
    }
    out(NeffText::tr("NEFF cache: %1").arg(displayName(shown)));
    if (p.cacheDir.isEmpty())
        out(NeffText::tr("Why here:   %1").arg(where.why));
    out(NeffText::tr("NEFF files: %1, %2").arg(snap.neffs.size()).arg(formatBytes(snap.size())));
    out(NeffText::tr("Unused for more than %n days: ", nullptr, ttl)
        + NeffText::tr("%1, %2 (ingot-cli neff prune)").arg(old).arg(formatBytes(oldBytes)));
    if (snap.otherFiles > 0 || snap.links > 0)
        out(NeffText::tr("Left alone: %1 other files (%2), %3 links").arg(snap.otherFiles).arg(formatBytes(snap.otherBytes)).arg(snap.links));
    if (snap.foldersNotRead > 0)
        out(NeffText::tr("Not read:   %n folders (too deep, or past the entries Ingot reads)", nullptr, snap.foldersNotRead));
    return Ok;
}

int cmdList(const Invocation &p)
{
    NeffCacheSnapshot snap;
    std::unique_ptr<CacheStore> store;
    QString shown;
    if (const int e = scanned(p, &snap, &store, &shown))
        return e;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (p.json) {
        json files = json::array();
        for (const NeffFile &f : std::as_const(snap.neffs))
            files.push_back({{"path", u8(displayName(f.rel))}, {"size", f.size},
                             {"last_used", f.lastUsedMs > 0 ? json(u8(isoDateTime(f.lastUsedMs))) : json(nullptr)}});
        printJson({{"cache", u8(displayName(shown))}, {"neff_files", files}});
        return Ok;
    }
    Table t({NeffText::tr("NEFF"), NeffText::tr("SIZE"), NeffText::tr("LAST USED")}, {false, true, false});
    for (const NeffFile &f : std::as_const(snap.neffs))
        t.add({displayName(f.rel), formatBytes(f.size), f.lastUsedMs > 0 ? formatAge(f.lastUsedMs, now) : QString()});
    out(t.render());
    return Ok;
}

int cmdPrune(const Invocation &p)
{
    int ttl = defaultTtlDays;
    if (const int e = ttlOf(p, &ttl))
        return e;
    NeffCacheSnapshot snap;
    std::unique_ptr<CacheStore> store;
    QString shown;
    if (const int e = scanned(p, &snap, &store, &shown))
        return e;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QVector<NeffStep> plan = planNeffPrune(snap, ttl, now);
    qint64 bytes = 0;
    json items = json::array();
    for (const NeffStep &s : plan) {
        bytes += s.bytes;
        items.push_back({{"path", u8(displayName(s.rel))}, {"size", s.bytes}, {"last_used", u8(isoDateTime(s.lastUsedMs))}});
        if (!p.json)
            out(NeffText::tr("%1  %2  last used %3").arg(displayName(s.rel), formatBytes(s.bytes), formatAge(s.lastUsedMs, now)));
    }
    const bool dryRun = p.isSet(QStringLiteral("dry-run"));
    if (dryRun || plan.isEmpty()) {
        if (p.json)
            printJson({{"cache", u8(displayName(shown))}, {"dry_run", dryRun}, {"items", items}, {"bytes", bytes}});
        else
            out(plan.isEmpty() ? NeffText::tr("Nothing to remove.") : NeffText::tr("Dry run: nothing was changed."));
        return Ok;
    }
    if (!p.isSet(QStringLiteral("yes"))) {
        if (!stdinIsTerminal()) {
            err(NeffText::tr("refused: not a terminal, so nothing is removed without --yes (or use --dry-run)."));
            return Refused;
        }
        if (!confirm(NeffText::tr("Remove %n NEFF files (%1)?", nullptr, int(plan.size())).arg(formatBytes(bytes)))) {
            err(NeffText::tr("Nothing was changed."));
            return Ok;
        }
    }
    const NeffPruneReport r = executeNeffPrune(*store, plan, ttl, now);
    if (p.json) {
        json errors = json::array();
        for (const QString &e : r.errors)
            errors.push_back(u8(displayName(e)));
        printJson({{"cache", u8(displayName(shown))}, {"dry_run", false}, {"items", items}, {"removed", r.done},
                   {"left", r.skipped}, {"freed", r.freed}, {"errors", errors}});
    } else {
        out(NeffText::tr("Removed %1, left %2 that were used, locked or changed since the preview, freed %3.")
                .arg(r.done).arg(r.skipped).arg(formatBytes(r.freed)));
        for (const QString &e : r.errors)
            err(NeffText::tr("error: %1").arg(displayName(e)));
    }
    return r.errors.isEmpty() ? Ok : PartialFailure;
}
}  // namespace

CommandGroup neffGroup()
{
    return {QStringLiteral("neff"), NeffText::tr("TorchNeuron's NEFF cache (native PyTorch on Neuron): status, list, prune"),
            NeffText::tr("TORCH_NEURONX_NEFF_CACHE_DIR, else /tmp/neff_cache, as the Neuron documentation gives it; "
                         "--cache-dir DIR for another folder on this machine.")};
}

QVector<Command> neffCommands()
{
    const QString g = QStringLiteral("neff");
    const unsigned shared = JsonOption | CacheDirOption;
    return {
        {g, QStringLiteral("status"), NeffText::tr("Where the NEFF cache is (and why), its NEFF files and how many are unused"),
         shared, ttlOption, cmdStatus},
        {g, QStringLiteral("list"), NeffText::tr("Every NEFF file, largest first, with its last use"), shared, nullptr, cmdList},
        {g, QStringLiteral("prune"), NeffText::tr("Preview, then remove NEFF files unused for more than --ttl-days"), shared,
         [](QCommandLineParser &p) {
             ttlOption(p);
             p.addOption({QStringLiteral("dry-run"), NeffText::tr("Only show what would be removed.")});
             p.addOption({{QStringLiteral("y"), QStringLiteral("yes")}, NeffText::tr("Do not ask for confirmation.")});
         },
         cmdPrune},
    };
}

}  // namespace ingot::cli
