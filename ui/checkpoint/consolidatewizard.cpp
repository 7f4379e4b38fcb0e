#include "ui/checkpoint/consolidatewizard.h"

#include "models/checkpoint/planmodel.h"
#include "services/checkpoint/loramerge.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "services/util/format.h"

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
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QMutex>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStorageInfo>
#include <QTimer>
#include <QTreeView>
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
    , m_folderDelay(new QTimer(this))
    , m_outputDelay(new QTimer(this))
{
    setWindowTitle(tr("Consolidate a checkpoint"));
    setAcceptDrops(true);
    resize(980, 640);
    // One title style on every page: the header with a title and a subtitle (each page has both).
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    buildChoosePage();
    buildCheckPage();
    buildOptionsPage();
    buildRunPage();
    buildSummaryPage();
    // After QWizard's own handlers (connected by setPage()), which would open Back again.
    connect(this, &QWizard::currentIdChanged, this, &ConsolidateWizard::updateBackButton);
    for (int id : pageIds())
        connect(page(id), &QWizardPage::completeChanged, this, &ConsolidateWizard::updateBackButton);
    if (!folder.isEmpty())
        setFolder(folder);
}

ConsolidateWizard::~ConsolidateWizard()
{
    m_consolidating.stop();
}

// 1. Choose: the folder (typed or pasted, browsed, recent or dropped; looked into as it is typed) and, when it holds
// several, the checkpoint.
void ConsolidateWizard::buildChoosePage()
{
    auto *choose = new Page;
    choose->setTitle(tr("Choose the checkpoint"));
    choose->setSubTitle(tr("The training output folder, a checkpoint-N folder, or the shards folder. Type or paste its "
                           "path, browse, or drop a folder here."));
    m_folder = new QLineEdit(choose);
    m_folder->setPlaceholderText(tr("Path of a folder holding a sharded checkpoint"));
    m_folder->setClearButtonEnabled(true);
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
    m_recent->setEnabled(m_recent->count() > 1);
    connect(m_recent, &QComboBox::activated, this, [this](int i) {
        if (i > 0)
            setFolder(m_recent->itemText(i));
    });
    m_folderDelay->setSingleShot(true);
    m_folderDelay->setInterval(kFolderLookDelayMs);
    connect(m_folderDelay, &QTimer::timeout, this, &ConsolidateWizard::detect);
    connect(m_folder, &QLineEdit::textEdited, this, &ConsolidateWizard::folderEdited);
    connect(m_folder, &QLineEdit::returnPressed, this, [this] {
        if (m_folder->text().trimmed() != m_detectedFolder || m_folderDelay->isActive())
            detect();
    });
    m_detected->setWordWrap(true);
    m_detected->setTextFormat(Qt::PlainText);  // paths and errors, which may look like markup
    m_detected->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *row = new QHBoxLayout;
    row->addWidget(m_folder, 1);
    row->addWidget(browse);
    auto *form = new QFormLayout(choose);
    form->addRow(tr("Folder:"), row);
    form->addRow(QString(), m_recent);
    form->addRow(QString(), m_detected);
    form->addRow(tr("Checkpoint:"), m_checkpoints);
    m_checkpoints->setEnabled(false);
    choose->complete = [this] { return chosen() != nullptr && !m_folderDelay->isActive(); };
    connect(m_checkpoints, &QComboBox::currentIndexChanged, this, [this] {
        m_checking.discard();
        m_checked = false;
        pageOf(this, ChoosePage)->refresh();
    });
    setPage(ChoosePage, choose);
}

