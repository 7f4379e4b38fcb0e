// The keys of a cache's module entries (what a Hub cache repo holds too): the local side of the Hub-vs-local marks
// (services/hub/modulepresence.h) on the Hub page and in `ingot-cli hub ls --marks`.
#pragma once

#include "services/cache/cachetypes.h"

#include <QSet>

namespace ingot {

inline QSet<QString> moduleKeys(const QVector<CacheModule> &modules)
{
    QSet<QString> keys;
    for (const CacheModule &m : modules)
        if (m.isModule())
            keys.insert(m.key());
    return keys;
}

}  // namespace ingot
