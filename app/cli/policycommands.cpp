#include "app/cli/policycommands.h"

#include "app/cli/cachecommands.h"
#include "app/cli/clicommon.h"
#include "services/cache/cachepolicy.h"
#include "services/cache/cachescanner.h"
#include "services/cache/maintenance.h"
#include "services/fleet/fleetgc.h"
#include "services/fleet/fleetplaces.h"
#include "services/fleet/gclog.h"
#include "services/stores/storefactory.h"
#include "services/util/appsettings.h"
#include "services/util/format.h"
#include "services/util/names.h"
#include "services/util/units.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>
#include <cstdio>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct PolicyCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

json policyJson(const CachePolicy &p)
{
    return {{"name", u8(p.name)}, {"max_bytes", p.maxBytes}, {"keep_versions", p.keepVersions}, {"unused_days", p.unusedDays},
            {"remove_failed", p.removeFailed}, {"clear_locks", p.clearLocks}, {"lock_age_ms", p.lockAgeMs},
            {"summary", u8(p.summary())}};
}

void policyOptions(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("action"), PolicyCliText::tr("list, set NAME or rm NAME"), QStringLiteral("list|set|rm [NAME]"));
    p.addOption({QStringLiteral("max-size"), PolicyCliText::tr("set: the least recently used entries go while the cache is larger (100GB, 500GiB)."), QStringLiteral("SIZE")});
    p.addOption({QStringLiteral("keep-versions"), PolicyCliText::tr("set: keep the N newest compiler versions; the others' entries go."), QStringLiteral("N")});
    p.addOption({QStringLiteral("unused-days"), PolicyCliText::tr("set: entries unused for more than D days go."), QStringLiteral("D")});
    p.addOption({QStringLiteral("failed"), PolicyCliText::tr("set: failed entries go (the next run compiles them again).")});
    p.addOption({QStringLiteral("locks"), PolicyCliText::tr("set: stale lock files go (never while neuronx-cc runs there).")});
    p.addOption({QStringLiteral("lock-age"), PolicyCliText::tr("set: where compiles cannot be seen (S3), only locks older than AGE (2h, 1d)."), QStringLiteral("AGE")});
}

int readWhole(const Invocation &inv, const QString &option, int max, int *out)
{
    if (!inv.isSet(option))
        return Ok;
    bool ok = false;
    *out = inv.value(option).toInt(&ok);
    if (!ok || *out < 0 || *out > max) {
        err(PolicyCliText::tr("error: --%1 takes a whole number from 0 to %2").arg(option).arg(max));
        return Usage;
    }
    return Ok;
}

int policySet(const Invocation &inv, const QString &name)
{
    CachePolicy p;
    findPolicy(name, &p);  // changes what is given, keeps the rest
    p.name = name;
    if (inv.isSet(QStringLiteral("max-size"))) {
        p.maxBytes = parseBytes(inv.value(QStringLiteral("max-size")));
        if (p.maxBytes < 0) {
            err(PolicyCliText::tr("error: --max-size takes a size such as 100GB, 500M or 20GiB, not \"%1\"").arg(displayName(inv.value(QStringLiteral("max-size")))));
            return Usage;
        }
    }
    if (const int e = readWhole(inv, QStringLiteral("keep-versions"), 1000, &p.keepVersions))
        return e;
    if (const int e = readWhole(inv, QStringLiteral("unused-days"), 36500, &p.unusedDays))
        return e;
    p.removeFailed = p.removeFailed || inv.isSet(QStringLiteral("failed"));
    p.clearLocks = p.clearLocks || inv.isSet(QStringLiteral("locks"));
    if (inv.isSet(QStringLiteral("lock-age"))) {
        p.lockAgeMs = parseLockAge(inv.value(QStringLiteral("lock-age")));
        if (p.lockAgeMs <= 0) {
            err(PolicyCliText::tr("error: --lock-age takes an age such as 90m, 2h or 7d"));
            return Usage;
        }
    }
    if (p.isEmpty()) {
        err(PolicyCliText::tr("error: a policy removes something: give --max-size, --keep-versions, --unused-days, --failed or --locks"));
        return Usage;
    }
    savePolicy(p);
    if (inv.json)
        printJson(policyJson(p));
    else
        out(PolicyCliText::tr("Policy %1: %2.").arg(p.name, p.summary()));
    return Ok;
}