// 2. Check: every shard read and compared; the plan (each output tensor and how it is made), and above it the
// problems, if any, which block the way on.
void ConsolidateWizard::buildCheckPage()
{
    auto *checkPage = new Page;
    checkPage->setTitle(tr("Check the checkpoint"));
    checkPage->setSubTitle(tr("Every shard is read and compared before anything is written. Below: every tensor the "
                              "output will hold, and how it is put together from the ranks' pieces."));
    m_checkStatus = new QLabel(checkPage);
    m_checkStatus->setWordWrap(true);
    m_problemBox = new QGroupBox(checkPage);
    m_problems = new QListWidget(m_problemBox);
    m_problems->setWordWrap(true);
    m_problems->setTextElideMode(Qt::ElideNone);
    m_problems->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_problems->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    auto *pl = new QVBoxLayout(m_problemBox);
    pl->addWidget(m_problems);
    m_problemBox->hide();
    m_planFilter = new QLineEdit(checkPage);
    m_planFilter->setPlaceholderText(tr("Filter tensors (name, dtype, merge…)"));
    m_planFilter->setClearButtonEnabled(true);
    m_planModel = new PlanModel(this);
    m_planProxy = new QSortFilterProxyModel(this);
    m_planProxy->setSourceModel(m_planModel);
    m_planProxy->setSortRole(PlanModel::SortRole);
    m_planProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_planProxy->setFilterKeyColumn(-1);
    connect(m_planFilter, &QLineEdit::textChanged, m_planProxy, &QSortFilterProxyModel::setFilterFixedString);
    m_planView = new QTreeView(checkPage);
    m_planView->setModel(m_planProxy);
    m_planView->setRootIsDecorated(false);
    m_planView->setUniformRowHeights(true);
    m_planView->setAlternatingRowColors(true);
    m_planView->setSortingEnabled(true);
    m_planView->sortByColumn(-1, Qt::AscendingOrder);  // the output's own order until a header is clicked
    QHeaderView *header = m_planView->header();
    header->setStretchLastSection(false);
    header->setResizeContentsPrecision(500);  // a large model has tens of thousands of tensors
    for (int c : {PlanModel::ShapeColumn, PlanModel::DTypeColumn, PlanModel::RanksColumn, PlanModel::SizeColumn})
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(PlanModel::MergeColumn, QHeaderView::Stretch);
    header->moveSection(header->visualIndex(PlanModel::PartColumn), 0);  // a checkpoint's adapters: the part first
    auto *kl = new QVBoxLayout(checkPage);
    kl->addWidget(m_problemBox);
    kl->addWidget(m_planFilter);
    kl->addWidget(m_planView, 1);
    kl->addWidget(m_checkStatus);
    kl->addStretch(0);  // takes the room when there is no plan to show
    checkPage->complete = [this] { return m_checked && m_plan.ok(); };
    setPage(CheckPage, checkPage);
}

// 3. Options: format, file size, output folder (checked for space and existing files off the UI thread).
void ConsolidateWizard::buildOptionsPage()
{
    auto *options = new Page;
    options->setTitle(tr("Options"));
    options->setSubTitle(tr("Where the consolidated model goes and in which format. Nothing is written before you "
                            "press Consolidate."));
    options->setButtonText(QWizard::NextButton, tr("Consolidate"));
    m_format = new QComboBox(options);
    m_shardGb = new QDoubleSpinBox(options);
    m_output = new QLineEdit(options);
    m_space = new QLabel(options);
    m_space->setTextFormat(Qt::PlainText);  // it shows paths, which may look like markup
    m_overwrite = new QCheckBox(tr("Replace the output folder if it exists"), options);
    m_verify = new QCheckBox(tr("Verify: read the output back and check every tensor against the shards"), options);
    m_format->addItem(tr("safetensors (recommended)"), QStringLiteral("safetensors"));
    m_format->addItem(tr("PyTorch (pytorch_model.bin)"), QStringLiteral("pytorch"));
    m_shardGb->setRange(0.1, 1000);
    m_shardGb->setDecimals(1);
    m_shardGb->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_shardGb->setValue(5);
    m_shardGb->setSuffix(tr(" GB"));
    m_shardGb->setToolTip(tr("Larger models are written as several files of at most this size, with an index, as "
                             "transformers does (5 GB by default)."));
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
    // The settings of each mode on a page of their own: rows shown or hidden while a wizard page is up are laid
    // out with no height (Qt 6.4).
    auto *consolidateBox = new QWidget(options);
    auto *cform = new QFormLayout(consolidateBox);
    cform->setContentsMargins(0, 0, 0, 0);
    cform->addRow(tr("Format:"), m_format);
    cform->addRow(tr("Files of at most:"), m_shardGb);
    buildReshardChoice(form, options, consolidateBox);
    form->addRow(tr("Output folder:"), orow);
    form->addRow(QString(), m_space);
    form->addRow(QString(), m_overwrite);
    form->addRow(QString(), m_verify);
    m_merge = new QCheckBox(tr("Also merge the adapter into its base model (written to the output folder's \"merged\")"), options);
    m_baseModel = new QLineEdit(options);
    m_baseModel->setPlaceholderText(tr("The base model's folder (Hugging Face safetensors)"));
    m_baseModel->setEnabled(false);
    connect(m_merge, &QCheckBox::toggled, m_baseModel, &QWidget::setEnabled);
    connect(m_merge, &QCheckBox::toggled, this, [this] { pageOf(this, OptionsPage)->refresh(); });
    connect(m_baseModel, &QLineEdit::textChanged, this, [this] { pageOf(this, OptionsPage)->refresh(); });
    form->addRow(QString(), m_merge);
    form->addRow(tr("Base model:"), m_baseModel);
    options->complete = [this] {
        if (isResharding())
            return outputReady() && m_reshardPlanned && m_reshardPlan.problems.isEmpty();
        return outputReady() && (m_plan.checkpoint.adapter.isEmpty() || !m_merge->isChecked() ||
                                 !safetensorsModelFile(m_baseModel->text()).isEmpty());
    };
    // One label column across the page and the settings of each mode.
    QList<QWidget *> labels;
    for (QLayout *l : {static_cast<QLayout *>(form), consolidateBox->layout(), m_modeSettings->widget(1)->layout()})
        for (int r = 0; r < static_cast<QFormLayout *>(l)->rowCount(); ++r)
            if (QLayoutItem *item = static_cast<QFormLayout *>(l)->itemAt(r, QFormLayout::LabelRole); item && item->widget())
                labels << item->widget();
    int widest = 0;
    for (QWidget *l : std::as_const(labels))
        widest = std::max(widest, l->sizeHint().width());
    for (QWidget *l : std::as_const(labels))
        l->setMinimumWidth(widest);
    setPage(OptionsPage, options);
}

