// The job monitor's compile side: the compile activity (every graph with why it compiled), the precompile phase
// and the NeuronCores tab. The rest of the monitor is in jobmonitor.cpp.
#include "ui/jobs/jobmonitor.h"

#include "models/cache/statecolors.h"
#include "services/cache/cachesession.h"
#include "services/jobs/jobtext.h"
#include "services/jobs/neuronmonitor.h"
#include "services/jobs/precompile.h"
#include "services/neuron/jobgraphs.h"
#include "services/neuron/launchseed.h"
#include "services/util/names.h"
#include "services/util/task.h"
#include "services/util/format.h"
#include "ui/common/flagtext.h"
#include "ui/jobs/neuroncoresview.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <climits>

namespace ingot {

QWidget *JobMonitor::buildCompileActivity()
{
    auto *w = new QWidget(this);
    m_compileLabel = new QLabel(w);
    m_compileLabel->setWordWrap(true);
    m_compileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_compileList = new QTreeWidget(w);
    m_compileList->setRootIsDecorated(false);
    m_compileList->setHeaderLabels({tr("Entry"), tr("Why"), tr("State"), tr("Size"), tr("Changed")});
    m_compileList->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_compileList->header()->setStretchLastSection(false);
    m_compileList->setToolTip(tr("Double-click an entry to show it on the Local cache page"));
    connect(m_compileList, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        if (m_cache->location().isLocal())
            Q_EMIT showCacheEntry(m_cacheRoot, item->data(0, Qt::UserRole).toString());
    });
    m_compileList->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    // The selected graph's explanation: the verdict, its evidence and what to do.
    m_graphDetail = new QLabel(w);
    m_graphDetail->setWordWrap(true);
    m_graphDetail->setTextFormat(Qt::PlainText);
    m_graphDetail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    copyFlagsAsWritten(m_graphDetail);
    connect(m_compileList, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        m_graphDetail->setText(item ? item->toolTip(1) : QString());
    });
    // A precompile phase (neuron_parallel_compile): its graphs while it runs, then its results.
    m_precompileBox = new QGroupBox(tr("Precompile (neuron_parallel_compile)"), w);
    m_precompileLabel = new QLabel(m_precompileBox);
    m_precompileLabel->setWordWrap(true);
    m_precompileLabel->setTextFormat(Qt::PlainText);
    m_precompileList = new QTreeWidget(m_precompileBox);
    m_precompileList->setRootIsDecorated(false);
    m_precompileList->setHeaderLabels({tr("Graph"), tr("In the cache"), tr("Result"), tr("Retries"), tr("Compile time")});
    m_precompileList->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_precompileList->header()->setStretchLastSection(false);
    m_precompileList->setToolTip(tr("Double-click a graph to show its entry on the Local cache page"));
    connect(m_precompileList, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        if (m_cache->location().isLocal())
            Q_EMIT showCacheEntry(m_cacheRoot, item->data(0, Qt::UserRole).toString());
    });
    m_precompileLog = new QPlainTextEdit(m_precompileBox);
    m_precompileLog->setReadOnly(true);
    m_precompileLog->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_precompileLog->setMaximumHeight(120);
    m_precompileLog->hide();
    auto *pl = new QVBoxLayout(m_precompileBox);
    pl->addWidget(m_precompileLabel);
    pl->addWidget(m_precompileList, 1);
    pl->addWidget(m_precompileLog);
    m_precompileBox->hide();
    auto *col = new QVBoxLayout(w);
    col->addWidget(m_precompileBox, 1);
    col->addWidget(m_compileLabel);
    col->addWidget(m_compileList, 1);
    col->addWidget(m_graphDetail);
    return w;
}

