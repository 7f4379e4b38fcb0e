// One named cache policy over many places at once (issue 39, "Policies"): previewed on each place (what each frees,
// the total), then applied place by place with the maintenance guarantees (maintenance.h: never a locked entry, never
// outside the root the preview scanned, each entry checked again right before it goes, a report of what went).
// `ingot-cli cache gc --policy NAME --everywhere`, the fleet page's "Preview policy on all places / Apply" and the
// scheduled run use these two functions. A place that cannot be reached is said with why and never stops the others.
#pragma once

#include "services/cache/cachepolicy.h"
#include "services/cache/maintenance.h"
#include "services/fleet/fleetplaces.h"
#include "services/fleet/gclog.h"

#include <QString>
#include <QVector>

#include <atomic>
#include <functional>

namespace ingot {

// One place's preview.
struct FleetGcPlace {
    enum class Status {
        Planned,       // reached and scanned: `plan` is what the policy removes there (possibly nothing)
        Unreachable,   // not reached, not scanned or not in time: `error` says why
        NoPolicies,    // policies do not apply to this kind of place (FleetPlace::takesPolicies): `error` says why
    };
    FleetPlace place;  // with its store filled once resolved (a host's cache as resolved there)
    Status status = Status::Unreachable;
    QString error;
    MaintenancePlan plan;  // planPolicy on the place's scan, plan.rootIdentity the root scanned
    int scanWarnings = 0;  // folders the scan could not read (kept: a policy never removes what it did not see)

    bool planned() const { return status == Status::Planned; }
};

struct FleetGcPreview {
    CachePolicy policy;
    qint64 nowMs = 0;
    QVector<FleetGcPlace> places;  // in the order the places were given

    int entryCount() const;  // entries the plans remove, over all places
    qint64 bytes() const;    // bytes the plans free, over all places
    int unreachable() const;
    // The preview as a dry run for the log: each place's planned entries and bytes, nothing removed.
    GcRun asDryRun(const QString &trigger) const;
};

struct FleetGcOptions {
    int parallel = 4;                 // places read at once (each scan uses its own threads)
    // One place's resolve and scan; past it the place is Unreachable ("no answer in …") and planned nothing. The scan
    // is stopped at its next step; a command already sent to a host ends by the store's own limits (the SSH store: 30 s
    // to connect, 10 minutes for the listing of a whole cache), so a host that hangs holds its thread that long at most.
    qint64 placeTimeoutMs = 120000;
};

// done/total over places, called on the calling thread as each place ends (in any order); `current` the place that
// just ended (FleetPlace::shown()).
using FleetProgressFn = std::function<void(int done, int total, const QString &current)>;

// Resolves and scans each place (a bounded number at once, each with its limit) and plans `policy` there at `nowMs`.
// Hub and TorchNeuron places are NoPolicies with why; a host that would ask for a password or a host key is
// Unreachable (its shared connection never asks). Blocking (the GUI calls it through runTask); `cancel` stops
// before the next place and ends the scans under way (their places Unreachable: "cancelled").
FleetGcPreview previewFleetGc(const CachePolicy &policy, const QVector<FleetPlace> &places, qint64 nowMs,
                              const FleetGcOptions &options = {}, const FleetProgressFn &progress = {},
                              const std::atomic_bool *cancel = nullptr);

// Runs each Planned place's plan with executePlan on a fresh store of the same location, each place on its own (a
// few places at once, options.parallel; no time limit: removals are not cut short): a root that is not the one
// previewed refuses there (as executePlan does), entries locked or changed since are kept. The outcome as one GcRun
// (started/finished now, not dry-run); `reports`, when given, receives each place's MaintenanceReport in the
// preview's order (empty for places not Planned). Blocking; `cancel` ends the places under way between entries and
// leaves the rest untouched.
GcRun applyFleetGc(const FleetGcPreview &preview, const QString &trigger, const FleetProgressFn &progress = {},
                   const std::atomic_bool *cancel = nullptr, QVector<MaintenanceReport> *reports = nullptr,
                   const FleetGcOptions &options = {});

}  // namespace ingot
