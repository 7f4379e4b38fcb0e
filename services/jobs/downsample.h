// What a chart draws of a long run: min/max per pixel column (the line still reaches every extreme) and
// TensorBoard's debiased EMA. Both leave the source untouched; the chart keeps every point.
#pragma once

#include <QPointF>
#include <QVector>

namespace ingot {

// `points` sorted by x. For each of `columns` equal columns over [xMin, xMax]: the first, lowest, highest and last
// point, in x order; of the points outside the range, the one just before and the one just after, so the line
// reaches the edges. Points with a non-finite x or y are left out. With at most 4 × columns + 2 usable points, all of them
// come back unchanged (no columns needed). At most 4 × columns + 2 points come back.
QVector<QPointF> minMaxDownsample(const QVector<QPointF> &points, double xMin, double xMax, int columns);

// TensorBoard's smoothing: s_i = (w·a_{i-1} + (1-w)·v_i) / (1 - w^k), k the count of finite values so far; weight
// 0 gives the values back, 0.99 smooths heavily (clamped to [0, 0.999]). A non-finite value comes back as it is and
// leaves the average untouched.
QVector<double> emaSmooth(const QVector<double> &values, double weight);

}  // namespace ingot
