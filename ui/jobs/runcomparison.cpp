#include "ui/jobs/runcomparison.h"

#include "models/common/tones.h"
#include "services/cache/explain.h"
#include "services/jobs/jobservice.h"
#include "services/util/format.h"
#include "services/util/names.h"
#include "ui/common/flagtext.h"
#include "ui/jobs/comparisonchart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ingot {

namespace {

constexpr MetricKind chartKinds[] = {MetricKind::Loss, MetricKind::LearningRate, MetricKind::Throughput, MetricKind::GradNorm};

QString letter(int i)
{
    return runLetter(i);
}

QString numberText(double v)
{
    return std::isfinite(v) ? formatMetric(v) : QStringLiteral("–");
}

QTableWidget *makeTable(QWidget *parent)
{
    auto *t = new QTableWidget(parent);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

Tone verdictTone(Verdict v)
{
    switch (v) {
    case Verdict::Hit: return Tone::Good;
    case Verdict::Blocked: return Tone::Bad;
    case Verdict::OtherCache: return Tone::Info;
    case Verdict::OtherFlags:
    case Verdict::OtherCompiler:
    case Verdict::NewGraph: return Tone::Warning;
    }
    return Tone::Neutral;
}

}  // namespace

RunComparisonDialog::RunComparisonDialog(JobService *service, const QStringList &ids, QWidget *parent)
    : QDialog(parent)
    , m_service(service)
    , m_ids(ids)
    , m_runs(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_refresh(new QPushButton(tr("Re&fresh"), this))
{
    setWindowTitle(tr("Compare runs"));
    m_runs->setWordWrap(true);
    m_runs->setTextFormat(Qt::RichText);
    m_runs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runs->setText(tr("Reading %n run(s)…", nullptr, int(ids.size())));
    m_tabs->addTab(buildCurves(), tr("&Curves"));
    m_tabs->addTab(buildSettings(), tr("&Settings"));
    m_tabs->addTab(buildGraphs(), tr("&Graphs"));
    m_tabs->setEnabled(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_refresh->setToolTip(tr("Read the runs again: a running run has gone on"));
    buttons->addButton(m_refresh, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_refresh, &QPushButton::clicked, this, &RunComparisonDialog::refresh);
    auto *col = new QVBoxLayout(this);
    col->addWidget(m_runs);
    col->addWidget(m_tabs, 1);
    col->addWidget(buttons);
    resize(1100, 760);
    refresh();
}

void RunComparisonDialog::refresh()
{
    if (!m_service || m_task.isRunning())
        return;
    m_refresh->setEnabled(false);
    m_ready = false;
    m_task = compareRunsOf(*m_service, m_ids, this, [this](const RunComparison &c) {
        m_refresh->setEnabled(true);
        showComparison(c);
    });
}

RunComparisonDialog::~RunComparisonDialog()
{
    m_task.discard();
}

QWidget *RunComparisonDialog::buildCurves()
{
    auto *page = new QWidget(this);
    m_xAxis = new QComboBox(page);
    m_xAxis->addItem(tr("By step"));
    m_xAxis->addItem(tr("By wall time"));
    m_xAxis->setToolTip(tr("Draw each run against its steps, or against the seconds since it started"));
    auto *xLabel = new QLabel(tr("&X axis:"), page);
    xLabel->setBuddy(m_xAxis);
    auto *row = new QHBoxLayout;
    row->addWidget(xLabel);
    row->addWidget(m_xAxis);
    row->addStretch(1);
    auto *grid = new QGridLayout;
    int i = 0;
    for (const MetricKind k : chartKinds) {
        auto *c = new ComparisonChart(k, page);
        m_charts.insert(int(k), c);
        grid->addWidget(c, i / 2, i % 2);
        ++i;
    }
    m_curves = makeTable(page);
    m_curves->setObjectName(QStringLiteral("curvesTable"));
    m_curves->setColumnCount(5);
    m_curves->setHorizontalHeaderLabels({tr("Run"), tr("Steps"), tr("Last loss"), tr("Lowest loss"), tr("Mean tokens/s")});
    m_curves->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    auto *col = new QVBoxLayout(page);
    col->addLayout(row);
    col->addLayout(grid, 1);
    col->addWidget(m_curves);
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this](int index) {
        for (ComparisonChart *c : std::as_const(m_charts))
            c->setXAxis(index == 1 ? ComparisonChart::XAxis::WallTime : ComparisonChart::XAxis::Step);
    });
    return page;
}

QWidget *RunComparisonDialog::buildSettings()
{
    auto *page = new QWidget(this);
    m_onlyDifferences = new QCheckBox(tr("Only the &differences"), page);
    m_settings = makeTable(page);
    m_settings->setObjectName(QStringLiteral("settingsTable"));
    auto *col = new QVBoxLayout(page);
    col->addWidget(m_onlyDifferences);
    col->addWidget(m_settings, 1);
    connect(m_onlyDifferences, &QCheckBox::toggled, this, &RunComparisonDialog::applyOnlyDifferences);
    return page;
}

QWidget *RunComparisonDialog::buildGraphs()
{
    auto *page = new QWidget(this);
    m_graphsSummary = new QLabel(page);
    m_graphsSummary->setWordWrap(true);
    m_graphsSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    copyFlagsAsWritten(m_graphsSummary);
    m_graphs = makeTable(page);
    m_graphs->setObjectName(QStringLiteral("graphsTable"));
    auto *col = new QVBoxLayout(page);
    col->addWidget(m_graphsSummary);
    col->addWidget(m_graphs, 1);
    return page;
}

void RunComparisonDialog::showComparison(const RunComparison &c)
{
    m_comparison = c;
    showRuns();
    showCurves();
    showSettings();
    showGraphs();
    m_tabs->setEnabled(true);
    m_ready = true;
    Q_EMIT ready();
}

void RunComparisonDialog::showRuns()
{
    QStringList lines;
    for (int i = 0; i < m_comparison.runs.size(); ++i) {
        const ComparedRun &r = m_comparison.runs[i];
        const QString swatch = QStringLiteral("<span style=\"color:%1\">■</span>").arg(ComparisonChart::runColor(i).name());
        const QString what = r.error.isEmpty()
            ? tr("%1 (%2), %3").arg(displayName(r.name), r.id, jobStateTitle(r.status.state))
            : tr("%1: %2").arg(r.id, displayName(r.error));
        lines << QStringLiteral("%1 <b>%2</b> %3").arg(swatch, letter(i), what.toHtmlEscaped());
    }
    // What differs, at a glance over every tab: the settings that differ, and what each run compiled that A had.
    QStringList differing;
    for (const ComparedSetting &s : m_comparison.settings)
        if (s.differs)
            differing << s.label;
    lines << (differing.isEmpty() ? tr("The runs recorded the same settings.")
                                  : tr("Settings that differ: %1").arg(differing.join(QStringLiteral(", ")))).toHtmlEscaped();
    for (const GraphDifference &d : m_comparison.differences)
        lines << keepFlagsWhole(displayName(d.text)).toHtmlEscaped();
    m_runs->setText(lines.join(QStringLiteral("<br>")));
}

void RunComparisonDialog::showCurves()
{
    QVector<ComparisonChart::Run> runs;
    for (int i = 0; i < m_comparison.runs.size(); ++i) {
        const ComparedRun &r = m_comparison.runs[i];
        runs.append({letter(i) + QLatin1Char(' ') + displayName(r.name), letter(i), ComparisonChart::runColor(i), r.metrics});
    }
    for (ComparisonChart *c : std::as_const(m_charts))
        c->setRuns(runs);
    m_curves->setRowCount(int(m_comparison.runs.size()));
    for (int i = 0; i < m_comparison.runs.size(); ++i) {
        const ComparedRun &r = m_comparison.runs[i];
        const QStringList cells{runs[i].name, QString::number(r.steps()), numberText(r.lastLoss()), numberText(r.minLoss()),
                                numberText(r.meanThroughput())};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(cells[col]);
            if (col == 0)
                item->setForeground(ComparisonChart::runColor(i));
            else
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_curves->setItem(i, col, item);
        }
    }
    m_curves->resizeColumnsToContents();
    // As high as its rows (at most six), so the charts get the rest.
    const int rows = std::min(6, m_curves->rowCount());
    m_curves->setFixedHeight(m_curves->horizontalHeader()->sizeHint().height() + rows * m_curves->verticalHeader()->defaultSectionSize()
                             + 2 * m_curves->frameWidth());
}

