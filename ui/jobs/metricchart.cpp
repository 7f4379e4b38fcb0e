#include "ui/jobs/metricchart.h"

#include "models/common/tones.h"
#include "services/jobs/downsample.h"
#include "services/util/format.h"
#include "services/util/names.h"
#include "ui/common/chartaxis.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QFontMetricsF>
#include <QGraphicsEllipseItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QStackedLayout>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <climits>
#include <cmath>
#include <iterator>
#include <numeric>

namespace ingot {

namespace {

const QColor runColor(0x1f, 0x77, 0xb4);
const QColor overlayColors[] = {QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                                QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2)};

QString metricName(MetricKind kind)
{
    switch (kind) {
    case MetricKind::Loss: return MetricChart::tr("Loss");
    case MetricKind::LearningRate: return MetricChart::tr("Learning rate");
    case MetricKind::GradNorm: return MetricChart::tr("Gradient norm");
    case MetricKind::Throughput: return MetricChart::tr("Tokens/s");
    }
    return QString();
}

QString valueFormat(MetricKind kind)
{
    switch (kind) {
    case MetricKind::LearningRate: return QStringLiteral("%.2g");
    case MetricKind::Throughput: return QStringLiteral("%.0f");
    default: return QStringLiteral("%.3g");
    }
}

// Ticks at round values (1, 2 or 5 × 10^k), anchored at 0, whatever the range (which stays the data's own): about
// `wanted` of them and at most `most` (as many as the axis has room to label whole); labels with as many decimals as
// the interval needs, the same for every tick (a learning rate's ticks differ in their fourth digit).
void setNiceTicks(QAbstractAxis *axis, double min, double max, int wanted, int most, const QString &unit = {})
{
    auto *value = qobject_cast<QValueAxis *>(axis);
    if (!value)
        return;
    const NiceAxis nice = niceAxis(min, max, wanted, most);
    if (nice.min != min || nice.max != max)
        value->setRange(nice.min, nice.max);  // a short chart: two labelled ticks around the data
    value->setTickType(QValueAxis::TicksDynamic);
    value->setTickAnchor(0);
    value->setTickInterval(nice.interval);
    value->setLabelFormat(tickLabelFormat(nice.interval, std::max(std::abs(nice.min), std::abs(nice.max)))
                          + (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit));
}

// The height of a tick label as QtCharts lays it out (a text item: the font's height and a margin).
double labelHeight(const QAbstractAxis *axis)
{
    return QFontMetricsF(axis->labelsFont()).height() + 2;
}

// The widest label of an x axis over [min, max] (its ends, in the format about `wanted` ticks would use).
double widestLabel(const QAbstractAxis *axis, double min, double max, int wanted, const QString &unit)
{
    const QString format = tickLabelFormat(niceTickInterval(min, max, wanted, wanted * 2), std::max(std::abs(min), std::abs(max)))
                           + (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
    const QFontMetricsF fm(axis->labelsFont());
    return std::max(fm.horizontalAdvance(QString::asprintf(qPrintable(format), min)),
                    fm.horizontalAdvance(QString::asprintf(qPrintable(format), max))) + 2;
}

QString formatDuration(double seconds)
{
    if (!std::isfinite(seconds))
        return QString();
    const qint64 s = qint64(std::llround(seconds));
    const QChar zero(u'0');
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, zero).arg(s % 60, 2, 10, zero);
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, zero);
}

// One run as drawn: finite x and y (y > 0 on a log axis), sorted by x, each with its index in the source.
struct Samples {
    QVector<double> xs;
    QVector<double> ys;
    QVector<int> index;
};

Samples samplesOf(const QVector<MetricPoint> &points, MetricKind kind, MetricChart::XAxisMode mode, bool log)
{
    Samples s;
    s.xs.reserve(points.size());
    s.ys.reserve(points.size());
    s.index.reserve(points.size());
    bool sorted = true;
    for (int i = 0; i < points.size(); ++i) {
        const MetricPoint &p = points.at(i);
        const double x = mode == MetricChart::XAxisMode::Step ? double(p.step) : p.time;
        const double y = metricValue(p, kind);
        if (!std::isfinite(x) || !std::isfinite(y) || (log && y <= 0))
            continue;
        if (!s.xs.isEmpty() && x < s.xs.last())
            sorted = false;
        s.xs.append(x);
        s.ys.append(y);
        s.index.append(i);
    }
    if (!sorted) {
        QVector<int> order(s.xs.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s.xs[a] < s.xs[b]; });
        Samples t;
        for (int o : std::as_const(order)) {
            t.xs.append(s.xs[o]);
            t.ys.append(s.ys[o]);
            t.index.append(s.index[o]);
        }
        return t;
    }
    return s;
}

