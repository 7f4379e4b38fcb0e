#include "services/jobs/downsample.h"

#include <algorithm>
#include <cmath>

namespace ingot {

namespace {
bool usable(const QPointF &p) { return std::isfinite(p.x()) && std::isfinite(p.y()); }
}  // namespace

QVector<QPointF> minMaxDownsample(const QVector<QPointF> &points, double xMin, double xMax, int columns)
{
    columns = std::max(columns, 1);
    const qsizetype n = points.size();
    qsizetype count = 0;
    for (const QPointF &p : points)
        count += usable(p) ? 1 : 0;
    QVector<QPointF> out;
    if (count <= qsizetype(4) * columns + 2) {
        out.reserve(count);
        for (const QPointF &p : points)
            if (usable(p))
                out.append(p);
        return out;
    }
    if (!std::isfinite(xMin) || !std::isfinite(xMax)) {
        xMin = HUGE_VAL;
        xMax = -HUGE_VAL;
        for (const QPointF &p : points) {
            if (usable(p)) {
                xMin = std::min(xMin, p.x());
                xMax = std::max(xMax, p.x());
            }
        }
    }
    if (xMax < xMin)
        std::swap(xMin, xMax);
    const double width = xMax - xMin;

    // The columns' chosen points, by index into `points`; -1 where a column is empty.
    struct Column {
        qsizetype first = -1, min = -1, max = -1, last = -1;
    };
    QVector<Column> cols(columns);
    qsizetype before = -1, after = -1;
    for (qsizetype i = 0; i < n; ++i) {
        const QPointF &p = points.at(i);
        if (!usable(p))
            continue;
        if (p.x() < xMin) {
            before = i;
            continue;
        }
        if (p.x() > xMax) {
            after = i;
            break;
        }
        int c = width > 0 ? int((p.x() - xMin) / width * columns) : 0;
        c = std::clamp(c, 0, columns - 1);
        Column &col = cols[c];
        if (col.first < 0) {
            col.first = col.min = col.max = col.last = i;
            continue;
        }
        if (p.y() < points.at(col.min).y())
            col.min = i;
        if (p.y() > points.at(col.max).y())
            col.max = i;
        col.last = i;
    }

    out.reserve(qsizetype(4) * columns + 2);
    if (before >= 0)
        out.append(points.at(before));
    for (const Column &col : std::as_const(cols)) {
        if (col.first < 0)
            continue;
        qsizetype picked[4] = {col.first, col.min, col.max, col.last};
        std::sort(picked, picked + 4);
        qsizetype previous = -1;
        for (qsizetype i : picked) {
            if (i != previous)
                out.append(points.at(i));
            previous = i;
        }
    }
    if (after >= 0)
        out.append(points.at(after));
    return out;
}

QVector<double> emaSmooth(const QVector<double> &values, double weight)
{
    if (!(weight > 0))
        return values;  // 0 or NaN: the raw values
    weight = std::min(weight, 0.999);
    QVector<double> out;
    out.reserve(values.size());
    double accumulated = 0;
    double debias = 1;  // weight^k
    for (double v : values) {
        if (!std::isfinite(v)) {
            out.append(v);
            continue;
        }
        accumulated = accumulated * weight + (1 - weight) * v;
        debias *= weight;
        out.append(accumulated / (1 - debias));
    }
    return out;
}

}  // namespace ingot
