#include "ui/checkpoint/consolidateoptionspage.h"

#include "services/checkpoint/dcpoptimizer.h"
#include "services/checkpoint/loramerge.h"
#include "services/util/format.h"
#include "ui/checkpoint/reshardchoice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTimer>
#include <QWizard>

namespace ingot {

ConsolidateOptionsPage::ConsolidateOptionsPage(ConsolidationRequest &request, QWidget *parent)
    : QWizardPage(parent)
    , m_request(request)
    , m_outputDelay(new QTimer(this))
{
    setTitle(tr("Options"));
    setSubTitle(tr("Where the consolidated model goes and in which format. Nothing is written before you "
                   "press Consolidate."));
    setButtonText(QWizard::NextButton, tr("Consolidate"));
    m_output = new QLineEdit(this);
    m_space = new QLabel(this);
    m_space->setTextFormat(Qt::PlainText);  // it shows paths, which may look like markup
    m_space->setWordWrap(true);
    m_overwrite = new QCheckBox(tr("Replace the output folder if it exists"), this);
    m_verify = new QCheckBox(tr("Verify: read the output back and check every tensor against the shards"), this);
    m_verify->setChecked(true);
    auto *outBrowse = new QPushButton(tr("Browse…"), this);
    connect(outBrowse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Output folder"), QFileInfo(m_output->text()).absolutePath());
        if (!d.isEmpty())
            m_output->setText(d + QLatin1Char('/') + m_request.defaultOutputName());
    });
    m_outputDelay->setSingleShot(true);
    m_outputDelay->setInterval(kOutputCheckDelayMs);
    connect(m_outputDelay, &QTimer::timeout, this, &ConsolidateOptionsPage::checkOutput);
    connect(m_output, &QLineEdit::textChanged, this, &ConsolidateOptionsPage::outputEdited);
    connect(m_overwrite, &QCheckBox::toggled, this, &ConsolidateOptionsPage::showOutputState);
    connect(m_verify, &QCheckBox::toggled, this, &ConsolidateOptionsPage::apply);
    auto *orow = new QHBoxLayout;
    orow->addWidget(m_output, 1);
    orow->addWidget(outBrowse);
    auto *form = new QFormLayout(this);
    // The settings of each mode on a page of their own: rows shown or hidden while a wizard page is up are laid
    // out with no height (Qt 6.4).
    QWidget *consolidateBox = buildConsolidateSettings();
    m_mode = new QComboBox(this);
    m_mode->addItem(tr("A consolidated model (safetensors that transformers loads)"), QStringLiteral("consolidate"));
    m_mode->addItem(tr("A checkpoint for another parallel layout (re-shard, to resume training)"), QStringLiteral("reshard"));
    m_mode->setToolTip(tr("Re-sharding writes the checkpoint the bundled training backend resumes from on another number of "
                          "tensor- and pipeline-parallel ranks, its optimizer state included."));
    m_reshard = new ReshardChoice(this);
    m_modeSettings = new QStackedWidget(this);
    m_modeSettings->addWidget(consolidateBox);
    m_modeSettings->addWidget(m_reshard);
    m_modeSettings->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    form->addRow(tr("Write:"), m_mode);
    form->addRow(m_modeSettings);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &ConsolidateOptionsPage::showModeChoice);
    // The proposed output names the layout: it follows the numbers until the user types one of their own.
    m_reshard->changed = [this] { showModeChoice(); };
    form->addRow(tr("Output folder:"), orow);
    form->addRow(QString(), m_space);
    form->addRow(QString(), m_overwrite);
    form->addRow(QString(), m_verify);
    m_merge = new QCheckBox(tr("Also merge the adapter into its base model (written to the output folder's \"merged\")"), this);
    m_baseModel = new QLineEdit(this);
    m_baseModel->setPlaceholderText(tr("The base model's folder (Hugging Face safetensors)"));
    m_baseModel->setEnabled(false);
    connect(m_merge, &QCheckBox::toggled, m_baseModel, &QWidget::setEnabled);
    // The merged model counts in the output check (its bytes, a base model that holds none): asked again.
    connect(m_merge, &QCheckBox::toggled, this, &ConsolidateOptionsPage::outputEdited);
    connect(m_baseModel, &QLineEdit::textChanged, this, &ConsolidateOptionsPage::outputEdited);
    form->addRow(QString(), m_merge);
    form->addRow(tr("Base model:"), m_baseModel);
    alignLabels({form, consolidateBox->layout(), m_reshard->layout()});
}

