// Where the Hub is, who you are on it, and which cache repo to use: the conventions huggingface_hub and
// optimum-cli follow (REFERENCE.md §2-3), so Ingot and those tools always agree.
#pragma once

#include <QProcessEnvironment>
#include <QString>

namespace ingot {

class SecretStore;

struct HubConfig {
    QString endpoint;   // HF_ENDPOINT without a trailing '/', default https://huggingface.co
    QString hfHome;     // HF_HOME, else $XDG_CACHE_HOME/huggingface, else ~/.cache/huggingface
    QString tokenPath;  // HF_TOKEN_PATH, else $HF_HOME/token
    bool offline = false;  // HF_HUB_OFFLINE=1: no request at all

    static HubConfig fromEnvironment(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    QString customCacheRepoFile() const { return hfHome + QStringLiteral("/optimum_neuron_custom_cache"); }
};

struct ResolvedToken {
    enum class Source { None, HfTokenEnv, LegacyEnv, Keychain, TokenFile };
    QString token;  // never print it
    Source source = Source::None;
    QString describe() const;  // "HF_TOKEN", "the token file ~/.cache/huggingface/token", ...
    QString location;          // file path for TokenFile
};

// HF_TOKEN, then HUGGING_FACE_HUB_TOKEN, then the token saved in Ingot (keychain), then the token file.
ResolvedToken resolveToken(const HubConfig &config, SecretStore *keychain,
                           const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());

// Saves a token entered in Ingot: in the keychain when one runs, else in the token file (mode 0600, atomic).
// Returns where it went, or false with words in *error.
bool saveToken(const HubConfig &config, SecretStore *keychain, const QString &token, QString *where, QString *error);
bool forgetToken(const HubConfig &config, SecretStore *keychain, QString *error);

// The cache repo: CUSTOM_CACHE_REPO, else the file $HF_HOME/optimum_neuron_custom_cache, else the public one.
struct CacheRepoChoice {
    enum class Source { Env, File, Default };
    QString repo;
    Source source = Source::Default;
    QString describe() const;
};
QString defaultCacheRepo();  // aws-neuron/optimum-neuron-cache
CacheRepoChoice resolveCacheRepo(const HubConfig &config,
                                 const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
bool writeCustomCacheRepo(const HubConfig &config, const QString &repo, QString *error);


// A repo id "org/name": two non-empty parts of [A-Za-z0-9._-], no "..", no leading/trailing "-" or ".".
bool isValidRepoId(const QString &repo);

}  // namespace ingot
