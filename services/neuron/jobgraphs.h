// The graphs of a training job with why each compiled (or did not): the job's output as JobService keeps it (the
// compiler wrapper's lines, services/cache/compilelog.h) and the entries its compile cache got while it ran, each
// explained against that cache and the other caches Ingot knows. The job monitor's compile activity shows this.
#pragma once

#include "services/cache/compilelog.h"
#include "services/jobs/jobfollower.h"
#include "services/stores/storelocation.h"

#include <QHash>
#include <QVector>

namespace ingot {

struct JobGraphsRequest {
    QVector<LogChunk> logs;     // the job's output (JobService::recentLogs)
    StoreLocation cache;        // where the job compiles
    QString rule;               // why there (CacheLocation::explanation)
    CacheSnapshot snapshot;     // that cache, as last scanned
    qint64 startedMs = 0;
    bool askOtherCaches = true;             // the caches Ingot knows (a Hub repo is asked over the network)
    QHash<QString, JobGraph> previous;      // graphs explained before, by key: not asked again while unchanged
};

// Blocking (reads the cache's flags and HLO files, asks the other caches): call it off the UI thread.
JobGraphs jobGraphs(const JobGraphsRequest &request);

}  // namespace ingot
