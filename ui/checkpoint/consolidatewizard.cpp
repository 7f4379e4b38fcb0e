#include "ui/checkpoint/consolidatewizard.h"

#include "services/util/appsettings.h"
#include "services/util/units.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QMutex>
#include <QProgressBar>
#include <QPushButton>
#include <QStorageInfo>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>
#include <QWizardPage>

#include <memory>

namespace ingot {

namespace {
// A page whose Next button follows a predicate; refresh() re-asks it.
class Page final : public QWizardPage
{
public:
    std::function<bool()> complete;
    bool isComplete() const override { return complete ? complete() : true; }
    void refresh() { Q_EMIT completeChanged(); }
};

Page *pageOf(QWizard *w, int id)
{
    return static_cast<Page *>(w->page(id));
}

// The newest progress of a run: written by the worker, read on the UI thread when it is told there is news.
class LatestProgress final
{
    Q_DISABLE_COPY_MOVE(LatestProgress)

public:
    LatestProgress() = default;
    void set(const ConsolidateProgress &p)
    {
        QMutexLocker lock(&m_mutex);
        m_latest = p;
    }
    ConsolidateProgress get()
    {
        QMutexLocker lock(&m_mutex);
        return m_latest;
    }

private:
    QMutex m_mutex;
    ConsolidateProgress m_latest;
};
}  // namespace

ConsolidateWizard::ConsolidateWizard(const QString &folder, QWidget *parent)
    : QWizard(parent)
    , m_outputDelay(new QTimer(this))
{
    setWindowTitle(tr("Consolidate a checkpoint"));
    setAcceptDrops(true);
    resize(760, 540);
    setOption(QWizard::NoBackButtonOnLastPage);
    buildChoosePage();
    buildCheckPage();
    buildOptionsPage();
    buildRunPage();
    buildSummaryPage();
    if (!folder.isEmpty())
        setFolder(folder);
}

ConsolidateWizard::~ConsolidateWizard()
{
    m_consolidating.stop();
}

// 1. Choose: the folder (typed, browsed, recent or dropped) and, when it holds several, the checkpoint.
void ConsolidateWizard::buildChoosePage()
{
    auto *choose = new Page;
    choose->setTitle(tr("Choose the checkpoint"));
    choose->setSubTitle(tr("The training output folder, a checkpoint-N folder, or the shards folder. You can also drop a folder here."));
    m_folder = new QLineEdit(choose);
    m_recent = new QComboBox(choose);
    m_detected = new QLabel(choose);
    m_checkpoints = new QComboBox(choose);
    auto *browse = new QPushButton(tr("Browse…"), choose);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Checkpoint folder"), m_folder->text());
        if (!d.isEmpty())
            setFolder(d);
    });
    m_recent->addItem(tr("Recent folders…"));
    m_recent->addItems(recentFolders());
    connect(m_recent, &QComboBox::activated, this, [this](int i) {
        if (i > 0)
            setFolder(m_recent->itemText(i));
    });
    connect(m_folder, &QLineEdit::editingFinished, this, [this] {
        // Also emitted when the field merely loses focus (as the wizard moves on): look again only at a new folder.
        if (m_folder->text().trimmed() != m_detectedFolder)
            detect();
    });
    m_detected->setWordWrap(true);
    m_detected->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *row = new QHBoxLayout;
    row->addWidget(m_folder, 1);
    row->addWidget(browse);
    auto *cl = new QVBoxLayout(choose);
    cl->addLayout(row);
    cl->addWidget(m_recent);
    cl->addWidget(m_detected);
    cl->addWidget(new QLabel(tr("Checkpoint:"), choose));
    cl->addWidget(m_checkpoints);
    cl->addStretch();
    choose->complete = [this] { return chosen() != nullptr; };
    connect(m_checkpoints, &QComboBox::currentIndexChanged, this, [this] {
        m_checking.discard();
        m_checked = false;
        pageOf(this, ChoosePage)->refresh();
    });
    setPage(ChoosePage, choose);
}

