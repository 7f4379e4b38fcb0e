// "Is my model at these shapes already compiled?": the registry entries of a Hub cache repo for one model, across
// every registry layout optimum-neuron versions have written (docs/formats.md, "Hub cache repos"), fetched in
// parallel. A folder or file that cannot be read never passes for "not cached": the result names it.
#pragma once

#include "services/hub/hubclient.h"
#include "services/hub/registry.h"

#include <atomic>

namespace ingot {

struct LookupFilters {
    QString instanceType;
    int batchSize = -1;
    int sequenceLength = -1;
    int tensorParallel = -1;
    QString dtype;
    bool matches(const LookupEntry &e) const;
};

// A registry folder or entry file the lookup could not read, and why.
struct LookupFailure {
    QString path;
    HubError error;
};

struct LookupResult {
    QVector<LookupEntry> entries;  // known shapes that pass the filters, de-duplicated and sorted
    QVector<LookupEntry> unknown;  // unknown shapes for this model, raw
    int fetched = 0;               // registry files read
    QStringList registries;        // registry roots found
    QVector<LookupFailure> failures;  // what could not be read: entries there are missing above
    // None: complete. Incomplete: the entries above are what could be read, and the message names what could not
    // (`failures`). Any other kind: the lookup failed as a whole (a bad repo or model id, the repo, Cancelled).
    HubError error;
    bool failed() const { return !error.ok() && error.kind != HubError::Kind::Incomplete; }
};

struct LookupOptions {
    int parallel = 16;         // files fetched at once (1: one after another)
    bool applyFilters = true;
    // Each folder of the walk is listed within these (a registry folder holds far fewer): up to `parallel`
    // listings run at once, so a Hub that keeps sending pages costs at most that many times this.
    ListingLimits listing{500, 50000};
};

// Stops early, with a Cancelled error, once `cancel` is set.
LookupResult lookupModel(const HubClient &hub, const QString &repo, const QString &modelId, const LookupFilters &filters,
                         const LookupOptions &options = {}, const std::atomic_bool *cancel = nullptr);

}  // namespace ingot
