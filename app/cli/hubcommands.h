// `ingot-cli hub ...` and the Hub side of `ingot-cli cache ...` (create, set, lookup).
#pragma once

#include "app/cli/commandtable.h"
#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"
#include "services/hub/registry.h"
#include "services/hub/secretstore.h"
#include "services/hub/token.h"

#include <memory>

#include <QStringList>

namespace ingot::cli {

// The system keychain unless INGOT_KEYCHAIN=none (headless hosts and tests, where no keychain service runs).
std::shared_ptr<SecretStore> keychain();
// Everything a Hub command needs, from the environment: where the Hub is, the token and its source, a client.
struct HubContext {
    std::shared_ptr<SecretStore> keychain;
    HubConfig config;
    ResolvedToken token;
    HubClient hub;
};
HubContext hubContext();
// The exit code for a Hub failure (README: 2 usage, 6 Hub failure, 7 access, 8 offline).
int exitFor(const HubError &e);
// Prints the error (JSON too with asJson) and returns exitFor(e).
int fail(const HubError &e, bool asJson);

// The rows of the hub group and the Hub commands of the cache group.
QVector<Command> hubCommands();
// The table optimum-cli prints (title, centered columns), with compiler version and checkpoint revision.
QString formatLookupTable(const QString &modelId, const QVector<LookupEntry> &entries);

}  // namespace ingot::cli
