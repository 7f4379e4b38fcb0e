#include "services/util/relpath.h"

#include <QStringList>

namespace ingot {

bool isSafeRelativePath(const QString &rel)
{
    if (rel.isEmpty())
        return true;  // the root itself
    if (rel.startsWith(QLatin1Char('/')) || rel.contains(QChar(0)))
        return false;
    const auto parts = rel.split(QLatin1Char('/'));
    for (const auto &p : parts)
        if (p.isEmpty() || p == QLatin1String(".") || p == QLatin1String(".."))
            return false;
    return true;
}

}  // namespace ingot