// 4. Run: progress, and a stop that leaves nothing behind. A finished run goes on to the summary by itself; a
// failed or stopped one stays here with Back open, to change the settings.
void ConsolidateWizard::buildRunPage()
{
    auto *runPage = new Page;
    runPage->setTitle(tr("Consolidating"));
    runPage->setSubTitle(tr("Written into a temporary folder that becomes the output only once everything is in it: "
                            "stopping leaves nothing behind."));
    m_progress = new QProgressBar(runPage);
    m_runStatus = new QLabel(runPage);
    m_runStatus->setTextFormat(Qt::PlainText);
    m_runStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cancelRun = new QPushButton(tr("Stop"), runPage);
    m_cancelRun->setToolTip(tr("Stops the run and removes what it wrote so far"));
    auto *rl = new QVBoxLayout(runPage);
    m_runStatus->setWordWrap(true);
    rl->addWidget(m_progress);
    rl->addWidget(m_runStatus);
    rl->addWidget(m_cancelRun, 0, Qt::AlignLeft);
    rl->addStretch();
    connect(m_cancelRun, &QPushButton::clicked, this, [this] {
        m_consolidating.stop();
        m_cancelRun->setEnabled(false);
        m_runStatus->setText(tr("Stopping; nothing will be left behind…"));
    });
    runPage->complete = [this] { return !m_running && m_ran; };
    setPage(RunPage, runPage);
}

