#include "services/util/format.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QMutex>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

namespace ingot {

namespace {
struct FormatText {
    Q_DECLARE_TR_FUNCTIONS(ingot::units)
};

QMutex &localeMutex()
{
    static QMutex m;
    return m;
}

std::optional<QLocale> &chosenLocale()
{
    static std::optional<QLocale> l;
    return l;
}

bool isC(const QLocale &l)
{
    return l.language() == QLocale::C;
}

// Drops the zeros a fixed form ends with, and the decimal point when nothing follows it: "2.3000" -> "2.3".
QString trimZeros(QString s, const QLocale &l)
{
    const QString point = l.decimalPoint();
    if (!s.contains(point))
        return s;
    while (s.endsWith(QLatin1Char('0')))
        s.chop(1);
    if (s.endsWith(point))
        s.chop(point.size());
    return s;
}
}  // namespace

void setDisplayLocale(const QLocale &locale)
{
    QMutexLocker lock(&localeMutex());
    chosenLocale() = locale;
}

QLocale displayLocale()
{
    QMutexLocker lock(&localeMutex());
    return chosenLocale().value_or(QLocale());
}

QString formatBytes(qint64 bytes)
{
    return formatBytes(bytes, 1);
}

QString formatBytes(qint64 bytes, int decimals)
{
    return displayLocale().formattedDataSize(bytes, std::llabs(bytes) < 1024 ? 0 : decimals, QLocale::DataSizeIecFormat);
}

std::pair<QString, QString> formatBytesBeforeAfter(qint64 before, qint64 after)
{
    QString a = formatBytes(before), b = formatBytes(after);
    for (int decimals = 2; decimals <= 3 && a == b; ++decimals) {
        a = formatBytes(before, decimals);
        b = formatBytes(after, decimals);
    }
    return {a, b};
}

QString formatMebibytes(qint64 mib)
{
    return formatBytes(mib > (qint64(1) << 42) ? std::numeric_limits<qint64>::max() : mib * 1024 * 1024);
}

QString formatCount(qint64 n)
{
    return displayLocale().toString(n);
}

QString formatDateTime(const QDateTime &when)
{
    if (!when.isValid())
        return QStringLiteral("-");
    const QLocale l = displayLocale();
    if (isC(l))
        return when.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    QString date = l.dateFormat(QLocale::ShortFormat);
    if (!date.contains(QLatin1String("yyyy")))
        date.replace(QLatin1String("yy"), QLatin1String("yyyy"));
    return l.toString(when, date + QLatin1Char(' ') + l.timeFormat(QLocale::ShortFormat));
}

QString formatDateTime(qint64 msSinceEpoch)
{
    if (msSinceEpoch <= 0)
        return QStringLiteral("-");
    return formatDateTime(QDateTime::fromMSecsSinceEpoch(msSinceEpoch));
}

QString isoDateTime(qint64 msSinceEpoch)
{
    return msSinceEpoch > 0 ? QDateTime::fromMSecsSinceEpoch(msSinceEpoch).toUTC().toString(Qt::ISODateWithMs) : QString();
}

QString formatAge(qint64 thenMs, qint64 nowMs)
{
    if (thenMs <= 0)
        return QStringLiteral("-");
    const qint64 s = std::max<qint64>(0, (nowMs - thenMs) / 1000);
    if (s < 60)
        return FormatText::tr("just now");
    if (s < 3600)
        return FormatText::tr("%n min ago", nullptr, int(s / 60));
    if (s < 86400 * 2)
        return FormatText::tr("%n h ago", nullptr, int(s / 3600));
    return FormatText::tr("%n days ago", nullptr, int(s / 86400));
}

QString formatLayout(int dataParallel, int tensorParallel, int pipelineParallel)
{
    return QStringLiteral("%1\u00d7%2\u00d7%3").arg(dataParallel).arg(tensorParallel).arg(pipelineParallel);
}

QString formatMetric(double value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    if (value == 0)
        return QStringLiteral("0");
    const QLocale l = displayLocale();
    const double a = std::fabs(value);
    if (a < 1e-3 || a >= 1e9) {
        // "3.330e-06" -> mantissa 3.33, exponent -6 (the rounding already carried, 9.9996e-4 -> 1.000e-03).
        const QString c = QString::number(value, 'e', 3);
        const qsizetype e = c.indexOf(QLatin1Char('e'));
        const double mantissa = c.left(e).toDouble();
        const int exponent = c.mid(e + 1).toInt();
        return trimZeros(l.toString(mantissa, 'f', 3), l) + QLatin1Char('e') + QString::number(exponent);
    }
    const int digits = int(std::floor(std::log10(a))) + 1;  // before the point: 3 for 879.4, -1 for 0.01234
    return trimZeros(l.toString(value, 'f', std::max(0, 4 - digits)), l);
}

}  // namespace ingot
