#include "services/jobs/metricsexport.h"

#include "services/util/csv.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <cmath>

namespace ingot {

namespace {

// The cells of one point, in the order of metricsExportColumns(); an empty cell has no value.
QVector<QByteArray> cells(const MetricPoint &p, double startedAt)
{
    QByteArray wall;
    if (startedAt > 0 && std::isfinite(p.time))
        wall = QDateTime::fromMSecsSinceEpoch(qint64(std::llround((startedAt + p.time) * 1000)), Qt::UTC)
                   .toString(Qt::ISODateWithMs)
                   .toLatin1();
    return {QByteArray::number(p.step),
            exportNumber(p.time),
            wall,
            exportNumber(p.loss),
            exportNumber(p.learningRate),
            exportNumber(p.gradNorm),
            exportNumber(p.tokensPerSecond),
            exportNumber(p.stepTime),
            exportNumber(p.epoch),
            p.peakMemory >= 0 ? QByteArray::number(p.peakMemory) : QByteArray()};
}

}  // namespace

QStringList metricsExportColumns()
{
    return {QStringLiteral("step"),          QStringLiteral("time_s"),           QStringLiteral("wall_time"),
            QStringLiteral("loss"),          QStringLiteral("learning_rate"),    QStringLiteral("grad_norm"),
            QStringLiteral("tokens_per_second"), QStringLiteral("step_time_s"), QStringLiteral("epoch"),
            QStringLiteral("peak_memory_bytes")};
}

QByteArray exportNumber(double v)
{
    if (!std::isfinite(v))
        return {};
    // QByteArray::number is locale-independent (always the C locale's '.' and no group separators).
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

QByteArray metricsCsv(const MetricsExportInput &in)
{
    QByteArray out;
    const QStringList columns = metricsExportColumns();
    for (int i = 0; i < columns.size(); ++i)
        out += (i ? "," : "") + csvField(columns[i].toUtf8());
    out += "\r\n";
    for (const MetricPoint &p : in.points) {
        const QVector<QByteArray> row = cells(p, in.startedAt);
        for (int i = 0; i < row.size(); ++i)
            out += (i ? "," : "") + csvField(row[i]);
        out += "\r\n";
    }
    return out;
}

QByteArray metricsJson(const MetricsExportInput &in)
{
    const QStringList columns = metricsExportColumns();
    QJsonArray points;
    for (const MetricPoint &p : in.points) {
        const QVector<QByteArray> row = cells(p, in.startedAt);
        QJsonObject o;
        for (int i = 0; i < columns.size(); ++i) {
            if (row[i].isEmpty())
                o.insert(columns[i], QJsonValue::Null);
            else if (columns[i] == QLatin1String("wall_time"))
                o.insert(columns[i], QString::fromLatin1(row[i]));
            else if (columns[i] == QLatin1String("step") || columns[i] == QLatin1String("peak_memory_bytes"))
                o.insert(columns[i], row[i].toLongLong());
            else
                o.insert(columns[i], row[i].toDouble());
        }
        points.append(o);
    }
    QJsonObject root{{QStringLiteral("id"), in.id}, {QStringLiteral("name"), in.name},
                     {QStringLiteral("columns"), QJsonArray::fromStringList(columns)},
                     {QStringLiteral("points"), points}};
    root.insert(QStringLiteral("started_at"),
                in.startedAt > 0 ? QJsonValue(QDateTime::fromMSecsSinceEpoch(qint64(std::llround(in.startedAt * 1000)),
                                                                            Qt::UTC)
                                                  .toString(Qt::ISODateWithMs))
                                 : QJsonValue(QJsonValue::Null));
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace ingot
