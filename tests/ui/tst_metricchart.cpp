// The chart of one job metric, offscreen: raw and smoothed loss, downsampled to the pixels, hover, log scale, axis
// modes, earlier runs as overlays, the empty state, coalesced redraws, and a screenshot.
#include "ui/jobs/metricchart.h"

#include "app/i18n/translations.h"
#include "services/util/format.h"
#include "ui/common/chartaxis.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QRandomGenerator>
#include <QTest>
#include <QTranslator>
#include <QValueAxis>

#include <cmath>

using namespace ingot;

namespace {

// A run logged every 10 steps, 2 s apart: falling, noisy loss; warmup then decaying learning rate.
QVector<MetricPoint> run(int n, quint32 seed = 1, double offset = 0)
{
    QRandomGenerator random(seed);
    QVector<MetricPoint> points;
    for (int i = 1; i <= n; ++i) {
        MetricPoint p;
        p.step = i * 10;
        p.time = i * 2.0;
        p.loss = offset + 2.0 + 8.0 / std::sqrt(double(i)) + (random.generateDouble() - 0.5) * 0.6;
        p.learningRate = 5e-5 * std::min(1.0, i / 50.0) * (1.0 - double(i) / (n + 1));
        p.gradNorm = 1.0 + random.generateDouble();
        points.append(p);
    }
    return points;
}

// Lets the chart lay out and redraw, then draws anything still pending.
void settle(MetricChart &chart)
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    chart.refresh();
}

// The axis labels QtCharts shows, as they read: the y axis's (left of the plot) and the x axis's (under it).
struct DrawnLabels {
    QStringList y, x, all;
};
DrawnLabels drawnLabels(MetricChart &chart)
{
    DrawnLabels d;
    const QRectF plot = chart.chart()->plotArea();
    QStringList titles{chart.chart()->title()};
    for (QAbstractAxis *axis : chart.chart()->axes())
        titles << axis->titleText();
    QList<QGraphicsItem *> items = chart.view()->scene()->items();
    std::sort(items.begin(), items.end(), [](QGraphicsItem *a, QGraphicsItem *b) {
        return a->sceneBoundingRect().center().y() < b->sceneBoundingRect().center().y()
            || (a->sceneBoundingRect().center().y() == b->sceneBoundingRect().center().y()
                && a->sceneBoundingRect().center().x() < b->sceneBoundingRect().center().x());
    });
    for (QGraphicsItem *item : std::as_const(items)) {
        auto *text = dynamic_cast<QGraphicsTextItem *>(item);
        if (!text || !text->isVisible() || text->toPlainText().isEmpty() || titles.contains(text->toPlainText()))
            continue;
        const QPointF c = chart.chart()->mapFromScene(text->sceneBoundingRect().center());
        d.all << text->toPlainText();
        if (c.x() < plot.left())
            d.y << text->toPlainText();
        else if (c.y() > plot.bottom())
            d.x << text->toPlainText();
    }
    std::sort(d.x.begin(), d.x.end(), [](const QString &a, const QString &b) { return a.toDouble() < b.toDouble(); });
    return d;
}

// Whether `v` is 1, 2 or 5 × 10^k.
bool isNice(double v)
{
    const double m = v / std::pow(10.0, std::floor(std::log10(v) + 1e-9));
    return std::abs(m - 1) < 1e-6 || std::abs(m - 2) < 1e-6 || std::abs(m - 5) < 1e-6;
}

int decimals(const QString &label)
{
    const qsizetype dot = label.indexOf(QLatin1Char('.'));
    return dot < 0 ? 0 : int(label.size() - dot - 1);
}

double totalVariation(const QList<QPointF> &points)
{
    double v = 0;
    for (int i = 1; i < points.size(); ++i)
        v += std::abs(points[i].y() - points[i - 1].y());
    return v;
}

}  // namespace

class TestMetricChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void lossHasRawAndSmoothed()
    {
        MetricChart chart(MetricKind::Loss);
        chart.resize(900, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setPoints(run(1000));
        settle(chart);
        QVERIFY(!chart.isEmptyStateShown());
        QVERIFY(chart.smoothedSeries());
        QCOMPARE(chart.chart()->series().size(), 2);
        const int width = int(chart.chart()->plotArea().width());
        QVERIFY(width > 600 && width < 900);
        QVERIFY(std::abs(chart.columns() - width) <= 40);  // drawn for the plot's width, not the widget's
        QVERIFY(chart.rawSeries()->count() <= 4 * width + 2);
        QVERIFY(chart.smoothedSeries()->count() <= 4 * width + 2);
        QCOMPARE(chart.rawSeries()->count(), 1000);  // few enough to draw them all
        // Faint raw, solid smoothed, and the smoothed line is calmer.
        QVERIFY(chart.rawSeries()->pen().color().alpha() < 128);
        QCOMPARE(chart.smoothedSeries()->pen().color().alpha(), 255);
        QVERIFY(totalVariation(chart.smoothedSeries()->points()) < totalVariation(chart.rawSeries()->points()) / 1.5);
        chart.setSmoothing(0);
        settle(chart);
        QCOMPARE(chart.smoothedSeries()->points(), chart.rawSeries()->points());

        // 100,000 points: all kept, a few per pixel column drawn, the extremes among them.
        QVector<MetricPoint> many = run(100000);
        many[61234].loss = 25.0;
        many[70001].loss = 0.5;
        chart.setPoints(many);
        settle(chart);
        QCOMPARE(chart.points().size(), 100000);
        QVERIFY(chart.rawSeries()->count() <= 4 * chart.columns() + 2);
        QVERIFY(chart.smoothedSeries()->count() <= 4 * chart.columns() + 2);
        QVERIFY(chart.rawSeries()->points().contains(QPointF(612350, 25.0)));
        QVERIFY(chart.rawSeries()->points().contains(QPointF(700020, 0.5)));
        QCOMPARE(chart.xRange(), qMakePair(10.0, 1000000.0));
    }

    void otherMetricsAreNotSmoothed()
    {
        MetricChart chart(MetricKind::LearningRate);
        chart.resize(600, 300);
        chart.setPoints(run(300));
        settle(chart);
        QVERIFY(!chart.smoothedSeries());
        QCOMPARE(chart.chart()->series().size(), 1);
        QCOMPARE(chart.rawSeries()->count(), 300);
        QCOMPARE(chart.rawSeries()->pen().color().alpha(), 255);
        QCOMPARE(chart.rawSeries()->at(0).y(), run(300)[0].learningRate);
    }

    void hoverShowsNearestPoint()
    {
        MetricChart chart(MetricKind::Loss);
        chart.resize(900, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QVector<MetricPoint> points = run(60);
        chart.setPoints(points);
        settle(chart);
        const QPointF at = chart.viewportPositionOf(30);
        QVERIFY(at.x() > 0 && at.y() > 0);
        // The mouse a few pixels off the point, as a hand puts it.
        QTest::mouseMove(chart.view()->viewport(), (at + QPointF(2, 15)).toPoint());
        QString text = chart.hoverText();
        QVERIFY2(text.contains(QStringLiteral("step 310")), qPrintable(text));
        QVERIFY2(text.contains(formatMetric(points[30].loss)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("1:02")), qPrintable(text));  // 62 s
        QCOMPARE(chart.hoverAt(at.toPoint()), 30);

        // Dense data: the nearest point to the mouse, with its own (raw) value, not the smoothed line's.
        const QVector<MetricPoint> dense = run(1000);
        chart.setPoints(dense);
        settle(chart);
        const QPointF p = chart.viewportPositionOf(500);
        const int index = chart.hoverAt(p.toPoint());
        QVERIFY(std::abs(index - 500) <= 1);
        QVERIFY(chart.hoverText().contains(formatMetric(dense[index].loss)));
        QVERIFY(std::abs(chart.viewportPositionOf(index).x() - p.x()) <= 1.0);

        // Off the plot: nothing.
        QCOMPARE(chart.hoverAt(QPoint(1, 1)), -1);
        QVERIFY(chart.hoverText().isEmpty());
    }

    void logScaleSkipsNonPositive()
    {
        MetricChart chart(MetricKind::Loss);
        chart.resize(900, 400);
        QVector<MetricPoint> points = run(200);
        points[10].loss = 0;
        points[20].loss = -1;
        points[30].loss = MetricPoint::none;
        chart.setPoints(points);
        settle(chart);
        QCOMPARE(chart.rawSeries()->count(), 199);  // the NaN only
        QVERIFY(chart.yRange().first < -1);
        chart.setLogScale(true);
        settle(chart);
        QVERIFY(qobject_cast<QLogValueAxis *>(chart.chart()->axes(Qt::Vertical).value(0)));
        QCOMPARE(chart.chart()->axes(Qt::Vertical).size(), 1);
        QCOMPARE(chart.rawSeries()->count(), 197);
        for (const QPointF &p : chart.rawSeries()->points())
            QVERIFY(p.y() > 0);
        for (const QPointF &p : chart.smoothedSeries()->points())
            QVERIFY(p.y() > 0);
        QVERIFY(chart.yRange().first > 0);
        QVERIFY(chart.yRange().first <= points[199].loss);
        chart.setLogScale(false);
        settle(chart);
        QCOMPARE(chart.rawSeries()->count(), 199);
        QVERIFY(!qobject_cast<QLogValueAxis *>(chart.chart()->axes(Qt::Vertical).value(0)));
    }

    void axisRangesFollowTheData()
    {
        MetricChart chart(MetricKind::Loss);
        chart.resize(900, 400);
        const QVector<MetricPoint> points = run(500);  // steps 10…5000, 2…1000 s
        chart.setPoints(points);
        settle(chart);
        QCOMPARE(chart.xRange(), qMakePair(10.0, 5000.0));
        double lo = 1e9, hi = -1e9;
        for (const MetricPoint &p : points) {
            lo = std::min(lo, p.loss);
            hi = std::max(hi, p.loss);
        }
        QVERIFY(chart.yRange().first <= lo && chart.yRange().first > lo - (hi - lo) * 0.2);
        QVERIFY(chart.yRange().second >= hi && chart.yRange().second < hi + (hi - lo) * 0.2);

        chart.setXAxisMode(MetricChart::XAxisMode::Time);
        settle(chart);
        QCOMPARE(chart.xUnitSeconds(), 60.0);  // 1000 s: minutes
        QCOMPARE(chart.xRange().first, 2.0 / 60);
        QCOMPARE(chart.xRange().second, 1000.0 / 60);
        QVERIFY(chart.chart()->axes(Qt::Horizontal).value(0)->titleText().contains(QStringLiteral("min")));

        // Points without a time are not drawn by time.
        QVector<MetricPoint> partial = run(60);
        for (int i = 0; i < 30; ++i)
            partial[i].time = MetricPoint::none;
        chart.setPoints(partial);
        settle(chart);
        QCOMPARE(chart.rawSeries()->count(), 30);
        QCOMPARE(chart.xUnitSeconds(), 1.0);  // 2 min: seconds
        QCOMPARE(chart.xRange(), qMakePair(62.0, 120.0));
    }

    void overlaysAddSeries()
    {
        MetricChart chart(MetricKind::Loss);
        chart.resize(900, 400);
        chart.setPoints(run(300));
        chart.setOverlays({{QStringLiteral("run 41"), run(400, 2, 0.3)}, {QStringLiteral("run 40"), run(200, 3, -0.2)}});
        settle(chart);
        QCOMPARE(chart.overlaySeries().size(), 2);
        QCOMPARE(chart.chart()->series().size(), 4);
        QVERIFY(chart.chart()->legend()->isVisible());
        for (QLineSeries *s : chart.overlaySeries()) {
            QCOMPARE(s->pen().style(), Qt::DashLine);
            QVERIFY(s->count() > 0);
            const auto markers = chart.chart()->legend()->markers(s);
            QCOMPARE(markers.size(), 1);
            QVERIFY(markers.first()->isVisible());
        }
        QCOMPARE(chart.overlaySeries()[0]->name(), QStringLiteral("run 41"));
        QVERIFY(!chart.chart()->legend()->markers(chart.rawSeries()).first()->isVisible());
        QCOMPARE(chart.xRange(), qMakePair(10.0, 4000.0));  // the longer earlier run widens the axis

        chart.setOverlays({});
        settle(chart);
        QCOMPARE(chart.chart()->series().size(), 2);
        QVERIFY(!chart.chart()->legend()->isVisible());
        QCOMPARE(chart.xRange(), qMakePair(10.0, 3000.0));
    }

    void emptyState()
    {
        MetricChart chart(MetricKind::GradNorm);
        chart.resize(600, 300);
        settle(chart);
        QVERIFY(chart.isEmptyStateShown());
        QVector<MetricPoint> nanOnly = run(50);
        for (MetricPoint &p : nanOnly)
            p.gradNorm = MetricPoint::none;
        chart.setPoints(nanOnly);
        settle(chart);
        QVERIFY(chart.isEmptyStateShown());
        QCOMPARE(chart.hoverAt(QPoint(300, 150)), -1);
        chart.appendPoints(run(1));
        settle(chart);
        QVERIFY(!chart.isEmptyStateShown());
        QCOMPARE(chart.rawSeries()->count(), 1);
        QVERIFY(chart.xRange().first < 10 && chart.xRange().second > 10);  // one point still has a range
        chart.setPoints({});
        settle(chart);
        QVERIFY(chart.isEmptyStateShown());
    }

    void tickLabelsDiffer_data()
    {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::newRow("learning rate 8.4e-4 → 8.3e-4") << 8.4e-4 << 8.3e-4;
        QTest::newRow("learning rate 1e-3 → 0") << 1e-3 << 0.0;
        QTest::newRow("tiny learning rate") << 6.1e-7 << 6.0e-7;
        QTest::newRow("loss 2.31 → 2.30") << 2.31 << 2.30;
    }
    void tickLabelsDiffer()
    {
        // The y axis labels its ticks with as many digits as they need to differ (not 0.00084, 0.00084, 0.00083).
        QFETCH(double, from);
        QFETCH(double, to);
        MetricChart chart(MetricKind::LearningRate);
        chart.resize(600, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QVector<MetricPoint> points;
        for (int i = 0; i <= 100; ++i) {
            MetricPoint p;
            p.step = i + 1;
            p.time = i;
            p.learningRate = from + (to - from) * i / 100.0;
            points.append(p);
        }
        chart.setPoints(points);
        settle(chart);
        auto *y = qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Vertical).value(0));
        QVERIFY(y);
        QCOMPARE(y->tickType(), QValueAxis::TicksDynamic);
        QStringList labels;
        const double first = y->tickAnchor() + std::ceil((y->min() - y->tickAnchor()) / y->tickInterval()) * y->tickInterval();
        for (double v = first; v <= y->max() + y->tickInterval() * 1e-9; v += y->tickInterval())
            labels << QString::asprintf(qPrintable(y->labelFormat()), v);
        QVERIFY2(labels.size() >= 3, qPrintable(labels.join(QLatin1Char(' '))));
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
        for (const QString &l : std::as_const(labels))
            QVERIFY2(l.size() <= 9, qPrintable(labels.join(QLatin1Char(' '))));  // not 17 digits either
    }

    void titlesFitInChinese()
    {
        // In Chinese the metrics' names are long ("吞吐量（tokens/s）"): at the monitor's smallest chart size no
        // title is cut. The chart's title names the metric; no rotated copy beside the y axis.
        qputenv("INGOT_LANGUAGE", "zh_CN");
        installTranslations(*qApp);
        qunsetenv("INGOT_LANGUAGE");
        for (MetricKind kind : {MetricKind::Loss, MetricKind::LearningRate, MetricKind::GradNorm, MetricKind::Throughput}) {
            MetricChart chart(kind);
            chart.resize(260, 170);
            chart.show();
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            QVector<MetricPoint> points = run(50);
            for (int i = 0; i < points.size(); ++i)
                points[i].tokensPerSecond = 12000.0 + 37 * i;
            chart.setPoints(points);
            settle(chart);
            QVERIFY(!chart.isEmptyStateShown());
            QTRY_VERIFY(chart.chart()->size().width() >= 240);  // laid out in its view
            settle(chart);
            QVERIFY(!chart.chart()->title().isEmpty());
            // The title as drawn, not only as measured: QtCharts cuts it to "..." where its box is too small.
            bool titleDrawn = false;
            for (QGraphicsItem *item : chart.view()->scene()->items())
                if (auto *t = dynamic_cast<QGraphicsTextItem *>(item); t && t->isVisible()
                    && chart.chart()->mapFromScene(t->sceneBoundingRect().center()).y() < chart.chart()->plotArea().top())
                    titleDrawn = titleDrawn || t->toPlainText() == chart.chart()->title();
            QVERIFY2(titleDrawn, qPrintable(chart.chart()->title()));
            // Nothing QtCharts draws is cut: the axis's title neither ("步" was drawn "...").
            for (QGraphicsItem *item : chart.view()->scene()->items())
                if (auto *t = dynamic_cast<QGraphicsTextItem *>(item); t && t->isVisible())
                    QVERIFY2(!t->toPlainText().contains(QStringLiteral("...")) && !t->toPlainText().contains(QChar(0x2026)),
                             qPrintable(t->toPlainText()));
            QVERIFY2(QFontMetricsF(chart.chart()->titleFont()).horizontalAdvance(chart.chart()->title())
                         <= chart.chart()->size().width() - 8,
                     qPrintable(QStringLiteral("%1: %2 > %3").arg(chart.chart()->title()).arg(QFontMetricsF(chart.chart()->titleFont()).horizontalAdvance(chart.chart()->title())).arg(chart.chart()->size().width())));
            for (QAbstractAxis *axis : chart.chart()->axes()) {
                if (!axis->isTitleVisible() || axis->titleText().isEmpty())
                    continue;
                const double room = axis->orientation() == Qt::Vertical ? chart.chart()->plotArea().height()
                                                                        : chart.chart()->plotArea().width();
                QVERIFY2(QFontMetricsF(axis->titleFont()).horizontalAdvance(axis->titleText()) <= room,
                         qPrintable(axis->titleText()));
            }
            if (kind == MetricKind::Loss) {
                // By time, too short for the axis's title: the labels carry the unit (100 s: seconds).
                chart.setXAxisMode(MetricChart::XAxisMode::Time);
                settle(chart);
                auto *x = qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Horizontal).value(0));
                QVERIFY(x);
                const QString seconds = QCoreApplication::translate("ingot::MetricChart", "s");  // 秒 in Chinese
                QVERIFY2(seconds != QLatin1String("s"), "the Chinese translation is loaded");
                QVERIFY2(!x->isTitleVisible() && x->labelFormat().endsWith(QLatin1Char(' ') + seconds), qPrintable(x->labelFormat()));
                chart.setXAxisMode(MetricChart::XAxisMode::Step);
                settle(chart);
            }
            if (kind == MetricKind::Throughput) {
                const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
                QDir().mkpath(shots);
                QVERIFY(chart.grab().save(shots + QStringLiteral("/metricchart-zh-throughput.png")));
            }
        }
        for (QTranslator *t : qApp->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
    }

    // Every tick label is drawn whole, at round values (1-2-5 steps) with one number of decimals, at the monitor's
    // sizes: QtCharts elided labels given less room than they need ("…") and hid every other one where they would
    // overlap, which read 0.0010, 0.0006, 0.0004, 0.0000.
    void tickLabelsAreWholeAndNice()
    {
        for (MetricKind kind : {MetricKind::LearningRate, MetricKind::Loss, MetricKind::Throughput}) {
            for (const QSize size : {QSize(260, 170), QSize(420, 230), QSize(580, 400)}) {
                MetricChart chart(kind);
                chart.resize(size);
                chart.show();
                QVERIFY(QTest::qWaitForWindowExposed(&chart));
                QVector<MetricPoint> points = run(120);
                for (int i = 0; i < points.size(); ++i) {
                    points[i].learningRate = 1e-3 * (1.0 - double(i) / points.size());
                    points[i].tokensPerSecond = 12000.0 + 37 * i;
                }
                chart.setPoints(points);
                settle(chart);
                QTRY_VERIFY(chart.chart()->plotArea().height() > 10);
                settle(chart);
                const int redraws = chart.redrawCount();
                for (int i = 0; i < 10; ++i)
                    QCoreApplication::processEvents();
                QCOMPARE(chart.redrawCount(), redraws);  // settled: the ticks and the plot's size do not chase each other
                const DrawnLabels drawn = drawnLabels(chart);
                const QString what = QStringLiteral("%1x%2 (plot %5x%6): y %3 | x %4").arg(size.width()).arg(size.height())
                                         .arg(drawn.y.join(QLatin1Char(' ')), drawn.x.join(QLatin1Char(' ')))
                                         .arg(chart.chart()->plotArea().width()).arg(chart.chart()->plotArea().height());
                for (const QString &l : drawn.all)
                    QVERIFY2(!l.contains(QStringLiteral("...")) && !l.contains(QChar(0x2026)), qPrintable(what));
                for (const QStringList *labels : {&drawn.y, &drawn.x}) {
                    QVERIFY2(labels->size() >= 2, qPrintable(what));
                    // Each drawn tick, none skipped: neighbours differ by the same nice step.
                    const double step = std::abs((*labels)[1].toDouble() - (*labels)[0].toDouble());
                    QVERIFY2(step > 0 && isNice(step), qPrintable(what));
                    for (int i = 1; i < labels->size(); ++i) {
                        QVERIFY2(std::abs(std::abs((*labels)[i].toDouble() - (*labels)[i - 1].toDouble()) - step) <= step * 1e-6,
                                 qPrintable(what));
                        QVERIFY2(decimals((*labels)[i]) == decimals((*labels)[0]), qPrintable(what));
                    }
                }
            }
        }
    }

    void yTicksLeaveRoomForLabels()
    {
        // A short chart (the monitor's smallest) gets fewer y ticks: closer than a label is high, QtCharts would
        // elide every label to "…".
        for (int height : {170, 240, 400}) {
            MetricChart chart(MetricKind::Loss);
            chart.resize(580, height);
            chart.show();
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            QVector<MetricPoint> points = run(80);
            for (int i = 0; i < points.size(); ++i)
                points[i].loss = 2.6 + 3.0 * std::exp(-i / 20.0);
            chart.setPoints(points);
            settle(chart);
            QTRY_VERIFY(chart.chart()->plotArea().height() > 10);
            settle(chart);
            auto *y = qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Vertical).value(0));
            QVERIFY(y);
            const double pixels = y->tickInterval() / (y->max() - y->min()) * chart.chart()->plotArea().height();
            QVERIFY2(pixels >= 18, qPrintable(QStringLiteral("%1 px between ticks at %2").arg(pixels).arg(height)));
            QVERIFY(ticksWithin(y->min(), y->max(), y->tickInterval()) >= 2);  // still a scale to read
        }
    }

    void appendsAreCoalesced()
    {
        MetricChart chart(MetricKind::Loss);
        chart.resize(900, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setPoints(run(1000));
        settle(chart);
        const int before = chart.redrawCount();
        const QVector<MetricPoint> more = run(1100);
        for (int i = 1000; i < 1100; ++i)
            chart.appendPoints({more[i]});
        QCOMPARE(chart.redrawCount(), before);  // nothing yet
        QCOMPARE(chart.points().size(), 1100);
        settle(chart);
        QVERIFY(chart.redrawCount() - before <= 2);
        QVERIFY(chart.redrawCount() > before);
        QCOMPARE(chart.xRange().second, 11000.0);
        QCOMPARE(chart.rawSeries()->count(), 1100);

        // A restart from a checkpoint goes back in steps: drawn in step order.
        chart.appendPoints(run(5));
        settle(chart);
        const QList<QPointF> drawn = chart.rawSeries()->points();
        QVERIFY(std::is_sorted(drawn.begin(), drawn.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); }));
    }

    // Save as PNG/SVG…: the PNG decodes at the chart's size, the SVG parses and holds the run's line as a path of
    // its points in the run's colour; a name that is neither, or a folder that is not there, is an error with words.
    void savesPngAndSvg()
    {
        MetricChart chart(MetricKind::Loss);
        chart.resize(800, 360);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setPoints(run(300));
        settle(chart);
        QVERIFY(chart.saveAction());
        QVERIFY(chart.view()->actions().contains(chart.saveAction()));
        QTemporaryDir dir;
        QString error;
        QVERIFY2(chart.saveImage(dir.filePath(QStringLiteral("loss.png")), &error), qPrintable(error));
        const QImage png(dir.filePath(QStringLiteral("loss.png")), "PNG");
        QVERIFY(!png.isNull());
        QCOMPARE(png.size(), chart.view()->viewport()->size());
        // Not a blank picture: the run's colour is drawn in it.
        int blue = 0;
        for (int y = 0; y < png.height(); y += 2)
            for (int x = 0; x < png.width(); x += 2)
                blue += png.pixelColor(x, y) == QColor(0x1f, 0x77, 0xb4) ? 1 : 0;
        QVERIFY2(blue > 20, qPrintable(QString::number(blue)));

        QVERIFY2(chart.saveImage(dir.filePath(QStringLiteral("loss.svg")), &error), qPrintable(error));
        QFile svgFile(dir.filePath(QStringLiteral("loss.svg")));
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        // The raw run is drawn faint in the run's colour (QtCharts draws a line a segment at a time): its segments,
        // every one between two drawn points, are vector paths in the SVG.
        QXmlStreamReader xml(&svgFile);
        int segments = 0;
        bool sized = false;
        bool faintRun = false;
        const QRegularExpression pair(QStringLiteral("-?[0-9.]+[, ]-?[0-9.]+"));
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            const QXmlStreamAttributes a = xml.attributes();
            if (xml.name() == QLatin1String("svg"))
                sized = a.value(QLatin1String("viewBox")) == QStringLiteral("0 0 %1 %2").arg(png.width()).arg(png.height());
            if (xml.name() == QLatin1String("g") && a.hasAttribute(QLatin1String("stroke")))
                faintRun = a.value(QLatin1String("stroke")).compare(QLatin1String("#1f77b4"), Qt::CaseInsensitive) == 0
                           && a.value(QLatin1String("stroke-opacity")).toDouble() < 1;
            if (faintRun && (xml.name() == QLatin1String("path") || xml.name() == QLatin1String("polyline"))) {
                const QString d = a.hasAttribute(QLatin1String("d")) ? a.value(QLatin1String("d")).toString()
                                                                     : a.value(QLatin1String("points")).toString();
                segments += std::max(0, int(d.count(pair)) - 1);
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(sized);
        QVERIFY2(chart.rawSeries()->count() > 100 && segments >= chart.rawSeries()->count() - 1,
                 qPrintable(QStringLiteral("%1 segments for %2 points").arg(segments).arg(chart.rawSeries()->count())));

        QVERIFY(!chart.saveImage(dir.filePath(QStringLiteral("loss.jpg")), &error));
        QVERIFY2(error.contains(QLatin1String(".png or .svg")), qPrintable(error));
        QVERIFY(!chart.saveImage(dir.filePath(QStringLiteral("missing/loss.png")), &error));
        QVERIFY2(error.contains(QLatin1String("cannot be written")), qPrintable(error));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("loss.jpg"))));
    }

    void screenshot()
    {
        MetricChart chart(MetricKind::Loss);
        chart.resize(900, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setPoints(run(1000));
        chart.setOverlays({{QStringLiteral("previous run"), run(1200, 2, 0.4)}});
        settle(chart);
        const QPointF at = chart.viewportPositionOf(400);
        QTest::mouseMove(chart.view()->viewport(), at.toPoint());
        QVERIFY(!chart.hoverText().isEmpty());
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        const QImage image = chart.grab().toImage();
        QCOMPARE(image.size(), QSize(900, 400));
        QVERIFY(image.save(shots + QStringLiteral("/metricchart.png")));

        MetricChart empty(MetricKind::Throughput);
        empty.resize(600, 250);
        empty.show();
        QVERIFY(QTest::qWaitForWindowExposed(&empty));
        settle(empty);
        QVERIFY(empty.grab().save(shots + QStringLiteral("/metricchart-empty.png")));
    }
};

QTEST_MAIN(TestMetricChart)
#include "tst_metricchart.moc"
