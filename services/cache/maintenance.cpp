#include "services/cache/maintenance.h"

#include "services/cache/cachefilter.h"
#include "services/cache/cachescanner.h"
#include "services/stores/cachestore.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

#include <algorithm>
#include <optional>

namespace ingot {

namespace {
// lupdate reads this context from the macro, so the .ts file and the lookups agree.
struct MaintenanceText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Maintenance)
};

qint64 cacheBytes(const QVector<CacheModule> &modules)
{
    qint64 total = 0;
    for (const auto &m : modules)
        total += m.size;
    return total;
}

QString lockedReason()
{
    return MaintenanceText::tr("LOCKED: a compile may be running on it; locked entries are never removed.");
}
}  // namespace

PlanKept keptItem(const CacheModule &m, const QString &reason)
{
    return {m.key(), reason, m.isModule() || m.kind == EntryKind::UnknownFile ? m.size : -1};
}

PlanItem removeItem(const CacheModule &m, const QString &reason)
{
    PlanItem it;
    it.op = PlanItem::Op::RemoveEntry;
    it.key = m.key();
    it.version = m.version;
    it.name = m.name;
    it.bytes = m.size;
    it.size = m.size;
    it.lastUsedMs = m.lastUsedMs;
    it.state = m.state;
    it.reason = reason;
    return it;
}

void finishPlan(MaintenancePlan &plan)
{
    plan.bytes = 0;
    for (const auto &it : plan.items)
        plan.bytes += it.bytes;
    plan.cacheBytesAfter = plan.cacheBytesBefore - plan.bytes;
}


const char *actionTitleSource(MaintenanceAction a)
{
    switch (a) {
    case MaintenanceAction::CleanFailed: return QT_TRANSLATE_NOOP("ingot::Maintenance", "Delete failed entries");
    case MaintenanceAction::ClearLocks: return QT_TRANSLATE_NOOP("ingot::Maintenance", "Clear stale locks");
    case MaintenanceAction::RemoveVersions: return QT_TRANSLATE_NOOP("ingot::Maintenance", "Remove other compiler versions");
    case MaintenanceAction::Prune: return QT_TRANSLATE_NOOP("ingot::Maintenance", "Prune by age and size");
    case MaintenanceAction::RemoveMatching: return QT_TRANSLATE_NOOP("ingot::Maintenance", "Remove matching entries");
    case MaintenanceAction::Policy: return QT_TRANSLATE_NOOP("ingot::Maintenance", "Apply a cache policy");
    }
    return "";
}

QString actionTitle(MaintenanceAction a)
{
    return MaintenanceText::tr(actionTitleSource(a));
}

int MaintenancePlan::entryCount() const
{
    int n = 0;
    for (const auto &it : items)
        if (it.op != PlanItem::Op::RemoveFolderIfEmpty)
            ++n;
    return n;
}

MaintenancePlan planCleanFailed(const QVector<CacheModule> &modules, const QStringList &onlyKeys)
{
    MaintenancePlan plan;
    plan.action = MaintenanceAction::CleanFailed;
    plan.cacheBytesBefore = cacheBytes(modules);
    const QSet<QString> only(onlyKeys.begin(), onlyKeys.end());
    for (const auto &m : modules) {
        if (!m.isModule() || (!only.isEmpty() && !only.contains(m.key())))
            continue;
        if (m.state == ModuleState::Failed)
            plan.items.append(removeItem(m, MaintenanceText::tr("%1: removing it lets the next run compile this graph again.").arg(stateText(ModuleState::Failed))));
        else if (!only.isEmpty())
            plan.kept.append(keptItem(m, MaintenanceText::tr("Not a failed entry (%1).").arg(stateText(m.state))));
    }
    finishPlan(plan);
    return plan;
}

MaintenancePlan planRemoveMatching(const QVector<CacheModule> &modules, const CacheFilter &filter, qint64 nowMs)
{
    MaintenancePlan plan;
    plan.action = MaintenanceAction::RemoveMatching;
    plan.cacheBytesBefore = cacheBytes(modules);
    plan.filter = filter.expressions();
    if (filter.isEmpty()) {
        plan.refusal = MaintenanceText::tr("No filter: name what goes (e.g. size>1GB, used>30d, state=failed); removing "
                                           "every entry is not maintenance.");
        finishPlan(plan);
        return plan;
    }
    const QString rule = plan.filter.join(QLatin1Char(' '));
    for (const auto &m : modules) {
        if (!filter.matches(m, nowMs))
            continue;
        if (m.state == ModuleState::Locked)
            plan.kept.append(keptItem(m, lockedReason()));
        else
            plan.items.append(removeItem(m, MaintenanceText::tr("Matches %1.").arg(rule)));
    }
    finishPlan(plan);
    return plan;
}

