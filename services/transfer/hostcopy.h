// Copies cache entries between this machine's compile cache and a host's over SSH: one tar stream through the
// host's master connection per entry (one round trip for all its files), sha256 computed on both sides, and the
// entry appears at the destination by one rename of a hidden staging folder, only when every file matched. An
// entry that exists there (any state) is never overwritten; an interrupted copy leaves no entry.
#pragma once

#include "services/transfer/tarstream.h"
#include "services/transfer/transfertypes.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QVector>

#include <atomic>
#include <functional>

namespace ingot {

class SshConnection;
struct CacheModule;

enum class HostCopyResult {
    Done,
    Exists,   // the destination entry exists: nothing was written
    Busy,     // another transfer holds the entry's staging folder: nothing was done to it
    Stopped,  // the stop flag was set: nothing landed, the staging is removed
    Failed,   // with words in *error; nothing landed
    NotSuccess,  // the source entry is not SUCCESS: not copied, Skipped with notSuccessWhy()'s words
};

// Bytes of file content passed so far, and the total (-1: not known yet).
using HostCopyProgress = std::function<void(qint64 done, qint64 total)>;

// Copies the entries `items` name (keys "neuronxcc-<ver>/MODULE_<...>") from one cache to the other; `from` and
// `to` are StoreLocations of kind "local" and "ssh" (either way round). Fills items[i] (state, bytes, files,
// message) and reports as it goes. Only SUCCESS entries are copied (FAILED, LOCKED, INCOMPLETE: Skipped with why,
// the rule of transfertypes.h's notSuccessWhy);
// one that exists at the destination is Skipped. Local to local (localcopy.h does it) and host to host: Failed, not
// supported. On stop,
// the entry under way goes back to Pending (nothing of it landed) and the rest are left as they were. `results`
// (optional) gets each item's outcome, so a caller can tell Busy from other failures.
void copyEntries(const StoreLocation &from, const StoreLocation &to, QVector<TransferItem> &items,
                 TransferReporter &reporter, const std::atomic_bool *stop,
                 QVector<HostCopyResult> *results = nullptr);

// Entry `key` of the local cache at `localRoot` becomes entry `key` of the host's cache at `remoteRoot`, with the
// same staging, verification and no-replace rename. What may go is EntryFiles' (push's) rule: links only into the
// cache or to a hub blob, sent as their content; sub-folders kept; each file opened once and read from there.
HostCopyResult sendFolderToHost(SshConnection &connection, const QString &localRoot, const QString &remoteRoot,
                                const QString &key, const HostCopyProgress &progress, const std::atomic_bool *stop,
                                QString *error, int *files = nullptr);

// The listing (ListedEntry, tarstream.h) that bounds what a fetch may write, from a scan of the entry.
ListedEntry listedEntry(const CacheModule &module);

// Entry `key` of the host's cache at `remoteRoot` arrives in `localFolder` (an existing, empty folder: a temp
// folder or a staging folder), every file checked against the sha256 the host computes after sending, and against
// `listed`: a member larger than listed, one not listed, or more bytes than the entry's size are refused before a
// byte of them is written. On any result but Done, what was written into `localFolder` is removed again.
HostCopyResult fetchEntryFromHost(SshConnection &connection, const QString &remoteRoot, const QString &key,
                                  const ListedEntry &listed, const QString &localFolder,
                                  const HostCopyProgress &progress, const std::atomic_bool *stop, QString *error,
                                  int *files = nullptr);

}  // namespace ingot
