// The caches "Why did it compile?" looks in besides the one a job used (explain.h, "other-cache"): a local folder,
// a host's cache over SSH, an S3 prefix, or a Hub cache repo, named as the CLI's --other and the settings name them,
// and the set Ingot knows (the folders added on the Local cache page, this machine's Neuron location, the Hub cache
// repo in use and those added). Asking one never changes it.
#pragma once

#include "services/cache/explain.h"
#include "services/stores/storelocation.h"

#include <QString>
#include <QVector>

#include <memory>

namespace ingot {

class SecretStore;

// "hub:org/name" (the Hub at HF_ENDPOINT, with the user's token), "s3://bucket/prefix" (S3 with this machine's AWS
// keys: the kind must be registered, as the GUI and the CLI do at start-up), "host:/path" (over SSH), or a local
// folder. nullopt, with words, for a spec that is none of these (another URL is never taken as a host).
std::optional<OtherCache> otherCacheFor(const QString &spec, std::shared_ptr<SecretStore> keychain, QString *error);

// The caches Ingot knows, without `target` itself.
QVector<OtherCache> knownOtherCaches(const StoreLocation &target, std::shared_ptr<SecretStore> keychain);

// Scans `where` (a local or host cache) and explains `key` there. nullopt, with words, when the cache cannot be
// opened. Blocking: call it off the UI thread.
std::optional<Explanation> explainIn(const ModuleKey &key, const StoreLocation &where, const QString &rule,
                                     const QVector<OtherCache> &others, const ExplainOptions &options, QString *error);

}  // namespace ingot