void JobMonitor::openCompileCache()
{
    if (!m_service)
        return;
    const QString id = m_id;
    m_cacheTask.discard();
    m_cacheTask = m_service->compileCacheOf(m_record, [this, id](const CacheLocation &where, const StoreLocation &store,
                                                                 const QString &error) {
        if (id != m_id)
            return;
        m_cacheRoot.clear();
        if (!error.isEmpty()) {
            m_compileLabel->setText(tr("The job's compile cache cannot be read now: %1").arg(error));
            return;
        }
        if (!where.isSupported() || where.cachingDisabled) {
            m_compileLabel->setText(where.cachingDisabled ? tr("This job compiles without a cache (--no_cache).")
                                                          : where.unsupportedReason());
            return;
        }
        // A job on a host compiles into the host's cache: it is read there, over the same connection.
        m_cacheRoot = store.display();
        m_cacheRule = where.explanation;
        m_compileLabel->setText(tr("Entries of %1 written since the job started").arg(displayName(m_cacheRoot)));
        m_compileLabel->setToolTip(where.explanation);
        m_seedLine.clear();
        m_seedTask.discard();
        if (m_record.where == QLatin1String("local"))  // seeded jobs run here (or on a Slurm cluster seen from here)
            m_seedTask = runTask(this, [runner = m_service->sharedRunner(), paths = JobManager(m_service->sharedRunner()).paths(id)](
                                           TaskControl &) { return seedStatusLine(*runner, paths); },
                                 [this, id](const QString &line) {
                                     if (id != m_id || line.isEmpty())
                                         return;
                                     m_seedLine = line;
                                     m_compileLabel->setText(m_compileLabel->text() + QLatin1Char('\n') + line);
                                 });
        m_compileList->setToolTip(store.isLocal() ? tr("Double-click an entry to show it on the Local cache page")
                                                  : QString());
        if (m_cache->location() != store)
            m_cache->setLocation(store);
        else
            m_cache->rescan();
    });
}

void JobMonitor::rescanCompileCache()
{
    if (!m_cacheRoot.isEmpty() && !m_cache->isScanning())
        m_cache->rescan();
}

void JobMonitor::refreshCompileList()
{
    const CacheSnapshot &snap = m_cache->snapshot();
    const JobStatus st = status();
    if (!snap.fatalError.isEmpty() || m_cacheRoot.isEmpty()) {
        m_compileList->clear();
        if (!m_cacheRoot.isEmpty())
            m_compileLabel->setText(tr("No compile cache at %1 yet: entries appear here once the job compiles.")
                                        .arg(displayName(m_cacheRoot)));
        Q_EMIT compileActivityChanged();
        return;
    }
    // Every graph of the job with why it compiled: its log's hits and cached failures, and the entries it wrote.
    JobGraphsRequest r = jobGraphsRequest(m_record, st, m_service ? m_service->recentLogs(m_id) : QVector<LogChunk>(),
                                          m_cache->location(), m_cacheRule, snap);
    r.previous = m_graphs;
    const QString id = m_id;
    if (!m_record.precompileArgv.isEmpty() && m_service)
        m_precompileTask = m_service->precompileOf(m_record, snap, [this, id](const PrecompileProgress &p) {
            if (id == m_id)
                showPrecompile(p);
        });
    m_graphsTask = runTask(this, [r](TaskControl &) { return jobGraphs(r); }, [this, id](const JobGraphs &g) {
        if (id == m_id)
            showGraphs(g);
    });
}

void JobMonitor::showPrecompile(const PrecompileProgress &p)
{
    m_precompileBox->setVisible(p.phase);
    m_precompileLabel->setText(p.text());
    m_precompileList->clear();
    for (const PrecompileGraph &g : p.graphs) {
        auto *item = new QTreeWidgetItem(m_precompileList);
        item->setText(0, displayName(g.key));
        item->setData(0, Qt::UserRole, g.key);
        if (g.state != ModuleState::Unknown) {
            item->setIcon(0, stateIcon(g.state));
            item->setText(1, ingot::stateLabel(g.state));
            item->setForeground(1, stateColor(g.state));
        } else {
            item->setText(1, tr("not yet"));
        }
        if (g.result) {
            item->setText(2, g.result->ok ? tr("compiled") : tr("failed"));
            item->setText(3, QString::number(g.result->retries));
            item->setText(4, g.result->seconds >= 0 ? durationText(g.result->seconds) : QString());
        }
        if (const auto it = m_graphs.constFind(g.key); it != m_graphs.cend())
            item->setToolTip(0, displayName(it->explanation.headline()));
    }
    // A failed phase: the tool's last lines (the failing graphs' errors).
    const bool failed = p.exitStatus > 0 || p.trialRunFailed;
    m_precompileLog->setVisible(failed);
    m_precompileLog->setPlainText(failed ? displayName(p.logTail) : QString());
    Q_EMIT precompileChanged();
}

