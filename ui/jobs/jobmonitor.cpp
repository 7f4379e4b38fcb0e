#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/stallbanner.h"

#include "services/jobs/precompile.h"
#include "services/neuron/jobgraphs.h"
#include "ui/jobs/neuroncoresview.h"

#include "models/cache/statecolors.h"
#include "models/jobs/joblistmodel.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachesession.h"
#include "services/jobs/jobresume.h"
#include "services/jobs/jobtext.h"
#include "services/jobs/torchtitanjob.h"
#include "services/util/names.h"
#include "services/util/format.h"
#include "ui/jobs/jobfiledialog.h"
#include "ui/jobs/joblogview.h"
#include "ui/jobs/metricchart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QFontDatabase>
#include <QFrame>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMessageBox>
#include <QLabel>
#include <QGroupBox>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <climits>
#include <cmath>

namespace ingot {

namespace {

QString formatSeconds(double seconds)
{
    if (!(seconds >= 0))
        return QString();
    const qint64 s = qint64(std::llround(seconds));
    if (s < 60)
        return JobMonitor::tr("%1 s").arg(s);
    if (s < 3600)
        return JobMonitor::tr("%1 min %2 s").arg(s / 60).arg(s % 60);
    return JobMonitor::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}

}  // namespace

JobMonitor::JobMonitor(JobService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_title(new QLabel(this))
    , m_state(new QLabel(this))
    , m_resumedFrom(new QLabel(this))
    , m_banner(new QFrame(this))
    , m_stall(new StallBanner(service, this))
    , m_reason(new QLabel(m_banner))
    , m_detailToggle(new QToolButton(m_banner))
    , m_detail(new QPlainTextEdit(m_banner))
    , m_progress(new QProgressBar(this))
    , m_facts(new QLabel(this))
    , m_stop(new QPushButton(tr("&Stop"), this))
    , m_resume(new QPushButton(tr("&Resume"), this))
    , m_consolidate(new QPushButton(tr("&Consolidate…"), this))
    , m_openOutput(new QPushButton(tr("&Open output folder"), this))
    , m_launchAgain(new QPushButton(tr("&Launch again…"), this))
    , m_batchScript(new QPushButton(tr("&Batch script…"), this))
    , m_killTimer(new QTimer(this))
    , m_tabs(new QTabWidget(this))
    , m_logs(new JobLogView(this))
    , m_cache(new CacheSession(this))
    , m_cacheTimer(new QTimer(this))
{
    auto *col = new QVBoxLayout(this);
    col->setContentsMargins(4, 4, 4, 4);
    col->addWidget(buildHeader());
    m_tabs->addTab(buildCharts(), tr("Metrics"));
    m_tabs->addTab(m_logs, tr("Logs"));
    m_tabs->addTab(buildCompileActivity(), tr("Compile activity"));
    m_tabs->addTab(buildNeuronCores(), tr("NeuronCores"));
    col->addWidget(m_tabs, 1);

    m_killTimer->setSingleShot(true);
    m_killTimer->setInterval(JobManager::stopGraceSeconds * 1000);
    connect(m_killTimer, &QTimer::timeout, this, [this] {
        m_killArmed = true;
        updateActions();
    });
    m_cache->setWatching(false);  // a running job's cache is rescanned every few seconds instead
    m_cacheTimer->setInterval(5000);
    connect(m_cacheTimer, &QTimer::timeout, this, &JobMonitor::rescanCompileCache);
    connect(m_cache, &CacheSession::scanFinished, this, &JobMonitor::refreshCompileList);

    connect(service, &JobService::jobUpdated, this, &JobMonitor::onJobUpdated);
    connect(service, &JobService::metricsAppended, this, [this](const QString &id, const QVector<MetricPoint> &pts) {
        if (id != m_id)
            return;
        for (MetricChart *c : std::as_const(m_charts))
            c->appendPoints(pts);
    });
    connect(service, &JobService::logsAppended, m_logs, &JobLogView::append);
    connect(service, &JobService::historyChanged, this, [this] {
        if (!hasRecord() && !m_id.isEmpty())
            setJob(m_id);  // it was launched a moment ago: its record is listed now
        else
            updateResumedFrom();  // the job resumed from was listed, or removed
    });
    connect(service, &JobService::stopAnswered, this, [this](const QString &id, const QString &message, bool ok) {
        if (id != m_id)
            return;
        m_facts->setText(displayText(message));
        if (!ok)
            m_stopSent = false;
        updateActions();
    });
    setJob(QString());
}

JobMonitor::~JobMonitor()
{
    m_checkpointScan.discard();
}

QWidget *JobMonitor::buildHeader()
{
    auto *w = new QWidget(this);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setTextFormat(Qt::PlainText);
    QFont bold = m_state->font();
    bold.setBold(true);
    m_state->setFont(bold);

    m_resumedFrom->setObjectName(QStringLiteral("resumedFrom"));
    m_resumedFrom->setTextFormat(Qt::RichText);
    m_resumedFrom->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_resumedFrom->hide();
    connect(m_resumedFrom, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link.startsWith(QLatin1String("job:")))
            Q_EMIT jobRequested(link.mid(4));
    });