void RunComparisonDialog::showSettings()
{
    const int runs = int(m_comparison.runs.size());
    m_settings->clear();
    m_settings->setColumnCount(runs + 1);
    QStringList headers{tr("Setting")};
    for (int i = 0; i < runs; ++i)
        headers << letter(i) + QLatin1Char(' ') + displayName(m_comparison.runs[i].name);
    m_settings->setHorizontalHeaderLabels(headers);
    m_settings->setRowCount(int(m_comparison.settings.size()));
    const QColor highlight = [] {
        QColor c = toneFillColor(Tone::Warning);
        c.setAlpha(70);
        return c;
    }();
    for (int row = 0; row < m_comparison.settings.size(); ++row) {
        const ComparedSetting &s = m_comparison.settings[row];
        auto *label = new QTableWidgetItem(s.differs ? QStringLiteral("≠ ") + s.label : s.label);
        label->setData(DiffersRole, s.differs);
        if (s.differs)
            label->setToolTip(tr("The runs differ here"));
        m_settings->setItem(row, 0, label);
        for (int i = 0; i < runs; ++i) {
            const QString v = s.values.value(i);
            auto *item = new QTableWidgetItem(v.isEmpty() ? notRecordedText() : displayName(v));
            if (v.isEmpty()) {
                QFont f = item->font();
                f.setItalic(true);
                item->setFont(f);
                item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            }
            item->setToolTip(item->text());
            m_settings->setItem(row, i + 1, item);
        }
        if (s.differs)
            for (int col = 0; col <= runs; ++col) {
                QTableWidgetItem *item = m_settings->item(row, col);
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
                item->setBackground(highlight);
            }
    }
    m_settings->resizeColumnsToContents();
    for (int col = 1; col <= runs; ++col)
        m_settings->setColumnWidth(col, std::min(m_settings->columnWidth(col), 360));
    applyOnlyDifferences();
}

