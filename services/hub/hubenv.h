// Where the Hub is and where huggingface_hub keeps its files, read from the environment with the rules
// huggingface_hub and optimum-cli follow (docs/formats.md, "Hub HTTP API"), so Ingot and those tools always agree.
#pragma once

#include <QProcessEnvironment>
#include <QString>

namespace ingot {

struct HubConfig {
    QString endpoint;   // HF_ENDPOINT without a trailing '/', default https://huggingface.co
    QString hfHome;     // HF_HOME, else $XDG_CACHE_HOME/huggingface, else ~/.cache/huggingface
    QString tokenPath;  // HF_TOKEN_PATH, else $HF_HOME/token
    bool offline = false;  // HF_HUB_OFFLINE=1: no request at all

    static HubConfig fromEnvironment(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    // The file optimum-cli reads the cache repo in use from (docs/formats.md, "Hub cache repos").
    QString customCacheRepoFile() const { return hfHome + QStringLiteral("/optimum_neuron_custom_cache"); }
};

}  // namespace ingot
