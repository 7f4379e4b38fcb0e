#include "ui/jobs/comparisonchart.h"

#include "models/common/tones.h"
#include "services/jobs/downsample.h"
#include "services/util/format.h"
#include "ui/common/chartaxis.h"

#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace ingot {

namespace {

// One run's points of `kind`, x by step or by seconds since its start, sorted by x.
QVector<QPointF> pointsOf(const QVector<MetricPoint> &points, MetricKind kind, ComparisonChart::XAxis x)
{
    QVector<QPointF> out;
    out.reserve(points.size());
    for (const MetricPoint &p : points) {
        const double v = metricValue(p, kind);
        const double at = x == ComparisonChart::XAxis::Step ? double(p.step) : p.time;
        if (std::isfinite(v) && std::isfinite(at))
            out.append(QPointF(at, v));
    }
    std::stable_sort(out.begin(), out.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
    return out;
}

// Ticks at round values, as many as the axis can label whole (QtCharts elides labels it has no room for to "..."):
// `length` px of axis, labels `labelSize` px long; `whole`: never between two integers (steps).
void setTicks(QValueAxis *axis, double min, double max, double length, double labelSize, bool whole)
{
    const int most = std::max(2, mostTicksFor(length, labelSize));
    NiceAxis nice = niceAxis(min, max, std::min(5, most), most);
    if (whole && nice.interval < 1) {
        nice.interval = 1;
        nice.min = std::floor(min), nice.max = std::ceil(max);
    }
    axis->setRange(nice.min, nice.max);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(nice.interval);
    axis->setLabelFormat(whole && nice.interval >= 1 ? QStringLiteral("%.0f")
                                                    : tickLabelFormat(nice.interval, std::max(std::abs(nice.min), std::abs(nice.max))));
}

}  // namespace

ComparisonChart::ComparisonChart(MetricKind kind, QWidget *parent)
    : QWidget(parent)
    , m_kind(kind)
    , m_chart(new QChart)
    , m_view(new QChartView(m_chart, this))
    , m_xAxis(new QValueAxis)
    , m_yAxis(new QValueAxis)
    , m_summary(new QLabel(this))
{
    m_chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setTitle(title(kind));
    m_chart->legend()->hide();  // the runs' colours and names head the comparison, and each line is named
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_view->setRenderHint(QPainter::Antialiasing);
    connect(m_chart, &QChart::plotAreaChanged, this, &ComparisonChart::updateTicks);
    m_view->setMinimumHeight(180);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_view->setAccessibleName(title(kind));
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(0, 0, 0, 0);
    col->addWidget(m_view, 1);
    col->addWidget(m_summary);
}

QString ComparisonChart::title(MetricKind kind)
{
    switch (kind) {
    case MetricKind::Loss: return tr("Loss");
    case MetricKind::LearningRate: return tr("Learning rate");
    case MetricKind::GradNorm: return tr("Gradient norm");
    case MetricKind::Throughput: return tr("Throughput (tokens/s)");
    }
    return {};
}

QColor ComparisonChart::runColor(int index)
{
    // Tableau's 10 hues: told apart by most colour-blind readers in the first four, on light and dark charts.
    static const QRgb hues[] = {0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0xb07aa1, 0x76b7b2, 0xedc948, 0xff9da7, 0x9c755f, 0xbab0ac};
    return QColor(hues[index % 10]);
}

void ComparisonChart::setRuns(const QVector<Run> &runs)
{
    m_runs = runs;
    redraw();
}

void ComparisonChart::setXAxis(XAxis x)
{
    if (m_x == x)
        return;
    m_x = x;
    redraw();
}

void ComparisonChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (!m_runs.isEmpty())
        redraw();  // the columns follow the width
}

void ComparisonChart::updateTicks()
{
    if (m_settingTicks || m_series.isEmpty())
        return;
    m_settingTicks = true;  // new labels move the plot area, which asks again: once is enough
    // Before the first layout the plot area is empty: a guess from the widget's size (the layout asks again).
    const QRectF area = m_chart->plotArea().isEmpty() ? QRectF(0, 0, width() * 0.8, height() * 0.6) : m_chart->plotArea();
    const QFontMetricsF fm(m_xAxis->labelsFont());
    setTicks(m_xAxis, m_range.left(), m_range.right(), area.width(),
             fm.horizontalAdvance(QString::number(qint64(m_range.right()))) + 12, m_x == XAxis::Step);
    setTicks(m_yAxis, m_range.top(), m_range.bottom(), area.height(), fm.height() + 2, false);
    m_settingTicks = false;
}

void ComparisonChart::redraw()
{
    m_chart->removeAllSeries();
    m_series.clear();
    double xMin = INFINITY, xMax = -INFINITY, yMin = INFINITY, yMax = -INFINITY;
    QVector<QVector<QPointF>> all;
    for (const Run &r : std::as_const(m_runs)) {
        all.append(pointsOf(r.points, m_kind, m_x));
        for (const QPointF &p : all.last()) {
            xMin = std::min(xMin, p.x()), xMax = std::max(xMax, p.x());
            yMin = std::min(yMin, p.y()), yMax = std::max(yMax, p.y());
        }
    }
    const int columns = std::max(50, width());
    QStringList said;
    for (int i = 0; i < m_runs.size(); ++i) {
        const Run &r = m_runs[i];
        if (all[i].isEmpty()) {
            said << tr("%1: no values").arg(r.tag.isEmpty() ? r.name : r.tag);
            continue;
        }
        auto *s = new QLineSeries;
        s->setName(r.name);
        QPen pen(r.color, 2);
        pen.setJoinStyle(Qt::BevelJoin);
        s->setPen(pen);
        s->replace(minMaxDownsample(all[i], xMin, xMax, columns));
        m_chart->addSeries(s);
        s->attachAxis(m_xAxis);
        s->attachAxis(m_yAxis);
        m_series << s;
        said << (m_x == XAxis::Step ? tr("%1: %2 at step %3") : tr("%1: %2 at %3 s"))
                    .arg(r.tag.isEmpty() ? r.name : r.tag, formatMetric(all[i].last().y()), formatMetric(all[i].last().x()));
    }
    const bool any = !m_series.isEmpty();
    m_chart->setTitle(title(m_kind) + QStringLiteral(" — ") + (m_x == XAxis::Step ? tr("by step") : tr("by seconds since each run started")));
    if (any) {
        if (xMax <= xMin)
            xMax = xMin + 1;
        if (yMax <= yMin)
            yMin -= 0.5, yMax += 0.5;
        m_range = QRectF(QPointF(xMin, yMin), QPointF(xMax, yMax));
        updateTicks();
    }
    m_xAxis->setVisible(any);
    m_yAxis->setVisible(any);
    m_summary->setText(any ? said.join(QStringLiteral("; ")) : tr("No run has values of this metric."));
}

}  // namespace ingot