ConsolidateOptionsPage::~ConsolidateOptionsPage() = default;

QWidget *ConsolidateOptionsPage::buildConsolidateSettings()
{
    auto *box = new QWidget(this);
    m_format = new QComboBox(box);
    m_format->addItem(tr("safetensors (recommended)"), QStringLiteral("safetensors"));
    m_format->addItem(tr("PyTorch (pytorch_model.bin)"), QStringLiteral("pytorch"));
    m_shardGb = new QDoubleSpinBox(box);
    m_shardGb->setRange(0.1, 1000);
    m_shardGb->setDecimals(1);
    m_shardGb->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_shardGb->setValue(5);
    m_shardGb->setSuffix(tr(" GB"));
    m_shardGb->setToolTip(tr("Larger models are written as several files of at most this size, with an index, as "
                             "transformers does (5 GB by default)."));
    m_optimizer = new QCheckBox(tr("Also write the optimizer state (optimizer.safetensors and optimizer_param_groups.json)"), box);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ConsolidateOptionsPage::apply);
    connect(m_shardGb, &QDoubleSpinBox::valueChanged, this, &ConsolidateOptionsPage::apply);
    connect(m_optimizer, &QCheckBox::toggled, this, &ConsolidateOptionsPage::showOutputState);  // what it needs changes
    auto *form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Files of at most:"), m_shardGb);
    form->addRow(QString(), m_optimizer);
    return box;
}

// One label column across the page and the settings of each mode.
void ConsolidateOptionsPage::alignLabels(const QList<QLayout *> &forms)
{
    QList<QWidget *> labels;
    for (QLayout *l : forms)
        for (int r = 0; r < static_cast<QFormLayout *>(l)->rowCount(); ++r)
            if (QLayoutItem *item = static_cast<QFormLayout *>(l)->itemAt(r, QFormLayout::LabelRole); item && item->widget())
                labels << item->widget();
    int widest = 0;
    for (QWidget *l : std::as_const(labels))
        widest = std::max(widest, l->sizeHint().width());
    for (QWidget *l : std::as_const(labels))
        l->setMinimumWidth(widest);
}

void ConsolidateOptionsPage::apply()
{
    ConsolidateOptions &o = m_request.options;
    o.output = m_output->text();
    o.maxShardBytes = qint64(m_shardGb->value() * 1e9);
    o.verify = m_verify->isChecked();
    o.overwrite = m_overwrite->isChecked();
    o.optimizer = m_optimizer->isEnabled() && m_optimizer->isChecked();
    o.format = m_format->currentData().toString() == QLatin1String("pytorch") ? ConsolidateOptions::Format::PyTorch
                                                                               : ConsolidateOptions::Format::Safetensors;
    m_request.mode = isResharding() ? ConsolidationRequest::Mode::Reshard : ConsolidationRequest::Mode::Consolidate;
    m_request.reshardTp = m_reshard->tpSize();
    m_request.reshardPp = m_reshard->ppSize();
    m_request.reshardWeightsOnly = m_reshard->weightsOnly();
    m_request.baseModel = m_request.isAdapter() && m_merge->isChecked() ? m_baseModel->text() : QString();
}

bool ConsolidateOptionsPage::isResharding() const
{
    return m_mode && m_mode->currentData().toString() == QLatin1String("reshard");
}

void ConsolidateOptionsPage::initializePage()
{
    // Offered for a DCP checkpoint that holds optimizer state; otherwise the reason is its tooltip.
    const QVector<ConsolidationPlan> &plans = m_request.plans();
    const QString why = plans.isEmpty() ? QString() : optimizerProblem(plans.first());
    m_optimizer->setEnabled(plans.size() == 1 && why.isEmpty());
    m_optimizer->setToolTip(m_optimizer->isEnabled()
                                ? tr("%n tensor(s) of the optimizer (%1), named after the model's parameters, and its settings as JSON.", nullptr,
                                     int(plans.first().optimizerEntries.size())).arg(formatBytes(plans.first().optimizerBytes()))
                                : why);
    apply();
    showMergeChoice();
    showModeChoice();
    checkOutput();
}

bool ConsolidateOptionsPage::isComplete() const
{
    if (isResharding())
        return outputReady() && m_reshardPlanned && m_request.reshardPlan().problems.isEmpty();
    return outputReady() && (!m_request.isAdapter() || !m_merge->isChecked() || !m_request.baseModel.isEmpty());
}