int cmdPolicy(const Invocation &inv)
{
    const QStringList pos = inv.positional();
    const QString action = pos.value(0, QStringLiteral("list"));
    if (action == QLatin1String("list") && pos.size() <= 1) {
        const QVector<CachePolicy> all = savedPolicies();
        if (inv.json) {
            json a = json::array();
            for (const CachePolicy &p : all)
                a.push_back(policyJson(p));
            printJson({{"policies", a}});
        } else if (all.isEmpty()) {
            out(PolicyCliText::tr("No cache policy yet: ingot-cli cache policy set NAME --max-size 200GB --unused-days 30 --failed"));
        } else {
            for (const CachePolicy &p : all)
                out(QStringLiteral("%1  %2").arg(p.name, p.summary()));
        }
        return Ok;
    }
    if ((action == QLatin1String("set") || action == QLatin1String("rm")) && pos.size() == 2) {
        const QString name = pos.at(1);
        if (!CachePolicy::validName(name)) {
            err(PolicyCliText::tr("error: a policy's name is letters, digits, '-', '_' and '.' (64 at most), not \"%1\"").arg(displayName(name)));
            return Usage;
        }
        if (action == QLatin1String("set"))
            return policySet(inv, name);
        if (!removePolicy(name)) {
            err(PolicyCliText::tr("error: no policy %1").arg(name));
            return Usage;
        }
        out(PolicyCliText::tr("Removed policy %1.").arg(name));
        return Ok;
    }
    err(PolicyCliText::tr("error: cache policy list | set NAME [options] | rm NAME"));
    return Usage;
}

void gcOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("policy"), PolicyCliText::tr("The policy to apply (cache policy list)."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("everywhere"), PolicyCliText::tr("On every place Ingot knows (cache fleet): this machine's caches, the hosts in the list, "
                                                                 "the S3 caches opened before; Hub repos and TorchNeuron tiers are listed as not taking policies.")});
    p.addOption({QStringLiteral("place"), PolicyCliText::tr("On this place (repeatable): a folder, host:NAME, s3://bucket/prefix."), QStringLiteral("ID")});
    p.addOption({QStringLiteral("dry-run"), PolicyCliText::tr("Only show what would be removed.")});
    p.addOption({{QStringLiteral("y"), QStringLiteral("yes")}, PolicyCliText::tr("Do not ask for confirmation.")});
    p.addOption({QStringLiteral("log"), PolicyCliText::tr("Append the run to the log of policy runs (the fleet page shows it).")});
    p.addOption({QStringLiteral("trigger"), PolicyCliText::tr("What started the run, as the log says it: cli (default) or schedule."), QStringLiteral("WHO")});
}

// --log: the run appended to the log of policy runs; a log that cannot be written is said (the removals stand).
int logRun(const Invocation &inv, const GcRun &run)
{
    if (!inv.isSet(QStringLiteral("log")))
        return Ok;
    QString error;
    if (appendGcRun(run, &error))
        return Ok;
    err(PolicyCliText::tr("warning: the run was not logged: %1").arg(error));
    return PartialFailure;
}

// The trigger the log records: "cli", or "schedule" for the timer's and cron's runs. Empty for anything else.
QString triggerOf(const Invocation &inv)
{
    const QString t = inv.isSet(QStringLiteral("trigger")) ? inv.value(QStringLiteral("trigger")) : QStringLiteral("cli");
    return t == QLatin1String("cli") || t == QLatin1String("schedule") ? t : QString();
}

// One place named by --cache-dir / --host (or the cache here), as the fleet names it.
FleetPlace placeOf(const Common &c)
{
    FleetPlace p;
    p.store = c.store();
    p.host = c.host;
    p.kind = !c.host.isEmpty() ? FleetPlace::Kind::Host : c.isS3() ? FleetPlace::Kind::S3 : FleetPlace::Kind::Local;
    p.id = !c.host.isEmpty() ? QStringLiteral("host:") + c.host : c.root();
    p.origin = QStringLiteral("named");
    return p;
}

