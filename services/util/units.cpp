#include "services/util/units.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace ingot {

namespace {
struct UnitsText {
    Q_DECLARE_TR_FUNCTIONS(ingot::units)
};
}  // namespace

QString formatBytes(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, bytes < 1000 * 1000 ? 0 : 1, QLocale::DataSizeSIFormat);
}

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

QString formatAge(qint64 thenMs, qint64 nowMs)
{
    if (thenMs <= 0)
        return QStringLiteral("-");
    const qint64 s = std::max<qint64>(0, (nowMs - thenMs) / 1000);
    if (s < 60)
        return UnitsText::tr("just now");
    if (s < 3600)
        return UnitsText::tr("%n min ago", nullptr, int(s / 60));
    if (s < 86400 * 2)
        return UnitsText::tr("%n h ago", nullptr, int(s / 3600));
    return UnitsText::tr("%n days ago", nullptr, int(s / 86400));
}

QString formatTime(qint64 ms)
{
    if (ms <= 0)
        return QStringLiteral("-");
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

}  // namespace ingot
