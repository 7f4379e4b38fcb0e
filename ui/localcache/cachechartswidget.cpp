#include "ui/localcache/cachechartswidget.h"

#include "services/cache/compilerversion.h"
#include "services/util/units.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace ingot {

namespace {
QChartView *makeView(QWidget *parent, const QString &title)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    auto *view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(180);
    return view;
}

// Bars with category labels, a value axis in `unit` and a readable ceiling.
void fill(QChart *chart, const QStringList &categories, const QList<qreal> &values, const QColor &color,
          const QString &unit)
{
    chart->removeAllSeries();
    for (auto *a : chart->axes())
        chart->removeAxis(a);
    auto *set = new QBarSet(QString());
    set->setColor(color);
    set->setBorderColor(color.darker(115));
    qreal top = 0;
    for (qreal v : values) {
        *set << v;
        top = std::max(top, v);
    }
    set->setLabelColor(chart->titleBrush().color());
    auto *series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis;
    y->setRange(0, top <= 0 ? 1 : top * 1.2);
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTitleText(unit);
    y->applyNiceNumbers();
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
}
}  // namespace

CacheChartsWidget::CacheChartsWidget(QWidget *parent)
    : QWidget(parent)
    , m_size(makeView(this, tr("Size by compiler version")))
    , m_age(makeView(this, tr("Entries by last use")))
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_size);
    row->addWidget(m_age);
}

QChart *CacheChartsWidget::sizeChart() const
{
    return m_size->chart();
}

QChart *CacheChartsWidget::ageChart() const
{
    return m_age->chart();
}

void CacheChartsWidget::setStats(const CacheStats &stats)
{
    // Size: pick one unit for all bars so they compare at a glance.
    qint64 biggest = 0;
    for (const auto &v : stats.versions)
        biggest = std::max(biggest, v.size);
    const bool gb = biggest >= qint64(1000) * 1000 * 1000;
    const double div = gb ? 1e9 : 1e6;
    QStringList cats;
    QList<qreal> sizes;
    for (auto it = stats.versions.crbegin(); it != stats.versions.crend(); ++it) {  // oldest on the left
        cats << CompilerVersion::parse(it->version).display().section(QLatin1Char('+'), 0, 0);
        sizes << std::round(double(it->size) / div * 10.0) / 10.0;
    }
    fill(m_size->chart(), cats, sizes, QColor(0x3b, 0x7d, 0xd8), gb ? tr("GB") : tr("MB"));
    QStringList ages;
    QList<qreal> counts;
    for (int b = 0; b < CacheStats::AgeBucketCount; ++b) {
        ages << CacheStats::ageBucketName(b);
        counts << stats.ageEntries[b];
    }
    fill(m_age->chart(), ages, counts, QColor(0x2e, 0x9e, 0x4f), tr("entries"));
}

}  // namespace ingot
