// Copies cache entries between two compile caches on this machine (a team's shared folder, an FSx or NFS mount, another
// cache here): the rules of every other copy (hostcopy.h): only SUCCESS entries (the rest Skipped with
// notSuccessWhy()'s words), read through EntryFiles' descriptors (never again by path, links only by the link rule),
// written into a hidden staging folder beside the entry (IncomingEntry) that appears by one no-replace rename when
// every file is there; an entry the destination has (any state) is never overwritten.
#pragma once

#include "services/transfer/transfertypes.h"

#include <atomic>

namespace ingot {

// Fills items[i] (state, bytes, files, message) and reports as it goes. On stop, the entry under way goes back to
// Pending (nothing of it landed) and the rest are left as they were.
void copyLocalEntries(const QString &fromRoot, const QString &toRoot, QVector<TransferItem> &items,
                      TransferReporter &reporter, const std::atomic_bool *stop);

}  // namespace ingot
