// Cache maintenance: every action is planned first by a pure planner (a dry run listing what goes and the bytes freed), then
// executed. Execution re-checks each entry right before touching it and never removes a LOCKED entry.
#pragma once

#include "services/cache/cachetypes.h"

#include <atomic>
#include <functional>

namespace ingot {

class CacheStore;

enum class MaintenanceAction { CleanFailed, ClearLocks, RemoveVersions, Prune, RemoveMatching, Policy };
// The action's title in English, for JSON and scripts; actionTitle() is the same title translated, for people.
const char *actionTitleSource(MaintenanceAction a);
QString actionTitle(MaintenanceAction a);

struct PruneOptions {
    int ttlDays = 30;                             // 0: no TTL (nothing expires, nothing is protected)
    qint64 maxBytes = qint64(100) * 1000 * 1000 * 1000;  // 0: no size limit
    qint64 nowMs = 0;
};

struct PlanItem {
    enum class Op { RemoveEntry, RemoveLocks, RemoveFolderIfEmpty };
    Op op = Op::RemoveEntry;
    QString key;
    QString version;
    QString name;
    QStringList files;  // RemoveLocks: the lock files seen in the preview
    qint64 bytes = 0;   // what the item frees (0 for lock files and empty folders)
    qint64 size = 0;    // the entry's size, as the preview shows it (a locked entry's too)
    qint64 lastUsedMs = 0;
    ModuleState state = ModuleState::Empty;
    QString reason;
};

struct PlanKept {
    QString key;
    QString reason;
    qint64 size = -1;  // the entry's size; -1 where unknown (a folder that is not a module)
};

struct MaintenancePlan {
    MaintenanceAction action = MaintenanceAction::CleanFailed;
    QVector<PlanItem> items;
    QVector<PlanKept> kept;  // entries the action would otherwise touch, and why they stay
    qint64 bytes = 0;
    qint64 cacheBytesBefore = 0;
    qint64 cacheBytesAfter = 0;
    QString refusal;  // the action cannot run at all, and why
    QStringList notes;
    // Clear-locks with an age: only lock files older than this (at the time each is removed) go; 0: no age rule.
    qint64 lockOlderThanMs = 0;
    // Remove-matching: the filter expressions (CacheFilter) each entry must still match right before it goes.
    QStringList filter;
    // The root the preview was made on (CacheSnapshot::rootIdentity): a plan runs only on that very folder.
    QString rootIdentity;
    int entryCount() const;  // items that remove something (not empty-folder clean-ups)
};

struct ItemOutcome {
    enum class Result { Done, Skipped, Failed };
    QString key;
    Result result = Result::Done;
    qint64 freed = 0;
    QString message;
};

struct MaintenanceReport {
    QVector<ItemOutcome> outcomes;
    int done = 0, skipped = 0, failed = 0;
    qint64 freed = 0;  // bytes freed on disk
    bool cancelled = false;
    QString refusal;
};

// The pieces every planner makes its plan of: an entry that goes (its size, last use and state as the preview saw
// them, which the run checks again), one that stays and why, and the totals once the items are in.
PlanItem removeItem(const CacheModule &m, const QString &reason);
PlanKept keptItem(const CacheModule &m, const QString &reason);
void finishPlan(MaintenancePlan &plan);

MaintenancePlan planCleanFailed(const QVector<CacheModule> &modules, const QStringList &onlyKeys = {});
// The neuronx-cc processes running where a cache is, asked of its store (I/O: off the UI thread). Planners take
// this value, never a store, so every planner is a pure function of what it is given.
struct RunningCompilers {
    QVector<qint64> pids;
    QString error;  // set when the store cannot tell
};
RunningCompilers queryRunningCompilers(CacheStore &store);

// Lock files of LOCKED entries. Where the store can tell, only while no neuronx-cc runs there. Where it cannot (an S3
// cache: a compile on any machine may hold its locks), only with an age: lock files older than `olderThanMs` (at
// `nowMs`) are taken as left by a compile that ended and cleared, younger ones are kept, and the rule is said in the
// plan's notes; with no age, nothing is planned and the refusal says why. An age given where the store can tell
// narrows the locks cleared the same way.
MaintenancePlan planClearLocks(const QVector<CacheModule> &modules, const RunningCompilers &compilers,
                               qint64 olderThanMs = 0, qint64 nowMs = 0);
// A lock age as written after --older-than: a whole number and a unit, s, m, h or d ("90m", "2h", "7d"); -1 for
// anything else. lockAgeText() writes it back the same way.
qint64 parseLockAge(const QString &text);
QString lockAgeText(qint64 ms);
MaintenancePlan planRemoveVersions(const QVector<CacheModule> &modules, const QStringList &keepVersions);
MaintenancePlan planPrune(const QVector<CacheModule> &modules, const PruneOptions &options);
class CacheFilter;
// The entries `filter` selects at `nowMs` (`cache rm --filter`, the cache page's Remove matching): LOCKED ones are
// kept and said; an empty filter plans nothing and says why (removing everything is `rm -r`, not maintenance).
MaintenancePlan planRemoveMatching(const QVector<CacheModule> &modules, const CacheFilter &filter, qint64 nowMs);

using ProgressFn = std::function<void(int done, int total, const QString &current)>;
MaintenanceReport executePlan(CacheStore &store, const MaintenancePlan &plan, const ProgressFn &progress = {},
                              const std::atomic_bool *cancel = nullptr);

}  // namespace ingot
