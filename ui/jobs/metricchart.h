// A chart of one metric of a training job (loss, learning rate, …) by step or time. It keeps every point and draws
// a min/max-per-pixel view of them, smooths the loss, compares with earlier runs and tells the value under the mouse.
#pragma once

#include "services/jobs/metrics.h"

#include <QPair>
#include <QPointF>
#include <QString>
#include <QElapsedTimer>
#include <QTimer>
#include <QVector>
#include <QWidget>

class QAbstractAxis;
class QAction;
class QChart;
class QChartView;
class QGraphicsEllipseItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QStackedLayout;

namespace ingot {

class MetricChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MetricChart)

public:
    enum class XAxisMode { Step, Time };
    using Overlay = QPair<QString, QVector<MetricPoint>>;  // an earlier run: its name and points

    explicit MetricChart(MetricKind kind, QWidget *parent = nullptr);

    MetricKind kind() const { return m_kind; }
    // Points in step order (a restart that goes back in steps is drawn sorted). Both only schedule a redraw: many
    // appends in one turn of the event loop cost one redraw.
    void setPoints(const QVector<MetricPoint> &points);
    void appendPoints(const QVector<MetricPoint> &more);
    const QVector<MetricPoint> &points() const { return m_points; }

    void setXAxisMode(XAxisMode mode);
    XAxisMode xAxisMode() const { return m_mode; }
    // A log y axis; values <= 0 are not drawn.
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    // The loss's EMA weight, 0 (none) to 0.999; 0.6 by default. Other metrics are drawn unsmoothed.
    void setSmoothing(double weight);
    double smoothing() const { return m_smoothing; }
    // Earlier runs, each a dashed series with a legend entry.
    void setOverlays(const QVector<Overlay> &overlays);

    // Redraws now if a redraw is pending (otherwise it happens on the next turn of the event loop).
    void refresh();

    // The chart as it is drawn now, saved by `path`'s suffix: .png (the chart view's size in pixels) or .svg (vectors:
    // every series a path, the axes and legend as text). Written atomically; false with words in `error`.
    bool saveImage(const QString &path, QString *error);
    // The chart's context menu: Save as PNG/SVG… asks where, then saveImage.
    QAction *saveAction() const { return m_saveAction; }
    void saveImageAs();

    // What the mouse shows at `viewportPos` (a position in view()->viewport()): the point of this run nearest in x,
    // as its index in points(); -1 and nothing shown off the plot or with no points.
    int hoverAt(const QPoint &viewportPos);
    void hideHover();
    QString hoverText() const;  // empty while nothing is shown

    // For tests and benchmarks.
    QChartView *view() const { return m_view; }
    QChart *chart() const { return m_chart; }
    // The chart in words, under it (first and last value, the steps, the range): what a screen reader reads.
    QLabel *summaryLabel() const { return m_summary; }
    QString summary() const;
    QLineSeries *rawSeries() const { return m_raw; }
    QLineSeries *smoothedSeries() const { return m_smooth; }  // null unless the metric is the loss
    QVector<QLineSeries *> overlaySeries() const { return m_overlaySeries; }
    QPair<double, double> xRange() const;  // in the axis's unit (steps, or s/min/h: xUnitSeconds())
    QPair<double, double> yRange() const;
    double xUnitSeconds() const { return m_xScale; }
    bool isEmptyStateShown() const;
    int redrawCount() const { return m_redraws; }
    int columns() const { return m_columns; }  // the pixel columns the last redraw drew for
    // Where points()[index] is drawn, in viewport coordinates; (-1, -1) when it is not drawn.
    QPointF viewportPositionOf(int index) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void scheduleRedraw();
    void redraw();
    void ensureYAxis();
    void attach(QLineSeries *series);
    void updateSummary();
    void followPalette();

    MetricKind m_kind;
    QVector<MetricPoint> m_points;
    QVector<Overlay> m_overlays;
    XAxisMode m_mode = XAxisMode::Step;
    bool m_log = false;
    double m_smoothing = 0.6;

    QStackedLayout *m_stack;
    QLabel *m_empty;
    QWidget *m_plot;  // the chart and its summary
    QChartView *m_view;
    QLabel *m_summary;
    QChart *m_chart;
    QLineSeries *m_raw;
    QLineSeries *m_smooth = nullptr;
    QVector<QLineSeries *> m_overlaySeries;
    QAbstractAxis *m_x;
    QAbstractAxis *m_y = nullptr;
    QGraphicsRectItem *m_tip;
    QGraphicsSimpleTextItem *m_tipText;
    QGraphicsEllipseItem *m_marker;
    QAction *m_saveAction;

    // The drawn run, every point of it, sorted by x: x in axis units, y, and the index into m_points.
    QVector<double> m_xs;
    QVector<double> m_ys;
    QVector<int> m_index;
    double m_xScale = 1;
    int m_columns = 0;
    int m_yTicks = 5;     // the most y ticks the last redraw allowed (mostTicksFor the plot's height)
    bool m_columnsGuessed = true;
    int m_hoverIndex = -1;
    QPoint m_hoverPos;

    QTimer m_redrawTimer;
    QElapsedTimer m_lastRedraw;
    static constexpr qint64 streamRedrawMs = 250;
    static constexpr int kXTitleMinHeight = 240;  // the chart view's height from which the x axis has its title
    int m_redraws = 0;
};

}  // namespace ingot
