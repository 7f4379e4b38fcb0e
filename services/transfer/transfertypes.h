// What the moves between the places a compile cache lives share (local folder, a host over SSH, a Hub repo): the
// places, the unit of work (one cache entry "neuronxcc-<ver>/MODULE_<...>"), its state, and the sink engines report
// to. The pull, push and copy engines fill it in; the transfer queue keeps it (and saves it, so a transfer survives
// a restart); views and the CLI read it.
#pragma once

#include "services/cache/cachetypes.h"
#include "services/stores/storelocation.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <nlohmann/json_fwd.hpp>

namespace ingot {

// A place entries move from or to: a compile cache (StoreLocation "local" or "ssh") or a Hub repo.
struct TransferPlace {
    enum class Kind { Cache, Hub };
    Kind kind = Kind::Cache;
    StoreLocation cache;     // Kind::Cache (a host's with an empty path: the cache the runtime there resolves)
    QString repo;            // Kind::Hub: "org/name"
    QString revision = QStringLiteral("main");

    static TransferPlace ofCache(const StoreLocation &location);
    static TransferPlace ofHub(const QString &repo, const QString &revision = QStringLiteral("main"));
    bool isHub() const { return kind == Kind::Hub; }
    bool isLocalCache() const { return kind == Kind::Cache && cache.isLocal(); }
    // "/var/tmp/neuron-compile-cache", "trn1:/var/tmp/neuron-compile-cache", "hub:org/name"
    QString display() const;
    // Identifies the place for "no two transfers into the same entry": equal text, same place.
    QString identity() const;

    friend bool operator==(const TransferPlace &a, const TransferPlace &b)
    {
        return a.kind == b.kind && a.cache == b.cache && a.repo == b.repo && a.revision == b.revision;
    }
};

enum class TransferKind { Pull, Push, Copy };
QString transferKindName(TransferKind k);  // "pull", "push", "copy"
bool parseTransferKind(const QString &name, TransferKind *out);

// One cache entry on its way.
struct TransferItem {
    enum class State { Pending, Running, Done, Skipped, Failed };
    QString key;             // "neuronxcc-<ver>/MODULE_<...>" (root-relative, '/'-separated)
    State state = State::Pending;
    qint64 bytesTotal = -1;  // -1: not known yet
    qint64 bytesDone = 0;
    int files = 0;
    QString message;  // Failed: why (words, with what to do); Skipped: why (already there, identical ...)

    bool finished() const { return state == State::Done || state == State::Skipped || state == State::Failed; }
};
// One pending item per key, in order.
QVector<TransferItem> itemsFor(const QStringList &keys);
QString itemStateName(TransferItem::State s);  // "pending", "running", "done", "skipped", "failed"
bool parseItemStateName(const QString &name, TransferItem::State *out);

struct TransferOptions {
    bool hubCacheLayout = false;  // pull: files as blobs in the HF hub cache, linked into the compile cache
    int parallel = 4;             // files (pull) or uploads (push) at once
    QString commitMessage;        // push: the commit summary ("" = a default naming the entries)
};

// What an engine tells about its work, from any of its threads (implementations are thread-safe). Indexes are into
// the items the engine was given.
class TransferReporter
{
public:
    virtual ~TransferReporter();
    // The item is being worked on; its total bytes when known (-1 else).
    virtual void itemStarted(int index, qint64 bytesTotal) = 0;
    // Bytes of the item done so far (absolute, may go back after a retry restarts a file).
    virtual void itemProgress(int index, qint64 bytesDone) = 0;
    // Done, Skipped (with why) or Failed (with why).
    virtual void itemFinished(int index, TransferItem::State state, const QString &message) = 0;
    // Something the user should read that belongs to no one item (a folder over 10,000 entries on the Hub).
    virtual void note(const QString &text) = 0;
};

// A reporter that does nothing (dry runs, tests that look only at results).
class NullTransferReporter final : public TransferReporter
{
public:
    void itemStarted(int, qint64) override {}
    void itemProgress(int, qint64) override {}
    void itemFinished(int, TransferItem::State, const QString &) override {}
    void note(const QString &) override {}
};

// A whole transfer as the queue keeps it: what moves where, and each entry's state.
struct TransferRecord {
    QString id;  // unique, file-name safe
    TransferKind kind = TransferKind::Pull;
    TransferPlace from;
    TransferPlace to;
    TransferOptions options;
    QVector<TransferItem> items;
    qint64 createdMs = 0;
    bool paused = false;
    bool cancelled = false;
    QString error;  // the transfer as a whole failed (no access, offline ...)

    bool finished() const;  // cancelled, or every item finished
    qint64 bytesTotal() const;  // of the items whose size is known
    // bytesTotal() plus, for items whose size is not known yet, the average known size; -1 when none is known.
    qint64 estimatedBytesTotal() const;
    qint64 bytesDone() const;
    int count(TransferItem::State s) const;
};

// JSON as saved by the queue (unknown fields ignored; a wrong shape is an error with words, never a crash).
nlohmann::json toJson(const TransferRecord &r);
bool fromJson(const nlohmann::json &j, TransferRecord *out, QString *error);

// The one rule for an entry that is not SUCCESS where it is (FAILED, LOCKED, INCOMPLETE, EMPTY), for copy and push
// alike: it is never moved, and its item is Skipped with these words ("FAILED: a failed compile is never copied or
// pushed ..."), never Failed: nothing went wrong with the transfer, so the summaries count it with the skipped
// entries and the CLI exits 0 when nothing else failed.
QString notSuccessWhy(ModuleState state);

// Whether `key` is a cache entry key an engine may write: "neuronxcc-<...>/MODULE_<...>" with plain, safe names
// (no "..", no '/' inside a part, no control characters). Hub and user input both pass through this.
bool isTransferableKey(const QString &key);

}  // namespace ingot
