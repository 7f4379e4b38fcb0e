#include "services/neuron/jobgraphs.h"

#include "services/cache/cachescanner.h"
#include "services/hub/secretstore.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobservice.h"
#include "services/neuron/knowncaches.h"
#include "services/stores/cachestore.h"
#include "services/stores/storefactory.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QMap>

namespace ingot {

JobGraphs jobGraphs(const JobGraphsRequest &r)
{
    // One scanner per stream: a line may be split across chunks of one rank's stdout, never across streams.
    QMap<std::pair<int, bool>, CompileLogScanner> streams;
    for (const LogChunk &c : r.logs)
        streams[{c.rank, c.isStderr}].feed(c.bytes);
    CompileLogScanner log;
    for (auto it = streams.begin(); it != streams.end(); ++it) {
        it->finish();
        log.merge(*it);
    }
    QString error;
    std::unique_ptr<CacheStore> store = makeStore(r.cache, &error);
    if (store && !store->open(&error))
        store.reset();
    ExplainTarget t;
    t.shown = r.cache.display();
    t.rule = r.rule;
    t.snapshot = &r.snapshot;
    t.store = store.get();
    error.clear();
    t.compilerRunning = store && !store->runningCompilers(&error).isEmpty();
    t.compilersUnseen = store && !t.compilerRunning && !error.isEmpty();
    const QVector<OtherCache> others = r.askOtherCaches ? knownOtherCaches(r.cache, defaultSecretStore()) : QVector<OtherCache>();
    return explainJobGraphs(log, t, others, r.startedMs, r.previous);
}

JobGraphsRequest jobGraphsRequest(const JobRecordFile &record, const JobStatus &status, QVector<LogChunk> logs,
                                  const StoreLocation &cache, const QString &rule, CacheSnapshot snapshot)
{
    JobGraphsRequest r;
    r.logs = std::move(logs);
    r.cache = cache;
    r.rule = rule;
    r.snapshot = std::move(snapshot);
    r.startedMs = status.startedAt > 0 ? qint64(status.startedAt * 1000) : record.createdMs;
    return r;
}

namespace {

struct ActivityText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobMonitor)
};

// A job's output read to the end, the newest `maxBytes` of it kept (the oldest chunks dropped); its status as read.
QVector<LogChunk> newestLogs(JobManager &jobs, const JobRecordFile &record, qint64 maxBytes, JobStatus *status)
{
    JobFollower f(jobs.sharedRunner(), record, jobs.lookup());
    f.setKeepMetrics(false);
    QVector<LogChunk> kept;
    qint64 bytes = 0;
    qsizetype first = 0;  // chunks before it are dropped (compacted now and then, not on each chunk)
    for (int i = 0; i < 1000000; ++i) {
        const JobFollower::Update u = f.poll(4 << 20);
        for (const LogChunk &c : u.logs) {
            kept << c;
            bytes += c.bytes.size();
        }
        while (bytes > maxBytes && first < kept.size() - 1)
            bytes -= kept[first++].bytes.size();
        if (first > 0 && first * 2 >= kept.size()) {
            kept.remove(0, first);
            first = 0;
        }
        if (u.caughtUp)
            break;
    }
    kept.remove(0, first);
    *status = f.status();
    return kept;
}

}  // namespace

bool readJobCompileActivity(JobManager &jobs, const JobRecordFile &record, JobCompileActivity *out, QString *error)
{
    out->cache = jobs.compileCache(record.spec);
    if (out->cache.cachingDisabled) {
        *error = ActivityText::tr("This job compiles without a cache (--no_cache).");
        return false;
    }
    if (!out->cache.isSupported()) {
        *error = out->cache.unsupportedReason();
        return false;
    }
    out->store = jobs.compileCacheStore(out->cache);
    std::unique_ptr<CacheStore> store = makeStore(out->store, error);
    if (!store)
        return false;
    CacheSnapshot snapshot = CacheScanner(*store).scan(nullptr);
    if (!snapshot.fatalError.isEmpty()) {  // as the monitor says it: not there (yet), or not readable
        *error = ActivityText::tr("No compile cache at %1 yet: entries appear here once the job compiles.")
                     .arg(displayName(out->store.display()));
        return false;
    }
    JobStatus status;
    QVector<LogChunk> logs = newestLogs(jobs, record, JobService::recentLogBytes, &status);
    out->graphs = jobGraphs(jobGraphsRequest(record, status, std::move(logs), out->store, out->cache.explanation,
                                             std::move(snapshot)));
    return true;
}

}  // namespace ingot