    auto *banner = static_cast<QFrame *>(m_banner);
    banner->setObjectName(QStringLiteral("reasonBanner"));
    banner->setFrameShape(QFrame::StyledPanel);
    banner->setStyleSheet(QStringLiteral("#reasonBanner { background: #fbe4e4; border: 1px solid #d63a3a; "
                                         "border-radius: 4px; } #reasonBanner > QLabel, #reasonBanner > QToolButton { color: #4a1010; }"));
    m_reason->setWordWrap(true);
    m_reason->setTextFormat(Qt::PlainText);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detailToggle->setText(tr("Details"));
    m_detailToggle->setCheckable(true);
    m_detailToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_detailToggle->setArrowType(Qt::RightArrow);
    m_detail->setReadOnly(true);
    m_detail->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_detail->setMaximumHeight(180);
    m_detail->hide();
    connect(m_detailToggle, &QToolButton::toggled, this, [this](bool on) {
        m_detail->setVisible(on);
        m_detailToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    auto *bannerCol = new QVBoxLayout(banner);
    bannerCol->setContentsMargins(8, 6, 8, 6);
    auto *bannerRow = new QHBoxLayout;
    bannerRow->addWidget(m_reason, 1);
    bannerRow->addWidget(m_detailToggle, 0, Qt::AlignTop);
    bannerCol->addLayout(bannerRow);
    bannerCol->addWidget(m_detail);
    m_banner->hide();

    m_progress->setTextVisible(true);
    m_progress->setMinimumWidth(220);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts->setWordWrap(true);

    m_stop->setToolTip(tr("Ask the job to stop: it saves a checkpoint and ends (SIGTERM). After %1 s the button "
                          "kills it instead.")
                           .arg(JobManager::stopGraceSeconds));
    m_resume->setToolTip(tr("Launch the same settings again, resuming from the newest checkpoint"));
    m_consolidate->setToolTip(tr("Merge the sharded checkpoint into one model (the consolidation wizard)"));
    m_launchAgain->setToolTip(tr("Open these settings in the launcher"));
    connect(m_stop, &QPushButton::clicked, this, &JobMonitor::stop);
    connect(m_resume, &QPushButton::clicked, this, &JobMonitor::resume);
    connect(m_consolidate, &QPushButton::clicked, this, &JobMonitor::consolidate);
    connect(m_openOutput, &QPushButton::clicked, this, &JobMonitor::openOutputFolder);
    connect(m_launchAgain, &QPushButton::clicked, this, &JobMonitor::launchAgain);
    m_batchScript->setToolTip(tr("The Slurm batch script as it was submitted (and its precompile job's)"));
    m_batchScript->setVisible(false);
    connect(m_batchScript, &QPushButton::clicked, this, [this] { showBatchScript(); });

    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title);
    titleRow->addSpacing(12);
    titleRow->addWidget(m_state);
    titleRow->addSpacing(12);
    titleRow->addWidget(m_resumedFrom);
    titleRow->addStretch(1);
    titleRow->addWidget(m_stop);
    titleRow->addWidget(m_resume);
    titleRow->addWidget(m_consolidate);
    titleRow->addWidget(m_openOutput);
    titleRow->addWidget(m_launchAgain);
    titleRow->addWidget(m_batchScript);
    titleRow->addWidget(m_stall->thresholdButton());
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress);
    progressRow->addWidget(m_facts, 1);

    auto *col = new QVBoxLayout(w);
    col->setContentsMargins(0, 0, 0, 4);
    col->addLayout(titleRow);
    col->addWidget(m_banner);
    col->addWidget(m_stall);
    col->addLayout(progressRow);
    return w;
}

