// Logging in to the Hub, the one way the GUI and ingot-cli do it: the token is checked with the Hub (whoami) and
// only then saved (the keychain, else the token file), so a mistyped or revoked token is never kept.
// Blocks on the Hub and the keychain: call it off the UI thread (runTask). The token never reaches a log or the
// result.
#pragma once

#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"

#include <atomic>

namespace ingot {

class SecretStore;

struct HubLogin {
    WhoAmI me;           // who the token belongs to (the Hub's text: escape it to show it)
    HubError error;      // the Hub refused the token or could not be asked: nothing was saved
    QString storedIn;    // where the token went: the keychain's name or the token file's path
    bool saved = false;  // false with error ok: the Hub accepted the token but it could not be saved (saveError)
    QString saveError;
    bool ok() const { return error.ok() && saved; }
};

// Checks `token` (surrounding white space dropped) against config's endpoint, then saves it. `stop` (may be null)
// ends the Hub's answer early (error Cancelled, nothing saved).
HubLogin logIn(const HubConfig &config, SecretStore *keychain, const QString &token, const std::atomic_bool *stop = nullptr);

}  // namespace ingot
