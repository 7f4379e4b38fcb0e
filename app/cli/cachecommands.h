// `ingot-cli cache ...`: the same services as the GUI's Local cache page.
#pragma once

#include "app/cli/commandtable.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachetypes.h"
#include "services/cache/maintenance.h"
#include "services/remote/remotehosts.h"
#include "services/s3/hosts3access.h"
#include "services/s3/s3cachestore.h"
#include "services/stores/storelocation.h"

#include <nlohmann/json.hpp>

namespace ingot {
class CacheStore;
}

namespace ingot::cli {

// The options every cache command shares (--cache-dir, --json, --host) and where the cache is.
struct Common {
    QString cacheDir;
    bool json = false;
    QString host;  // empty: this machine
    CacheLocation location;

    QString root() const { return cacheDir.isEmpty() ? location.path : cacheDir; }
    bool isS3() const { return root().startsWith(QLatin1String("s3://")); }
    StoreLocation store() const
    {
        if (isS3())  // with --host: read there by the host's AWS CLI, with the host's keys
            return {host.isEmpty() ? s3::s3StoreKind() : s3::hostS3StoreKind(), host, root()};
        return host.isEmpty() ? StoreLocation::local(root()) : sshStoreLocation(host, root());
    }
    // As people see it: the path, or host:path.
    QString shown() const { return store().display(); }
};

// Where the cache is: here, or as resolved on --host (after connecting). Returns an exit code (Ok to go on).
int commonOf(const Invocation &inv, Common *c);
// Resolves the folder and scans it. Returns an exit code (Ok to go on); errors are printed.
int scan(const Common &c, CacheSnapshot *snap);
nlohmann::json moduleJson(const CacheModule &m, bool withFiles);
// A maintenance plan as every removal command shows it, asks for consent, runs and reports it (cache prune, rm, gc).
nlohmann::json planJson(const MaintenancePlan &plan, bool dryRun);
void printPlan(const MaintenancePlan &plan);
// Ok to go on and run the plan; otherwise the exit code (a dry run, a refusal, nothing to do, no consent).
int confirmPlan(const MaintenancePlan &plan, const Invocation &p, bool *stop);
// What a run did ("done", "skipped", "failed", "freed", each entry's "outcomes"): the "result" of a report in JSON.
nlohmann::json reportJson(const MaintenanceReport &rep);
void printReport(const MaintenancePlan &plan, const MaintenanceReport &rep, bool asJson);
int runPlan(CacheStore &store, const MaintenancePlan &plan, bool asJson);

// The rows of the cache group (list, status, prune, clean-failed, clear-locks, remove-versions, sample, show, explain).
QVector<Command> cacheCommands();

}  // namespace ingot::cli
