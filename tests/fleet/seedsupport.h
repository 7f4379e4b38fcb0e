// What the seed tests share: ingot-cli's environment for a job whose compile cache is `cache` (the Neuron runtime's
// NEURON_COMPILE_CACHE_URL), with its own settings and data under `home`, no keychain, the Hub offline, in English.
#pragma once

#include <QProcessEnvironment>
#include <QString>

namespace ingot::test {

inline QProcessEnvironment seedCliEnvironment(QProcessEnvironment e, const QString &home, const QString &cache)
{
    e.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    e.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    e.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/xdg-cache"));
    e.insert(QStringLiteral("HF_HUB_OFFLINE"), QStringLiteral("1"));
    e.insert(QStringLiteral("INGOT_KEYCHAIN"), QStringLiteral("none"));
    e.insert(QStringLiteral("NEURON_COMPILE_CACHE_URL"), cache);
    e.remove(QStringLiteral("NEURON_CC_FLAGS"));
    e.remove(QStringLiteral("INGOT_LANGUAGE"));
    return e;
}

}  // namespace ingot::test
