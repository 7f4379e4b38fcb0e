#include "services/cache/cachehealth.h"

#include "services/cache/cachescanner.h"
#include "services/stores/storefactory.h"

#include <QFileInfo>

namespace ingot {

CacheHealth checkCacheHealth(const StoreLocation &where, const std::atomic_bool *stop)
{
    CacheHealth c;
    c.root = where.path;
    c.exists = !where.isLocal() || QFileInfo(where.path).isDir();
    if (!c.exists)
        return c;
    std::unique_ptr<CacheStore> store = makeStore(where, &c.error);
    if (!store || !store->open(&c.error))
        return c;
    CacheScanner scanner(*store);
    const CacheSnapshot snap = scanner.scan(nullptr, {}, stop);
    if (!snap.fatalError.isEmpty()) {
        c.error = snap.fatalError;
        return c;
    }
    for (const CacheModule &m : snap.modules) {
        if (!m.isModule())
            continue;
        ++c.entries;
        c.failed += m.state == ModuleState::Failed;
        c.locked += m.state == ModuleState::Locked;
    }
    if (c.locked > 0) {
        QString ignored;
        c.compilersRunning = int(store->runningCompilers(&ignored).size());
    }
    return c;
}

}  // namespace ingot
