#include "services/cache/cachepolicy.h"

#include "services/cache/compilerversion.h"
#include "services/util/appsettings.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace ingot {

namespace {

struct PolicyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::CachePolicy)
};

constexpr qint64 kDayMs = 86'400'000;

qint64 totalBytes(const QVector<CacheModule> &modules)
{
    qint64 n = 0;
    for (const CacheModule &m : modules)
        n += m.size;
    return n;
}

}  // namespace

QString CachePolicy::summary() const
{
    QStringList parts;
    if (maxBytes > 0)
        parts << PolicyText::tr("at most %1").arg(formatBytes(maxBytes));
    if (keepVersions > 0)
        parts << PolicyText::tr("the %n newest compiler(s)", nullptr, keepVersions);
    if (unusedDays > 0)
        parts << PolicyText::tr("unused over %n day(s)", nullptr, unusedDays);
    if (removeFailed)
        parts << PolicyText::tr("failed entries");
    if (clearLocks)
        parts << PolicyText::tr("stale locks");
    return parts.isEmpty() ? PolicyText::tr("nothing") : parts.join(QStringLiteral(", "));
}

QJsonObject CachePolicy::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("name"), name);
    o.insert(QStringLiteral("max_bytes"), double(maxBytes));
    o.insert(QStringLiteral("keep_versions"), keepVersions);
    o.insert(QStringLiteral("unused_days"), unusedDays);
    o.insert(QStringLiteral("remove_failed"), removeFailed);
    o.insert(QStringLiteral("clear_locks"), clearLocks);
    o.insert(QStringLiteral("lock_age_ms"), double(lockAgeMs));
    return o;
}

bool CachePolicy::validName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9._-]{1,64}$"));
    return re.match(name).hasMatch();
}

bool CachePolicy::fromJson(const QJsonObject &o, CachePolicy *out, QString *error)
{
    CachePolicy p;
    p.name = o.value(QStringLiteral("name")).toString();
    const double maxBytes = o.value(QStringLiteral("max_bytes")).toDouble();
    const double lockAge = o.value(QStringLiteral("lock_age_ms")).toDouble();
    p.keepVersions = o.value(QStringLiteral("keep_versions")).toInt();
    p.unusedDays = o.value(QStringLiteral("unused_days")).toInt();
    p.removeFailed = o.value(QStringLiteral("remove_failed")).toBool();
    p.clearLocks = o.value(QStringLiteral("clear_locks")).toBool();
    if (!validName(p.name) || !(maxBytes >= 0 && maxBytes < 9e18) || !(lockAge >= 0 && lockAge < 9e15) || p.keepVersions < 0
        || p.keepVersions > 1000 || p.unusedDays < 0 || p.unusedDays > 36500) {
        *error = PolicyText::tr("not a cache policy Ingot wrote");
        return false;
    }
    p.maxBytes = qint64(maxBytes);
    p.lockAgeMs = qint64(lockAge);
    *out = p;
    return true;
}

QVector<CachePolicy> savedPolicies()
{
    QVector<CachePolicy> out;
    const QJsonArray a = QJsonDocument::fromJson(AppSettings::cachePolicies()).array();
    for (const QJsonValue &v : a) {
        CachePolicy p;
        QString why;
        if (CachePolicy::fromJson(v.toObject(), &p, &why))
            out << p;
    }
    return out;
}

bool findPolicy(const QString &name, CachePolicy *out)
{
    for (const CachePolicy &p : savedPolicies())
        if (p.name == name) {
            *out = p;
            return true;
        }
    return false;
}

