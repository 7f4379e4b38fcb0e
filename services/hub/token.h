// The Hugging Face token: where it comes from (the order huggingface_hub uses, plus Ingot's keychain entry;
// docs/formats.md, "Hub HTTP API"), and saving or forgetting the one entered in Ingot.
// These may call the keychain, which blocks (at most its timeout): call them off the UI thread (runTask). A keychain
// that cannot be used, for whatever reason (none runs, it does not answer in time, it fails), leaves the token file.
#pragma once

#include "services/hub/hubenv.h"

#include <atomic>

namespace ingot {

class SecretStore;

struct ResolvedToken {
    enum class Source { None, HfTokenEnv, LegacyEnv, Keychain, TokenFile };
    QString token;  // never print it
    Source source = Source::None;
    QString describe() const;  // "HF_TOKEN", "the token file ~/.cache/huggingface/token", ...
    QString location;          // file path for TokenFile
    QString keychainError;     // why the keychain could not be read (it runs but failed or did not answer), else empty
};

// HF_TOKEN, then HUGGING_FACE_HUB_TOKEN, then the token saved in Ingot (keychain), then the token file.
// `stop` (may be null) ends a wait on the keychain early: then the token file is read.
ResolvedToken resolveToken(const HubConfig &config, SecretStore *keychain,
                           const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                           const std::atomic_bool *stop = nullptr);

// Saves a token entered in Ingot: in the keychain when one runs, else in the token file (mode 0600, atomic).
// Returns where it went, or false with words in *error.
bool saveToken(const HubConfig &config, SecretStore *keychain, const QString &token, QString *where, QString *error);
// Removes the token saved in Ingot: the keychain entry and the token file. False with words in *error when the token
// file stays, or the keychain did not answer (its entry may stay).
bool forgetToken(const HubConfig &config, SecretStore *keychain, QString *error);

}  // namespace ingot