// 2. Check: every shard read and compared; the problems, if any, block the way on.
void ConsolidateWizard::buildCheckPage()
{
    auto *checkPage = new Page;
    checkPage->setTitle(tr("Check"));
    checkPage->setSubTitle(tr("Every shard is read and compared before anything is written."));
    m_checkStatus = new QLabel(checkPage);
    m_problems = new QListWidget(checkPage);
    auto *kl = new QVBoxLayout(checkPage);
    m_checkStatus->setWordWrap(true);
    kl->addWidget(m_checkStatus);
    kl->addWidget(m_problems, 1);
    checkPage->complete = [this] { return m_checked && m_problems->count() == 0; };
    setPage(CheckPage, checkPage);
}

// 3. Options: format, file size, output folder (checked for space and existing files off the UI thread).
void ConsolidateWizard::buildOptionsPage()
{
    auto *options = new Page;
    options->setTitle(tr("Options"));
    m_format = new QComboBox(options);
    m_shardGb = new QDoubleSpinBox(options);
    m_output = new QLineEdit(options);
    m_space = new QLabel(options);
    m_space->setTextFormat(Qt::PlainText);  // it shows paths, which may look like markup
    m_overwrite = new QCheckBox(tr("Replace the output folder if it exists"), options);
    m_verify = new QCheckBox(tr("Verify: read the output back and check every tensor against the shards"), options);
    m_format->addItem(tr("safetensors"), QStringLiteral("safetensors"));
    m_format->addItem(tr("PyTorch (pytorch_model.bin)"), QStringLiteral("pytorch"));
    m_shardGb->setRange(0.001, 1000);
    m_shardGb->setDecimals(3);
    m_shardGb->setValue(5);
    m_shardGb->setSuffix(tr(" GB"));
    m_verify->setChecked(true);
    auto *outBrowse = new QPushButton(tr("Browse…"), options);
    connect(outBrowse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Output folder"), QFileInfo(m_output->text()).absolutePath());
        if (!d.isEmpty())
            m_output->setText(d + QStringLiteral("/consolidated"));
    });
    m_outputDelay->setSingleShot(true);
    m_outputDelay->setInterval(kOutputCheckDelayMs);
    connect(m_outputDelay, &QTimer::timeout, this, &ConsolidateWizard::checkOutput);
    connect(m_output, &QLineEdit::textChanged, this, &ConsolidateWizard::outputEdited);
    connect(m_overwrite, &QCheckBox::toggled, this, &ConsolidateWizard::showOutputState);
    auto *orow = new QHBoxLayout;
    orow->addWidget(m_output, 1);
    orow->addWidget(outBrowse);
    m_space->setWordWrap(true);
    auto *form = new QFormLayout(options);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Split files above:"), m_shardGb);
    form->addRow(tr("Output folder:"), orow);
    form->addRow(QString(), m_space);
    form->addRow(QString(), m_overwrite);
    form->addRow(QString(), m_verify);
    options->complete = [this] { return outputReady(); };
    setPage(OptionsPage, options);
}

// 4. Run: progress, and a cancel that leaves nothing behind.
void ConsolidateWizard::buildRunPage()
{
    auto *runPage = new Page;
    runPage->setTitle(tr("Consolidating"));
    m_progress = new QProgressBar(runPage);
    m_runStatus = new QLabel(runPage);
    m_cancelRun = new QPushButton(tr("Cancel"), runPage);
    auto *rl = new QVBoxLayout(runPage);
    m_runStatus->setWordWrap(true);
    rl->addWidget(m_progress);
    rl->addWidget(m_runStatus);
    rl->addWidget(m_cancelRun, 0, Qt::AlignLeft);
    rl->addStretch();
    connect(m_cancelRun, &QPushButton::clicked, this, [this] {
        m_consolidating.stop();
        m_runStatus->setText(tr("Stopping; nothing will be left behind…"));
    });
    runPage->complete = [this] { return !m_running && m_report.ok(); };
    runPage->setCommitPage(true);
    setPage(RunPage, runPage);
}

// 5. Summary: what was written where, and whether it was verified.
void ConsolidateWizard::buildSummaryPage()
{
    auto *summary = new Page;
    summary->setTitle(tr("Done"));
    m_summary = new QLabel(summary);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *open = new QPushButton(tr("Open folder"), summary);
    auto *copy = new QPushButton(tr("Copy path"), summary);
    connect(open, &QPushButton::clicked, this, [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_output->text())); });
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(QFileInfo(m_output->text()).absoluteFilePath()); });
    auto *sl = new QVBoxLayout(summary);
    sl->addWidget(m_summary);
    auto *brow = new QHBoxLayout;
    brow->addWidget(open);
    brow->addWidget(copy);
    brow->addStretch();
    sl->addLayout(brow);
    sl->addStretch();
    setPage(SummaryPage, summary);
}