QWidget *JobMonitor::buildCharts()
{
    auto *w = new QWidget(this);
    m_xAxis = new QComboBox(w);
    m_xAxis->addItem(tr("By step"));
    m_xAxis->addItem(tr("By time"));
    m_logScale = new QCheckBox(tr("Lo&g scale"), w);
    m_smoothing = new QSlider(Qt::Horizontal, w);
    m_smoothing->setRange(0, 99);
    m_smoothing->setValue(60);
    m_smoothing->setMaximumWidth(160);
    m_smoothing->setToolTip(tr("How much the loss curve is smoothed (an exponential moving average)"));
    m_smoothingValue = new QLabel(w);
    m_compare = new QToolButton(w);
    m_compare->setText(tr("Compare with…"));
    m_compare->setPopupMode(QToolButton::InstantPopup);
    m_compare->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_compare->setMenu(new QMenu(m_compare));
    m_compare->setToolTip(tr("Overlay other runs from the history"));
    connect(m_compare->menu(), &QMenu::aboutToShow, this, &JobMonitor::rebuildCompareMenu);

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("X axis:"), w));
    row->addWidget(m_xAxis);
    row->addWidget(m_logScale);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Smoothing:"), w));
    row->addWidget(m_smoothing);
    row->addWidget(m_smoothingValue);
    row->addStretch(1);
    row->addWidget(m_compare);

    auto *grid = new QGridLayout;
    grid->setSpacing(4);
    const MetricKind kinds[] = {MetricKind::Loss, MetricKind::LearningRate, MetricKind::GradNorm,
                                MetricKind::Throughput};
    for (int i = 0; i < 4; ++i) {
        auto *c = new MetricChart(kinds[i], w);
        c->setMinimumSize(260, 170);  // the history above keeps room for about seven rows
        m_charts << c;
        grid->addWidget(c, i / 2, i % 2);
    }
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);

    connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this](int i) {
        for (MetricChart *c : std::as_const(m_charts))
            c->setXAxisMode(i == 1 ? MetricChart::XAxisMode::Time : MetricChart::XAxisMode::Step);
    });
    connect(m_logScale, &QCheckBox::toggled, this, [this](bool on) {
        for (MetricChart *c : std::as_const(m_charts))
            c->setLogScale(on);
    });
    auto smoothing = [this](int v) {
        m_smoothingValue->setText(QLocale().toString(v / 100.0, 'f', 2));
        chart(MetricKind::Loss)->setSmoothing(v / 100.0);
    };
    connect(m_smoothing, &QSlider::valueChanged, this, smoothing);
    smoothing(m_smoothing->value());

    auto *col = new QVBoxLayout(w);
    col->addLayout(row);
    col->addLayout(grid, 1);
    return w;
}

MetricChart *JobMonitor::chart(MetricKind kind) const
{
    for (MetricChart *c : m_charts)
        if (c->kind() == kind)
            return c;
    return nullptr;
}

JobStatus JobMonitor::status() const
{
    return m_service && !m_id.isEmpty() ? m_service->status(m_id) : JobStatus();
}

void JobMonitor::setJob(const QString &id)
{
    const bool sameJob = id == m_id;
    m_id = id;
    m_record = JobRecordFile();
    if (m_service && !id.isEmpty()) {
        if (const JobSummary *s = m_service->find(id))
            m_record = s->record;
        m_service->watch(id);
    }
    if (!sameJob) {
        m_checkpoint.clear();
        m_lastCheckpointSeen.clear();
        m_outputExists = false;
        m_killArmed = false;
        m_stopSent = false;
        m_killTimer->stop();
        m_overlayIds.clear();
        m_overlayPoints.clear();
        m_compileList->clear();
        m_graphs.clear();
        m_graphsTask.discard();
        m_neuronTask.discard();
        m_neuronTimer->stop();
        m_neuronUnavailable = false;
        m_neuronDevicesRead = false;
        m_neuron->clear();
        m_precompileTask.discard();
        m_precompileBox->hide();
        m_precompileList->clear();
        const QVector<MetricPoint> pts = m_service && !id.isEmpty() ? m_service->metrics(id) : QVector<MetricPoint>();
        for (MetricChart *c : std::as_const(m_charts)) {
            c->setOverlays({});
            c->setPoints(pts);
        }
        const QString folder = m_service && !id.isEmpty() ? JobManager(m_service->sharedRunner()).paths(id).root
                                                          : QString();
        // A view opened after the service began reading this job starts from what the service kept.
        if (m_service && !id.isEmpty() && !m_logs->hasLogs(id))
            m_logs->append(id, m_service->recentLogs(id));
        m_logs->setJob(id, folder);
    }
    if (m_service && !id.isEmpty())
        m_logs->addRanks(m_service->ranks(id));
    m_title->setText(hasRecord() ? displayName(m_record.spec.displayName(m_record.id, m_record.createdMs)) : id);
    m_title->setToolTip(id);
    updateResumedFrom();
    m_lastState = status().state;
    updateStatus();
    if (hasRecord()) {
        scanCheckpoints();
        openCompileCache();
    }
}