void savePolicy(const CachePolicy &policy)
{
    QVector<CachePolicy> all = savedPolicies();
    all.erase(std::remove_if(all.begin(), all.end(), [&](const CachePolicy &p) { return p.name == policy.name; }), all.end());
    all << policy;
    std::sort(all.begin(), all.end(), [](const CachePolicy &a, const CachePolicy &b) { return a.name < b.name; });
    QJsonArray a;
    for (const CachePolicy &p : all)
        a << p.toJson();
    AppSettings::setCachePolicies(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

bool removePolicy(const QString &name)
{
    QVector<CachePolicy> all = savedPolicies();
    const auto n = all.size();
    all.erase(std::remove_if(all.begin(), all.end(), [&](const CachePolicy &p) { return p.name == name; }), all.end());
    if (all.size() == n)
        return false;
    QJsonArray a;
    for (const CachePolicy &p : all)
        a << p.toJson();
    AppSettings::setCachePolicies(QJsonDocument(a).toJson(QJsonDocument::Compact));
    return true;
}

MaintenancePlan planPolicy(const QVector<CacheModule> &modules, const CachePolicy &policy, const RunningCompilers &compilers,
                           qint64 nowMs)
{
    MaintenancePlan plan;
    plan.action = MaintenanceAction::Policy;
    plan.cacheBytesBefore = totalBytes(modules);
    plan.notes << PolicyText::tr("Policy %1: %2.").arg(policy.name, policy.summary());
    // The compiler versions kept: the N newest folders.
    QSet<QString> keptVersions;
    if (policy.keepVersions > 0) {
        QStringList versions;
        for (const CacheModule &m : modules)
            if (!m.version.isEmpty() && !versions.contains(m.version))
                versions << m.version;
        std::sort(versions.begin(), versions.end(), [](const QString &a, const QString &b) { return compareCompilerFolders(a, b) > 0; });
        for (int i = 0; i < versions.size() && i < policy.keepVersions; ++i)
            keptVersions.insert(versions.at(i));
    }
    const qint64 cutoff = nowMs - qint64(policy.unusedDays) * kDayMs;
    qint64 remaining = plan.cacheBytesBefore;
    QVector<const CacheModule *> lru;
    for (const CacheModule &m : modules) {
        if (!m.isModule())
            continue;
        QString why;
        if (policy.removeFailed && m.state == ModuleState::Failed)
            why = PolicyText::tr("Failed: the next run compiles it again.");
        else if (policy.keepVersions > 0 && !m.version.isEmpty() && !keptVersions.contains(m.version))
            why = PolicyText::tr("Compiler %1 is not one of the %n newest.", nullptr, policy.keepVersions).arg(m.version.mid(10));
        else if (policy.unusedDays > 0 && m.lastUsedMs < cutoff)
            why = PolicyText::tr("Unused for %n days.", nullptr, int((nowMs - std::max<qint64>(0, m.lastUsedMs)) / kDayMs));
        if (m.state == ModuleState::Locked) {
            if (!why.isEmpty() || policy.maxBytes > 0)
                plan.kept.append(keptItem(m, PolicyText::tr("LOCKED: a compile may be running on it; locked entries are never removed.")));
            continue;
        }
        if (!why.isEmpty()) {
            plan.items.append(removeItem(m, why));
            remaining -= m.size;
        } else {
            lru << &m;
        }
    }
    if (policy.maxBytes > 0 && remaining > policy.maxBytes) {
        std::sort(lru.begin(), lru.end(), [](const CacheModule *a, const CacheModule *b) { return a->lastUsedMs < b->lastUsedMs; });
        for (const CacheModule *m : std::as_const(lru)) {
            if (remaining <= policy.maxBytes)
                break;
            plan.items.append(removeItem(*m, PolicyText::tr("Least recently used while the cache is over %1.").arg(formatBytes(policy.maxBytes))));
            remaining -= m->size;
        }
        if (remaining > policy.maxBytes)
            plan.notes << PolicyText::tr("The cache stays over %1 (%2): what remains is locked or not the compiler's.")
                              .arg(formatBytes(policy.maxBytes), formatBytes(remaining));
    }
    if (policy.clearLocks) {
        const MaintenancePlan locks = planClearLocks(modules, compilers, policy.lockAgeMs, nowMs);
        if (!locks.refusal.isEmpty()) {
            plan.notes << PolicyText::tr("Locks are left: %1").arg(locks.refusal);
        } else {
            QSet<QString> going;
            for (const PlanItem &it : std::as_const(plan.items))
                going.insert(it.key);
            for (const PlanItem &it : locks.items)
                if (!going.contains(it.key))
                    plan.items.append(it);
            plan.notes += locks.notes;
            plan.lockOlderThanMs = locks.lockOlderThanMs;
        }
    }
    finishPlan(plan);
    return plan;
}

}  // namespace ingot
