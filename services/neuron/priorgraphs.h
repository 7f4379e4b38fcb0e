// Before a launch: the last run with the same graph settings (JobSpec::sameGraphSettings), the graphs its output
// names (compilelog.h), and what the cache the new run will use holds of them now — "36 of its 38 graphs are
// compiled there, 1 is blocked". Read from the run's own logs in its job folder (runs on this machine).
#pragma once

#include "services/cache/cachetypes.h"
#include "services/jobs/jobmanager.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>

namespace ingot {

struct PriorGraphs {
    bool found = false;  // a run with the same settings whose output names graphs
    QString jobId;
    qint64 jobCreatedMs = 0;
    int graphs = 0;
    int compiled = 0;  // SUCCESS in the cache now
    int blocked = 0;   // FAILED or LOCKED there
    int missing = 0;   // absent, or unfinished: they compile again
    QStringList blockedKeys;
    // Every graph of the run: keys, or a bare MODULE_… name for one it compiled that the cache read has not (another
    // cache, or gone): what *Bring compiled graphs first* looks for (launchseed.h).
    QStringList keys;
    QString cache;  // as shown

    QString text() const;  // one or two sentences for the launcher; empty when !found
};

// `folderOf`: a job's folder (JobManager::paths(id).root). `where`: the runner the new run goes to; only runs there
// are compared. `runner`: where their logs are read (a host's runner reads them there); nullptr: this machine.
PriorGraphs priorGraphs(const QVector<JobSummary> &history, const JobSpec &spec, const QString &where,
                        const std::function<QString(const QString &id)> &folderOf, const CacheSnapshot &cache,
                        const QString &cacheShown, JobRunner *runner = nullptr);

}  // namespace ingot
