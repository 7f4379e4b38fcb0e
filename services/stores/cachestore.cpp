#include "services/stores/cachestore.h"

namespace ingot {

CacheStore::~CacheStore() = default;

// The generic way: the parent's listing, for stores whose listNames() gives everything anyway.
bool CacheStore::statEntry(const QString &rel, StoreEntry *entry, bool *vanished, QString *error)
{
    const int slash = rel.lastIndexOf(QLatin1Char('/'));
    const ListResult parent = list(slash < 0 ? QString() : rel.left(slash));
    *vanished = parent.vanished;
    if (!parent.ok) {
        *error = parent.error;
        return false;
    }
    const QStringView name = QStringView(rel).mid(slash + 1);
    for (const StoreEntry &e : parent.entries)
        if (e.name == name) {
            *entry = e;
            return true;
        }
    *vanished = true;
    return false;
}

}  // namespace ingot
