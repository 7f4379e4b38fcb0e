#include "services/neuron/jobgraphs.h"

#include "services/hub/secretstore.h"
#include "services/neuron/knowncaches.h"
#include "services/stores/cachestore.h"
#include "services/stores/storefactory.h"

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

}  // namespace ingot
