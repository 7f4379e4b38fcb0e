#include "ui/localcache/cachechartswidget.h"

#include "models/common/tones.h"
#include "services/cache/compilerversion.h"
#include "services/util/format.h"
#include "ui/common/chartaxis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLocale>
#include <QLabel>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace ingot {

namespace {
QChartView *makeView(QWidget *parent, const QString &title)
{
    auto *chart = new QChart;
    chart->setTheme(isDarkPalette(parent->palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitle(title);
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    auto *view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(180);
    view->setAccessibleName(title);
    view->setFocusPolicy(Qt::NoFocus);  // nothing to operate: the summary under it says what it shows
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
    y->setTitleText(unit);
    y->applyNiceNumbers();
    // Nothing yet (a scan under way): no ticks to read ("1 1 1 0 0 0" for 0..1); else labels that differ.
    y->setLabelsVisible(top > 0);
    y->setTitleVisible(top > 0);
    y->setLabelFormat(tickLabelFormat((y->max() - y->min()) / std::max(1, y->tickCount() - 1), y->max()));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
}
QBarCategoryAxis *categoryAxis(QChart *chart)
{
    for (QAbstractAxis *a : chart->axes(Qt::Horizontal))
        if (auto *c = qobject_cast<QBarCategoryAxis *>(a))
            return c;
    return nullptr;
}

// Category labels wider than their bar's share of the plot are turned to run upwards, where they have the room to be
// read whole (Qt Charts would cut "2.12.68.0" to "2.12.6…"); they turn back when the chart is wide again.
void turnLabelsThatDoNotFit(QChart *chart)
{
    QBarCategoryAxis *x = categoryAxis(chart);
    if (!x || x->count() == 0)
        return;
    const QFontMetrics fm(x->labelsFont());
    int widest = 0;
    for (const QString &c : x->categories())
        widest = std::max(widest, fm.horizontalAdvance(c));
    const qreal room = chart->plotArea().width() / x->count();
    // Qt Charts draws a label as a text document: 4 px of document margin each side, and a gap between labels.
    const int angle = widest + 8 + fm.averageCharWidth() * 2 > room ? -90 : 0;
    if (x->labelsAngle() != angle)
        x->setLabelsAngle(angle);
}

QLabel *makeSummary(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}
}  // namespace

CacheChartsWidget::CacheChartsWidget(QWidget *parent)
    : QWidget(parent)
    , m_size(makeView(this, tr("Size by compiler version")))
    , m_age(makeView(this, tr("Entries by last use")))
    , m_sizeSummary(makeSummary(this))
    , m_ageSummary(makeSummary(this))
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    for (auto [view, summary] : {std::pair{m_size, m_sizeSummary}, std::pair{m_age, m_ageSummary}}) {
        connect(view->chart(), &QChart::plotAreaChanged, view, [chart = view->chart()] { turnLabelsThatDoNotFit(chart); });
        auto *col = new QVBoxLayout;
        col->addWidget(view, 1);
        col->addWidget(summary);
        row->addLayout(col);
    }
    setStats(CacheStats());
}

void CacheChartsWidget::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange)
        return;
    const QChart::ChartTheme theme = isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (m_size->chart()->theme() == theme)
        return;
    for (QChart *chart : {m_size->chart(), m_age->chart()}) {
        chart->setTheme(theme);  // it resets the bars' colours: draw them again
        chart->setBackgroundRoundness(0);
    }
    setStats(m_stats);
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
    m_stats = stats;
    // Size: pick one unit for all bars so they compare at a glance.
    qint64 biggest = 0;
    for (const auto &v : stats.versions)
        biggest = std::max(biggest, v.size);
    const bool gb = biggest >= qint64(1) << 30;  // binary units, as every size Ingot writes (format.h)
    const double div = gb ? double(qint64(1) << 30) : double(1 << 20);
    QStringList cats;
    QList<qreal> sizes;
    for (auto it = stats.versions.crbegin(); it != stats.versions.crend(); ++it) {  // oldest on the left
        cats << CompilerVersion::parse(it->version).display().section(QLatin1Char('+'), 0, 0);
        sizes << std::round(double(it->size) / div * 10.0) / 10.0;
    }
    fill(m_size->chart(), cats, sizes, toneFillColor(Tone::Info), gb ? tr("GiB") : tr("MiB"));
    turnLabelsThatDoNotFit(m_size->chart());
    // The whole version (with its build) and the exact size, on the bar under the pointer.
    auto *bars = qobject_cast<QBarSeries *>(m_size->chart()->series().value(0));
    if (QBarSet *set = bars && !bars->barSets().isEmpty() ? bars->barSets().first() : nullptr)
        connect(set, &QBarSet::hovered, m_size, [this](bool on, int i) {
            const int v = int(m_stats.versions.size()) - 1 - i;  // the bars run oldest first
            m_size->setToolTip(on && v >= 0 && v < m_stats.versions.size()
                                   ? tr("%1: %2").arg(CompilerVersion::parse(m_stats.versions[v].version).display(),
                                                      formatBytes(m_stats.versions[v].size))
                                   : QString());
        });
    QStringList ages;
    QList<qreal> counts;
    for (int b = 0; b < CacheStats::AgeBucketCount; ++b) {
        ages << CacheStats::ageBucketName(b);
        counts << stats.ageEntries[b];
    }
    fill(m_age->chart(), ages, counts, toneFillColor(Tone::Good), tr("entries"));
    turnLabelsThatDoNotFit(m_age->chart());

    // The same, said in words.
    qint64 total = 0;
    const VersionStats *largest = nullptr;
    for (const VersionStats &v : stats.versions) {
        total += v.size;
        if (!largest || v.size > largest->size)
            largest = &v;
    }
    if (!largest)
        m_sizeSummary->setText(tr("No compiler versions yet."));
    else
        m_sizeSummary->setText(tr("%1 in %n compiler version(s); the largest, %2, holds %3.", nullptr,
                                  int(stats.versions.size()))
                                   .arg(formatBytes(total),
                                        CompilerVersion::parse(largest->version).display().section(QLatin1Char('+'), 0, 0),
                                        formatBytes(largest->size)));
    int entries = 0, top = 0;
    for (int b = 0; b < CacheStats::AgeBucketCount; ++b) {
        entries += stats.ageEntries[b];
        if (stats.ageEntries[b] > stats.ageEntries[top])
            top = b;
    }
    if (entries == 0)
        m_ageSummary->setText(tr("No entries yet."));
    else
        m_ageSummary->setText(tr("%n entries; most of them (%1) were last used %2 ago.", nullptr, entries)
                                  .arg(formatCount(stats.ageEntries[top]), CacheStats::ageBucketName(top)));
    m_size->setAccessibleDescription(m_sizeSummary->text());
    m_age->setAccessibleDescription(m_ageSummary->text());
}

}  // namespace ingot
