#include "services/hub/hublogin.h"

#include "services/hub/token.h"

namespace ingot {

HubLogin logIn(const HubConfig &config, SecretStore *keychain, const QString &token, const std::atomic_bool *stop)
{
    HubLogin r;
    const QString clean = token.trimmed();
    const HubClient hub(config.endpoint, clean, config.offline);
    r.me = hub.whoami(&r.error, stop);
    if (!r.error.ok())
        return r;
    r.saved = saveToken(config, keychain, clean, &r.storedIn, &r.saveError);
    return r;
}

}  // namespace ingot
