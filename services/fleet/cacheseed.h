// Bringing compiled graphs first (issue 39): before a job starts, the graphs the last run with the same settings used
// (priorgraphs.h names them) are looked for in the places the user chose (a folder, host:NAME, s3://…, hub:org/name:
// fleetplaces.h) and the ones the job's cache lacks are copied into it through the transfer engine
// (transferengine.h): an entry the cache has, in any state, is never overwritten; a FAILED or unfinished entry is
// never copied; each entry lands whole or not at all (the engines stage it). The launcher's *Bring compiled graphs
// first* and `ingot-cli job launch --seed-cache` both run it (services/neuron/launchseed.h).
#pragma once

#include "services/fleet/fleetplaces.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>

namespace ingot {

struct SeedRequest {
    // The graphs wanted: keys "neuronxcc-<ver>/MODULE_…", or a bare "MODULE_…" (a graph the last run compiled into a
    // cache that is not read now): then a place's newest entry of that name.
    QStringList keys;
    QVector<FleetPlace> places;  // looked in, in this order; a graph comes from the first that has it
    StoreLocation into;          // the job's cache, where the job runs ("local", "ssh", an S3 cache)
    bool dryRun = false;         // only look: what the cache has and where the rest is (each place's `found`)
};

struct SeedPlaceResult {
    QString place;   // its id
    int found = 0;   // graphs it had of those still missing when it was asked
    int copied = 0;
    QString error;   // it could not be asked (unreachable, not listed) or a copy failed: why
};

struct SeedResult {
    int wanted = 0;
    int present = 0;  // in the job's cache already, finished
    int blocked = 0;  // there but FAILED, LOCKED or unfinished: left as they are (they compile again, or are cleaned)
    int copied = 0;
    int failed = 0;   // found, but no copy of them landed
    int notFound = 0;
    QVector<SeedPlaceResult> places;
    QStringList notFoundKeys;
    QString error;  // the job's cache could not be read: nothing was copied
    bool stopped = false;

    // "38 graphs: 26 there already, 12 copied (12 from s3://team/cache), 0 not found".
    QString text() const;
    QJsonObject toJson() const;  // what JOB/seed.json keeps and `--json` prints
};

// Progress while entries are copied: `copied` of `toCopy` so far, from `place` (its id).
using SeedProgress = std::function<void(int copied, int toCopy, const QString &place)>;
// "Bringing compiled graphs: 12 of 38 copied from s3://…": the line a job's log and the launcher show.
QString seedProgressText(int copied, int toCopy, const QString &place);

// Blocking (network, SSH, disks): off the UI thread. `stop` ends it between entries (the one under way is left out
// whole).
SeedResult seedCache(const SeedRequest &request, const SeedProgress &progress, const std::atomic_bool *stop);

}  // namespace ingot
