#include "services/hub/repoid.h"

#include <QRegularExpression>

namespace ingot {

bool isValidRepoId(const QString &repo)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$"));
    return re.match(repo).hasMatch() && !repo.contains(QLatin1String("..")) && !repo.endsWith(QLatin1Char('.')) &&
           !repo.endsWith(QLatin1Char('-'));
}

}  // namespace ingot