RunningCompilers queryRunningCompilers(CacheStore &store)
{
    RunningCompilers r;
    r.pids = store.runningCompilers(&r.error);
    return r;
}

qint64 parseLockAge(const QString &text)
{
    static const QList<QPair<QChar, qint64>> units{{u's', 1000}, {u'm', 60'000}, {u'h', 3'600'000}, {u'd', 86'400'000}};
    const QString t = text.trimmed();
    for (const auto &[unit, ms] : units) {
        if (t.size() < 2 || t.back() != unit)
            continue;
        const QString digits = t.chopped(1);
        if (digits.size() > 12 || !std::all_of(digits.cbegin(), digits.cend(), [](QChar c) { return c >= u'0' && c <= u'9'; }))
            return -1;
        const qint64 n = digits.toLongLong();
        return n > 0 && n <= 3650LL * 86'400'000 / ms ? n * ms : -1;  // ten years at most
    }
    return -1;
}

QString lockAgeText(qint64 ms)
{
    for (const auto &[unit, size] : {qMakePair('d', 86'400'000LL), qMakePair('h', 3'600'000LL), qMakePair('m', 60'000LL)})
        if (ms >= size && ms % size == 0)
            return QString::number(ms / size) + QLatin1Char(unit);
    return QString::number(ms / 1000) + QLatin1Char('s');
}

MaintenancePlan planClearLocks(const QVector<CacheModule> &modules, const RunningCompilers &compilers, qint64 olderThanMs,
                               qint64 nowMs)
{
    MaintenancePlan plan;
    plan.action = MaintenanceAction::ClearLocks;
    plan.cacheBytesBefore = cacheBytes(modules);
    plan.lockOlderThanMs = std::max<qint64>(0, olderThanMs);
    const bool cannotTell = !compilers.error.isEmpty();
    const qint64 cutoff = nowMs - plan.lockOlderThanMs;
    for (const auto &m : modules) {
        if (!m.isModule() || m.state != ModuleState::Locked)
            continue;
        if (cannotTell && plan.lockOlderThanMs == 0) {
            plan.kept.append(keptItem(m, MaintenanceText::tr("A compile may hold its locks, and that cannot be seen from here.")));
            continue;
        }
        PlanItem it;
        it.op = PlanItem::Op::RemoveLocks;
        it.key = m.key();
        it.version = m.version;
        it.name = m.name;
        it.state = m.state;
        it.size = m.size;  // shown; removing the locks frees (almost) nothing
        it.lastUsedMs = m.lastUsedMs;
        QStringList young;
        for (const auto &f : m.files) {
            if (!f.name.endsWith(QLatin1String(".lock")))
                continue;
            (plan.lockOlderThanMs > 0 && f.mtimeMs > cutoff ? young : it.files) << f.name;
        }
        if (it.files.isEmpty()) {
            plan.kept.append(keptItem(m, MaintenanceText::tr("Its locks (%1) are younger than %2: a compile may hold them.")
                                             .arg(young.join(QStringLiteral(", ")), lockAgeText(plan.lockOlderThanMs))));
            continue;
        }
        it.reason = MaintenanceText::tr("Lock files: %1").arg(it.files.join(QStringLiteral(", ")));
        plan.items.append(it);
    }
    if (cannotTell && plan.lockOlderThanMs == 0) {
        plan.refusal = compilers.error + QLatin1Char(' ')
                       + MaintenanceText::tr("Nothing can be cleared without an age: give one (ingot-cli cache clear-locks "
                                             "--older-than 2h), and locks older than it are taken as left by a compile that "
                                             "ended.");
    } else if (cannotTell) {
        plan.notes << MaintenanceText::tr("The rule: whether a compile runs cannot be seen from here, so a lock older than %1 "
                                          "is taken as left by a compile that ended, and a younger one as held.")
                          .arg(lockAgeText(plan.lockOlderThanMs));
    } else if (!compilers.pids.isEmpty()) {
        QStringList ids;
        for (auto p : compilers.pids)
            ids << QString::number(p);
        plan.refusal = MaintenanceText::tr("neuronx-cc is running (process %1), so these locks may belong to a live compile. "
                          "Wait for it to finish, then clear the locks.").arg(ids.join(QStringLiteral(", ")));
    } else if (plan.lockOlderThanMs > 0) {
        plan.notes << MaintenanceText::tr("Only locks older than %1 are cleared.").arg(lockAgeText(plan.lockOlderThanMs));
    }
    finishPlan(plan);
    return plan;
}

MaintenancePlan planRemoveVersions(const QVector<CacheModule> &modules, const QStringList &keepVersions)
{
    MaintenancePlan plan;
    plan.action = MaintenanceAction::RemoveVersions;
    plan.cacheBytesBefore = cacheBytes(modules);
    const QSet<QString> keep(keepVersions.begin(), keepVersions.end());
    QStringList versions;
    for (const auto &m : modules) {
        if (m.version.isEmpty() || keep.contains(m.version))
            continue;
        if (!versions.contains(m.version))
            versions << m.version;
        if (!m.isModule())
            plan.kept.append(keptItem(m, MaintenanceText::tr("Not written by the compiler; Ingot leaves it for you to remove by hand.")));
        else if (m.state == ModuleState::Locked)
            plan.kept.append(keptItem(m, lockedReason()));
        else
            plan.items.append(removeItem(m, MaintenanceText::tr("Compiler version %1 is not kept.").arg(m.version)));
    }
    for (const QString &v : std::as_const(versions)) {
        PlanItem it;
        it.op = PlanItem::Op::RemoveFolderIfEmpty;
        it.key = v;
        it.name = v;
        it.reason = MaintenanceText::tr("The version folder, once it is empty.");
        plan.items.append(it);
    }
    finishPlan(plan);
    return plan;
}

MaintenancePlan planPrune(const QVector<CacheModule> &modules, const PruneOptions &o)
{
    MaintenancePlan plan;
    plan.action = MaintenanceAction::Prune;
    plan.cacheBytesBefore = cacheBytes(modules);
    const qint64 ttlMs = qint64(o.ttlDays) * 86400000;
    const qint64 cutoff = o.nowMs - ttlMs;
    QVector<const CacheModule *> candidates;
    qint64 remaining = plan.cacheBytesBefore;
    for (const auto &m : modules) {
        if (!m.isModule())
            continue;
        if (m.state == ModuleState::Locked) {
            const bool wouldGo = (o.ttlDays > 0 && m.lastUsedMs < cutoff) || o.ttlDays == 0;
            if (wouldGo)
                plan.kept.append(keptItem(m, lockedReason()));
            continue;
        }
        if (o.ttlDays > 0 && m.lastUsedMs < cutoff) {
            plan.items.append(removeItem(m, MaintenanceText::tr("Unused for %n days (TTL %1 days).", nullptr, int((o.nowMs - m.lastUsedMs) / 86400000))
                                                .arg(o.ttlDays)));
            remaining -= m.size;
        } else if (o.ttlDays == 0) {
            candidates.append(&m);
        }
    }
    if (o.maxBytes > 0 && remaining > o.maxBytes) {
        // Least recently used first; only entries outside the TTL window are candidates.
        std::sort(candidates.begin(), candidates.end(),
                  [](const CacheModule *a, const CacheModule *b) { return a->lastUsedMs < b->lastUsedMs; });
        for (const CacheModule *m : std::as_const(candidates)) {
            if (remaining <= o.maxBytes)
                break;
            plan.items.append(removeItem(*m, MaintenanceText::tr("Least recently used while the cache is over %1.").arg(formatBytes(o.maxBytes))));
            remaining -= m->size;
        }
        if (remaining > o.maxBytes)
            plan.notes << (o.ttlDays > 0
                               ? MaintenanceText::tr("The cache stays over the %1 limit (%2 after pruning): the remaining entries were "
                                    "used within the last %3 days and are kept.")
                                     .arg(formatBytes(o.maxBytes), formatBytes(remaining))
                                     .arg(o.ttlDays)
                               : MaintenanceText::tr("The cache stays over the %1 limit (%2 after pruning): only locked entries and "
                                    "unknown files remain.")
                                     .arg(formatBytes(o.maxBytes), formatBytes(remaining)));
    }
    finishPlan(plan);
    return plan;
}

namespace {
// The lock files of an entry as it is now (older than the cutoff, when the plan has an age).
ItemOutcome removeLocks(CacheStore &store, const QString &key, const CacheModule &now, qint64 olderThanMs, qint64 cutoffMs)
{
    qint64 freed = 0;
    QStringList failures;
    int removed = 0, young = 0;
    QString error;
    for (const CacheFile &f : now.files) {
        if (!f.name.endsWith(QLatin1String(".lock")) || f.is(CacheFile::Directory))
            continue;
        if (olderThanMs > 0 && f.mtimeMs > cutoffMs && ++young)
            continue;  // written again since the preview, or too young: a compile may hold it
        if (store.remove(key + QLatin1Char('/') + f.name, &freed, &error))
            ++removed;
        else
            failures << error;
    }
    using R = ItemOutcome::Result;
    if (!failures.isEmpty())
        return {key, R::Failed, freed, failures.join(QLatin1Char(' '))};
    if (removed == 0 && young > 0)
        return {key, R::Skipped, 0, MaintenanceText::tr("Kept: its locks are younger than %1 now.").arg(lockAgeText(olderThanMs))};
    if (removed == 0)
        return {key, R::Skipped, 0, MaintenanceText::tr("No lock left: the compile finished since the preview.")};
    return {key, R::Done, freed, MaintenanceText::tr("Removed %n lock files.", nullptr, removed)};
}
}  // namespace

namespace {
// Why the plan must not run now (checked again right before it does); empty when it may.
QString refusalNow(CacheStore &store, const MaintenancePlan &plan)
{
    QString error;
    if (!plan.refusal.isEmpty())
        return plan.refusal;
    if (!store.open(&error))
        return error;
    if (!plan.rootIdentity.isEmpty() && store.rootIdentity() != plan.rootIdentity)
        return MaintenanceText::tr("%1 is no longer the folder that was previewed (it was replaced, or a link on its "
                                   "path now points elsewhere). Nothing was changed: look again and preview anew.")
            .arg(store.displayRoot());
    if (plan.action == MaintenanceAction::ClearLocks) {
        // Checked again now: a compile may have started since the preview. Where it cannot be seen, the age rule alone.
        QString perr;
        const auto pids = store.runningCompilers(&perr);
        if ((!perr.isEmpty() && plan.lockOlderThanMs == 0) || !pids.isEmpty())
            return !perr.isEmpty() ? perr : MaintenanceText::tr("neuronx-cc started running since the preview; nothing was changed.");
    }
    return {};
}

// A folder of the plan removed if it is still empty; nothing to say when it vanished meanwhile.
std::optional<ItemOutcome> removeFolderIfEmpty(CacheStore &store, const QString &key)
{
    using R = ItemOutcome::Result;
    const ListResult lr = store.list(key);
    if (!lr.ok) {
        if (!lr.vanished)
            return ItemOutcome{key, R::Failed, 0, lr.error};
        return std::nullopt;
    }
    if (!lr.entries.isEmpty())
        return ItemOutcome{key, R::Skipped, 0, MaintenanceText::tr("Kept: the folder still holds %n entries.", nullptr, int(lr.entries.size()))};
    qint64 freed = 0;
    QString error;
    if (store.remove(key, &freed, &error))
        return ItemOutcome{key, R::Done, freed, MaintenanceText::tr("Removed the empty folder.")};
    return ItemOutcome{key, R::Failed, 0, error};
}

// One item of the plan, the entry looked at again right before it is touched.
std::optional<ItemOutcome> executeItem(CacheStore &store, CacheScanner &scanner, const MaintenancePlan &plan, const PlanItem &it,
                                       qint64 lockCutoff, bool locksAllowed)
{
    using R = ItemOutcome::Result;
    if (it.op == PlanItem::Op::RemoveLocks && !locksAllowed)
        return ItemOutcome{it.key, R::Skipped, 0, MaintenanceText::tr("Skipped: neuronx-cc started running since the preview; its locks stay.")};
    if (it.op == PlanItem::Op::RemoveFolderIfEmpty)
        return removeFolderIfEmpty(store, it.key);
    QString error;
    bool vanished = false;
    const CacheModule now = scanner.scanModule(it.version, it.name, &vanished, &error);
    if (vanished)
        // Gone already (another run, or the same shared folder reached as another place): what was asked holds, and
        // nothing failed; it freed nothing here.
        return ItemOutcome{it.key, R::Skipped, 0, MaintenanceText::tr("Skipped: the entry vanished since the preview (removed by something else).")};
    if (!error.isEmpty() && now.name.isEmpty())
        return ItemOutcome{it.key, R::Failed, 0, error};
    if (it.op == PlanItem::Op::RemoveLocks)
        return removeLocks(store, it.key, now, plan.lockOlderThanMs, lockCutoff);
    if (now.state == ModuleState::Locked)
        return ItemOutcome{it.key, R::Skipped, 0, MaintenanceText::tr("Skipped: the entry is locked now (a compile started).")};
    if (plan.action == MaintenanceAction::CleanFailed && now.state != ModuleState::Failed)
        return ItemOutcome{it.key, R::Skipped, 0,
                           MaintenanceText::tr("Skipped: the entry is %1 now, no longer %2.").arg(stateText(now.state), stateText(ModuleState::Failed))};
    if (plan.action == MaintenanceAction::Prune && now.lastUsedMs > it.lastUsedMs)
        return ItemOutcome{it.key, R::Skipped, 0, MaintenanceText::tr("Skipped: the entry was used since the preview.")};
    if (plan.action == MaintenanceAction::Policy && now.state != it.state)
        return ItemOutcome{it.key, R::Skipped, 0,
                           MaintenanceText::tr("Skipped: the entry is %1 now, no longer %2.").arg(stateText(now.state), stateText(it.state))};
    if (plan.action == MaintenanceAction::Policy && now.lastUsedMs > it.lastUsedMs)
        return ItemOutcome{it.key, R::Skipped, 0, MaintenanceText::tr("Skipped: the entry was used since the preview.")};
    if (plan.action == MaintenanceAction::RemoveMatching) {
        CacheFilter filter;
        QString why;
        if (!CacheFilter::parse(plan.filter, &filter, &why) || filter.isEmpty()
            || !filter.matches(now, QDateTime::currentMSecsSinceEpoch()))
            return ItemOutcome{it.key, R::Skipped, 0,
                               MaintenanceText::tr("Skipped: the entry no longer matches %1.").arg(plan.filter.join(QLatin1Char(' ')))};
    }
    qint64 freed = 0;
    switch (store.removeEntry(it.key, &freed, &error)) {
    case CacheStore::RemoveResult::Removed:
        return ItemOutcome{it.key, R::Done, freed, MaintenanceText::tr("Removed.")};
    case CacheStore::RemoveResult::Locked:
        return ItemOutcome{it.key, R::Skipped, 0, MaintenanceText::tr("Skipped: the entry is locked now (a compile started).")};
    case CacheStore::RemoveResult::Failed:
        break;
    }
    return ItemOutcome{it.key, R::Failed, freed, error};
}
}  // namespace

MaintenanceReport executePlan(CacheStore &store, const MaintenancePlan &plan, const ProgressFn &progress,
                              const std::atomic_bool *cancel)
{
    MaintenanceReport rep;
    rep.refusal = refusalNow(store, plan);
    if (!rep.refusal.isEmpty())
        return rep;
    const qint64 lockCutoff = QDateTime::currentMSecsSinceEpoch() - plan.lockOlderThanMs;
    // A policy's lock files go only while no compile can be seen to run (asked again now), or by their age where
    // compiles cannot be seen; its entries go either way.
    bool locksAllowed = true;
    if (plan.action == MaintenanceAction::Policy
        && std::any_of(plan.items.cbegin(), plan.items.cend(), [](const PlanItem &i) { return i.op == PlanItem::Op::RemoveLocks; })) {
        QString perr;
        const auto pids = store.runningCompilers(&perr);
        locksAllowed = pids.isEmpty() && (perr.isEmpty() || plan.lockOlderThanMs > 0);
    }
    CacheScanner scanner(store);
    const int total = int(plan.items.size());
    int index = 0;
    for (const PlanItem &it : plan.items) {
        if (cancel && cancel->load()) {
            rep.cancelled = true;
            break;
        }
        if (progress)
            progress(index, total, it.key);
        ++index;
        const std::optional<ItemOutcome> o = executeItem(store, scanner, plan, it, lockCutoff, locksAllowed);
        if (!o)
            continue;
        rep.outcomes.append(*o);
        switch (o->result) {
        case ItemOutcome::Result::Done: ++rep.done; break;
        case ItemOutcome::Result::Skipped: ++rep.skipped; break;
        case ItemOutcome::Result::Failed: ++rep.failed; break;
        }
        rep.freed += o->freed;
    }
    if (progress)
        progress(index, total, QString());
    return rep;
}

}  // namespace ingot
