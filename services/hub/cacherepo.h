// The Hub cache repo in use, chosen as optimum-cli chooses it (docs/formats.md, "Hub cache repos"), and what
// `cache create` and `cache set` do to it. Blocking calls (the Hub, small files): call them off the UI thread.
#pragma once

#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"

#include <atomic>

namespace ingot {

// CUSTOM_CACHE_REPO, else the file $HF_HOME/optimum_neuron_custom_cache, else the public one.
struct CacheRepoChoice {
    enum class Source { Env, File, Default };
    QString repo;
    Source source = Source::Default;
    QString describe() const;
};
QString defaultCacheRepo();  // aws-neuron/optimum-neuron-cache
CacheRepoChoice resolveCacheRepo(const HubConfig &config,
                                 const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
// Writes the repo id to the custom cache file (atomically). False, with words in *error, for an invalid id or a
// file that cannot be written.
bool writeCustomCacheRepo(const HubConfig &config, const QString &repo, QString *error);

struct CacheRepoOutcome {
    QString repo;          // org/name
    bool existed = false;  // create: the repo was there already, and is simply used
    // InvalidArgument: not a repo id; Storage: the Hub side is done but the custom cache file could not be
    // written; any other kind: what the Hub answered.
    HubError error;
};

// `cache create`: creates `name` ("org/name", or a name in the token owner's namespace) as a model repo,
// private unless `isPublic` (an existing repo is used, as optimum-cli's exist_ok), then makes it the repo in use.
CacheRepoOutcome createCacheRepo(const HubClient &hub, const HubConfig &config, const QString &name, bool isPublic,
                                 const std::atomic_bool *cancel = nullptr);
// `cache set`: checks that `repo` exists and can be read, then makes it the repo in use.
CacheRepoOutcome setCacheRepo(const HubClient &hub, const HubConfig &config, const QString &repo,
                              const std::atomic_bool *cancel = nullptr);

}  // namespace ingot
