// The registry of a Hub cache repo: the JSON entries optimum-neuron writes beside the compiled modules to record
// which model was compiled at which shapes, in every shape its versions have written (docs/formats.md, "Hub cache
// repos"). Parsing only: no I/O.
#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

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

// Parses one registry entry (the file's JSON text). Never throws; an unknown shape has known == false.
LookupEntry parseRegistryEntry(const QByteArray &json, const QString &path);
// The oldest layout: one registry.json at the root, with entries keyed by model id (one entry, a list, or an
// object of entries) or a list of entries. Returns those of `modelId` (and entries that name no model); a file
// that is not JSON comes back as one unknown entry.
QVector<LookupEntry> parseRegistryJson(const QByteArray &json, const QString &path, const QString &modelId);
// "torch.bfloat16", "bf16" -> "bfloat16"; "fp16", "half" -> "float16"; "fp32", "float" -> "float32".
QString normalizeDtype(const QString &dtype);

}  // namespace ingot
