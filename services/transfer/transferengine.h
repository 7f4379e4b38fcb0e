// One transfer of any kind between any two places, by the engine for its places: pull (Hub → a cache), push (a cache
// → the Hub), copy (this machine ↔ a host, or two caches here: localcopy.h). Moves that no engine makes directly go
// by way of this machine, one entry (or one commit's worth) at a time, never a full local copy: Hub → host downloads an entry here and sends it on;
// host → Hub fetches entries here and pushes them. The app's queue and ingot-cli both run transfers through this.
#pragma once

#include "services/transfer/transferqueue.h"

#include <QSet>

namespace ingot {

class HubClient;
class SecretStore;

struct TransferContext {
    const HubClient *hub = nullptr;  // pull and push
    QString hfHome;                  // pulls in the HF hub cache layout
    QString workDir;                 // this machine's room for entries on their way between a host and the Hub
                                     // (kept across runs: a download there resumes)
};

struct TransferOutcome {
    QString error;    // the transfer as a whole could not go on (offline, no access, the host unreachable)
    QSet<int> busy;   // items that failed because another transfer is writing the entry
};

// Runs `record`'s move for `items`, filling them in and reporting as it goes. A host cache with an empty path is
// resolved first, as the Neuron runtime there resolves it.
TransferOutcome runTransfer(const TransferRecord &record, QVector<TransferItem> &items, TransferReporter &reporter,
                            const TransferContext &context, const std::atomic_bool *stop);

// Where runTransfer keeps entries between a host and the Hub for transfer `id`: <cache>/ingot/transfers/<id>.
QString transferWorkDir(const QString &id);

// The engine the app's queue runs: the Hub settings and token from the environment (as ingot-cli reads them) for
// each transfer, hosts through RemoteHosts. `keychain` (may be null) is used from the queue's worker threads.
TransferEngine makeTransferEngine(std::shared_ptr<SecretStore> keychain);

}  // namespace ingot