// x scaled to the axis's unit, y as given (non-positive ones dropped on a log axis), downsampled to `columns`.
QList<QPointF> drawn(const QVector<double> &xs, const QVector<double> &ys, double scale, bool log, double xMin,
                     double xMax, int columns)
{
    QVector<QPointF> points;
    points.reserve(xs.size());
    for (int i = 0; i < xs.size(); ++i)
        if (std::isfinite(ys[i]) && (!log || ys[i] > 0))
            points.append(QPointF(xs[i] / scale, ys[i]));
    return minMaxDownsample(points, xMin, xMax, columns);
}

QLineSeries *makeSeries(const QColor &color, qreal width, Qt::PenStyle style = Qt::SolidLine)
{
    auto *series = new QLineSeries;
    QPen pen(color, width, style);
    // Round joins are drawn as Bézier arcs at every vertex: with thousands of points a redraw costs tens of
    // milliseconds on the UI thread (bench_jobmonitor). Bevel joins look the same at these widths.
    pen.setCapStyle(Qt::FlatCap);
    pen.setJoinStyle(Qt::BevelJoin);
    series->setPen(pen);
    return series;
}

}  // namespace

MetricChart::MetricChart(MetricKind kind, QWidget *parent)
    : QWidget(parent)
    , m_kind(kind)
    , m_stack(new QStackedLayout(this))
    , m_empty(new QLabel(tr("No values yet"), this))
    , m_plot(new QWidget(this))
    , m_view(new QChartView(m_plot))
    , m_summary(new QLabel(m_plot))
    , m_chart(new QChart)
    , m_raw(makeSeries(kind == MetricKind::Loss ? QColor(runColor.red(), runColor.green(), runColor.blue(), 70)
                                                : runColor,
                       kind == MetricKind::Loss ? 1.0 : 1.8))
    , m_x(new QValueAxis)
{
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setEnabled(false);  // the palette's disabled text: quiet, like a placeholder
    m_stack->addWidget(m_empty);
    auto *plot = new QVBoxLayout(m_plot);
    plot->setContentsMargins(0, 0, 0, 0);
    plot->setSpacing(2);
    plot->addWidget(m_view, 1);
    plot->addWidget(m_summary);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stack->addWidget(m_plot);
    m_view->setAccessibleName(tr("%1 chart").arg(metricName(kind)));
    m_view->setFocusPolicy(Qt::NoFocus);  // nothing to operate: the summary under it says what it shows

    m_chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setTitle(metricName(kind));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->hide();
    m_view->setChart(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(150);
    m_view->viewport()->setMouseTracking(true);
    m_view->viewport()->installEventFilter(this);
    m_saveAction = new QAction(tr("&Save as PNG/SVG…"), m_view);
    connect(m_saveAction, &QAction::triggered, this, &MetricChart::saveImageAs);
    m_view->addAction(m_saveAction);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_raw->setName(tr("this run"));
    m_chart->addSeries(m_raw);
    if (kind == MetricKind::Loss) {
        m_smooth = makeSeries(runColor, 2.0);
        m_smooth->setName(tr("this run"));
        m_chart->addSeries(m_smooth);
    }
    m_chart->addAxis(m_x, Qt::AlignBottom);
    ensureYAxis();
    attach(m_raw);
    if (m_smooth)
        attach(m_smooth);

    m_marker = new QGraphicsEllipseItem(-4, -4, 8, 8, m_chart);
    m_marker->setBrush(runColor);
    m_marker->setPen(QPen(Qt::white, 1.5));
    m_marker->setZValue(100);
    m_marker->hide();
    m_tip = new QGraphicsRectItem(m_chart);
    m_tip->setBrush(QColor(255, 255, 255, 235));
    m_tip->setPen(QPen(QColor(0, 0, 0, 90)));
    m_tip->setZValue(101);
    m_tip->hide();
    m_tipText = new QGraphicsSimpleTextItem(m_tip);
    m_tipText->setPos(6, 4);

    m_redrawTimer.setSingleShot(true);
    m_redrawTimer.setInterval(0);
    connect(&m_redrawTimer, &QTimer::timeout, this, &MetricChart::redraw);
    // The first layout gives the real plot width: draw again for it once.
    // A new height may take another number of y ticks.
    connect(m_chart, &QChart::plotAreaChanged, this, [this](const QRectF &area) {
        // (A new width comes with a resize of the view, which redraws: the x ticks follow it there. Redrawing on every
        // width the layout tries made labels and plot chase each other.)
        if ((m_columnsGuessed && area.width() > 10) || (m_y && mostTicksFor(area.height(), labelHeight(m_y)) != m_yTicks))
            scheduleRedraw();
    });
    m_stack->setCurrentWidget(m_empty);
}

void MetricChart::setPoints(const QVector<MetricPoint> &points)
{
    m_points = points;
    scheduleRedraw();
}

void MetricChart::appendPoints(const QVector<MetricPoint> &more)
{
    if (more.isEmpty())
        return;
    m_points += more;
    // A running job appends several times a second: draw at most every streamRedrawMs then (a redraw of a long
    // run's four charts costs the UI thread milliseconds), at once for everything else.
    if (!m_redrawTimer.isActive()) {
        const qint64 since = m_lastRedraw.isValid() ? m_lastRedraw.elapsed() : streamRedrawMs;
        m_redrawTimer.start(int(std::max<qint64>(0, streamRedrawMs - since)));
    }
}

void MetricChart::setXAxisMode(XAxisMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    scheduleRedraw();
}

void MetricChart::setLogScale(bool on)
{
    if (on == m_log)
        return;
    m_log = on;
    ensureYAxis();
    scheduleRedraw();
}

void MetricChart::setSmoothing(double weight)
{
    weight = std::isfinite(weight) ? std::clamp(weight, 0.0, 0.999) : 0.0;
    if (weight == m_smoothing)
        return;
    m_smoothing = weight;
    scheduleRedraw();
}

void MetricChart::setOverlays(const QVector<Overlay> &overlays)
{
    m_overlays = overlays;
    for (QLineSeries *s : std::as_const(m_overlaySeries)) {
        m_chart->removeSeries(s);
        delete s;
    }
    m_overlaySeries.clear();
    // Earlier runs under this one: take this run's series out and put them back on top.
    m_chart->removeSeries(m_raw);
    if (m_smooth)
        m_chart->removeSeries(m_smooth);
    for (int i = 0; i < overlays.size(); ++i) {
        const QColor color = overlayColors[i % std::size(overlayColors)];
        QLineSeries *s = makeSeries(color, 1.5, Qt::DashLine);
        s->setName(overlays[i].first);
        m_chart->addSeries(s);
        attach(s);
        m_overlaySeries.append(s);
    }
    m_chart->addSeries(m_raw);
    attach(m_raw);
    if (m_smooth) {
        m_chart->addSeries(m_smooth);
        attach(m_smooth);
    }
    // The legend names the runs: this run's smoothed line (or its only line) and one entry per earlier run.
    m_chart->legend()->setVisible(!overlays.isEmpty());
    if (m_smooth)
        for (QLegendMarker *marker : m_chart->legend()->markers(m_raw))
            marker->setVisible(false);
    scheduleRedraw();
}

void MetricChart::attach(QLineSeries *series)
{
    for (QAbstractAxis *axis : {m_x, m_y})
        if (!series->attachedAxes().contains(axis))
            series->attachAxis(axis);
}

void MetricChart::ensureYAxis()
{
    const bool isLog = m_y && qobject_cast<QLogValueAxis *>(m_y);
    if (m_y && isLog == m_log)
        return;
    if (m_y) {
        // What is drawn was drawn for the other axis (zero and negative values on a linear one): redrawn soon.
        for (QAbstractSeries *s : m_chart->series())
            static_cast<QLineSeries *>(s)->clear();
        m_chart->removeAxis(m_y);
        delete m_y;
    }
    if (m_log) {
        auto *axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(-1);
        m_y = axis;
    } else {
        auto *axis = new QValueAxis;
        axis->setLabelFormat(valueFormat(m_kind));
        axis->setTickCount(6);
        m_y = axis;
    }
    // The chart's title names the metric: a rotated copy beside the axis would take the plot's width and be cut
    // where the name is long (Chinese "吞吐量（tokens/s）" at the monitor's size).
    m_y->setTitleText(metricName(m_kind));
    m_y->setTitleVisible(false);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (QAbstractSeries *s : m_chart->series())
        s->attachAxis(m_y);
}

void MetricChart::scheduleRedraw()
{
    if (!m_redrawTimer.isActive() || m_redrawTimer.remainingTime() > 0)
        m_redrawTimer.start(0);
}

void MetricChart::refresh()
{
    if (m_redrawTimer.isActive()) {
        m_redrawTimer.stop();
        redraw();
    }
}

void MetricChart::redraw()
{
    ++m_redraws;
    m_lastRedraw.start();
    const Samples run = samplesOf(m_points, m_kind, m_mode, m_log);
    m_xs = run.xs;
    m_ys = run.ys;
    m_index = run.index;
    if (m_xs.isEmpty()) {
        m_raw->clear();
        if (m_smooth)
            m_smooth->clear();
        for (QLineSeries *s : std::as_const(m_overlaySeries))
            s->clear();
        hideHover();
        m_stack->setCurrentWidget(m_empty);
        updateSummary();
        return;
    }
    m_stack->setCurrentWidget(m_plot);
    updateSummary();

    QVector<Samples> others;
    others.reserve(m_overlays.size());
    for (const Overlay &o : std::as_const(m_overlays))
        others.append(samplesOf(o.second, m_kind, m_mode, m_log));

    // The x range covers every run; time is shown in s, min or h as its span asks.
    double xMin = m_xs.first(), xMax = m_xs.last();
    for (const Samples &s : std::as_const(others)) {
        if (!s.xs.isEmpty()) {
            xMin = std::min(xMin, s.xs.first());
            xMax = std::max(xMax, s.xs.last());
        }
    }
    m_xScale = 1;
    QString xTitle = tr("step");
    if (m_mode == XAxisMode::Time) {
        const double span = std::max(std::abs(xMin), std::abs(xMax));
        m_xScale = span > 7200 ? 3600 : span > 120 ? 60 : 1;
        xTitle = m_xScale == 3600 ? tr("time (h)") : m_xScale == 60 ? tr("time (min)") : tr("time (s)");
    }
    xMin /= m_xScale;
    xMax /= m_xScale;

    const QRectF area = m_chart->plotArea();
    m_columnsGuessed = !m_view->isVisible() || !(area.width() > 10);  // hidden: not laid out yet
    m_columns = std::max(50, m_columnsGuessed ? std::max(width(), m_view->width()) - 90 : int(area.width()));

    const bool smooth = m_kind == MetricKind::Loss;
    auto smoothed = [&](const QVector<double> &ys) { return smooth ? emaSmooth(ys, m_smoothing) : ys; };
    m_raw->replace(drawn(m_xs, m_ys, m_xScale, m_log, xMin, xMax, m_columns));
    if (m_smooth)
        m_smooth->replace(drawn(m_xs, smoothed(m_ys), m_xScale, m_log, xMin, xMax, m_columns));
    for (int i = 0; i < others.size(); ++i)
        m_overlaySeries[i]->replace(
            drawn(others[i].xs, smoothed(others[i].ys), m_xScale, m_log, xMin, xMax, m_columns));

    // The y range covers this run's raw values and what is drawn of the others.
    const auto [lo, hi] = std::minmax_element(m_ys.cbegin(), m_ys.cend());
    double yMin = *lo, yMax = *hi;
    for (QLineSeries *s : std::as_const(m_overlaySeries)) {
        for (const QPointF &p : s->points()) {
            yMin = std::min(yMin, p.y());
            yMax = std::max(yMax, p.y());
        }
    }
    if (xMax <= xMin) {
        xMin -= 0.5;
        xMax += 0.5;
    }
    m_x->setRange(xMin, xMax);
    m_x->setTitleText(xTitle);
    // A short chart has no room for the axis's title under its labels (QtCharts cut Chinese "步" to "..."): the
    // labels carry the unit of time instead, and steps need none (the summary and the hover say "step").
    const bool xTitleFits = m_view->height() >= kXTitleMinHeight;
    m_x->setTitleVisible(xTitleFits);
    const QString xUnit = xTitleFits || m_mode == XAxisMode::Step ? QString()
                          : m_xScale == 3600 ? tr("h") : m_xScale == 60 ? tr("min") : tr("s");
    // As many ticks as fit whole: QtCharts elides a label given less room than it needs, and hides one that would
    // overlap the one before.
    setNiceTicks(m_x, xMin, xMax, 6, mostTicksFor(m_columns, widestLabel(m_x, xMin, xMax, 6, xUnit)), xUnit);
    if (m_log) {
        m_y->setRange(yMin / 1.15, yMax * 1.15);
    } else {
        const double pad = yMax > yMin ? (yMax - yMin) * 0.05 : std::max(std::abs(yMax) * 0.1, 1e-12);
        m_y->setRange(yMin - pad, yMax + pad);
        m_yTicks = m_columnsGuessed ? 5 : mostTicksFor(m_chart->plotArea().height(), labelHeight(m_y));  // hidden: not laid out
        setNiceTicks(m_y, yMin - pad, yMax + pad, 5, m_yTicks);
    }

    if (m_hoverIndex >= 0)
        hoverAt(m_hoverPos);
}

int MetricChart::hoverAt(const QPoint &viewportPos)
{
    m_hoverPos = viewportPos;
    if (m_xs.isEmpty() || m_stack->currentWidget() != m_plot) {
        hideHover();
        return -1;
    }
    const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(viewportPos));
    if (!m_chart->plotArea().contains(inChart)) {
        hideHover();
        return -1;
    }
    const double x = m_chart->mapToValue(inChart, m_raw).x() * m_xScale;
    auto it = std::lower_bound(m_xs.cbegin(), m_xs.cend(), x);
    int k = int(it - m_xs.cbegin());
    if (k == m_xs.size() || (k > 0 && x - m_xs[k - 1] <= m_xs[k] - x))
        --k;
    m_hoverIndex = m_index[k];
    const MetricPoint &p = m_points.at(m_hoverIndex);

    QString text = tr("step %1").arg(formatCount(p.step));
    if (std::isfinite(p.time))
        text += QStringLiteral("  ·  ") + formatDuration(p.time);
    text += QLatin1Char('\n') + metricName(m_kind) + QStringLiteral(": ") + formatMetric(m_ys[k]);
    m_tipText->setText(text);

    const QPointF at = m_chart->mapToPosition(QPointF(m_xs[k] / m_xScale, m_ys[k]), m_raw);
    m_marker->setPos(at);
    m_marker->show();
    const QRectF textRect = m_tipText->boundingRect();
    const QSizeF size(textRect.width() + 12, textRect.height() + 8);
    m_tip->setRect(QRectF(QPointF(0, 0), size));
    const QRectF area = m_chart->plotArea();
    QPointF tipPos = at + QPointF(12, -size.height() - 8);
    if (tipPos.x() + size.width() > area.right())
        tipPos.setX(at.x() - 12 - size.width());
    if (tipPos.y() < area.top())
        tipPos.setY(at.y() + 12);
    m_tip->setPos(tipPos);
    m_tip->show();
    return m_hoverIndex;
}

