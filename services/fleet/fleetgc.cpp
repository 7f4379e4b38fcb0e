#include "services/fleet/fleetgc.h"

#include "services/cache/cachescanner.h"
#include "services/stores/storefactory.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

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

// The places of one preview, read on a few threads at once. Each place has its own stop flag, raised when the caller
// cancels or when the place ran past its limit; the calling thread watches the clock and reports progress.
class PreviewRun
{
public:
    PreviewRun(const CachePolicy &policy, const QVector<FleetPlace> &places, qint64 now, const FleetGcOptions &options)
        : m_policy(policy), m_places(places), m_now(now), m_options(options), m_slots(size_t(places.size()))
    {
    }

    QVector<FleetGcPlace> run(const FleetProgressFn &progress, const std::atomic_bool *cancel)
    {
        const int total = int(m_places.size());
        QVector<FleetGcPlace> out(total);
        if (progress)
            progress(0, total, QString());
        const int threads = std::max(1, std::min(m_options.parallel, total));
        std::vector<std::thread> workers;
        for (int i = 0; i < threads; ++i)
            workers.emplace_back([this, &out, total] { work(out, total); });
        int reported = 0;
        std::unique_lock<std::mutex> lock(m_mutex);
        while (reported < total) {
            m_changed.wait_for(lock, std::chrono::milliseconds(100));
            const qint64 t = nowMs();
            for (Slot &s : m_slots) {
                if (s.started > 0 && !s.finished && (t - s.started > m_options.placeTimeoutMs || (cancel && cancel->load()))) {
                    s.timedOut = !(cancel && cancel->load());
                    s.stop = true;
                }
            }
            if (cancel && cancel->load())
                m_cancelled = true;  // places not started yet are not started
            for (; reported < total && m_slots[size_t(reported)].finished; ++reported) {
                if (progress) {
                    const QString shown = out[reported].place.shown();
                    lock.unlock();
                    progress(reported + 1, total, shown);
                    lock.lock();
                }
            }
        }
        lock.unlock();
        for (std::thread &w : workers)
            w.join();
        return out;
    }

private:
    struct Slot {
        std::atomic_bool stop{false};
        qint64 started = 0;
        bool finished = false;
        bool timedOut = false;
    };

    void work(QVector<FleetGcPlace> &out, int total)
    {
        for (;;) {
            const int i = m_next.fetch_add(1);
            if (i >= total)
                return;
            Slot &s = m_slots[size_t(i)];
            bool skip = false;
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                s.started = nowMs();
                skip = m_cancelled;
            }
            FleetGcPlace r;
            if (skip) {
                r.place = m_places.at(i);
                r.error = FleetGcText::tr("cancelled");
            } else {
                r = previewPlace(m_places.at(i), m_policy, m_now, &s.stop);
            }
            std::lock_guard<std::mutex> lock(m_mutex);
            if (s.stop && r.status == FleetGcPlace::Status::Planned)
                r.status = FleetGcPlace::Status::Unreachable;
            if (s.stop && r.status == FleetGcPlace::Status::Unreachable) {
                r.plan = MaintenancePlan{};
                r.error = s.timedOut ? FleetGcText::tr("no answer in %n seconds", nullptr, int(m_options.placeTimeoutMs / 1000))
                                     : FleetGcText::tr("cancelled");
            }
            out[i] = std::move(r);
            s.finished = true;
            m_changed.notify_all();
        }
    }

    const CachePolicy &m_policy;
    const QVector<FleetPlace> &m_places;
    const qint64 m_now;
    const FleetGcOptions m_options;
    std::vector<Slot> m_slots;
    std::atomic_int m_next{0};
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_cancelled = false;
};

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
    preview.places = PreviewRun(policy, places, now, options).run(progress, cancel);
    return preview;
}

GcRun applyFleetGc(const FleetGcPreview &preview, const QString &trigger, const FleetProgressFn &progress,
                   const std::atomic_bool *cancel, QVector<MaintenanceReport> *reports)
{
    GcRun run;
    run.startedMs = nowMs();
    run.policy = preview.policy.name;
    run.trigger = trigger;
    const int total = int(preview.places.size());
    int index = 0;
    for (const FleetGcPlace &p : preview.places) {
        GcPlaceResult res = placeResult(p);
        MaintenanceReport rep;
        if (progress)
            progress(index, total, p.place.shown());
        ++index;
        if (p.planned() && p.plan.refusal.isEmpty() && !p.plan.items.isEmpty()) {
            QString error;
            const std::unique_ptr<CacheStore> store = makeStore(p.place.store, &error);
            if (cancel && cancel->load()) {
                res.error = FleetGcText::tr("cancelled before this place");
            } else if (!store || !store->open(&error)) {
                res.reached = false;  // it answered the preview and not now
                res.error = error;
            } else {
                rep = executePlan(*store, p.plan, {}, cancel);
                res.error = rep.refusal;
                res.removed = removedItems(p.plan, rep);
                res.skipped = rep.skipped;
                res.failed = rep.failed;
                res.freedBytes = rep.freed;
                if (rep.cancelled && res.error.isEmpty())
                    res.error = FleetGcText::tr("cancelled");
            }
        }
        if (reports)
            reports->push_back(rep);
        run.places << res;
    }
    if (progress)
        progress(total, total, QString());
    run.finishedMs = nowMs();
    return run;
}

}  // namespace ingot
