// QtCharts views of the cache: size by compiler version, entries by age of last use.
#pragma once

#include "services/cache/cachestats.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QChartView;
class QChart;
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

private:
    QChartView *m_size;
    QChartView *m_age;
};

}  // namespace ingot