QStringList ConsolidateWizard::recentFolders()
{
    return AppSettings::recentCheckpoints();
}

const CheckpointCandidate *ConsolidateWizard::chosen() const
{
    const int i = m_checkpoints->currentIndex();
    return i >= 0 && i < m_found.size() ? &m_found[i] : nullptr;
}

void ConsolidateWizard::setStorageProbe(StorageProbe probe)
{
    m_probe = std::move(probe);
}

void ConsolidateWizard::setFolder(const QString &folder)
{
    m_folder->setText(folder);
    detect();
}

void ConsolidateWizard::dragEnterEvent(QDragEnterEvent *e)
{
    if (e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void ConsolidateWizard::dropEvent(QDropEvent *e)
{
    const QList<QUrl> urls = e->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        setFolder(urls.first().toLocalFile());
}

void ConsolidateWizard::detect()
{
    const QString folder = m_folder->text().trimmed();
    if (folder.isEmpty())
        return;
    m_detectedFolder = folder;
    m_detected->setText(tr("Looking for checkpoints in %1…").arg(folder));
    m_detecting.discard();  // an answer about the folder typed before is no longer wanted
    m_detecting = runTask(this, [folder](TaskControl &) {
        QString error;
        auto found = findCheckpoints(folder, &error);
        return qMakePair(found, error);
    }, [this, folder](const QPair<QVector<CheckpointCandidate>, QString> &r) { showDetected(r.first, r.second, folder); });
}

void ConsolidateWizard::showDetected(const QVector<CheckpointCandidate> &found, const QString &error, const QString &folder)
{
    m_found = found;
    m_checking.discard();
    m_checkpoints->blockSignals(true);
    m_checkpoints->clear();
    for (const auto &c : std::as_const(m_found))
        m_checkpoints->addItem(tr("%1 — tp=%2 pp=%3, %4%5").arg(c.label).arg(c.tpSize).arg(c.ppSize).arg(formatBytes(c.bytes),
                                                                 c.complete ? QString() : tr(" (incomplete)")));
    const CheckpointCandidate *def = pickDefault(m_found);
    m_checkpoints->setCurrentIndex(def ? int(def - m_found.constData()) : (m_found.isEmpty() ? -1 : 0));
    m_checkpoints->blockSignals(false);
    m_checked = false;
    if (m_found.isEmpty()) {
        m_detected->setText(error);
    } else {
        m_detected->setText(tr("Found %n checkpoint(s). Layout: %1.", nullptr, int(m_found.size())).arg(layoutName(m_found.first().layout)));
        AppSettings::addRecentCheckpoint(folder);
        if (m_output->text().isEmpty()) {
            // Beside the shards, never inside them (when the shards folder itself was chosen).
            QString base = QFileInfo(folder).absoluteFilePath();
            const CheckpointCandidate &first = m_found.first();
            if (base == first.shardsDir || base.startsWith(first.shardsDir + QLatin1Char('/')))
                base = first.root;
            m_output->setText(base + QStringLiteral("/consolidated"));
        }
    }
    pageOf(this, ChoosePage)->refresh();
    Q_EMIT detectionFinished(int(m_found.size()));
}

void ConsolidateWizard::initializePage(int id)
{
    if (id == CheckPage)
        check();
    else if (id == OptionsPage)
        checkOutput();  // at once: the disk may have changed while the page was away
    else if (id == RunPage)
        run();
    QWizard::initializePage(id);
}

bool ConsolidateWizard::validateCurrentPage()
{
    if (currentId() == OptionsPage && !outputReady())
        return false;  // next() called directly, before the output folder was checked
    return !m_running && QWizard::validateCurrentPage();
}

void ConsolidateWizard::reject()
{
    if (m_running) {
        m_consolidating.stop();
        return;  // closes once the run has cleaned up
    }
    QWizard::reject();
}

void ConsolidateWizard::check()
{
    const CheckpointCandidate *c = chosen();
    if (!c)
        return;
    m_checked = false;
    m_problems->clear();
    m_checkStatus->setText(tr("Reading %n shard(s)…", nullptr, int(c->shards.size())));
    pageOf(this, CheckPage)->refresh();
    m_checking.discard();
    m_checking = runTask(this, [cand = *c](TaskControl &) { return planConsolidation(cand); },
                         [this](const ConsolidationPlan &plan) { showCheck(plan); });
}

void ConsolidateWizard::showCheck(const ConsolidationPlan &plan)
{
    m_plan = plan;
    m_problems->addItems(plan.problems);
    m_checked = true;
    m_checkStatus->setText(plan.ok() ? tr("No problems: %n tensors, %1 to write.", nullptr, int(plan.entries.size())).arg(formatBytes(plan.bytes()))
                                     : tr("%n problem(s): nothing can be written until they are fixed.", nullptr, int(plan.problems.size())));
    pageOf(this, CheckPage)->refresh();
    Q_EMIT checkFinished(int(plan.problems.size()));
}

// What was known about the output folder no longer holds: Next waits for a new answer.
void ConsolidateWizard::forgetOutputAnswer()
{
    m_probing.discard();
    m_spaceKnown = false;
    m_space->setText(tr("Checking the output folder…"));
    pageOf(this, OptionsPage)->refresh();
}

// Typing in the output field: ask the disk once typing rests, not on every keystroke.
void ConsolidateWizard::outputEdited()
{
    forgetOutputAnswer();
    m_outputDelay->start();
}

void ConsolidateWizard::checkOutput()
{
    m_outputDelay->stop();
    forgetOutputAnswer();
    const QString output = m_output->text();
    m_probing = runTask(this, [probe = m_probe, output, checkpoint = m_plan.checkpoint](TaskControl &) {
                            OutputSpace answer = probe(output);
                            answer.refusal = outputRefusal(checkpoint, output);
                            return answer;
                        },
                        [this, output](const OutputSpace &answer) {
                            if (output != m_output->text())
                                return;  // about a path no longer there (discard() normally drops it first)
                            m_spaceKnown = true;
                            m_spaceFor = output;
                            m_spaceAnswer = answer;
                            showOutputState();
                            Q_EMIT outputChecked(output);
                        });
}

ConsolidateWizard::OutputSpace ConsolidateWizard::probeOutput(const QString &output)
{
    QFileInfo existing(QFileInfo(output).absolutePath());
    while (!existing.exists() && existing.absolutePath() != existing.absoluteFilePath())
        existing = QFileInfo(existing.absolutePath());
    OutputSpace s;
    s.bytesFree = QStorageInfo(existing.absoluteFilePath()).bytesAvailable();
    s.existsNonEmpty = QFileInfo::exists(output) && !QDir(output).isEmpty();
    return s;
}

// Decided only from an answer about the path in the field now.
bool ConsolidateWizard::outputReady() const
{
    const QString output = m_output->text();
    if (output.isEmpty() || !m_spaceKnown || m_spaceFor != output || !m_spaceAnswer.refusal.isEmpty())
        return false;
    if (m_spaceAnswer.existsNonEmpty && !m_overwrite->isChecked())
        return false;
    return m_spaceAnswer.bytesFree > m_plan.bytes();
}

void ConsolidateWizard::showOutputState()
{
    if (m_spaceKnown && m_spaceFor == m_output->text()) {
        const qint64 bytes = m_plan.bytes();
        QString text = tr("Needs %1; %2 free there.").arg(formatBytes(bytes), formatBytes(m_spaceAnswer.bytesFree));
        if (m_spaceAnswer.bytesFree <= bytes)
            text += QLatin1Char(' ') + tr("Not enough space.");
        if (m_spaceAnswer.existsNonEmpty && !m_overwrite->isChecked())
            text += QLatin1Char(' ') + tr("The folder exists: allow replacing it, or choose another.");
        if (!m_spaceAnswer.refusal.isEmpty())
            text = m_spaceAnswer.refusal + QLatin1Char(' ') + tr("Choose another folder.");
        m_space->setText(text);
    }
    pageOf(this, OptionsPage)->refresh();
}

ConsolidateOptions ConsolidateWizard::options() const
{
    ConsolidateOptions o;
    o.output = m_output->text();
    o.maxShardBytes = qint64(m_shardGb->value() * 1e9);
    o.verify = m_verify->isChecked();
    o.overwrite = m_overwrite->isChecked();
    o.format = m_format->currentData().toString() == QLatin1String("pytorch") ? ConsolidateOptions::Format::PyTorch
                                                                               : ConsolidateOptions::Format::Safetensors;
    return o;
}

// Writes what the Check page planned: the shards are not planned again.
void ConsolidateWizard::run()
{
    if (!m_checked || !m_plan.ok())
        return;
    const ConsolidateOptions o = options();
    m_running = true;
    m_report = ConsolidateReport();
    m_cancelRun->setEnabled(true);
    button(QWizard::BackButton)->setEnabled(false);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    pageOf(this, RunPage)->refresh();
    m_runClock.start();
    auto latest = std::make_shared<LatestProgress>();
    m_consolidating = runTask(
        this,
        [plan = m_plan, o, latest](TaskControl &control) {
            RunResult r;
            r.report = consolidate(plan, o, [&control, latest](const ConsolidateProgress &p) {
                latest->set(p);
                control.setProgress(p.bytesDone, p.bytesTotal, p.current);
            }, control.stopFlag());
            for (const QString &f : std::as_const(r.report.files))
                r.fileSizes << QFileInfo(o.output + QLatin1Char('/') + f).size();
            return r;
        },
        [this, o](const RunResult &r) { showRunResult(r, o); },
        [this, latest](const TaskProgress &) { showProgress(latest->get()); });
}

void ConsolidateWizard::showProgress(const ConsolidateProgress &p)
{
    const double secs = double(m_runClock.elapsed()) / 1000.0;
    const double rate = secs > 0 ? double(p.bytesDone) / secs : 0;
    const int eta = rate > 0 ? int(double(p.bytesTotal - p.bytesDone) / rate) : 0;
    m_progress->setValue(p.bytesTotal > 0 ? int(1000 * p.bytesDone / p.bytesTotal) : 1000);
    m_runStatus->setText(tr("%1 of %2 — %3 of %4 tensors — about %5 s left\n%6")
                             .arg(formatBytes(p.bytesDone), formatBytes(p.bytesTotal))
                             .arg(p.tensorsDone).arg(p.tensorsTotal).arg(eta).arg(p.current));
    Q_EMIT progressed(p.tensorsDone, p.tensorsTotal);
}

void ConsolidateWizard::showRunResult(const RunResult &r, const ConsolidateOptions &o)
{
    const ConsolidateReport &rep = r.report;
    m_report = rep;
    m_running = false;
    m_cancelRun->setEnabled(false);
    if (rep.cancelled) {
        m_runStatus->setText(tr("Cancelled. Nothing was written to %1.").arg(o.output));
        button(QWizard::BackButton)->setEnabled(true);
    } else if (!rep.ok()) {
        QStringList all = rep.problems + rep.verifyProblems;
        if (!rep.error.isEmpty())
            all << rep.error;
        m_runStatus->setText(tr("Failed, and nothing was left behind: %1").arg(all.join(QStringLiteral("; "))));
        button(QWizard::BackButton)->setEnabled(true);
    } else {
        m_progress->setValue(1000);
        m_runStatus->setText(tr("Finished."));
        showSummary(r, o);
    }
    pageOf(this, RunPage)->refresh();
    Q_EMIT runFinished(rep.ok());
}

void ConsolidateWizard::showSummary(const RunResult &r, const ConsolidateOptions &o)
{
    const ConsolidateReport &rep = r.report;
    QStringList lines;
    for (qsizetype i = 0; i < rep.files.size(); ++i)
        lines << QStringLiteral("%1 &nbsp; <span style='color:gray'>%2</span>")
                     .arg(rep.files[i].toHtmlEscaped(), formatBytes(r.fileSizes.value(i)));
    m_summary->setText(tr("<b>%1 tensors</b> (%2) written to <tt>%3</tt>:<br>%4<br><br>%5")
                           .arg(rep.tensors).arg(formatBytes(rep.bytes), o.output.toHtmlEscaped(), lines.join(QStringLiteral("<br>")),
                                o.verify ? (rep.verified ? tr("Verified: every tensor matches its shards.") : tr("Not verified."))
                                         : tr("Verification was not asked for.")));
}

}  // namespace ingot
