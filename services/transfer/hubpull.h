// Pull: cache entries from a Hub cache repo into a local compile cache. Each entry arrives whole or not at all
// (IncomingEntry), every file resumable (HTTP Range into "<name>.part") and verified (sha256 of LFS files, git blob
// id of the others), files of several entries at once. Blocking: run it off the UI thread.
#pragma once

#include "services/hub/hubclient.h"
#include "services/transfer/transfertypes.h"

#include <QSet>

#include <atomic>

namespace ingot {

struct PullRequest {
    QString repo;
    QString revision = QStringLiteral("main");
    QString cacheRoot;        // a local compile cache root
    TransferOptions options;  // parallel, hubCacheLayout
    QString hfHome;           // hubCacheLayout: blobs in <hfHome>/hub/models--org--name/... (HubConfig::hfHome)
};

struct PullOutcome {
    QSet<int> busy;   // items Failed because another transfer is writing the entry (the CLI's exit 12)
    HubError error;   // the Hub failure that stopped every item (offline, no access, the listing failed), if any
};

// The entry keys of the repo: every MODULE folder, or those of one compiler version ("neuronxcc-<ver>" or the bare
// version "2.15.128.0+56dc5a86"). One recursive tree listing; names that are not transferable keys are left out.
QStringList hubEntryKeys(const HubClient &hub, const QString &repo, const QString &revision, const QString &compiler,
                         HubError *err, const std::atomic_bool *stop = nullptr);

// Pulls each item into the cache; fills items[i] (state, bytes, files, message) and reports as it goes. An entry
// that exists locally (any state) is Skipped, never overwritten. On stop, unfinished items go back to Pending and
// their staging folders and partial files stay for the next run.
PullOutcome pullEntries(const HubClient &hub, const PullRequest &request, QVector<TransferItem> &items,
                        TransferReporter &reporter, const std::atomic_bool *stop = nullptr);

}  // namespace ingot
