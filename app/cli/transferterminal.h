// What every ingot-cli transfer command (pull, push, synchronize, copy) shares: one
// progress line on a terminal, each entry as JSON, the summary's counts and the exit code they make; and running a
// transfer whose one end is a host through runTransfer (pull --host, push --host).
#pragma once

#include "app/cli/commandtable.h"
#include "services/cache/cachetypes.h"
#include "services/transfer/transfertypes.h"

#include <QElapsedTimer>
#include <QSet>

#include <atomic>
#include <mutex>

#include <nlohmann/json.hpp>

namespace ingot::cli {

// One line on stderr, redrawn at most five times a second, when `enabled` (stderr is a terminal, no --json):
// "[3/8 entries] 1.2 GB of 4.0 GB, 120 MB/s, ETA 23 s". Failed entries are said on their own line as they fail.
class TerminalReporter final : public TransferReporter
{
public:
    TerminalReporter(const QVector<TransferItem> &items, bool enabled);
    ~TerminalReporter() override;
    void itemStarted(int index, qint64 total) override;
    void itemProgress(int index, qint64 done) override;
    void itemFinished(int index, TransferItem::State state, const QString &message) override;
    void note(const QString &text) override;

    // Whether progress is drawn for a command run with `asJson`.
    static bool wanted(bool asJson);

private:
    void clearLine();
    void draw(bool force);

    QStringList m_keys;
    bool m_enabled;
    std::mutex m_mutex;
    QVector<qint64> m_done, m_total;
    int m_finished = 0;
    QElapsedTimer m_clock;
    qint64 m_last = -1000;
    bool m_drawn = false;
};

struct TransferCounts {
    int done = 0, skipped = 0, failed = 0, busy = 0, pending = 0;
    qint64 bytes = 0;  // of the entries done
};
TransferCounts countItems(const QVector<TransferItem> &items, const QSet<int> &busy);
// 0 all done or skipped; 12 only busy entries failed; 1 anything else failed or was stopped.
int transferExit(const TransferCounts &c);
nlohmann::json itemJson(const TransferItem &item, bool busy = false);

// This machine's cache: `cacheDir`, else as the Neuron runtime resolves it. `create`: a missing folder is made (its
// parent must exist) and it must be writable. Returns an exit code (Ok to go on: 3 unusable, 5 an S3 location).
int localCacheRoot(const QString &cacheDir, bool create, QString *root);
// The S3 cache a transfer command works on: --cache-dir s3://..., else NEURON_COMPILE_CACHE_URL=s3://... as the runtime
// resolves it; empty when the cache is a folder. A URL that is not one is printed as an error (*exit: Usage).
QString s3CacheUrl(const QString &cacheDir, int *exit);
// A host's cache: `cacheDir` there, else as the runtime there resolves it; connects first (10, 11).
int hostCacheRoot(const QString &host, const QString &cacheDir, QString *root);

// The keys of the entries in `state` in a host's cache (at `cacheDir`, "" = as the runtime there resolves it),
// scanned over SSH. Returns an exit code (Ok to go on).
int hostEntries(const QString &host, const QString &cacheDir, ModuleState state, QStringList *keys);

// Runs one transfer through the engine (as the app's queue does) with a terminal reporter; `host` (connected first)
// when one side is a host. Resumable: the work folder is keyed by the two places, so the same command continues.
int runPlacedTransfer(TransferKind kind, const TransferPlace &from, const TransferPlace &to, const QStringList &keys,
                      const QString &host, bool asJson, const TransferOptions &options = TransferOptions());

}  // namespace ingot::cli
