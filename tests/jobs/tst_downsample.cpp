// Display downsampling: the extremes and edges of a long run survive min/max per column; the EMA matches a hand
// computation.
#include "services/jobs/downsample.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ingot;

namespace {

// A noisy, falling loss curve with spikes, x = 1 … n.
QVector<QPointF> run(int n, quint32 seed = 7)
{
    QRandomGenerator random(seed);
    QVector<QPointF> points;
    points.reserve(n);
    for (int i = 1; i <= n; ++i)
        points.append(QPointF(i, 3.0 / std::sqrt(i) + random.generateDouble() * 0.2 + (i % 997 == 0 ? 5 : 0)));
    return points;
}

bool sortedByX(const QVector<QPointF> &points)
{
    return std::is_sorted(points.begin(), points.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
}

}  // namespace

class TestDownsample : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fewPointsComeBackUnchanged()
    {
        QVector<QPointF> points = run(402);
        QCOMPARE(minMaxDownsample(points, 1, 402, 100), points);
        points[5].setY(std::nan(""));
        points[6].setX(std::nan(""));
        const QVector<QPointF> out = minMaxDownsample(points, 1, 402, 100);
        QCOMPARE(out.size(), 400);  // without the NaN ones
        QVERIFY(!out.contains(points[5]));
    }

    void extremesAndEdgesSurvive()
    {
        const QVector<QPointF> points = run(100000);
        for (int columns : {1, 7, 200, 900}) {
            const QVector<QPointF> out = minMaxDownsample(points, 1, 100000, columns);
            QVERIFY(out.size() <= 4 * columns + 2);
            QVERIFY(out.size() >= columns);
            QVERIFY(sortedByX(out));
            const auto [lo, hi] = std::minmax_element(points.begin(), points.end(),
                                                      [](const QPointF &a, const QPointF &b) { return a.y() < b.y(); });
            QVERIFY(out.contains(*lo));
            QVERIFY(out.contains(*hi));
            QCOMPARE(out.first(), points.first());
            QCOMPARE(out.last(), points.last());
            for (const QPointF &p : out)
                QVERIFY(points.contains(p));  // original points, never made up
        }
    }

    // Zoomed in: the extremes of the range, plus one point either side so the line reaches the edges.
    void rangeKeepsNeighbours()
    {
        const QVector<QPointF> points = run(100000);
        const double xMin = 30000.5, xMax = 40000.5;
        const QVector<QPointF> out = minMaxDownsample(points, xMin, xMax, 300);
        QVERIFY(out.size() <= 4 * 300 + 2);
        QVERIFY(sortedByX(out));
        QCOMPARE(out.first(), points[30000 - 1]);  // x = 30000, just before
        QCOMPARE(out.last(), points[40001 - 1]);   // x = 40001, just after
        for (int i = 1; i < out.size() - 1; ++i)
            QVERIFY(out[i].x() >= xMin && out[i].x() <= xMax);
        const auto first = points.begin() + 30000, last = points.begin() + 40000;
        const auto [lo, hi] = std::minmax_element(first, last, [](const QPointF &a, const QPointF &b) { return a.y() < b.y(); });
        QVERIFY(out.contains(*lo));
        QVERIFY(out.contains(*hi));
        QVERIFY(out.contains(points[30000]));  // the first and last inside
        QVERIFY(out.contains(points[39999]));
    }

    void oddArguments()
    {
        const QVector<QPointF> points = run(10000);
        QVERIFY(minMaxDownsample(points, 1, 10000, 0).size() <= 6);
        QVERIFY(minMaxDownsample(points, 1, 10000, -5).size() <= 6);
        QVERIFY(sortedByX(minMaxDownsample(points, 10000, 1, 50)));  // reversed range
        QVERIFY(minMaxDownsample(points, 5000, 5000, 50).size() <= 6);  // empty width
        const QVector<QPointF> nanRange = minMaxDownsample(points, std::nan(""), HUGE_VAL, 50);
        QVERIFY(nanRange.size() <= 202);
        QCOMPARE(nanRange.first(), points.first());
        QCOMPARE(nanRange.last(), points.last());
        QVERIFY(minMaxDownsample({}, 0, 1, 10).isEmpty());
        QVector<QPointF> allNan(10000, QPointF(1, std::nan("")));
        QVERIFY(minMaxDownsample(allNan, 0, 2, 10).isEmpty());
    }

    void ema()
    {
        const QVector<double> s = emaSmooth({1, 2, 3}, 0.5);
        QCOMPARE(s.size(), 3);
        QCOMPARE(s[0], 1.0);           // 0.5 / (1 - 0.5)
        QCOMPARE(s[1], 1.25 / 0.75);   // (0.5·0.5 + 0.5·2) / (1 - 0.25)
        QCOMPARE(s[2], 2.125 / 0.875); // (0.5·1.25 + 0.5·3) / (1 - 0.125)

        const QVector<double> gap = emaSmooth({1, std::nan(""), 3}, 0.5);
        QVERIFY(std::isnan(gap[1]));
        QCOMPARE(gap[2], 1.75 / 0.75);  // the NaN leaves the average alone

        QCOMPARE(emaSmooth({1, 5, 2}, 0.0), QVector<double>({1, 5, 2}));
        const QVector<double> flat = emaSmooth(QVector<double>(1000, 4.0), 0.99);
        for (double v : flat)
            QVERIFY(std::abs(v - 4.0) < 1e-9);  // debiased: no ramp up from zero
        const QVector<double> clamped = emaSmooth({1, 2, 3}, 1.0);
        for (double v : clamped)
            QVERIFY(std::isfinite(v) && v >= 1 && v <= 3);
        const QVector<double> heavy = emaSmooth({10, 0, 0, 0}, 0.9);
        QVERIFY(heavy[3] > 2 && heavy[3] < 10);  // still remembers the first value
        QVERIFY(emaSmooth({}, 0.6).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDownsample)
#include "tst_downsample.moc"
