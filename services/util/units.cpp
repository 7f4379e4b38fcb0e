#include "services/util/units.h"

#include <QRegularExpression>

#include <cmath>

namespace ingot {

qint64 parseBytes(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kKmMgGtT]?)(i?)[bB]?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return -1;
    const double n = m.captured(1).toDouble();
    const QString unit = m.captured(2).toUpper();
    const bool binary = !m.captured(3).isEmpty();
    if (binary && unit.isEmpty())
        return -1;
    const double base = binary ? 1024.0 : 1000.0;
    int power = 0;
    if (unit == QLatin1String("K"))
        power = 1;
    else if (unit == QLatin1String("M"))
        power = 2;
    else if (unit == QLatin1String("G"))
        power = 3;
    else if (unit == QLatin1String("T"))
        power = 4;
    const double v = n * std::pow(base, power);
    if (v > 9.0e18)
        return -1;
    return qint64(std::llround(v));
}

}  // namespace ingot