void MetricChart::hideHover()
{
    m_hoverIndex = -1;
    m_tip->hide();
    m_marker->hide();
    m_tipText->setText(QString());
}

QString MetricChart::hoverText() const
{
    return m_hoverIndex >= 0 ? m_tipText->text() : QString();
}

QPair<double, double> MetricChart::xRange() const
{
    const auto *axis = qobject_cast<const QValueAxis *>(m_x);
    return axis ? qMakePair(axis->min(), axis->max()) : qMakePair(0.0, 0.0);
}

QPair<double, double> MetricChart::yRange() const
{
    if (const auto *axis = qobject_cast<const QLogValueAxis *>(m_y))
        return qMakePair(axis->min(), axis->max());
    const auto *axis = qobject_cast<const QValueAxis *>(m_y);
    return axis ? qMakePair(axis->min(), axis->max()) : qMakePair(0.0, 0.0);
}

bool MetricChart::isEmptyStateShown() const
{
    return m_stack->currentWidget() == m_empty;
}

QPointF MetricChart::viewportPositionOf(int index) const
{
    const auto it = std::find(m_index.cbegin(), m_index.cend(), index);
    if (it == m_index.cend())
        return QPointF(-1, -1);
    const int k = int(it - m_index.cbegin());
    const QPointF inChart = m_chart->mapToPosition(QPointF(m_xs[k] / m_xScale, m_ys[k]), m_raw);
    return m_view->mapFromScene(m_chart->mapToScene(inChart));
}

