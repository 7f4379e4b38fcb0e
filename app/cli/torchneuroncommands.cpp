#include "app/cli/torchneuroncommands.h"

#include "app/cli/clicommon.h"
#include "app/cli/remotecommands.h"
#include "services/cache/torchneuron.h"
#include "services/remote/remotehosts.h"
#include "services/s3/s3cachestore.h"
#include "services/s3/s3location.h"
#include "services/stores/storefactory.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QDateTime>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct TnText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

void whereOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("remote"), TnText::tr("The remote tier (NEURON_LIBTORCH_REMOTE_CACHE) instead of the local one.")});
}

void maintenanceOptions(QCommandLineParser &p, bool ttl)
{
    whereOptions(p);
    p.addOption({QStringLiteral("dry-run"), TnText::tr("Only show what would be removed.")});
    p.addOption({{QStringLiteral("y"), QStringLiteral("yes")}, TnText::tr("Do not ask for confirmation.")});
    if (ttl)
        p.addOption({QStringLiteral("ttl-days"), TnText::tr("Remove complete entries unused for more than N days (default 30)."),
                     TnText::tr("N"), QStringLiteral("30")});
}

// Where the cache is (--cache-dir DIR or s3://..., --remote, else the local tier as resolved here), opened as a
// store; an exit code (Ok to go on).
int storeOf(const Invocation &p, std::unique_ptr<CacheStore> *store, QString *shown)
{
    const TorchNeuronLocations where = resolveTorchNeuronLocations();
    QString dir = p.cacheDir;
    if (dir.isEmpty() && p.isSet(QStringLiteral("remote"))) {
        if (where.remote.isEmpty()) {
            err(TnText::tr("error: NEURON_LIBTORCH_REMOTE_CACHE is not set: there is no remote tier."));
            return Usage;
        }
        dir = where.remote;
    }
    if (dir.isEmpty() && !p.host.isEmpty()) {
        err(TnText::tr("error: with --host, name the cache folder there with --cache-dir (e.g. ~/.cache/vllm/neuron/compile_cache)."));
        return Usage;
    }
    if (dir.isEmpty())
        dir = where.local;
    StoreLocation loc = StoreLocation::local(dir);
    if (dir.startsWith(QLatin1String("s3://"))) {
        s3::S3Location s3;
        QString why;
        if (!s3::S3Location::parse(dir, &s3, &why)) {
            err(TnText::tr("error: %1").arg(why));
            return Usage;
        }
        loc = {s3::s3StoreKind(), QString(), s3.url()};
    } else if (!p.host.isEmpty()) {
        if (const int e = connectHost(p.host))
            return e;
        loc = sshStoreLocation(p.host, dir);
    }
    QString error;
    *store = makeStore(loc, &error);
    if (!*store) {
        err(TnText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    *shown = loc.display();
    return Ok;
}

json entryJson(const TorchNeuronEntry &e)
{
    json locks = json::array();
    for (const QString &l : e.locks)
        locks.push_back(u8(displayName(l)));
    return {{"key", u8(e.key)}, {"state", u8(torchNeuronStateName(e.state))}, {"size", e.size}, {"files", e.files},
            {"last_used", e.lastUsedMs > 0 ? json(u8(isoDateTime(e.lastUsedMs))) : json(nullptr)},
            {"neff_size", e.neffBytes >= 0 ? json(e.neffBytes) : json(nullptr)}, {"neff_mismatch", e.neffMismatch},
            {"locks", locks}, {"locks_checked", e.locksChecked}};
}

int scanned(const Invocation &p, TorchNeuronSnapshot *snap, std::unique_ptr<CacheStore> *store, QString *shown)
{
    if (const int e = storeOf(p, store, shown))
        return e;
    *snap = scanTorchNeuronCache(**store);
    if (!snap->fatalError.isEmpty()) {
        err(TnText::tr("error: %1").arg(snap->fatalError));
        return CacheUnavailable;
    }
    return Ok;
}

int cmdList(const Invocation &p)
{
    TorchNeuronSnapshot snap;
    std::unique_ptr<CacheStore> store;
    QString shown;
    if (const int e = scanned(p, &snap, &store, &shown))
        return e;
    if (p.json) {
        json entries = json::array();
        for (const TorchNeuronEntry &e : std::as_const(snap.entries))
            entries.push_back(entryJson(e));
        printJson({{"cache", u8(displayName(shown))}, {"entries", entries}});
        return Ok;
    }
    Table t({TnText::tr("KEY"), TnText::tr("STATE"), TnText::tr("SIZE"), TnText::tr("FILES"), TnText::tr("LAST USED"), TnText::tr("NOTE")},
            {false, false, true, true, false, false});
    for (const TorchNeuronEntry &e : std::as_const(snap.entries)) {
        QString note;
        if (e.neffMismatch)
            note = TnText::tr("the marker names a %1-byte NEFF that is not there").arg(e.neffBytes);
        else if (!e.locks.isEmpty() && !e.locksChecked)
            note = TnText::tr("lock not checkable here: taken as held");
        t.add({e.key, torchNeuronStateName(e.state), formatBytes(e.size), QString::number(e.files),
               e.lastUsedMs > 0 ? formatDateTime(e.lastUsedMs) : QString(), note});
    }
    out(t.render());
    return Ok;
}

int cmdStatus(const Invocation &p)
{
    const TorchNeuronLocations where = resolveTorchNeuronLocations();
    TorchNeuronSnapshot snap;
    std::unique_ptr<CacheStore> store;
    QString shown;
    if (const int e = scanned(p, &snap, &store, &shown))
        return e;
    using S = TorchNeuronEntry::State;
    if (p.json) {
        printJson({{"cache", u8(displayName(shown))},
                   {"local", u8(where.local)}, {"local_why", u8(where.localWhy)},
                   {"remote", where.remote.isEmpty() ? json(nullptr) : json(u8(where.remote))},
                   {"disabled", where.disabled}, {"wait_seconds", where.waitSeconds},
                   {"entries", snap.entries.size()}, {"size", snap.size()},
                   {"complete", snap.count(S::Complete)}, {"compiling", snap.count(S::Compiling)},
                   {"stale_lock", snap.count(S::StaleLock)}, {"incomplete", snap.count(S::Incomplete)},
                   {"other_items", snap.otherItems.size()}});
        return Ok;
    }
    out(TnText::tr("Cache:       %1").arg(displayName(shown)));
    out(TnText::tr("Local tier:  %1 (%2)").arg(where.local, where.localWhy));
    out(TnText::tr("Remote tier: %1").arg(where.remote.isEmpty() ? TnText::tr("none (NEURON_LIBTORCH_REMOTE_CACHE is not set)") : where.remote));
    if (where.disabled)
        out(TnText::tr("Caching:     off (NEURON_LIBTORCH_DISABLE_COMPILE_CACHE=1)"));
    out(TnText::tr("Entries:     %1, %2").arg(snap.entries.size()).arg(formatBytes(snap.size())));
    out(TnText::tr("  complete %1, compiling %2, stale lock %3, incomplete %4")
            .arg(snap.count(S::Complete)).arg(snap.count(S::Compiling)).arg(snap.count(S::StaleLock)).arg(snap.count(S::Incomplete)));
    if (!snap.otherItems.isEmpty())
        out(TnText::tr("Not cache entries (left alone): %1").arg(snap.otherItems.size()));
    return Ok;
}

int runMaintenance(const Invocation &p, TorchNeuronAction action)
{
    TorchNeuronSnapshot snap;
    std::unique_ptr<CacheStore> store;
    QString shown;
    if (const int e = scanned(p, &snap, &store, &shown))
        return e;
    const int ttl = action == TorchNeuronAction::Prune ? p.value(QStringLiteral("ttl-days")).toInt() : 0;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (action == TorchNeuronAction::ClearLocks && !store->isLocal()) {
        err(TnText::tr("refused: whether a lock in %1 is held can only be seen on the machine that holds it; run "
                       "ingot-cli there.").arg(displayName(shown)));
        return Refused;
    }
    const QVector<TorchNeuronStep> plan = planTorchNeuron(snap, action, ttl, now);
    qint64 bytes = 0;
    json items = json::array();
    for (const TorchNeuronStep &s : plan) {
        bytes += s.bytes;
        items.push_back({{"path", u8(displayName(s.rel))}, {"size", s.bytes}, {"why", u8(s.why)}});
        if (!p.json)
            out(TnText::tr("%1  %2  %3").arg(displayName(s.rel), formatBytes(s.bytes), s.why));
    }
    const bool dryRun = p.isSet(QStringLiteral("dry-run"));
    if (dryRun || plan.isEmpty()) {
        if (p.json)
            printJson({{"cache", u8(displayName(shown))}, {"dry_run", dryRun}, {"items", items}, {"bytes", bytes}});
        else
            out(plan.isEmpty() ? TnText::tr("Nothing to remove.") : TnText::tr("Dry run: nothing was changed."));
        return Ok;
    }
    if (!p.isSet(QStringLiteral("yes"))) {
        if (!stdinIsTerminal()) {
            err(TnText::tr("refused: not a terminal, so nothing is removed without --yes (or use --dry-run)."));
            return Refused;
        }
        if (!confirm(TnText::tr("Remove %n items (%1)?", nullptr, int(plan.size())).arg(formatBytes(bytes)))) {
            err(TnText::tr("Nothing was changed."));
            return Ok;
        }
    }
    const TorchNeuronReport r = executeTorchNeuron(*store, plan, action, ttl, now);
    if (p.json) {
        json errors = json::array();
        for (const QString &e : r.errors)
            errors.push_back(u8(e));
        printJson({{"cache", u8(displayName(shown))}, {"dry_run", false}, {"items", items}, {"removed", r.done},
                   {"left", r.skipped}, {"freed", r.freed}, {"errors", errors}});
    } else {
        out(TnText::tr("Removed %1, left %2 that changed since the preview, freed %3.").arg(r.done).arg(r.skipped).arg(formatBytes(r.freed)));
        for (const QString &e : r.errors)
            err(TnText::tr("error: %1").arg(e));
    }
    return r.errors.isEmpty() ? Ok : PartialFailure;
}
}  // namespace

CommandGroup torchNeuronGroup()
{
    return {QStringLiteral("torchneuron"),
            TnText::tr("The TorchNeuron / vLLM-Neuron compile cache: list, status, clean-incomplete, clear-locks, prune"),
            TnText::tr("The local tier by default ($VLLM_CACHE_ROOT/neuron/compile_cache); --remote: NEURON_LIBTORCH_REMOTE_CACHE; "
                       "--cache-dir DIR or s3://BUCKET/PREFIX; --host HOST with --cache-dir.")};
}

QVector<Command> torchNeuronCommands()
{
    const QString g = QStringLiteral("torchneuron");
    const unsigned where = JsonOption | CacheDirOption | HostOption;
    return {
        {g, QStringLiteral("list"), TnText::tr("Every cache key with its state, size and last use"), where, whereOptions, cmdList},
        {g, QStringLiteral("status"), TnText::tr("Where the tiers are (and why), and the entries by state"), where, whereOptions, cmdStatus},
        {g, QStringLiteral("clean-incomplete"), TnText::tr("Preview, then remove entries without their marker and without a lock"), where,
         [](QCommandLineParser &p) { maintenanceOptions(p, false); }, [](const Invocation &p) { return runMaintenance(p, TorchNeuronAction::CleanIncomplete); }},
        {g, QStringLiteral("clear-locks"), TnText::tr("Preview, then remove lock files no process holds (this machine's caches)"), where,
         [](QCommandLineParser &p) { maintenanceOptions(p, false); }, [](const Invocation &p) { return runMaintenance(p, TorchNeuronAction::ClearLocks); }},
        {g, QStringLiteral("prune"), TnText::tr("Preview, then remove complete entries unused for more than --ttl-days"), where,
         [](QCommandLineParser &p) { maintenanceOptions(p, true); }, [](const Invocation &p) { return runMaintenance(p, TorchNeuronAction::Prune); }},
    };
}

}  // namespace ingot::cli
