// The one transfer queue: every pull, push and copy the app starts. Each transfer is saved (one JSON file per
// transfer, written atomically off the UI thread through runTask; a failed write is reported by saveFailed()) so it
// survives a restart and resumes; each runs on a thread of its own, at most maxRunning() at once, and never two into
// the same entry: a key already on its way to a place is not queued again, and a transfer waits while another one
// writes one of its entries. Progress from the workers is collected and handed to the UI thread a few times a second.
//
// An exception to "work off the UI thread goes through runTask" (docs/architecture.md lists each): a transfer takes
// minutes to hours, and runTask's shared thread pool holds as many threads as the machine has cores. Two transfers
// there would hold every pool thread (on a 2-core host) for hours and starve every other page's short tasks
// (listings, scans, lookups), so each transfer gets a thread of its own, owned here and joined on stop.
// Lives on one thread (the UI's); the engine runs on the workers.
//
// Another process (ingot-cli) reads the saved transfers (readRecords) and asks for a cancel (requestCancel): a
// request file <id>.cancel beside the transfer's. The queue watches its folder and cancels at once, as its own
// cancel() does; a request made while no queue runs is applied when one next loads, before the transfer runs again.
#pragma once

#include "services/transfer/transfertypes.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QVector>

#include <atomic>
#include <functional>
#include <memory>

class QFileSystemWatcher;
class QTimer;

namespace ingot {

// Moves `items` (the record's items still to do, in a copy the engine fills in) as `record` says. Runs on a worker
// thread; reports through `reporter`; returns words when the transfer as a whole cannot go on (offline, no access),
// else an empty string. Stops promptly once *stop is set, leaving everything resumable.
// Where a transfer stands, the one rule the Transfers page and `ingot-cli transfers list` share: a transfer that
// failed as a whole first, then cancelled, running, paused, queued (not finished), finished with failed entries, done.
enum class TransferStatus { Failed, Cancelled, Running, Paused, Queued, SomeFailed, Done };
TransferStatus transferStatus(const TransferRecord &r, bool running);
// "failed", "cancelled", "running", "paused", "queued", "some-failed", "done"
QString transferStatusName(TransferStatus s);

using TransferEngine = std::function<QString(const TransferRecord &record, QVector<TransferItem> &items,
                                             TransferReporter &reporter, const std::atomic_bool *stop)>;

class TransferQueue final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TransferQueue)

public:
    // `stateDir` holds the saved transfers (created when missing); those not finished start again unless paused.
    TransferQueue(QString stateDir, TransferEngine engine, QObject *parent = nullptr);
    // Stops every running transfer (waiting for its worker) and saves it to resume next time.
    ~TransferQueue() override;

    // The default folder: <app data>/transfers.
    static QString defaultStateDir();
    // The transfers saved in `stateDir`, oldest first (a file that is not one of ours, or damaged, is left out).
    static QVector<TransferRecord> readRecords(const QString &stateDir);
    // The ids of the transfers in `stateDir` another process asked to cancel, not applied yet.
    static QSet<QString> cancelRequests(const QString &stateDir);
    // Asks the queue of `stateDir` (running now, or the next to load it) to cancel transfer `id`. False with words in
    // *error when no such transfer is saved there or the request cannot be written.
    static bool requestCancel(const QString &stateDir, const QString &id, QString *error);

    // Queues a transfer of `keys` from `from` to `to`. Keys already on their way to `to` (or from it, for a push)
    // in another unfinished transfer are left out and named in *skipped. Returns the id, or "" with words in *error
    // (nothing to do, a key that names no entry).
    QString enqueue(TransferKind kind, const TransferPlace &from, const TransferPlace &to, const QStringList &keys,
                    const TransferOptions &options, QString *error, QStringList *skipped = nullptr);

    QVector<TransferRecord> records() const;  // oldest first
    const TransferRecord *record(const QString &id) const;
    bool isRunning(const QString &id) const;
    // Bytes per second over the last few seconds (0 when idle or unknown) and seconds left (-1 unknown).
    double rate(const QString &id) const;
    qint64 secondsLeft(const QString &id) const;
    // Keys of entries on their way to or from `place` (pending or running), for the views' marks.
    QSet<QString> activeKeys(const TransferPlace &place) const;
    // Notes an engine made for the whole transfer (warnings), newest last.
    QStringList notes(const QString &id) const;

    void pause(const QString &id);
    void resume(const QString &id);
    void cancel(const QString &id);
    // Failed items go back to pending (a cancelled or failed transfer starts again).
    void retryFailed(const QString &id);
    // Forgets a transfer that does not run (its file too).
    bool remove(const QString &id);
    // Forgets every finished transfer.
    void clearFinished();

    int maxRunning() const { return m_maxRunning; }
    void setMaxRunning(int n);
    // True while a state file handed to the writer (off the UI thread) has not reached the disk yet.
    bool savesPending() const;

Q_SIGNALS:
    void added(const QString &id);
    void changed(const QString &id);   // state, progress (coalesced), notes
    void removed(const QString &id);
    // A transfer ended (finished, failed, paused or cancelled): `to` (and `from`) may have new entries to show.
    void ended(const QString &id, const TransferPlace &from, const TransferPlace &to);
    void activityChanged();  // activeKeys() of some place changed
    // A transfer's state file could not be written (the folder read-only or gone, a full disk): `message` says which
    // and why, for a person. The transfer goes on; its state is written again at the next change.
    void saveFailed(const QString &id, const QString &message);

private:
    struct Run;
    class Reporter;
    struct Saver;
    void startSaving();
    void load();
    void takeCancelRequests();
    void save(const QString &id);
    void schedule();
    bool blocked(const TransferRecord &r) const;
    void start(TransferRecord &r);
    void poll();
    void finishRun(const QString &id);
    void stopRun(const QString &id);
    int indexOf(const QString &id) const;
    bool keyActiveElsewhere(const TransferPlace &to, const QString &key, const QString &exceptId) const;

    QString m_dir;
    TransferEngine m_engine;
    QVector<TransferRecord> m_records;
    QHash<QString, std::shared_ptr<Run>> m_runs;
    QHash<QString, QStringList> m_notes;
    QTimer *m_timer = nullptr;
    QFileSystemWatcher *m_watcher = nullptr;  // the folder, for cancel requests from another process
    std::shared_ptr<Saver> m_saver;
    bool m_saving = false;  // a runTask writing m_saver's pending files is under way
    bool m_closing = false;  // in the destructor: the last states are written there, not by a task
    int m_maxRunning = 2;
};

}  // namespace ingot
