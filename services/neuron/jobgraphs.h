// The graphs of a training job with why each compiled (or did not): the job's output as JobService keeps it (the
// compiler wrapper's lines, services/cache/compilelog.h) and the entries its compile cache got while it ran, each
// explained against that cache and the other caches Ingot knows. The job monitor's compile activity shows this.
#pragma once

#include "services/cache/compilelog.h"
#include "services/cache/cachelocation.h"
#include "services/jobs/jobfollower.h"
#include "services/stores/storelocation.h"

#include <QHash>
#include <QVector>

namespace ingot {

class JobManager;

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

// What a job's compile activity is asked with: its output, the cache where it compiles (`rule`: why there), that
// cache as scanned, and since when: the job's start as its status read it, else its launch.
JobGraphsRequest jobGraphsRequest(const JobRecordFile &record, const JobStatus &status, QVector<LogChunk> logs,
                                  const StoreLocation &cache, const QString &rule, CacheSnapshot snapshot);

// A job's compile activity read now, where it runs (ingot-cli's `job graphs`; the monitor follows the same job live):
// the compile cache resolved as the job gets it, scanned, the job's output read (its newest
// JobService::recentLogBytes, the window the monitor keeps), each graph explained.
struct JobCompileActivity {
    CacheLocation cache;
    StoreLocation store;  // that cache, read where it is
    JobGraphs graphs;
};
// False with why in *error: the job compiles without a cache (--no_cache) or where Ingot cannot read (an
// unsupported location), or the cache cannot be read now; a cache not there yet is no error (no graphs). Blocking.
bool readJobCompileActivity(JobManager &jobs, const JobRecordFile &record, JobCompileActivity *out, QString *error);

}  // namespace ingot