void ConsolidateOptionsPage::proposeOutput()
{
    if (!m_output->text().isEmpty() && m_output->text() != m_autoOutput)
        return;
    apply();
    m_autoOutput = m_request.defaultOutput();
    m_output->setText(m_autoOutput);
}

// Merging is offered for a LoRA adapter only; the base model's folder is taken from its adapter_config.json when
// that names a folder here.
void ConsolidateOptionsPage::showMergeChoice()
{
    const bool adapter = m_request.isAdapter();
    m_merge->setVisible(adapter);
    m_baseModel->setVisible(adapter);
    if (auto *form = qobject_cast<QFormLayout *>(layout()))
        if (QWidget *label = form->labelForField(m_baseModel))
            label->setVisible(adapter);
    if (adapter && m_baseModel->text().isEmpty())
        m_baseModel->setText(localBaseModelOf(m_request.checkpoint()->root));
}

void ConsolidateOptionsPage::showModeChoice()
{
    const bool adapter = m_request.isAdapter();
    if (adapter && isResharding())
        m_mode->setCurrentIndex(0);  // an adapter is consolidated (or merged), not re-sharded
    m_mode->setEnabled(!adapter);
    const bool re = isResharding();
    m_modeSettings->setCurrentIndex(re ? 1 : 0);
    setButtonText(QWizard::NextButton, re ? tr("Re-shard") : tr("Consolidate"));
    setSubTitle(re ? tr("The new layout, and where its checkpoint goes. Nothing is written before you press Re-shard.")
                   : tr("Where the consolidated model goes and in which format. Nothing is written before you "
                        "press Consolidate."));
    apply();
    if (!m_autoOutput.isEmpty())
        proposeOutput();
    if (re)
        replanReshard();
    showOutputState();
}

// Planned from the checked consolidation plan: the shards are not read again, only config.json, training_args.json
// and the optimizer state's headers, off the UI thread (a checkpoint on a network file system may be slow to answer).
// Re-shard waits for the answer about the numbers in the fields now.
void ConsolidateOptionsPage::replanReshard()
{
    if (!isResharding() || !m_request.isPlanned())
        return;
    m_reshardPlanned = false;
    m_reshard->showPlanning();
    refresh();
    m_reshardPlanning.discard();  // an answer about the numbers typed before is no longer wanted
    m_reshardPlanning = runTask(this, [request = m_request](TaskControl &) { return request.makeReshardPlan(); },
                                [this](const ReshardPlan &plan) {
                                    m_request.setReshardPlan(plan);
                                    m_reshardPlanned = true;
                                    m_reshard->showPlan(plan);
                                    showOutputState();
                                    if (reshardPlanned)
                                        reshardPlanned(int(plan.problems.size()));
                                });
}

// What was known about the output folder no longer holds: Next waits for a new answer.
void ConsolidateOptionsPage::forgetOutputAnswer()
{
    m_probing.discard();
    m_spaceKnown = false;
    m_space->setText(tr("Checking the output folder…"));
    refresh();
}

// Typing in the output field: ask the disk once typing rests, not on every keystroke.
void ConsolidateOptionsPage::outputEdited()
{
    apply();
    forgetOutputAnswer();
    m_outputDelay->start();
}

void ConsolidateOptionsPage::checkOutput()
{
    m_outputDelay->stop();
    forgetOutputAnswer();
    apply();
    const QString output = m_output->text();
    m_probing = runTask(this, [request = m_request](TaskControl &) { return request.inspectOutput(); },
                        [this, output](const OutputSpace &answer) {
                            if (output != m_output->text())
                                return;  // about a path no longer there (discard() normally drops it first)
                            m_spaceKnown = true;
                            m_spaceFor = output;
                            m_spaceAnswer = answer;
                            showOutputState();
                            if (outputChecked)
                                outputChecked(output);
                        });
}

// Decided only from an answer about the path in the field now.
bool ConsolidateOptionsPage::outputReady() const
{
    const QString output = m_output->text();
    return !output.isEmpty() && m_spaceKnown && m_spaceFor == output && m_request.outputProblem(m_spaceAnswer).isEmpty();
}

void ConsolidateOptionsPage::showOutputState()
{
    apply();
    if (m_spaceKnown && m_spaceFor == m_output->text())
        m_space->setText(m_request.outputText(m_spaceAnswer));
    refresh();
}

}  // namespace ingot
