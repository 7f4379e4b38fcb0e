// TorchNeuron's NEFF cache: the third compile-cache format Ingot shows, beside neuronx-cc's (cachelocation.h) and the
// TorchNeuron / vLLM-Neuron key folders (torchneuron.h). torch-neuronx on PyTorch's native path (Neuron 2.30 and
// later) keeps the NEFFs it compiled in the folder TORCH_NEURONX_NEFF_CACHE_DIR names, /tmp/neff_cache when it is not
// set, as `.neff` files in folders below it (aws-neuron-sdk, tools/neuron-explorer: environment-variables.rst,
// how-to-profile-workload.rst, troubleshooting.rst; docs/formats.md "TorchNeuron NEFF cache"). Nothing more of it is
// documented: Ingot shows the NEFF files by size and age and removes old ones on a preview, and reads no key, marker
// or version into it. Checked against the documentation only: no TorchNeuron build runs here.
#pragma once

#include "services/stores/cachestore.h"

#include <QMetaType>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

struct NeffCacheLocation {
    QString path;
    QString why;  // which variable (or the documented default) gave it, in words
    static QString defaultPath() { return QStringLiteral("/tmp/neff_cache"); }
};
NeffCacheLocation resolveNeffCacheLocation(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

struct NeffFile {
    QString rel;           // root-relative
    qint64 size = 0;
    qint64 lastUsedMs = 0;  // the newer of its access and modification times
};

struct NeffCacheSnapshot {
    QVector<NeffFile> neffs;     // largest first
    int otherFiles = 0;          // files that are not .neff (a write's temporary file, anything else): left alone
    qint64 otherBytes = 0;
    int links = 0;               // symbolic links: never followed, left alone
    int foldersNotRead = 0;      // below maxDepth, or past maxEntries
    QStringList warnings;        // folders that could not be listed
    QString fatalError;          // the root cannot be opened
    qint64 size() const;
    int unusedFor(int days, qint64 nowMs, qint64 *bytes = nullptr) const;
};

// Walks the root (folders maxDepth deep at most, maxEntries entries in all: memory stays bounded whatever is there).
constexpr int neffCacheMaxDepth = 6;
constexpr int neffCacheMaxEntries = 500000;
NeffCacheSnapshot scanNeffCache(CacheStore &store);

struct NeffStep {
    QString rel;
    qint64 bytes = 0;
    qint64 lastUsedMs = 0;
};
// NEFF files unused for more than ttlDays, the oldest first.
QVector<NeffStep> planNeffPrune(const NeffCacheSnapshot &snap, int ttlDays, qint64 nowMs);

struct NeffPruneReport {
    int done = 0;
    int skipped = 0;  // used again, locked, or changed since the preview: left
    qint64 freed = 0;
    QStringList errors;
};
// Carries out a previewed plan, each file looked at again right before it goes: still a file of the size the preview
// saw, still unused for ttlDays, and not locked (a *.lock beside it, or, on this machine, a flock a process holds on
// it; where that cannot be seen, as on a host, nothing is removed). The store never leaves its root.
NeffPruneReport executeNeffPrune(CacheStore &store, const QVector<NeffStep> &plan, int ttlDays, qint64 nowMs);

}  // namespace ingot
Q_DECLARE_METATYPE(ingot::NeffPruneReport)