void RunComparisonDialog::applyOnlyDifferences()
{
    const bool only = m_onlyDifferences->isChecked();
    for (int row = 0; row < m_settings->rowCount(); ++row)
        m_settings->setRowHidden(row, only && !m_settings->item(row, 0)->data(DiffersRole).toBool());
}

void RunComparisonDialog::showGraphs()
{
    const int runs = int(m_comparison.runs.size());
    QStringList lines;
    for (int i = 0; i < runs; ++i) {
        const ComparedRun &r = m_comparison.runs[i];
        if (r.error.isEmpty())
            lines << tr("%1: %2").arg(letter(i), displayName(r.graphsError.isEmpty() ? r.graphs.summary() : r.graphsError));
    }
    for (const GraphDifference &d : m_comparison.differences)
        lines << displayName(d.text);
    m_graphsSummary->setText(keepFlagsWhole(lines.join(QLatin1Char('\n'))));
    m_graphs->clear();
    m_graphs->setColumnCount(runs + 1);
    QStringList headers{tr("Graph")};
    for (int i = 0; i < runs; ++i)
        headers << letter(i) + QLatin1Char(' ') + displayName(m_comparison.runs[i].name);
    m_graphs->setHorizontalHeaderLabels(headers);
    m_graphs->setRowCount(int(m_comparison.graphs.size()));
    for (int row = 0; row < m_comparison.graphs.size(); ++row) {
        const GraphMatch &m = m_comparison.graphs[row];
        m_graphs->setItem(row, 0, new QTableWidgetItem(displayName(m.key)));
        for (int i = 0; i < runs; ++i) {
            auto *item = new QTableWidgetItem;
            if (m.graph.value(i, -1) < 0) {
                item->setText(QStringLiteral("–"));
                item->setToolTip(tr("This run has no such graph."));
            } else {
                const Explanation &e = m_comparison.runs[i].graphs.graphs[m.graph[i]].explanation;
                // The run's own entry where it is not the row's (the same graph under other flags, another compiler, ...).
                item->setText(e.key.key() == m.key ? verdictLabel(e.verdict)
                                                   : tr("%1 · %2").arg(verdictLabel(e.verdict), displayName(e.key.name)));
                item->setData(VerdictRole, verdictName(e.verdict));
                item->setForeground(toneTextColor(verdictTone(e.verdict)));
                QStringList tip{displayName(e.key.key()), displayName(e.headline())};
                for (const QString &l : e.evidence())
                    tip << QStringLiteral("• ") + displayName(l);
                item->setToolTip(keepFlagsWhole(tip.join(QLatin1Char('\n'))));
            }
            m_graphs->setItem(row, i + 1, item);
        }
    }
    m_graphs->resizeColumnsToContents();
}

}  // namespace ingot