// 5. Summary: what was written where, how long it took, whether it was verified, and how to load it.
void ConsolidateWizard::buildSummaryPage()
{
    auto *summary = new Page;
    summary->setTitle(tr("Done"));
    summary->setSubTitle(tr("The consolidated model is ready to load with transformers."));
    m_summary = new QLabel(summary);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);  // every path and file name in it is escaped
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *open = new QPushButton(tr("Open folder"), summary);
    auto *copy = new QPushButton(tr("Copy path"), summary);
    connect(open, &QPushButton::clicked, this, [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_output->text())); });
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(QFileInfo(m_output->text()).absoluteFilePath()); });
    m_snippet = new QLabel(summary);
    m_snippet->setTextFormat(Qt::PlainText);
    m_snippet->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_snippet->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_snippet->setWordWrap(true);
    m_snippet->setFrameShape(QFrame::StyledPanel);
    m_snippet->setBackgroundRole(QPalette::Base);
    m_snippet->setAutoFillBackground(true);
    m_snippet->setMargin(6);
    auto *copySnippet = new QPushButton(tr("Copy code"), summary);
    connect(copySnippet, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_snippet->text()); });
    auto *sl = new QVBoxLayout(summary);
    sl->addWidget(m_summary);
    auto *brow = new QHBoxLayout;
    brow->addWidget(open);
    brow->addWidget(copy);
    brow->addStretch();
    sl->addLayout(brow);
    sl->addSpacing(8);
    auto *snippetTitle = new QLabel(tr("Load it in Python:"), summary);
    snippetTitle->setObjectName(QStringLiteral("snippetTitle"));
    sl->addWidget(snippetTitle);
    auto *crow = new QHBoxLayout;
    crow->addWidget(m_snippet, 1);
    crow->addWidget(copySnippet, 0, Qt::AlignTop);
    sl->addLayout(crow);
    sl->addStretch();
    setPage(SummaryPage, summary);
}

QStringList ConsolidateWizard::recentFolders()
{
    return AppSettings::recentCheckpoints();
}