QString MetricChart::summary() const
{
    if (m_ys.isEmpty())
        return tr("%1: no values yet.").arg(metricName(m_kind));
    const auto [lo, hi] = std::minmax_element(m_ys.cbegin(), m_ys.cend());
    // m_index is in x order: the first and last drawn points, and the steps they were at.
    const int first = m_index.first(), last = m_index.last();
    const qint64 steps = m_points.at(last).step - m_points.at(first).step;
    const auto value = [](double v) { return formatMetric(v); };
    return tr("%1: %2 → %3 over %Ln step(s), lowest %4, highest %5.", nullptr, int(std::min<qint64>(steps, INT_MAX)))
        .arg(metricName(m_kind), value(m_ys.first()), value(m_ys.last()), value(*lo), value(*hi));
}

void MetricChart::updateSummary()
{
    const QString text = summary();
    m_summary->setText(text);
    m_view->setAccessibleDescription(text);
}

void MetricChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        followPalette();
}

// The chart's theme follows the palette; the theme resets the lines' pens, which are kept.
void MetricChart::followPalette()
{
    const QChart::ChartTheme theme = isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (m_chart->theme() == theme)
        return;
    QVector<QPair<QLineSeries *, QPen>> pens;
    for (QLineSeries *s : m_overlaySeries + QVector<QLineSeries *>{m_raw, m_smooth})
        if (s)
            pens.append({s, s->pen()});
    m_chart->setTheme(theme);
    m_chart->setBackgroundRoundness(0);
    for (const auto &[series, pen] : std::as_const(pens))
        series->setPen(pen);
}

