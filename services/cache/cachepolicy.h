// Named cache policies (issue 39): what a team keeps in each of its caches, previewed on one place or on all of them
// and applied with the maintenance guarantees (maintenance.h: never a locked entry, never outside the root, each entry
// checked again right before it goes). Stored in Ingot's settings as JSON; `ingot-cli cache policy` and the fleet's
// schedule use them by name.
#pragma once

#include "services/cache/maintenance.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace ingot {

struct CachePolicy {
    QString name;
    qint64 maxBytes = 0;       // 0: no size limit; else the least recently used go until the cache fits
    int keepVersions = 0;      // 0: every compiler version; else the N newest, the others' entries go
    int unusedDays = 0;        // 0: no age rule; else entries unused for more than D days go
    bool removeFailed = false; // FAILED entries go (the next run compiles them again)
    bool clearLocks = false;   // stale lock files go (where a compile can be seen not to run, or older than lockAge)
    qint64 lockAgeMs = 0;      // clear-locks where compiles cannot be seen (S3): only locks older than this

    bool isEmpty() const { return maxBytes == 0 && keepVersions == 0 && unusedDays == 0 && !removeFailed && !clearLocks; }
    // "max 100 GB, 2 newest compilers, unused > 30 d, failed, stale locks"
    QString summary() const;
    QJsonObject toJson() const;
    // False with why when the object is not a policy Ingot wrote (a name that is not plain, numbers out of range).
    static bool fromJson(const QJsonObject &o, CachePolicy *out, QString *error);
    // A name: letters, digits, '-', '_' and '.', 1 to 64 of them.
    static bool validName(const QString &name);
};

// The policies saved in Ingot's settings, by name.
QVector<CachePolicy> savedPolicies();
bool findPolicy(const QString &name, CachePolicy *out);
void savePolicy(const CachePolicy &policy);  // replaces one of the same name
bool removePolicy(const QString &name);

// What `policy` removes from a cache of `modules` at `nowMs` (`compilers`: whether neuronx-cc runs where the cache is,
// for its locks). One plan of MaintenanceAction::Policy: each entry once, with the first rule that takes it as its
// reason (failed, other compiler, unused, then the least recently used while over the size); locked entries kept and
// said; lock files as clear-locks plans them (a refusal there is a note: the entries still go).
MaintenancePlan planPolicy(const QVector<CacheModule> &modules, const CachePolicy &policy, const RunningCompilers &compilers,
                           qint64 nowMs);

}  // namespace ingot
