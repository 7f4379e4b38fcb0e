#include "services/stores/storelocation.h"

namespace ingot {

namespace {
const QString kLocal = QStringLiteral("local");
}

StoreLocation StoreLocation::local(const QString &path)
{
    return StoreLocation{kLocal, QString(), path};
}

bool StoreLocation::isLocal() const
{
    return kind == kLocal;
}

QString StoreLocation::display() const
{
    return host.isEmpty() ? path : host + QLatin1Char(':') + path;
}

}  // namespace ingot
