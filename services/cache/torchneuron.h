// The second Neuron compile-cache format: TorchNeuron's torch.compile backend and vLLM-Neuron (libtorch-neuronx-lite),
// as the aws-neuron-sdk documents it (vllm-neuron/docs/design/compilation/compilation_cache.md; docs/formats.md,
// "TorchNeuron / vLLM-Neuron caches"): one folder per cache key, <root>/<key>/, the key 32 hex characters (an MD5 of
// the graph, its inputs, the versions, the compiler arguments and the target); an entry is whole once its
// `.compilation_complete` marker is there (written last); one lock file per key coordinates the processes of a node.
// The local tier is $VLLM_CACHE_ROOT/neuron/compile_cache (default ~/.cache/vllm/...), the optional remote tier
// $NEURON_LIBTORCH_REMOTE_CACHE (an NFS or FSx mount, the same layout).
//
// Read through the store interface, so a folder here, a host's over SSH and an S3 prefix are read alike. Whether a
// lock is held can only be seen on this machine (a non-blocking shared flock on the lock file, the kind of lock
// Python's filelock takes): elsewhere every lock counts as held. Checked against the documentation, not a running
// TorchNeuron.
#pragma once

#include "services/stores/cachestore.h"

#include <QHash>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

struct TorchNeuronLocations {
    QString local;        // the local tier's folder
    QString localWhy;     // which variable (or default) gave it
    QString remote;       // NEURON_LIBTORCH_REMOTE_CACHE, empty when unset
    bool disabled = false;  // NEURON_LIBTORCH_DISABLE_COMPILE_CACHE=1
    int waitSeconds = 600;  // NEURON_LIBTORCH_COMPILATION_TIMEOUT: how long a process waits for another's compile
};

// As the documentation resolves them from `env` (a home on NFS: the /tmp fallback, told by `homeOnNfs`).
TorchNeuronLocations resolveTorchNeuronLocations(const QHash<QString, QString> &env, const QString &home, const QString &user,
                                                 bool homeOnNfs);
// For this process: its environment, home and user; the home's file system looked at with statfs.
TorchNeuronLocations resolveTorchNeuronLocations();

// Whether a folder name is a cache key: 32 hex digits.
bool isTorchNeuronKey(const QString &name);

struct TorchNeuronEntry {
    enum class State {
        Complete,    // the marker is there
        Compiling,   // no marker, a lock is held (or cannot be checked here)
        StaleLock,   // no marker and a lock file no process holds: a killed compile
        Incomplete,  // no marker and no lock: an interrupted compile or copy
    };
    QString key;
    State state = State::Incomplete;
    qint64 size = 0;
    int files = 0;
    qint64 lastUsedMs = 0;   // newest access or change of anything in it
    qint64 neffBytes = -1;   // the marker's neff_size, -1 when it names none
    bool neffMismatch = false;  // the marker names a size no graph_*.neff has
    QStringList locks;       // root-relative lock files of this key
    bool locksChecked = false;  // whether the locks' holders could be seen (a local store)
    bool folder = true;         // false: only a lock file at the root names the key
};
QString torchNeuronStateName(TorchNeuronEntry::State s);  // "COMPLETE", "COMPILING", "STALE-LOCK", "INCOMPLETE"

struct TorchNeuronSnapshot {
    QVector<TorchNeuronEntry> entries;  // by key
    QStringList otherItems;             // names at the root that are neither a key folder nor a key's lock
    QString fatalError;
    qint64 size() const;
    int count(TorchNeuronEntry::State s) const;
};

// Lists the root and every key folder (the locks probed where the store is local).
TorchNeuronSnapshot scanTorchNeuronCache(CacheStore &store);
// One key's entry as it is now (a maintenance step's re-check); false when it is gone.
bool scanTorchNeuronEntry(CacheStore &store, const QString &key, TorchNeuronEntry *out, QString *error);

enum class TorchNeuronAction {
    CleanIncomplete,  // entries without their marker and without a held lock
    ClearLocks,       // lock files no process holds (a local store only)
    Prune,            // complete entries unused for more than ttlDays
};

struct TorchNeuronStep {
    QString rel;  // an entry folder or a lock file
    QString key;
    qint64 bytes = 0;
    QString why;
};

// What an action would remove, in order; nothing that is held or complete (but Prune's old entries).
QVector<TorchNeuronStep> planTorchNeuron(const TorchNeuronSnapshot &snap, TorchNeuronAction action, int ttlDays,
                                         qint64 nowMs);

struct TorchNeuronReport {
    int done = 0;
    int skipped = 0;  // changed since the preview (a compile started, the marker arrived): left
    qint64 freed = 0;
    QStringList errors;
};
// Carries out a previewed plan, each step re-checked right before it goes (the entry listed again, its locks
// probed again): a step whose entry no longer fits the action is left.
TorchNeuronReport executeTorchNeuron(CacheStore &store, const QVector<TorchNeuronStep> &plan, TorchNeuronAction action,
                                     int ttlDays, qint64 nowMs);

}  // namespace ingot
Q_DECLARE_METATYPE(ingot::TorchNeuronReport)
