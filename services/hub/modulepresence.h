// Where a cache entry is, in a Hub cache repo and in the local cache: on both, on the Hub only (a candidate to pull),
// or here only (a candidate to push). The one rule the Hub page's tree and `ingot-cli hub ls --marks` both use.
// Keys are "neuronxcc-<version>/MODULE_<...>", as in the local cache and the Hub repo alike.
#pragma once

#include "services/hub/hubclient.h"

#include <QSet>
#include <QString>
#include <QVector>

namespace ingot {

enum class ModulePresence { None, Both, HubOnly, LocalOnly };

struct ModuleMark {
    QString key;
    ModulePresence presence = ModulePresence::None;
};

// A module folder's name: MODULE_<...>.
bool isModuleFolderName(const QString &name);
// A compiler-version folder's name: neuronxcc-<version>.
bool isVersionFolderName(const QString &name);

// The marks in compiler-version folder `versionPath`: each of `hubKeys` (the module folders the Hub lists there)
// Both or HubOnly; each of `localKeys` under `versionPath` the Hub lacks, LocalOnly. Sorted by key.
QVector<ModuleMark> markModules(const QString &versionPath, const QSet<QString> &hubKeys, const QSet<QString> &localKeys);

// The marks of a whole repo from its recursive listing: every module folder in a compiler-version folder on the
// Hub, and every local key the Hub lacks (in a version folder the Hub has, or one it lacks altogether). Sorted by key.
QVector<ModuleMark> markRepo(const QVector<TreeEntry> &listing, const QSet<QString> &localKeys);

}  // namespace ingot