bool MetricChart::saveImage(const QString &path, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
        *error = tr("%1: a chart is saved as .png or .svg").arg(displayName(path));
        return false;
    }
    refresh();
    hideHover();  // the picture is of the data, not of where the mouse was
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("%1 cannot be written: %2").arg(displayName(path), file.errorString());
        return false;
    }
    const QSize size = m_view->viewport()->size();
    if (suffix == QLatin1String("png")) {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(m_view->palette().window().color());
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        m_view->render(&painter, QRectF(QPointF(0, 0), size), m_view->viewport()->rect());
        painter.end();
        if (!image.save(&file, "PNG")) {
            *error = tr("%1 cannot be written: the image could not be encoded").arg(displayName(path));
            file.cancelWriting();
            return false;
        }
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(tr("%1 chart").arg(metricName(m_kind)));
        svg.setDescription(m_summary->text());
        QPainter painter(&svg);
        m_view->render(&painter, QRectF(QPointF(0, 0), size), m_view->viewport()->rect());
        painter.end();
    }
    if (!file.commit()) {
        *error = tr("%1 cannot be written: %2").arg(displayName(path), file.errorString());
        return false;
    }
    return true;
}

void MetricChart::saveImageAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the chart"), metricName(m_kind) + QStringLiteral(".png"),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveImage(path, &error))
        QMessageBox::warning(this, tr("Save the chart"), error);
}

bool MetricChart::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport()) {
        switch (event->type()) {
        case QEvent::MouseMove:
            hoverAt(static_cast<QMouseEvent *>(event)->position().toPoint());
            break;
        case QEvent::Leave:
            hideHover();
            break;
        case QEvent::Resize:
            scheduleRedraw();
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace ingot
