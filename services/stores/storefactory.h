// The one place stores are made: the session, the Local cache page (tree, details, charts, maintenance) and the
// CLI ask the factory for a store of a StoreLocation. A new kind of store is a CacheStore subclass and a
// registerKind() call, not edits across ui/. The local kind is registered from the start.
#pragma once

#include "services/stores/cachestore.h"
#include "services/stores/storelocation.h"

#include <QStringList>

#include <functional>
#include <memory>

namespace ingot {

class StoreFactory final
{
public:
    using Maker = std::function<std::unique_ptr<CacheStore>(const StoreLocation &)>;

    static StoreFactory &instance();
    // Registers (or replaces) the maker for a kind. Call at start-up, before stores of that kind are asked for.
    void registerKind(const QString &kind, Maker maker);
    bool hasKind(const QString &kind) const;
    QStringList kinds() const;
    // A fresh store for the location (each thread uses its own); nullptr with words in *error for an unknown kind.
    std::unique_ptr<CacheStore> create(const StoreLocation &location, QString *error = nullptr) const;

private:
    StoreFactory();
    struct Private;
    std::unique_ptr<Private> d;
};

// StoreFactory::instance().create(location).
std::unique_ptr<CacheStore> makeStore(const StoreLocation &location, QString *error = nullptr);

}  // namespace ingot