void JobMonitor::updateResumedFrom()
{
    const QString from = hasRecord() && m_service ? resumedFromJob(m_record, m_service->history()) : QString();
    m_resumedFrom->setVisible(!from.isEmpty());
    if (from.isEmpty())
        return;
    const JobSummary *s = m_service ? m_service->find(from) : nullptr;
    if (s) {
        m_resumedFrom->setText(tr("Resumed from %1")
                                   .arg(QStringLiteral("<a href=\"job:%1\">%2</a>")
                                            .arg(from.toHtmlEscaped(),
                                                 displayName(s->record.spec.displayName(s->record.id, s->record.createdMs)).toHtmlEscaped())));
        m_resumedFrom->setToolTip(tr("Show job %1 (%2)").arg(from, displayName(m_record.spec.resumeFrom)));
    } else {
        m_resumedFrom->setText(tr("Resumed from job %1 (no longer in the history)").arg(from).toHtmlEscaped());
        m_resumedFrom->setToolTip(displayName(m_record.spec.resumeFrom));
    }
}

void JobMonitor::onJobUpdated(const QString &id)
{
    if (id != m_id)
        return;
    const JobStatus st = status();
    m_logs->addRanks(m_service->ranks(id));
    const bool ended = isFinal(st.state) && !isFinal(m_lastState);
    m_lastState = st.state;
    if (ended || st.lastCheckpoint != m_lastCheckpointSeen) {
        m_lastCheckpointSeen = st.lastCheckpoint;
        scanCheckpoints();
    }
    if (ended) {
        m_killTimer->stop();
        rescanCompileCache();
    }
    updateStatus();
}

void JobMonitor::updateStatus()
{
    const JobStatus st = status();
    const bool known = !m_id.isEmpty();
    m_state->setText(known ? jobStateTitle(st.state) : QString());
    m_state->setStyleSheet(QStringLiteral("color: %1;").arg(jobStateColor(st.state).name()));

    const bool failed = st.state == JobState::Failed;
    if (failed) {
        QString reason = st.reason.isEmpty() ? tr("The job failed (no reason was found in its logs).")
                                             : displayText(jobReasonText(st));
        if (st.reasonRank >= 0)
            reason = tr("Rank %1: %2").arg(st.reasonRank).arg(reason);
        m_reason->setText(reason);
        m_detail->setPlainText(displayText(st.reasonDetail));
        m_detailToggle->setVisible(!st.reasonDetail.isEmpty());
    }
    m_banner->setVisible(failed);
    m_stall->showStatus(m_record, st);

    if (st.maxSteps > 0) {
        m_progress->setRange(0, int(std::min<qint64>(st.maxSteps, INT_MAX)));
        m_progress->setValue(int(std::min(st.step, st.maxSteps)));
        m_progress->setFormat(tr("step %L1 of %L2").arg(st.step).arg(st.maxSteps));
    } else if (st.alive) {
        m_progress->setRange(0, 0);
        m_progress->setFormat(tr("step %L1").arg(st.step));
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(isFinal(st.state) ? 1 : 0);
        m_progress->setFormat(tr("step %L1").arg(st.step));
    }

    QStringList facts;
    if (!st.slurm.jobId.isEmpty())  // the scheduler's view first: why it waits, where it runs, its time left
        facts << tr("Slurm %1").arg(displayText(slurmPhasesText(st)));
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    if (known && st.startedAt > 0)
        facts << tr("Elapsed %1").arg(formatSeconds(st.elapsed(now)));
    if (st.alive && !std::isnan(st.etaSeconds))
        facts << tr("ETA %1").arg(formatSeconds(st.etaSeconds));
    if (!std::isnan(st.tokensPerSecond))
        facts << tr("%L1 tokens/s").arg(st.tokensPerSecond, 0, 'f', 0);
    if (!std::isnan(st.lastLoss))  // the latest while it runs; "final" only once it has ended
        facts << (isFinal(st.state) ? tr("final loss %L1") : tr("loss %L1")).arg(st.lastLoss, 0, 'f', 4);
    if (!st.peakMemoryPerRank.isEmpty() && !st.alive) {
        QStringList ranks;
        for (int r = 0; r < st.peakMemoryPerRank.size(); ++r)
            if (st.peakMemoryPerRank[r] >= 0)
                ranks << tr("rank %1: %2").arg(r).arg(formatBytes(st.peakMemoryPerRank[r]));
        if (!ranks.isEmpty())
            facts << tr("peak memory %1").arg(ranks.join(QStringLiteral(", ")));
    } else if (st.peakMemory >= 0) {
        facts << tr("peak memory %1 (rank 0)").arg(formatBytes(st.peakMemory));
    }
    if (st.worldSize > 0)
        facts << tr("layout %1 (dp×tp×pp)").arg(formatLayout(st.dataParallel, st.tensorParallel, st.pipelineParallel));
    m_facts->setText(facts.join(QStringLiteral(" · ")));
    if (st.alive && !m_cacheTimer->isActive() && !m_cacheRoot.isEmpty())
        m_cacheTimer->start();
    else if (!st.alive)
        m_cacheTimer->stop();
    // NeuronCores are read while the job lives, and stop with it.
    if (st.alive && !m_neuronTimer->isActive() && !m_neuronUnavailable)
        m_neuronTimer->start();
    else if (!st.alive)
        m_neuronTimer->stop();
    updateActions();
}

