// Reads a compile cache through a CacheStore into CacheModule values, progressively and cancellably.
#pragma once

#include "services/stores/cachestore.h"
#include "services/cache/cachetypes.h"

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace ingot {

// What changed since the previous snapshot, handed out in batches while a scan runs.
struct ScanDelta {
    QVector<CacheModule> upserts;  // new or changed entries (keyed by CacheModule::key())
    QStringList removed;           // keys that no longer exist (sent once, at the end of a complete scan)
    QVector<ScanWarning> warnings;
    bool isEmpty() const { return upserts.isEmpty() && removed.isEmpty() && warnings.isEmpty(); }
};

struct ScanStats {
    int foldersListed = 0;
    int modulesReused = 0;  // unchanged since the previous scan, not listed again
    int entries = 0;
    qint64 elapsedMs = 0;
    qint64 firstBatchMs = -1;
    bool cancelled = false;
};

class CacheScanner final
{
public:
    using BatchFn = std::function<void(ScanDelta &&)>;

    explicit CacheScanner(CacheStore &store);
    ~CacheScanner();
    Q_DISABLE_COPY_MOVE(CacheScanner)

    // Scans the whole cache. With `previous`, a module folder whose mtime and ctime did not change and whose state
    // is final (SUCCESS or FAILED) is taken over without listing it again. `onBatch` (may be empty) receives
    // deltas at least every `batchIntervalMs` while scanning. On cancel, unseen entries keep their previous values.
    CacheSnapshot scan(const CacheSnapshot *previous, const BatchFn &onBatch = {},
                       const std::atomic_bool *cancel = nullptr, ScanStats *stats = nullptr);

    // Lists one module folder afresh (maintenance re-checks an entry right before it deletes it).
    CacheModule scanModule(const QString &version, const QString &name, bool *vanished, QString *error);

    void setBatchInterval(int ms) { m_batchIntervalMs = ms; }
    // Module folders are looked at and listed on this many threads when the store can clone itself. The default is
    // not the number of cores: on a cold disk a scan waits on reads, and a disk answers many at once. 100k modules
    // from a dropped page cache on 2 cores: 10.5 s on 2 threads, 5.4 s on 8, 4.3 s on 16; warm, no difference.
    static constexpr int kListingThreads = 16;
    void setThreads(int n) { m_threads = std::max(1, n); }

    // One module folder of a version folder: looked at (statted where the listing left it out), then reused from the
    // previous snapshot when nothing in it can have changed, or listed.
    struct Job {
        enum class Outcome : quint8 { Pending, Listed, Reused, NotAFolder, Gone };
        StoreEntry *entry = nullptr;
        QString key;
        const CacheModule *old = nullptr;  // in the previous snapshot
        ListResult list;
        CacheModule module;
        Outcome outcome = Outcome::Pending;
    };

private:
    struct Run;
    QVector<StoreEntry> scanRoot(Run &run);
    void scanVersion(Run &run, const StoreEntry &ver);
    void listInParallel(QVector<Job> &jobs, int from, int to, const QString &version, bool writesDone,
                        const CacheSnapshot *previous, const std::atomic_bool *cancel);
    static void runJob(CacheStore &store, Job &j, const QString &version, bool writesDone,
                       const CacheSnapshot *previous);

    CacheStore &m_store;
    std::vector<std::unique_ptr<CacheStore>> m_clones;
    int m_batchIntervalMs = 50;
    int m_threads = kListingThreads;
};

}  // namespace ingot
