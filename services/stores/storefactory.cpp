#include "services/stores/storefactory.h"

#include "services/stores/localcachestore.h"

#include <QCoreApplication>
#include <QHash>
#include <QReadWriteLock>

namespace ingot {

namespace {
struct FactoryText {
    Q_DECLARE_TR_FUNCTIONS(ingot::StoreFactory)
};
}  // namespace

struct StoreFactory::Private {
    mutable QReadWriteLock lock;
    QHash<QString, Maker> makers;
};

StoreFactory::StoreFactory() : d(std::make_unique<Private>())
{
    d->makers.insert(StoreLocation::local(QString()).kind, [](const StoreLocation &loc) -> std::unique_ptr<CacheStore> {
        return std::make_unique<LocalCacheStore>(loc.path);
    });
}

StoreFactory &StoreFactory::instance()
{
    static StoreFactory factory;
    return factory;
}

void StoreFactory::registerKind(const QString &kind, Maker maker)
{
    QWriteLocker lock(&d->lock);
    d->makers.insert(kind, std::move(maker));
}

bool StoreFactory::hasKind(const QString &kind) const
{
    QReadLocker lock(&d->lock);
    return d->makers.contains(kind);
}

QStringList StoreFactory::kinds() const
{
    QReadLocker lock(&d->lock);
    QStringList k = d->makers.keys();
    k.sort();
    return k;
}

std::unique_ptr<CacheStore> StoreFactory::create(const StoreLocation &location, QString *error) const
{
    Maker maker;
    {
        QReadLocker lock(&d->lock);
        maker = d->makers.value(location.kind);
    }
    if (!maker) {
        if (error)
            *error = FactoryText::tr("Ingot cannot open caches of the kind \"%1\" (%2).").arg(location.kind, location.display());
        return nullptr;
    }
    std::unique_ptr<CacheStore> store = maker(location);
    if (!store && error)
        *error = FactoryText::tr("Ingot cannot open the cache %1.").arg(location.display());
    return store;
}

std::unique_ptr<CacheStore> makeStore(const StoreLocation &location, QString *error)
{
    return StoreFactory::instance().create(location, error);
}

}  // namespace ingot
