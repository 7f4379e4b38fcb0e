// Push (optimum-cli's "synchronize"): SUCCESS entries of a local compile cache to a Hub cache repo, through the
// commit API (hubcommit.h). Stricter than optimum-cli: only SUCCESS entries and only the files the compiler
// writes go (never FAILED, LOCKED or INCOMPLETE entries, model.log, *.lock or unknown files), each entry whole in
// one commit, so the Hub never holds half an entry and an interrupted push resumes by skipping what is there.
#pragma once

#include "services/hub/hubclient.h"
#include "services/transfer/transfertypes.h"

#include <atomic>

namespace ingot {

struct PushFile {
    QString repoPath;   // "neuronxcc-<ver>/MODULE_<...>/model.neff"
    QString localPath;  // where it lives, for messages: pushEntries() reads it from descriptors (EntryFiles)
    qint64 size = 0;
    quint64 dev = 0, ino = 0;  // the file the plan opened: the push refuses another one in its place
    qint64 mtime = 0;
};

struct PushEntry {
    QString key;  // "neuronxcc-<ver>/MODULE_<...>"
    QVector<PushFile> files;
    qint64 bytes = 0;
};

struct PushLimits {
    int filesPerCommit = 100;                       // the Hub accepts about this many files in one commit
    qint64 inlineBytesPerCommit = 32LL << 20;        // regular files travel base64 inside the commit body
    int folderEntries = 10000;                      // the Hub refuses a folder holding more
};

struct PushPlan {
    QVector<PushEntry> entries;
    QStringList warnings;  // a compiler folder that would go over PushLimits::folderEntries ...
    QStringList skipped;   // "KEY: why", for each entry left here (not SUCCESS, on the Hub already, a bad link ...)
    qint64 bytes = 0;
    int files = 0;
    PushLimits limits;
};

// What would go from the local cache at `cacheRoot` to `repo`: the `selected` keys, or (empty) every SUCCESS entry
// not on the Hub. Checks write access first (Forbidden/Unauthorized with why: then nothing is planned).
PushPlan planPush(const HubClient &hub, const QString &repo, const QString &revision, const QString &cacheRoot,
                  const QStringList &selected, HubError *err, const std::atomic_bool *stop = nullptr,
                  const PushLimits &limits = PushLimits());

// Pushes the plan's entries; `items` holds one item per plan entry, in the same order (see pushItems()). Each
// entry is checked again and its files opened right before it is read (one that is no longer SUCCESS, or whose
// files changed, is skipped); every byte sent comes from those descriptors. Items are updated
// and reported; on `stop`, items not committed go back to Pending. *err: what stopped the push as a whole
// (no access, offline, cancelled), else None (failed items carry their own reasons).
void pushEntries(const HubClient &hub, const QString &repo, const QString &revision, const QString &cacheRoot,
                 const PushPlan &plan, QVector<TransferItem> &items, TransferReporter &reporter,
                 const TransferOptions &options, HubError *err, const std::atomic_bool *stop = nullptr);

// The items for a plan: one Pending item per entry with its bytes and files.
QVector<TransferItem> pushItems(const PushPlan &plan);

}  // namespace ingot