// `cache gc --policy NAME` on one cache (--cache-dir, --host, or the one here): previewed, consent, run, reported as
// every maintenance command does; with --log the run is logged as a policy run of one place.
int gcOnePlace(const Invocation &inv, const CachePolicy &policy, const QString &trigger)
{
    Common c;
    if (const int e = commonOf(inv, &c))
        return e;
    CacheSnapshot snap;
    if (const int e = scan(c, &snap))
        return e;
    QString error;
    const auto store = makeStore(c.store(), &error);
    if (!store) {
        err(PolicyCliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    FleetGcPreview preview;
    preview.policy = policy;
    preview.nowMs = QDateTime::currentMSecsSinceEpoch();
    FleetGcPlace one;
    one.place = placeOf(c);
    one.status = FleetGcPlace::Status::Planned;
    one.plan = planPolicy(snap.modules, policy, policy.clearLocks ? queryRunningCompilers(*store) : RunningCompilers{}, preview.nowMs);
    one.plan.rootIdentity = snap.rootIdentity;  // run only on the folder that was scanned
    preview.places << one;
    bool stop = true;
    const int e = confirmPlan(one.plan, inv, &stop);
    if (stop) {  // a dry run, nothing to do, a refusal or no consent: only the first two are runs to log
        const bool dryRun = inv.isSet(QStringLiteral("dry-run"));
        if (e != Ok || (!dryRun && !one.plan.items.isEmpty()))
            return e;
        return logRun(inv, dryRun ? preview.asDryRun(trigger) : applyFleetGc(preview, trigger));
    }
    QVector<MaintenanceReport> reports;
    const GcRun run = applyFleetGc(preview, trigger, {}, nullptr, &reports);
    const MaintenanceReport &rep = reports.first();
    const int logged = logRun(inv, run);
    if (!rep.refusal.isEmpty()) {
        err(PolicyCliText::tr("refused: %1").arg(rep.refusal));
        return Refused;
    }
    printReport(one.plan, rep, inv.json);
    return rep.failed > 0 ? PartialFailure : logged;
}

const char *statusName(FleetGcPlace::Status s)
{
    switch (s) {
    case FleetGcPlace::Status::Planned: return "planned";
    case FleetGcPlace::Status::Unreachable: return "unreachable";
    case FleetGcPlace::Status::NoPolicies: return "no-policies";
    }
    return "unreachable";
}

// One place of a fleet run in JSON: where, what became of it, its plan and (after a run) its result.
json fleetPlaceJson(const FleetGcPlace &p, bool dryRun, const MaintenanceReport *rep)
{
    json j = {{"place", u8(p.place.id)}, {"kind", fleetKindName(p.place.kind)}, {"shown", u8(p.place.shown())},
              {"origin", u8(p.place.origin)}, {"status", statusName(p.status)},
              {"error", p.error.isEmpty() ? json(nullptr) : json(u8(p.error))},
              {"plan", p.planned() ? planJson(p.plan, dryRun) : json(nullptr)}};
    if (rep)
        j["result"] = p.planned() && rep->refusal.isEmpty() ? reportJson(*rep) : json(nullptr);
    if (rep && !rep->refusal.isEmpty())
        j["error"] = u8(rep->refusal);
    return j;
}

void printPlaceHeading(const FleetGcPlace &p)
{
    out(QString());
    const QString shown = p.place.shown();
    out(shown == p.place.id ? QStringLiteral("== %1 ==").arg(shown) : QStringLiteral("== %1 (%2) ==").arg(shown, p.place.id));
    if (p.status == FleetGcPlace::Status::Unreachable)
        out(PolicyCliText::tr("not reached: %1").arg(p.error));
    else if (p.status == FleetGcPlace::Status::NoPolicies)
        out(PolicyCliText::tr("policies do not apply: %1").arg(p.error));
}

// The fleet preview in JSON (dry run, or no consent) or as text: each place's plan, then the total.
void printFleetPreview(const FleetGcPreview &preview, bool asJson, bool dryRun)
{
    if (asJson) {
        json places = json::array();
        for (const FleetGcPlace &p : preview.places)
            places.push_back(fleetPlaceJson(p, dryRun, nullptr));
        printJson({{"policy", u8(preview.policy.name)}, {"dry_run", dryRun}, {"places", places},
                   {"total", {{"entries", preview.entryCount()}, {"bytes", preview.bytes()}, {"places", preview.places.size()},
                              {"unreachable", preview.unreachable()}}}});
        return;
    }
    out(PolicyCliText::tr("Policy %1: %2").arg(preview.policy.name, preview.policy.summary()));
    for (const FleetGcPlace &p : preview.places) {
        printPlaceHeading(p);
        if (p.planned())
            printPlan(p.plan);
    }
    out(QString());
    // "%n place(s)" and "%n entries" are plurals of their own, each in its own message.
    out(PolicyCliText::tr("Total: %n entries, %1; %2 not reached.", nullptr, preview.entryCount())
            .arg(PolicyCliText::tr("%1 freed over %n place(s)", nullptr, int(preview.places.size())).arg(formatBytes(preview.bytes())))
            .arg(preview.unreachable()));
}

// The run's report: each place's outcome, then the total (JSON: one document with the plans and results).
void printFleetReport(const FleetGcPreview &preview, const GcRun &run, const QVector<MaintenanceReport> &reports, bool asJson)
{
    int removed = 0, skipped = 0, failed = 0;
    for (const GcPlaceResult &r : run.places) {
        removed += r.removed;
        skipped += r.skipped;
        failed += r.failed;
    }
    if (asJson) {
        json places = json::array();
        for (int i = 0; i < preview.places.size(); ++i) {
            json j = fleetPlaceJson(preview.places.at(i), false, &reports.at(i));
            j["reached"] = run.places.at(i).reached;
            if (!run.places.at(i).error.isEmpty())
                j["error"] = u8(run.places.at(i).error);
            places.push_back(j);
        }
        printJson({{"policy", u8(preview.policy.name)}, {"dry_run", false}, {"places", places},
                   {"total", {{"entries", preview.entryCount()}, {"bytes", preview.bytes()}, {"places", run.places.size()},
                              {"unreachable", run.unreachable()}, {"removed", removed}, {"skipped", skipped}, {"failed", failed},
                              {"freed", run.freedBytes()}}},
                   {"summary", u8(run.summary())}});
        return;
    }
    for (int i = 0; i < preview.places.size(); ++i) {
        const FleetGcPlace &p = preview.places.at(i);
        const GcPlaceResult &r = run.places.at(i);
        printPlaceHeading(p);
        if (!p.planned())
            continue;
        if (!r.error.isEmpty())
            err(PolicyCliText::tr("%1: %2").arg(r.reached ? PolicyCliText::tr("refused") : PolicyCliText::tr("not reached"), r.error));
        else if (!p.plan.items.isEmpty())
            printReport(p.plan, reports.at(i), false);
        else
            out(PolicyCliText::tr("Nothing to do."));
    }
    out(QString());
    out(PolicyCliText::tr("Total: %1 removed, %2 skipped, %3 failed; %4 freed on disk (%5).")
            .arg(removed).arg(skipped).arg(failed).arg(formatBytes(run.freedBytes()), run.summary()));
}

// The places --everywhere or --place names; Ok or the exit code (words printed).
int fleetTargets(const Invocation &inv, QVector<FleetPlace> *targets)
{
    if (inv.isSet(QStringLiteral("everywhere"))) {
        *targets = knownFleetPlaces();
        if (targets->isEmpty()) {
            err(PolicyCliText::tr("error: Ingot knows no cache yet (cache fleet lists the places)"));
            return CacheUnavailable;
        }
        return Ok;
    }
    for (const QString &spec : inv.values(QStringLiteral("place"))) {
        QString error;
        const std::optional<FleetPlace> p = fleetPlaceFor(spec, &error);
        if (!p) {
            err(PolicyCliText::tr("error: %1").arg(error));
            return Usage;
        }
        if (std::none_of(targets->cbegin(), targets->cend(), [&](const FleetPlace &t) { return t.id == p->id; }))
            *targets << *p;
    }
    return Ok;
}

// Exit code of a fleet run: 10 when a place was not reached (the others ran), else 1 when an entry failed or a
// place refused, else 0.
int fleetExit(const FleetGcPreview &preview, const GcRun &run)
{
    if (run.unreachable() > 0)
        return HostUnreachable;
    for (int i = 0; i < run.places.size(); ++i)
        if (preview.places.at(i).planned() && (run.places.at(i).failed > 0 || !run.places.at(i).error.isEmpty()))
            return PartialFailure;
    return Ok;
}

// `cache gc --policy NAME --everywhere | --place ID…`: every place previewed (a few at once), one consent for all, run
// place by place; a place not reached is said and the others still run.
int gcFleet(const Invocation &inv, const CachePolicy &policy, const QString &trigger)
{
    QVector<FleetPlace> targets;
    if (const int e = fleetTargets(inv, &targets))
        return e;
    const bool showProgress = !inv.json && stdinIsTerminal();
    const FleetProgressFn progress = [showProgress](int done, int total, const QString &cur) {
        if (showProgress)
            std::fprintf(stderr, "\r[%d/%d] %s\033[K", done, total, terminalSafe(cur).toUtf8().constData());
    };
    StopOnSignals signalsStop;
    const FleetGcPreview preview = previewFleetGc(policy, targets, QDateTime::currentMSecsSinceEpoch(), {}, progress, &stopRequested());
    if (showProgress)
        std::fprintf(stderr, "\r\033[K");
    for (const FleetGcPlace &p : preview.places)
        if (p.planned() && p.place.kind == FleetPlace::Kind::S3)
            AppSettings::addS3Cache(p.place.id);  // a place of the fleet from now on, as every cache command records it
    if (inv.isSet(QStringLiteral("dry-run"))) {
        printFleetPreview(preview, inv.json, true);
        if (!inv.json)
            out(PolicyCliText::tr("Dry run: nothing was changed."));
        const GcRun previewRun = preview.asDryRun(trigger);
        const int logged = logRun(inv, previewRun);
        return previewRun.unreachable() > 0 ? HostUnreachable : logged;
    }
    const bool nothing = preview.entryCount() == 0;
    if (nothing && !inv.json) {
        printFleetPreview(preview, false, false);
        out(PolicyCliText::tr("Nothing to do."));
        const GcRun run = applyFleetGc(preview, trigger);  // nothing removed: the run is logged as one that ran
        const int logged = logRun(inv, run);
        const int e = fleetExit(preview, run);
        return e != Ok ? e : logged;
    }
    if (!nothing && !inv.isSet(QStringLiteral("yes"))) {
        if (!stdinIsTerminal()) {
            printFleetPreview(preview, inv.json, true);
            err(PolicyCliText::tr("refused: not a terminal, so nothing is removed without --yes (or use --dry-run)."));
            return Refused;
        }
        printFleetPreview(preview, false, false);
        if (!confirm(PolicyCliText::tr("Remove %n entries (%1) in these places?", nullptr, preview.entryCount()).arg(formatBytes(preview.bytes())))) {
            err(PolicyCliText::tr("Nothing was changed."));
            return Ok;
        }
    } else if (!inv.json) {
        printFleetPreview(preview, false, false);
    }
    QVector<MaintenanceReport> reports;
    const GcRun run = applyFleetGc(preview, trigger, progress, &stopRequested(), &reports);
    if (showProgress)
        std::fprintf(stderr, "\r\033[K");
    printFleetReport(preview, run, reports, inv.json);
    const int logged = logRun(inv, run);
    const int e = fleetExit(preview, run);
    return e != Ok ? e : logged;
}

int cmdGc(const Invocation &inv)
{
    CachePolicy policy;
    const QString name = inv.value(QStringLiteral("policy"));
    if (name.isEmpty() || !findPolicy(name, &policy)) {
        err(name.isEmpty() ? PolicyCliText::tr("error: name the policy: --policy NAME (cache policy list)")
                           : PolicyCliText::tr("error: no policy %1 (cache policy list)").arg(displayName(name)));
        return Usage;
    }
    const QString trigger = triggerOf(inv);
    if (trigger.isEmpty()) {
        err(PolicyCliText::tr("error: --trigger takes cli or schedule, not \"%1\"").arg(displayName(inv.value(QStringLiteral("trigger")))));
        return Usage;
    }
    const bool fleet = inv.isSet(QStringLiteral("everywhere")) || inv.isSet(QStringLiteral("place"));
    if (fleet && (inv.isSet(QStringLiteral("everywhere")) == inv.isSet(QStringLiteral("place")) || !inv.cacheDir.isEmpty() || !inv.host.isEmpty())) {
        err(PolicyCliText::tr("error: give one of --everywhere, --place ID…, or --cache-dir / --host"));
        return Usage;
    }
    return fleet ? gcFleet(inv, policy, trigger) : gcOnePlace(inv, policy, trigger);
}
}  // namespace

QVector<Command> policyCommands()
{
    const QString g = QStringLiteral("cache");
    return {
        {g, QStringLiteral("policy"), PolicyCliText::tr("Named cache policies: list, set NAME (--max-size, --keep-versions, --unused-days, --failed, --locks), rm NAME"),
         JsonOption, policyOptions, cmdPolicy},
        {g, QStringLiteral("gc"), PolicyCliText::tr("Apply a named policy to a cache or to every place at once (previewed; never locked entries): --policy NAME [--everywhere | --place ID]"),
         JsonOption | CacheDirOption | HostOption, gcOptions, cmdGc},
    };
}

}  // namespace ingot::cli
