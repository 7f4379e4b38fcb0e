// "Is my model at these shapes already compiled?": the registry entries of a Hub cache repo for one model,
// across every registry layout optimum-neuron versions have written (REFERENCE.md §2), fetched in parallel.
#pragma once

#include "services/hub/hubclient.h"

namespace ingot {

struct LookupEntry {
    QString path;        // where the entry lives in the repo
    QByteArray raw;      // the entry's JSON text, as stored
    bool known = false;  // a shape Ingot understands; unknown ones are shown raw
    QString modelId;
    QString task;
    int batchSize = -1;
    int sequenceLength = -1;
    int tensorParallel = -1;
    QString dtype;         // normalized: bfloat16, float16, float32 ...
    QString instanceType;  // target: trn1, trn2, inf2 ...
    QString compilerVersion;
    QString checkpointRevision;
    QString registryLayout;  // "current", "0.2-0.4", "0.1 (training/inference)", "registry.json"
};

struct LookupFilters {
    QString instanceType;
    int batchSize = -1;
    int sequenceLength = -1;
    int tensorParallel = -1;
    QString dtype;
    bool matches(const LookupEntry &e) const;
};

struct LookupResult {
    QVector<LookupEntry> entries;  // known shapes that pass the filters, de-duplicated and sorted
    QVector<LookupEntry> unknown;  // unknown shapes for this model, raw
    int fetched = 0;               // registry files read
    QStringList registries;        // registry roots found
    HubError error;
};

// Parses one registry entry (the file's JSON text). Never throws; an unknown shape has known == false.
LookupEntry parseRegistryEntry(const QByteArray &json, const QString &path);
QString normalizeDtype(const QString &dtype);

struct LookupOptions {
    int parallel = 16;         // files fetched at once (1: one after another)
    bool applyFilters = true;
};

LookupResult lookupModel(const HubClient &hub, const QString &repo, const QString &modelId, const LookupFilters &filters,
                         const LookupOptions &options = {}, const std::atomic_bool *cancel = nullptr);

// The table optimum-cli prints (title, centered columns), with compiler version and checkpoint revision.
QString formatLookupTable(const QString &modelId, const QVector<LookupEntry> &entries);

}  // namespace ingot
