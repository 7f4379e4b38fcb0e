// The Hugging Face token: where it comes from (the order huggingface_hub uses, plus Ingot's keychain entry;
// docs/formats.md, "Hub HTTP API"), and saving or forgetting the one entered in Ingot.
// These may call the keychain, which blocks: call them off the UI thread (runTask).
#pragma once

#include "services/hub/hubenv.h"

namespace ingot {

class SecretStore;

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
// Removes the token saved in Ingot: the keychain entry and the token file.
bool forgetToken(const HubConfig &config, SecretStore *keychain, QString *error);

}  // namespace ingot
