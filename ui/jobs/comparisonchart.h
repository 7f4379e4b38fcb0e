// One metric of several runs overlaid (the comparison of runs, issue 38): a line per run in that run's colour and
// under its name, by step or by wall time since each run started. Each line is drawn min/max per pixel column of the
// run's points (downsample.h), so a long run costs the chart a few points per pixel, never one per step.
#pragma once

#include "services/jobs/metrics.h"

#include <QColor>
#include <QRectF>
#include <QString>
#include <QVector>
#include <QWidget>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace ingot {

class ComparisonChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ComparisonChart)

public:
    struct Run {
        QString name;  // the line's name
        QString tag;   // how the summary under the chart names it ("A"); the name when empty
        QColor color;
        QVector<MetricPoint> points;
    };
    enum class XAxis { Step, WallTime };

    explicit ComparisonChart(MetricKind kind, QWidget *parent = nullptr);

    MetricKind kind() const { return m_kind; }
    void setRuns(const QVector<Run> &runs);
    void setXAxis(XAxis x);
    XAxis xAxis() const { return m_x; }

    // One series per run that has a value of this metric (a run without one has no line, and says so in the legend).
    QVector<QLineSeries *> series() const { return m_series; }
    QChartView *view() const { return m_view; }
    // The chart in words, under it: the runs and their last values (what a screen reader reads).
    QLabel *summaryLabel() const { return m_summary; }

    static QString title(MetricKind kind);
    // The colour of the i-th run: distinct hues readable on light and dark charts.
    static QColor runColor(int index);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void redraw();
    void updateTicks();

    MetricKind m_kind;
    XAxis m_x = XAxis::Step;
    QVector<Run> m_runs;
    QChart *m_chart;
    QChartView *m_view;
    QValueAxis *m_xAxis;
    QValueAxis *m_yAxis;
    QLabel *m_summary;
    QVector<QLineSeries *> m_series;
    QRectF m_range;  // of every run's points: x left to right, y top (lowest) to bottom (highest)
    bool m_settingTicks = false;
};

}  // namespace ingot
