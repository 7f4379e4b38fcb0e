// One place's summary for the fleet (issue 39, "Every cache I know, on one page"): how big its cache is, how many
// entries in which state, which compiler versions, when it was last used, and whether it could be read at all (and
// if not, why). The fleet page and `ingot-cli cache fleet` show these; each place is read once, through the store it
// has (a folder, a host's cache over its shared SSH connection, an S3 prefix), TorchNeuron's scan, or the Hub's tree
// listing of a cache repo (names and sizes only: nothing is downloaded).
#pragma once

#include "services/fleet/fleetplaces.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>
#include <memory>

namespace ingot {

class SecretStore;

struct FleetSummary {
    enum class Status {
        Read,         // read whole: the figures below are the place's
        Unreachable,  // could not be reached or read: `error` says why
        TimedOut,     // no answer within the place's time limit
        Cancelled,    // stopped before it was read
    };
    FleetPlace place;  // a host's with its store once resolved (its cache as resolved there)
    Status status = Status::Unreachable;
    QString error;      // why not read (translated), empty when Read
    qint64 bytes = 0;   // stored in the place (a Hub repo: the files' sizes the listing gives)
    int entries = 0;    // compiled entries (folders that are not entries are not counted)
    int ready = 0;      // SUCCESS (TorchNeuron: COMPLETE)
    int failed = 0;     // FAILED: block a recompile until removed
    int locked = 0;     // a lock file: a compile runs, or a killed one left it (TorchNeuron: COMPILING, STALE-LOCK)
    int incomplete = 0;  // neither (INCOMPLETE, EMPTY)
    int warnings = 0;   // folders or files the read could not take in
    QStringList compilers;  // compiler versions ("2.15.128.0+56dc5a86"), newest first; TorchNeuron keys name none
    qint64 lastUsedMs = 0;  // the newest use of any entry; 0: not known (a Hub repo's listing has no times)
    qint64 readAtMs = 0;    // when the read ended
    qint64 tookMs = 0;      // how long it took

    bool isRead() const { return status == Status::Read; }
    // "read", "unreachable", "timed out", "cancelled": as JSON writes the status.
    const char *statusName() const;
    // The status for people: "read in 1.2 s", or the reason it was not (translated).
    QString statusText() const;
};

struct FleetSummaryOptions {
    int parallel = 4;               // places read at once
    qint64 placeTimeoutMs = 60000;  // one place's resolve and read; past it: TimedOut
    // The Hub's token is read through it (the system keychain, or none: INGOT_KEYCHAIN=none); may be null.
    std::shared_ptr<SecretStore> keychain;
};

// Reads one place (blocking: off the UI thread). Never fails as a whole: an unreachable place is a summary saying why.
// `cancel` (may be null) stops it at the next step it can stop at (a folder of a scan, a page of a listing).
FleetSummary summarizePlace(const FleetPlace &place, const FleetSummaryOptions &options,
                            const std::atomic_bool *cancel = nullptr);

// What summarizeFleet tells as it goes: started on the thread that reads the place, finished on the calling thread
// (as each place ends, in that order); `index` into the places given.
struct FleetReadEvents {
    std::function<void(int index)> started;
    std::function<void(int index, const FleetSummary &summary)> finished;
};

// Reads every place, options.parallel at a time, each within options.placeTimeoutMs (a place past it is stopped at
// its next step and said TimedOut; the others go on). The summaries in the places' order. Blocking; `cancel` stops
// the places not started yet (Cancelled) and those under way at their next step.
QVector<FleetSummary> summarizeFleet(const QVector<FleetPlace> &places, const FleetSummaryOptions &options,
                                     const FleetReadEvents &events = {}, const std::atomic_bool *cancel = nullptr);

}  // namespace ingot

Q_DECLARE_METATYPE(ingot::FleetSummary)
