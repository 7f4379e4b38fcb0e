// QtCharts views of the cache: size by compiler version, entries by age of last use, each with a one-line text
// summary under it (what a screen reader reads, and what the bars say at a glance). They follow the light or dark
// palette.
#pragma once

#include "services/cache/cachestats.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QChartView;
class QChart;
class QLabel;
QT_END_NAMESPACE

namespace ingot {

class CacheChartsWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheChartsWidget)

public:
    explicit CacheChartsWidget(QWidget *parent = nullptr);
    void setStats(const CacheStats &stats);

    QChart *sizeChart() const;
    QChart *ageChart() const;
    QChartView *sizeView() const { return m_size; }
    QChartView *ageView() const { return m_age; }
    QLabel *sizeSummary() const { return m_sizeSummary; }
    QLabel *ageSummary() const { return m_ageSummary; }

protected:
    void changeEvent(QEvent *event) override;

private:
    QChartView *m_size;
    QChartView *m_age;
    QLabel *m_sizeSummary;
    QLabel *m_ageSummary;
    CacheStats m_stats;
};

}  // namespace ingot
