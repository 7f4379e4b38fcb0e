#include "ui/checkpoint/choosecheckpointpage.h"

#include "services/util/appsettings.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>

namespace ingot {

ChooseCheckpointPage::ChooseCheckpointPage(ConsolidationRequest &request, QWidget *parent)
    : QWizardPage(parent)
    , m_request(request)
    , m_folderDelay(new QTimer(this))
{
    setTitle(tr("Choose the checkpoint"));
    setSubTitle(tr("The training output folder, a checkpoint-N folder, or the shards folder. Type or paste its "
                   "path, browse, or drop a folder here."));
    m_folder = new QLineEdit(this);
    m_folder->setPlaceholderText(tr("Path of a folder holding a sharded checkpoint"));
    m_folder->setClearButtonEnabled(true);
    m_recent = new QComboBox(this);
    m_detected = new QLabel(this);
    m_checkpoints = new QComboBox(this);
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Checkpoint folder"), m_folder->text());
        if (!d.isEmpty())
            setFolder(d);
    });
    m_recent->addItem(tr("Recent folders…"));
    m_recent->addItems(AppSettings::recentCheckpoints());
    m_recent->setEnabled(m_recent->count() > 1);
    connect(m_recent, &QComboBox::activated, this, [this](int i) {
        if (i > 0)
            setFolder(m_recent->itemText(i));
    });
    m_folderDelay->setSingleShot(true);
    m_folderDelay->setInterval(kFolderLookDelayMs);
    connect(m_folderDelay, &QTimer::timeout, this, &ChooseCheckpointPage::detect);
    connect(m_folder, &QLineEdit::textEdited, this, &ChooseCheckpointPage::folderEdited);
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
    auto *form = new QFormLayout(this);
    form->addRow(tr("Folder:"), row);
    form->addRow(QString(), m_recent);
    form->addRow(QString(), m_detected);
    form->addRow(tr("Checkpoint:"), m_checkpoints);
    m_checkpoints->setEnabled(false);
    connect(m_checkpoints, &QComboBox::currentIndexChanged, this, [this] {
        m_request.choose(m_checkpoints->currentIndex() >= 0 ? m_checkpoints->currentData().toInt() : -1);
        if (choiceChanged)
            choiceChanged();
        refresh();
    });
}

ChooseCheckpointPage::~ChooseCheckpointPage() = default;

bool ChooseCheckpointPage::isComplete() const
{
    return m_request.checkpoint() != nullptr && !m_folderDelay->isActive();
}

bool ChooseCheckpointPage::validatePage()
{
    if (!isComplete())
        return false;  // next() called directly, before the folder typed last was looked into
    AppSettings::addRecentCheckpoint(m_detectedFolder);  // the one chosen, not every folder typing went through
    return true;
}

void ChooseCheckpointPage::setFolder(const QString &folder)
{
    m_folder->setText(folder);
    detect();
}

// Typing or pasting: what was found in the folder before no longer holds; look again once typing rests.
void ChooseCheckpointPage::folderEdited()
{
    ++m_detectGeneration;
    m_detecting.discard();
    m_request.setSource(QString(), {});
    m_checkpoints->clear();
    m_checkpoints->setEnabled(false);
    m_detectedFolder.clear();
    if (choiceChanged)
        choiceChanged();
    const QString folder = m_folder->text().trimmed();
    m_detected->setText(folder.isEmpty() ? QString() : tr("Looking…"));
    if (folder.isEmpty())
        m_folderDelay->stop();
    else
        m_folderDelay->start();
    refresh();
}

void ChooseCheckpointPage::detect()
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
    refresh();
    if (detectionStarted)
        detectionStarted(folder);
}

void ChooseCheckpointPage::showDetected(const QVector<CheckpointCandidate> &found, const QString &error, const QString &folder)
{
    m_request.setSource(folder, found);
    m_checkpoints->blockSignals(true);
    m_checkpoints->clear();
    for (int i : m_request.choices())  // a checkpoint's adapters as one choice: they are written together
        m_checkpoints->addItem(choiceText(i), i);
    const int item = m_checkpoints->findData(m_request.defaultChoice());
    m_checkpoints->setCurrentIndex(item >= 0 ? item : (found.isEmpty() ? -1 : 0));
    m_checkpoints->blockSignals(false);
    m_request.choose(m_checkpoints->currentIndex() >= 0 ? m_checkpoints->currentData().toInt() : -1);
    m_checkpoints->setEnabled(!found.isEmpty());
    if (choiceChanged)
        choiceChanged();
    if (found.isEmpty())
        m_detected->setText(error.isEmpty() ? tr("No sharded checkpoint in %1.").arg(folder) : error);
    else
        m_detected->setText(tr("Found %n checkpoint(s). Layout: %1.", nullptr, int(found.size())).arg(layoutName(found.first().layout)));
    refresh();
    if (detectionFinished)
        detectionFinished(int(found.size()));
}

// A checkpoint's adapters are one choice, named with all of them and their bytes summed.
QString ChooseCheckpointPage::choiceText(int candidate) const
{
    const QVector<CheckpointCandidate> &found = m_request.found();
    const CheckpointCandidate &c = found[candidate];
    const QVector<const CheckpointCandidate *> set = consolidationSet(found, &c);
    QString title = checkpointTitle(c);
    qint64 bytes = c.bytes;
    bool complete = c.complete;
    if (set.size() > 1) {
        QStringList names;
        bytes = 0;
        for (const CheckpointCandidate *x : set) {
            names << displayName(x->adapter);
            bytes += x->bytes;
            complete = complete && x->complete;
        }
        title = tr("%1, LoRA adapters %2").arg(displayName(c.label), names.join(QStringLiteral(", ")));
    }
    return complete ? tr("%1 — %2, %3").arg(title, rankText(c), formatBytes(bytes))
                    : tr("%1 — %2, %3 (incomplete)").arg(title, rankText(c), formatBytes(bytes));
}

}  // namespace ingot
