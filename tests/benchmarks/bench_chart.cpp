// bench_chart [POINTS] [RUNS]: a loss chart of POINTS points (default 100,000) in an offscreen 900×400 widget. Times,
// median of RUNS (default 5), one per line: ingot_ms (setPoints + redraw + QWidget::grab(), downsampled to the plot
// width), baseline_ms (the same raw and smoothed series given to QtCharts whole with QLineSeries::replace, then
// grab()), ratio, append100_ms (100 appends of one point each to the full chart, then redraw + grab()),
// append100_calls_ms (the 100 appendPoints calls alone), drawn_points (points handed to QtCharts by Ingot).
#include "services/jobs/downsample.h"
#include "ui/jobs/metricchart.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QLineSeries>
#include <QRandomGenerator>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace ingot;

namespace {

QVector<MetricPoint> lossRun(int n)
{
    QRandomGenerator random(1);
    QVector<MetricPoint> points(n);
    for (int i = 0; i < n; ++i) {
        points[i].step = i + 1;
        points[i].time = (i + 1) * 0.5;
        points[i].loss = 2.0 + 8.0 / std::sqrt(i + 1.0) + (random.generateDouble() - 0.5) * 0.6;
    }
    return points;
}

double median(QVector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double elapsedMs(const QElapsedTimer &t) { return double(t.nsecsElapsed()) / 1e6; }

}  // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int n = args.size() > 1 ? args[1].toInt() : 100000;
    const int runs = args.size() > 2 ? std::max(1, args[2].toInt()) : 5;
    const QVector<MetricPoint> points = lossRun(n);

    // Ingot: the chart as the app uses it.
    MetricChart chart(MetricKind::Loss);
    chart.resize(900, 400);
    chart.show();
    QVector<double> ingot;
    for (int r = 0; r <= runs; ++r) {
        app.processEvents();
        QElapsedTimer t;
        t.start();
        chart.setPoints(points);
        chart.refresh();
        const QPixmap shot = chart.grab();
        if (r > 0)  // the first run lays the window out
            ingot.append(elapsedMs(t));
        Q_UNUSED(shot);
    }
    const int drawn = chart.rawSeries()->count() + chart.smoothedSeries()->count();

    QVector<double> append, appendCalls;
    QVector<MetricPoint> more = lossRun(n + 100 * (runs + 1)).mid(n);
    for (int r = 0; r < runs; ++r) {
        app.processEvents();
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < 100; ++i)
            chart.appendPoints({more[r * 100 + i]});
        appendCalls.append(elapsedMs(t));
        chart.refresh();
        const QPixmap shot = chart.grab();
        append.append(elapsedMs(t));
        Q_UNUSED(shot);
    }

    // Baseline: the same two series (raw and smoothed), every point given to QtCharts.
    QVector<double> ys;
    for (const MetricPoint &p : points)
        ys.append(p.loss);
    const QVector<double> smooth = emaSmooth(ys, 0.6);
    QList<QPointF> rawPoints, smoothPoints;
    for (int i = 0; i < n; ++i) {
        rawPoints.append(QPointF(points[i].step, ys[i]));
        smoothPoints.append(QPointF(points[i].step, smooth[i]));
    }
    auto *qchart = new QChart;
    qchart->setAnimationOptions(QChart::NoAnimation);
    auto *raw = new QLineSeries;
    auto *smoothed = new QLineSeries;
    raw->setPen(QPen(QColor(31, 119, 180, 70), 1.0));
    smoothed->setPen(QPen(QColor(31, 119, 180), 2.0));
    qchart->addSeries(raw);
    qchart->addSeries(smoothed);
    qchart->createDefaultAxes();
    QChartView view(qchart);
    view.setRenderHint(QPainter::Antialiasing);
    view.resize(900, 400);
    view.show();
    QVector<double> baseline;
    for (int r = 0; r <= runs; ++r) {
        app.processEvents();
        QElapsedTimer t;
        t.start();
        raw->replace(rawPoints);
        smoothed->replace(smoothPoints);
        qchart->axes(Qt::Horizontal).first()->setRange(1, n);
        qchart->axes(Qt::Vertical).first()->setRange(1.5, 11);
        const QPixmap shot = view.grab();
        if (r > 0)
            baseline.append(elapsedMs(t));
        Q_UNUSED(shot);
    }

    const double i = median(ingot), b = median(baseline);
    std::printf("points %d\nruns %d\n", n, runs);
    std::printf("ingot_ms %.1f\nbaseline_ms %.1f\nratio %.1f\n", i, b, b / i);
    std::printf("append100_ms %.1f\nappend100_calls_ms %.3f\ndrawn_points %d\n", median(append), median(appendCalls),
                drawn);
    return 0;
}