const CheckpointCandidate *ConsolidateWizard::chosen() const
{
    const int i = m_checkpoints->currentIndex() >= 0 ? m_checkpoints->currentData().toInt() : -1;
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

// A folder dropped on the first page chooses it; on the later ones it would change the checkpoint under them.
void ConsolidateWizard::dragEnterEvent(QDragEnterEvent *e)
{
    if (currentId() == ChoosePage && e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void ConsolidateWizard::dropEvent(QDropEvent *e)
{
    const QList<QUrl> urls = e->mimeData()->urls();
    if (currentId() == ChoosePage && !urls.isEmpty() && urls.first().isLocalFile())
        setFolder(urls.first().toLocalFile());
}

// Typing or pasting: what was found in the folder before no longer holds; look again once typing rests.
void ConsolidateWizard::folderEdited()
{
    ++m_detectGeneration;
    m_detecting.discard();
    m_found.clear();
    m_checkpoints->clear();
    m_checkpoints->setEnabled(false);
    m_detectedFolder.clear();
    const QString folder = m_folder->text().trimmed();
    m_detected->setText(folder.isEmpty() ? QString() : tr("Looking…"));
    if (folder.isEmpty())
        m_folderDelay->stop();
    else
        m_folderDelay->start();
    pageOf(this, ChoosePage)->refresh();
}

void ConsolidateWizard::detect()
{
    m_folderDelay->stop();
    const QString folder = m_folder->text().trimmed();
    if (folder.isEmpty())
        return;
    const quint64 generation = ++m_detectGeneration;
    m_detectedFolder = folder;
    m_detected->setText(tr("Looking for checkpoints in %1…").arg(folder));
    m_detecting.discard();  // an answer about the folder typed before is no longer wanted
    m_detecting = runTask(this, [folder](TaskControl &) {
        QString error;
        auto found = findCheckpoints(folder, &error);
        return qMakePair(found, error);
    }, [this, folder, generation](const QPair<QVector<CheckpointCandidate>, QString> &r) {
        if (generation == m_detectGeneration)  // else about a path typed before (discard() normally drops it first)
            showDetected(r.first, r.second, folder);
    });
    pageOf(this, ChoosePage)->refresh();
    Q_EMIT detectionStarted(folder);
}

void ConsolidateWizard::showDetected(const QVector<CheckpointCandidate> &found, const QString &error, const QString &folder)
{
    m_found = found;
    m_checking.discard();
    m_checkpoints->blockSignals(true);
    m_checkpoints->clear();
    for (int i = 0; i < m_found.size(); ++i)  // a checkpoint's adapters as one choice: they are written together
        if (const QString text = choiceText(i); !text.isEmpty())
            m_checkpoints->addItem(text, i);
    const CheckpointCandidate *def = pickDefault(m_found);
    const QVector<const CheckpointCandidate *> defSet = consolidationSet(m_found, def);
    const int defItem = defSet.isEmpty() ? -1 : m_checkpoints->findData(int(defSet.first() - m_found.constData()));
    m_checkpoints->setCurrentIndex(defItem >= 0 ? defItem : (m_found.isEmpty() ? -1 : 0));
    m_checkpoints->blockSignals(false);
    m_checkpoints->setEnabled(!m_found.isEmpty());
    m_checked = false;
    if (m_found.isEmpty()) {
        m_detected->setText(error.isEmpty() ? tr("No sharded checkpoint in %1.").arg(folder) : error);
    } else {
        m_detected->setText(tr("Found %n checkpoint(s). Layout: %1.", nullptr, int(m_found.size())).arg(layoutName(m_found.first().layout)));
        if (m_output->text().isEmpty() || m_output->text() == m_autoOutput) {
            // Beside the shards, never inside them (when the shards folder itself was chosen). Proposed again for
            // each folder found, until the user types an output of their own.
            QString base = QFileInfo(folder).absoluteFilePath();
            const CheckpointCandidate &first = m_found.first();
            if (base == first.shardsDir || base.startsWith(first.shardsDir + QLatin1Char('/')))
                base = first.root;
            m_autoOutput = base + QStringLiteral("/consolidated");
            m_output->setText(m_autoOutput);
        }
    }
    pageOf(this, ChoosePage)->refresh();
    Q_EMIT detectionFinished(int(m_found.size()));
}

void ConsolidateWizard::initializePage(int id)
{
    if (id == CheckPage)
        check();
    else if (id == OptionsPage) {
        showMergeChoice();
        showModeChoice();
        checkOutput();  // at once: the disk may have changed while the page was away
    }
    else if (id == RunPage)
        run();
    QWizard::initializePage(id);
}

bool ConsolidateWizard::validateCurrentPage()
{
    if (currentId() == ChoosePage) {
        if (!chosen() || m_folderDelay->isActive())
            return false;  // next() called directly, before the folder typed last was looked into
        AppSettings::addRecentCheckpoint(m_detectedFolder);  // the one chosen, not every folder typing went through
    }
    if (currentId() == CheckPage && (!m_checked || !m_plan.ok()))
        return false;
    if (currentId() == OptionsPage && (!outputReady() || !currentPage()->isComplete()))
        return false;  // next() called directly, before the output folder was checked (or without a base model)
    return !m_running && QWizard::validateCurrentPage();
}

void ConsolidateWizard::reject()
{
    if (m_running) {
        m_closeWhenStopped = true;
        m_consolidating.stop();
        m_cancelRun->setEnabled(false);
        button(QWizard::CancelButton)->setEnabled(false);
        m_runStatus->setText(tr("Stopping; nothing will be left behind. The window closes when it is done…"));
        return;  // closes once the run has cleaned up (showRunResult)
    }
    QWizard::reject();
}

// Back is closed while a run writes, and for good once one has written its output; QWizard re-enables it whenever a
// page's completeness changes, so this follows every such change.
void ConsolidateWizard::updateBackButton()
{
    if (m_running || m_ran)
        button(QWizard::BackButton)->setEnabled(false);
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
    return m_spaceAnswer.bytesFree > (isResharding() ? m_reshardPlan.bytes() : plannedBytes());
}

void ConsolidateWizard::refreshPage(int id)
{
    pageOf(this, id)->refresh();
}

void ConsolidateWizard::showOutputState()
{
    if (m_spaceKnown && m_spaceFor == m_output->text()) {
        const qint64 bytes = isResharding() ? m_reshardPlan.bytes() : plannedBytes();
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
    m_ran = false;
    m_closeWhenStopped = false;
    m_report = ConsolidateReport();
    m_cancelRun->setEnabled(true);
    m_cancelRun->show();
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_runStatus->setText(tr("Starting…"));
    pageOf(this, RunPage)->refresh();
    m_runClock.start();
    auto latest = std::make_shared<LatestProgress>();
    pageOf(this, RunPage)->setTitle(isResharding() ? tr("Re-sharding") : tr("Consolidating"));
    if (isResharding()) {
        m_consolidating = runTask(
            this,
            [plan = m_reshardPlan, ro = reshardOptions(), latest](TaskControl &control) {
                RunResult r;
                r.resharded = true;
                r.report = reshard(plan, ro, [&control, latest](const ConsolidateProgress &p) {
                    latest->set(p);
                    control.setProgress(p.bytesDone, p.bytesTotal, p.current);
                }, control.stopFlag());
                for (const QString &f : std::as_const(r.report.files))
                    r.fileSizes << QFileInfo(ro.output + QLatin1Char('/') + f).size();
                return r;
            },
            [this, o](const RunResult &r) { showRunResult(r, o); },
            [this, latest](const TaskProgress &) { showProgress(latest->get()); });
        return;
    }
    const QString base = !m_plan.checkpoint.adapter.isEmpty() && m_merge->isChecked() ? m_baseModel->text() : QString();
    m_consolidating = runTask(
        this,
        [plan = m_plan, plans = m_plans, o, latest, base](TaskControl &control) {
            RunResult r;
            const auto progress = [&control, latest](const ConsolidateProgress &p) {
                latest->set(p);
                control.setProgress(p.bytesDone, p.bytesTotal, p.current);
            };
            // A checkpoint's adapters: each into its own folder, as the command line writes them.
            r.report = plans.size() > 1 ? combinedReport(consolidatePlans(plans, o, progress, control.stopFlag()), o.output)
                                        : consolidate(plan, o, progress, control.stopFlag());
            for (const QString &f : std::as_const(r.report.files))
                r.fileSizes << QFileInfo(o.output + QLatin1Char('/') + f).size();
            if (!base.isEmpty() && r.report.ok()) {  // the adapter just written, merged into its base model
                ConsolidateOptions m = o;
                m.output = mergedModelFolder(o.output);
                r.mergedOutput = m.output;
                r.merged = consolidate(planAdapterMerge(base, o.output), m, progress, control.stopFlag());
            }
            return r;
        },
        [this, o](const RunResult &r) { showRunResult(r, o); },
        [this, latest](const TaskProgress &) { showProgress(latest->get()); });
}

void ConsolidateWizard::showProgress(const ConsolidateProgress &p)
{
    if (!m_running || !m_cancelRun->isEnabled())
        return;  // stopping: keep saying so
    const double secs = double(m_runClock.elapsed()) / 1000.0;
    const double rate = secs > 0 ? double(p.bytesDone) / secs : 0;
    const int eta = rate > 0 ? int(double(p.bytesTotal - p.bytesDone) / rate) : 0;
    m_progress->setValue(p.bytesTotal > 0 ? int(1000 * p.bytesDone / p.bytesTotal) : 1000);
    m_runStatus->setText(tr("%1 of %2 — %3 of %4 tensors — about %5 s left\n%6")
                             .arg(formatBytes(p.bytesDone), formatBytes(p.bytesTotal))
                             .arg(p.tensorsDone).arg(p.tensorsTotal).arg(eta).arg(displayName(p.current)));
    Q_EMIT progressed(p.tensorsDone, p.tensorsTotal);
}

void ConsolidateWizard::showRunResult(const RunResult &r, const ConsolidateOptions &o)
{
    const ConsolidateReport &rep = r.report;
    m_report = rep;
    m_running = false;
    m_runMs = m_runClock.elapsed();
    m_cancelRun->setEnabled(false);
    m_cancelRun->hide();
    button(QWizard::CancelButton)->setEnabled(true);
    m_ran = rep.ok();
    if (rep.cancelled) {
        m_runStatus->setText(tr("Stopped. Nothing was written to %1. Go back to change the settings, or close the window.").arg(o.output));
    } else if (!rep.ok()) {
        QStringList all = rep.problems + rep.verifyProblems;
        if (!rep.error.isEmpty())
            all << rep.error;
        m_runStatus->setText(tr("Failed, and nothing was left behind: %1\n\nGo back to change the settings, or close the window.")
                                 .arg(all.join(QLatin1Char('\n'))));
    } else {
        m_progress->setValue(1000);
        m_runStatus->setText(tr("Finished."));
        if (r.resharded)
            showReshardSummary(r);
        else
            showSummary(r, o);
    }
    pageOf(this, RunPage)->refresh();
    updateBackButton();
    Q_EMIT runFinished(rep.ok());
    if (m_closeWhenStopped) {
        QWizard::reject();
        return;
    }
    if (m_ran && currentId() == RunPage)
        next();
}

}  // namespace ingot
