#include "services/fleet/fleetgc.h"

#include "services/fleet/placeturns.h"

#include "services/cache/cachescanner.h"
#include "services/stores/storefactory.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

#include <memory>

namespace ingot {

namespace {

struct FleetGcText {
    Q_DECLARE_TR_FUNCTIONS(ingot::FleetGc)
};

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// One place read and planned: resolved (a host's cache as resolved there), scanned whole, the policy planned on what
// the scan saw. `cancel` ends the scan; a cancelled scan plans nothing (a partial listing would misjudge sizes).
FleetGcPlace previewPlace(const FleetPlace &place, const CachePolicy &policy, qint64 now, const std::atomic_bool *cancel)
{
    FleetGcPlace r;
    r.place = place;
    QString why;
    if (!place.takesPolicies(&why)) {
        r.status = FleetGcPlace::Status::NoPolicies;
        r.error = why;
        return r;
    }
    if (!resolvePlace(&r.place, &r.error))
        return r;
    const std::unique_ptr<CacheStore> store = makeStore(r.place.store, &r.error);
    if (!store)
        return r;
    ScanStats stats;
    const CacheSnapshot snap = CacheScanner(*store).scan(nullptr, {}, cancel, &stats);
    if (stats.cancelled || (cancel && cancel->load()))
        return r;  // the caller says why (cancelled, or no answer in time)
    if (!snap.fatalError.isEmpty()) {
        r.error = snap.fatalError;
        return r;
    }
    const RunningCompilers compilers = policy.clearLocks ? queryRunningCompilers(*store) : RunningCompilers{};
    r.plan = planPolicy(snap.modules, policy, compilers, now);
    r.plan.rootIdentity = snap.rootIdentity;  // the plan runs only on the folder that was scanned
    r.scanWarnings = int(snap.warnings.size());
    r.status = FleetGcPlace::Status::Planned;
    return r;
}

// What the preview of one place says in the log: planned entries and bytes, reached or why not.
GcPlaceResult placeResult(const FleetGcPlace &p)
{
    GcPlaceResult r;
    r.place = p.place.id;
    r.kind = QString::fromLatin1(fleetKindName(p.place.kind));
    r.shown = p.place.shown();
    r.reached = p.status != FleetGcPlace::Status::Unreachable;
    r.error = p.status == FleetGcPlace::Status::Planned ? p.plan.refusal : p.error;
    if (p.planned()) {
        r.planned = p.plan.entryCount();
        r.plannedBytes = p.plan.bytes;
    }
    return r;
}

// How many of the plan's items that remove something went (empty folders tidied after them are not counted).
int removedItems(const MaintenancePlan &plan, const MaintenanceReport &rep)
{
    QSet<QString> counted;
    for (const PlanItem &it : plan.items)
        if (it.op != PlanItem::Op::RemoveFolderIfEmpty)
            counted.insert(it.key);
    int n = 0;
    for (const ItemOutcome &o : rep.outcomes)
        if (o.result == ItemOutcome::Result::Done && counted.contains(o.key))
            ++n;
    return n;
}

// One place's plan run on a fresh store of the same location (executePlan checks that the root is still the one
// previewed, and each entry again right before it goes); `stop` ends it between entries.
void applyPlace(const FleetGcPlace &p, const std::atomic_bool *stop, GcPlaceResult *res, MaintenanceReport *rep)
{
    if (!p.planned() || !p.plan.refusal.isEmpty() || p.plan.items.isEmpty())
        return;
    QString error;
    const std::unique_ptr<CacheStore> store = makeStore(p.place.store, &error);
    if (!store || !store->open(&error)) {
        res->reached = false;  // it answered the preview and not now
        res->error = error;
        return;
    }
    *rep = executePlan(*store, p.plan, {}, stop);
    res->error = rep->refusal;
    res->removed = removedItems(p.plan, *rep);
    res->skipped = rep->skipped;
    res->failed = rep->failed;
    res->freedBytes = rep->freed;
    if (rep->cancelled && res->error.isEmpty())
        res->error = FleetGcText::tr("cancelled");
}

// One cache reached under two names (a link to a folder added too, the Neuron default added on the Local cache page
// by another path) is planned once, under its first name: run twice, the second run would find its entries gone.
void planEachCacheOnce(FleetGcPreview &preview)
{
    QHash<QString, int> first;
    for (int i = 0; i < preview.places.size(); ++i) {
        FleetGcPlace &p = preview.places[i];
        if (!p.planned() || p.plan.rootIdentity.isEmpty())
            continue;
        const auto it = first.constFind(p.plan.rootIdentity);
        if (it == first.constEnd()) {
            first.insert(p.plan.rootIdentity, i);
            continue;
        }
        MaintenancePlan same;
        same.action = MaintenanceAction::Policy;
        same.rootIdentity = p.plan.rootIdentity;
        same.notes << FleetGcText::tr("The same cache as %1: planned there.").arg(preview.places.at(*it).place.shown());
        p.plan = same;
    }
}

}  // namespace

int FleetGcPreview::entryCount() const
{
    int n = 0;
    for (const FleetGcPlace &p : places)
        if (p.planned())
            n += p.plan.entryCount();
    return n;
}

qint64 FleetGcPreview::bytes() const
{
    qint64 n = 0;
    for (const FleetGcPlace &p : places)
        if (p.planned())
            n += p.plan.bytes;
    return n;
}

int FleetGcPreview::unreachable() const
{
    return int(std::count_if(places.cbegin(), places.cend(),
                             [](const FleetGcPlace &p) { return p.status == FleetGcPlace::Status::Unreachable; }));
}

GcRun FleetGcPreview::asDryRun(const QString &trigger) const
{
    GcRun run;
    run.startedMs = nowMs;
    run.finishedMs = QDateTime::currentMSecsSinceEpoch();
    run.policy = policy.name;
    run.trigger = trigger;
    run.dryRun = true;
    for (const FleetGcPlace &p : places)
        run.places << placeResult(p);
    return run;
}

FleetGcPreview previewFleetGc(const CachePolicy &policy, const QVector<FleetPlace> &places, qint64 now,
                              const FleetGcOptions &options, const FleetProgressFn &progress, const std::atomic_bool *cancel)
{
    FleetGcPreview preview;
    preview.policy = policy;
    preview.nowMs = now;
    const int total = int(places.size());
    preview.places.resize(total);
    if (progress)
        progress(0, total, QString());
    int done = 0;
    forEachPlace(
        total, options.parallel, options.placeTimeoutMs, cancel,
        [&](int i, const std::atomic_bool *stop) { preview.places[i] = previewPlace(places.at(i), policy, now, stop); },
        [&](int i, const TurnEnd &how) {
            FleetGcPlace &p = preview.places[i];
            if (how.skipped || ((how.timedOut || how.cancelled) && p.status != FleetGcPlace::Status::NoPolicies)) {
                if (p.place.id.isEmpty())  // skipped: never looked at
                    p.place = places.at(i);
                p.status = FleetGcPlace::Status::Unreachable;
                p.plan = MaintenancePlan{};  // a listing cut short would misjudge what goes
                p.error = how.timedOut ? FleetGcText::tr("no answer in %n seconds", nullptr, int(options.placeTimeoutMs / 1000))
                                       : FleetGcText::tr("cancelled");
            }
            if (progress)
                progress(++done, total, p.place.shown());
        });
    planEachCacheOnce(preview);
    return preview;
}

GcRun applyFleetGc(const FleetGcPreview &preview, const QString &trigger, const FleetProgressFn &progress,
                   const std::atomic_bool *cancel, QVector<MaintenanceReport> *reports, const FleetGcOptions &options)
{
    GcRun run;
    run.startedMs = nowMs();
    run.policy = preview.policy.name;
    run.trigger = trigger;
    const int total = int(preview.places.size());
    QVector<MaintenanceReport> reps(total);
    for (const FleetGcPlace &p : preview.places)
        run.places << placeResult(p);
    if (progress)
        progress(0, total, QString());
    int done = 0;
    forEachPlace(
        total, options.parallel, 0, cancel,
        [&](int i, const std::atomic_bool *stop) { applyPlace(preview.places.at(i), stop, &run.places[i], &reps[i]); },
        [&](int i, const TurnEnd &how) {
            if (how.skipped && preview.places.at(i).planned() && !preview.places.at(i).plan.items.isEmpty())
                run.places[i].error = FleetGcText::tr("cancelled before this place");
            if (progress)
                progress(++done, total, preview.places.at(i).place.shown());
        });
    if (reports)
        *reports = reps;
    run.finishedMs = nowMs();
    return run;
}

}  // namespace ingot