void JobMonitor::updateActions()
{
    const JobStatus st = status();
    const bool running = st.alive && !isFinal(st.state);
    m_stop->setEnabled(running && (!m_stopSent || m_killArmed));
    if (!running) {
        m_stop->setText(tr("&Stop"));
    } else if (m_killArmed) {
        m_stop->setText(tr("&Kill"));
        m_stop->setToolTip(tr("Kill every process of the job now (SIGKILL): no checkpoint is saved"));
    } else {
        m_stop->setText(m_stopSent ? tr("Stopping…") : tr("&Stop"));
    }
    const bool ended = hasRecord() && isFinal(st.state);
    const QString whyNot = hasRecord() ? resumeRefusal(m_record, st, m_checkpoint) : QString();
    m_resume->setEnabled(hasRecord() && whyNot.isEmpty());
    m_resume->setToolTip(whyNot.isEmpty() ? tr("Resume from %1").arg(displayName(m_checkpoint)) : whyNot);
    if (m_consolidateTask.isRunning())  // Cancel consolidation, until it was asked
        m_consolidate->setEnabled(!m_consolidateCancelled);
    else
        m_consolidate->setEnabled(ended && m_outputExists);
    // A remote job's output is a folder on its host: there is nothing to open here (the tooltip says where).
    const bool here = !hasRecord() || m_record.where == QLatin1String("local");
    m_openOutput->setEnabled(hasRecord() && here && m_outputExists);
    m_openOutput->setToolTip(!hasRecord() ? QString()
                             : here      ? displayName(m_record.outputDir)
                                         : tr("On %1: %2").arg(displayName(m_record.where), displayName(m_record.outputDir)));
    m_launchAgain->setEnabled(hasRecord());
    m_batchScript->setVisible(hasRecord() && m_record.spec.slurm.enabled);
}