void JobMonitor::showGraphs(const JobGraphs &graphs)
{
    const QString selected = m_compileList->currentItem() ? m_compileList->currentItem()->data(0, Qt::UserRole).toString() : QString();
    m_graphs.clear();
    m_compileList->clear();
    m_graphDetail->clear();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const JobGraph &g : graphs.graphs) {
        const Explanation &e = g.explanation;
        m_graphs.insert(e.key.key(), g);
        auto *item = new QTreeWidgetItem(m_compileList);
        item->setText(0, displayName(e.key.key()));
        item->setData(0, Qt::UserRole, e.key.key());
        item->setIcon(0, stateIcon(g.entryState));
        item->setText(1, verdictLabel(e.verdict));
        QStringList tip{displayName(e.headline())};
        for (const QString &l : e.evidence())
            tip << QStringLiteral("• ") + displayName(l);
        if (!e.fix().isEmpty())
            tip << tr("What to do: %1").arg(displayName(e.fix()));
        item->setToolTip(1, keepFlagsWhole(tip.join(QLatin1Char('\n'))));  // a flag is never cut at its hyphens
        item->setData(1, Qt::UserRole, verdictName(e.verdict));
        item->setText(2, ingot::stateLabel(g.entryState));
        item->setForeground(2, stateColor(g.entryState));
        item->setText(3, formatBytes(g.size));
        item->setText(4, g.entryChangedMs > 0 ? formatAge(g.entryChangedMs, now) : QString());
        if (e.key.key() == selected)
            m_compileList->setCurrentItem(item);
    }
    m_compileLabel->setText(graphs.graphs.isEmpty()
                                ? tr("No graph of this job in %1 yet.").arg(displayName(m_cacheRoot))
                                : tr("%1 — in %2 (double-click an entry to show it; hover over why for the evidence)")
                                      .arg(graphs.summary(), displayName(m_cacheRoot))
                            + (m_seedLine.isEmpty() ? QString() : QLatin1Char('\n') + m_seedLine));
    Q_EMIT compileActivityChanged();
}

QWidget *JobMonitor::buildNeuronCores()
{
    m_neuron = new NeuronCoresView(this);
    m_neuronTimer = new QTimer(this);
    m_neuronTimer->setInterval(3000);
    connect(m_neuronTimer, &QTimer::timeout, this, &JobMonitor::sampleNeuronCores);
    return m_neuron;
}

bool JobMonitor::samplesNeuronCores() const
{
    return m_neuronTimer->isActive() || m_neuronTask.isRunning();
}

// One neuron-monitor report where the job runs (its devices the first time), while the monitor is shown.
void JobMonitor::sampleNeuronCores()
{
    if (!m_service || !hasRecord() || !isVisible() || m_neuronTask.isRunning())
        return;
    const QString id = m_id;
    m_neuronTask = m_service->neuronCoresOf(m_record, !m_neuronDevicesRead, [this, id](const NeuronSample &s) {
        if (id != m_id)
            return;
        if (!s.available && !s.notYet) {
            m_neuronUnavailable = true;  // the SDK is not there: the tab says so, and it is not asked again
            m_neuronTimer->stop();
        }
        m_neuronDevicesRead = m_neuronDevicesRead || s.devices.has_value();
        m_neuron->addSample(s);
        Q_EMIT neuronCoresSampled();
    });
}

}  // namespace ingot