JobFileDialog *JobMonitor::showBatchScript()
{
    if (!m_service || !hasRecord() || !m_record.spec.slurm.enabled)
        return nullptr;
    auto *dialog = new JobFileDialog(m_service, m_record.where, slurmScriptsOf(m_record),
                                     tr("Batch script of job %1").arg(m_record.id), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void JobMonitor::stop()
{
    if (!m_service || m_id.isEmpty())
        return;
    if (m_killArmed) {
        m_service->stop(m_id, true);
        m_stop->setEnabled(false);
        return;
    }
    m_stopSent = true;
    m_service->stop(m_id, false);
    m_killTimer->start();
    updateActions();
}

void JobMonitor::resume()
{
    if (!hasRecord() || !resumeRefusal(m_record, status(), m_checkpoint).isEmpty())
        return;
    Q_EMIT resumeRequested(resumeSpec(m_record, m_checkpoint));
}

void JobMonitor::launchAgain()
{
    if (!hasRecord())
        return;
    JobSpec spec = m_record.spec;
    Q_EMIT launchAgainRequested(spec);
}

void JobMonitor::consolidate()
{
    if (!hasRecord())
        return;
    const QString where = m_service ? m_service->whereOf(m_id) : QStringLiteral("local");
    if (where == QLatin1String("local")) {
        Q_EMIT consolidateRequested(consolidationSource(m_record, m_checkpoint));
        return;
    }
    if (m_consolidateTask.isRunning()) {  // the button cancels it: ended there, nothing of its output left
        m_consolidateCancelled = true;
        m_consolidateTask.stop();
        m_consolidate->setText(tr("Cancelling…"));
        updateActions();
        return;
    }
    // A job on a host: its checkpoint is there, so Ingot's CLI consolidates it there (when the host has Ingot).
    const QString checkpoint = m_checkpoint.isEmpty() ? m_record.outputDir : m_checkpoint;
    m_consolidateCancelled = false;
    m_consolidate->setText(tr("&Cancel consolidation"));
    m_consolidateTask = m_service->consolidateThere(m_record, checkpoint, [this, where](int code, const QString &text) {
        const bool cancelled = m_consolidateCancelled;
        m_consolidateCancelled = false;
        m_consolidate->setText(tr("&Consolidate…"));
        updateActions();
        Q_EMIT consolidatedThere(code, text);
        if (cancelled)
            QMessageBox::information(this, tr("Consolidation on %1 cancelled").arg(displayName(where)), text);
        else if (code == 0)
            QMessageBox::information(this, tr("Consolidated on %1").arg(displayName(where)), text);
        else
            QMessageBox::warning(this, tr("Consolidation on %1 failed").arg(displayName(where)), text);
    });
    updateActions();
}

void JobMonitor::openOutputFolder()
{
    if (hasRecord())
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_record.outputDir));
}

void JobMonitor::scanCheckpoints()
{
    if (!m_service || !hasRecord())
        return;
    const QString id = m_id;
    m_checkpointScan.discard();
    m_checkpointScan = m_service->latestCheckpointOf(m_record, [this, id](bool exists, const QString &checkpoint) {
        if (id != m_id)
            return;
        m_checkpoint = checkpoint;
        m_outputExists = exists;
        updateActions();
        Q_EMIT checkpointsScanned();
    });
}

void JobMonitor::rebuildCompareMenu()
{
    QMenu *menu = m_compare->menu();
    menu->clear();
    if (!m_service)
        return;
    for (const JobSummary &s : m_service->history()) {
        if (s.record.id == m_id)
            continue;
        QAction *a = menu->addAction(tr("%1 (%2, %3)")
                                         .arg(displayName(s.record.spec.displayName(s.record.id, s.record.createdMs)), s.record.id,
                                              jobStateTitle(s.status.state)));
        a->setCheckable(true);
        a->setChecked(m_overlayIds.contains(s.record.id));
        const QString other = s.record.id;
        connect(a, &QAction::toggled, this, [this, other](bool on) { setOverlay(other, on); });
    }
    if (menu->isEmpty())
        menu->addAction(tr("No other runs yet"))->setEnabled(false);
}

void JobMonitor::setOverlay(const QString &otherId, bool on)
{
    if (!m_service || otherId == m_id)
        return;
    if (!on) {
        m_overlayIds.removeAll(otherId);
        m_overlayPoints.remove(otherId);
        applyOverlays();
        return;
    }
    if (m_overlayIds.contains(otherId))
        return;
    m_overlayIds << otherId;
    QPointer<JobMonitor> self(this);
    const QString id = m_id;
    m_service->loadMetrics(otherId, [self, id, otherId](const QVector<MetricPoint> &pts) {
        if (!self || self->m_id != id || !self->m_overlayIds.contains(otherId))
            return;
        self->m_overlayPoints.insert(otherId, pts);
        self->applyOverlays();
    });
}

void JobMonitor::applyOverlays()
{
    QVector<MetricChart::Overlay> overlays;
    for (const QString &other : std::as_const(m_overlayIds)) {
        if (!m_overlayPoints.contains(other))
            continue;
        const JobSummary *s = m_service ? m_service->find(other) : nullptr;
        const QString name = s ? displayName(s->record.spec.displayName(s->record.id, s->record.createdMs)) : other;
        overlays.append({tr("%1 (%2)").arg(name, other.left(15)), m_overlayPoints.value(other)});
    }
    for (MetricChart *c : std::as_const(m_charts))
        c->setOverlays(overlays);
}

}  // namespace ingot
