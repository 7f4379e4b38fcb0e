// The wizard's re-shard mode (services/checkpoint/reshard.h): on the Options page, the new tensor/pipeline-parallel
// layout and whether the optimizer state goes along, planned again as the numbers change, with the plan's words;
// the summary says how to resume the bundled backend from it.
#include "ui/checkpoint/consolidatewizard.h"

#include "services/util/names.h"
#include "services/util/shellquote.h"
#include "services/util/format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>

namespace ingot {

void ConsolidateWizard::buildReshardChoice(QFormLayout *form, QWidget *page, QWidget *consolidateSettings)
{
    m_mode = new QComboBox(page);
    m_mode->addItem(tr("A consolidated model (safetensors that transformers loads)"), QStringLiteral("consolidate"));
    m_mode->addItem(tr("A checkpoint for another parallel layout (re-shard, to resume training)"), QStringLiteral("reshard"));
    m_mode->setToolTip(tr("Re-sharding writes the checkpoint the bundled training backend resumes from on another number of "
                          "tensor- and pipeline-parallel ranks, its optimizer state included."));
    auto *reshardBox = new QWidget(page);
    auto *sizes = new QWidget(reshardBox);
    auto *row = new QHBoxLayout(sizes);
    row->setContentsMargins(0, 0, 0, 0);
    m_reshardTp = new QSpinBox(sizes);
    m_reshardPp = new QSpinBox(sizes);
    for (QSpinBox *spin : {m_reshardTp, m_reshardPp})
        spin->setRange(1, 1024);
    row->addWidget(new QLabel(tr("Tensor parallel:"), sizes));
    row->addWidget(m_reshardTp);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Pipeline parallel:"), sizes));
    row->addWidget(m_reshardPp);
    row->addStretch();
    m_weightsOnly = new QCheckBox(tr("Weights only (the resumed run starts its optimizer afresh)"), reshardBox);
    m_reshardNotes = new QLabel;
    m_reshardNotes->setTextFormat(Qt::PlainText);  // names from the checkpoint
    m_reshardNotes->setWordWrap(true);
    m_reshardNotes->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_reshardNotes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The plan's words scroll within a few lines: a long list of problems made the wizard taller, and it stayed so.
    auto *notesScroll = new QScrollArea(reshardBox);
    notesScroll->setObjectName(QStringLiteral("reshardNotesScroll"));
    notesScroll->setWidget(m_reshardNotes);
    notesScroll->setWidgetResizable(true);
    notesScroll->setFrameShape(QFrame::NoFrame);
    notesScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    notesScroll->setFixedHeight(m_reshardNotes->fontMetrics().lineSpacing() * 6 + 4);
    auto *rform = new QFormLayout(reshardBox);
    rform->setContentsMargins(0, 0, 0, 0);
    rform->addRow(tr("New layout:"), sizes);
    rform->addRow(QString(), m_weightsOnly);
    rform->addRow(QString(), notesScroll);
    m_modeSettings = new QStackedWidget(page);
    m_modeSettings->addWidget(consolidateSettings);
    m_modeSettings->addWidget(reshardBox);
    m_modeSettings->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    form->addRow(tr("Write:"), m_mode);
    form->addRow(m_modeSettings);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &ConsolidateWizard::showModeChoice);
    for (QSpinBox *spin : {m_reshardTp, m_reshardPp})
        connect(spin, &QSpinBox::valueChanged, this, [this] {
            // The proposed output names the layout: it follows the numbers until the user types one of their own.
            showModeChoice();
        });
    connect(m_weightsOnly, &QCheckBox::toggled, this, &ConsolidateWizard::replanReshard);
}

bool ConsolidateWizard::isResharding() const
{
    return m_mode && m_mode->currentData().toString() == QLatin1String("reshard");
}

void ConsolidateWizard::showModeChoice()
{
    const bool adapter = !m_plan.checkpoint.adapter.isEmpty();
    if (adapter && isResharding())
        m_mode->setCurrentIndex(0);  // an adapter is consolidated (or merged), not re-sharded
    m_mode->setEnabled(!adapter);
    const bool re = isResharding();
    m_modeSettings->setCurrentIndex(re ? 1 : 0);
    QWizardPage *options = page(OptionsPage);
    options->setButtonText(QWizard::NextButton, re ? tr("Re-shard") : tr("Consolidate"));
    options->setSubTitle(re ? tr("The new layout, and where its checkpoint goes. Nothing is written before you press Re-shard.")
                            : tr("Where the consolidated model goes and in which format. Nothing is written before you "
                                 "press Consolidate."));
    if (!m_autoOutput.isEmpty() && m_output->text() == m_autoOutput) {
        const QString base = QFileInfo(m_autoOutput).absolutePath();
        m_autoOutput = re ? base + QStringLiteral("/resharded-tp%1-pp%2").arg(m_reshardTp->value()).arg(m_reshardPp->value())
                          : base + QStringLiteral("/consolidated");
        m_output->setText(m_autoOutput);
    }
    if (re)
        replanReshard();
    showOutputState();
}

ReshardOptions ConsolidateWizard::reshardOptions() const
{
    ReshardOptions o;
    o.output = m_output->text();
    o.tpSize = m_reshardTp->value();
    o.ppSize = m_reshardPp->value();
    o.weightsOnly = m_weightsOnly->isChecked();
    o.verify = m_verify->isChecked();
    o.overwrite = m_overwrite->isChecked();
    return o;
}

// Planned from the checked consolidation plan: the shards are not read again, only config.json, training_args.json
// and the optimizer state's headers, off the UI thread (a checkpoint on a network file system may be slow to answer).
// Re-shard waits for the answer about the numbers in the fields now.
void ConsolidateWizard::replanReshard()
{
    if (!isResharding() || !m_checked)
        return;
    m_reshardPlanned = false;
    m_reshardNotes->setText(tr("Checking the layout…"));
    refreshPage(OptionsPage);
    m_reshardPlanning.discard();  // an answer about the numbers typed before is no longer wanted
    m_reshardPlanning = runTask(this, [plan = m_plan, ro = reshardOptions()](TaskControl &) { return planReshard(plan, ro); },
                                [this](const ReshardPlan &plan) { showReshardPlan(plan); });
}

void ConsolidateWizard::showReshardPlan(const ReshardPlan &plan)
{
    m_reshardPlan = plan;
    m_reshardPlanned = true;
    QStringList lines;
    for (const QString &p : std::as_const(plan.problems))
        lines << tr("Cannot: %1").arg(displayName(p));
    if (lines.isEmpty()) {
        lines << (plan.optimizer ? tr("%n tensor(s) and their optimizer state (step %1), split for tp=%2 pp=%3.", nullptr, int(plan.entries.size()))
                                       .arg(plan.optimizerStep).arg(plan.tpSize).arg(plan.ppSize)
                                 : tr("%n tensor(s), split for tp=%1 pp=%2.", nullptr, int(plan.entries.size())).arg(plan.tpSize).arg(plan.ppSize));
        for (const QString &n : std::as_const(plan.notes))
            lines << displayName(n);
    }
    m_reshardNotes->setText(lines.join(QLatin1Char('\n')));
    showOutputState();
    Q_EMIT reshardPlanned(int(plan.problems.size()));
}

void ConsolidateWizard::showReshardSummary(const RunResult &r)
{
    const ConsolidateReport &rep = r.report;
    const QString where = QFileInfo(m_output->text()).absoluteFilePath();
    const ReshardPlan &plan = m_reshardPlan;
    const QString folders = tr("%n rank folder(s)", nullptr, plan.tpSize * plan.ppSize);  // two counts: two plurals
    QString text = tr("<b>%n tensor(s)</b> (%1) written to <tt>%2</tt> for tp=%3 pp=%4, in %5.", nullptr, rep.tensors)
                       .arg(formatBytes(rep.bytes), displayName(where).toHtmlEscaped())
                       .arg(plan.tpSize).arg(plan.ppSize).arg(folders);
    text += QStringLiteral("<br>") + (plan.optimizer ? tr("The optimizer state goes with it (step %1).").arg(plan.optimizerStep)
                                                     : tr("Weights only: the resumed run starts its optimizer afresh.")).toHtmlEscaped();
    text += QStringLiteral("<br><br>") + (rep.verified ? tr("Verified: every part was read back, and the new shards plan into the "
                                                            "source's tensors.")
                                                       : tr("Not verified.")).toHtmlEscaped();
    for (const QString &w : rep.warnings)
        text += QStringLiteral("<br>") + displayName(w).toHtmlEscaped();
    m_summary->setText(text);
    page(SummaryPage)->setSubTitle(tr("The checkpoint is ready for the bundled training backend to resume from."));
    if (auto *title = page(SummaryPage)->findChild<QLabel *>(QStringLiteral("snippetTitle")))
        title->setText(tr("Resume training with these settings (and the same global batch):"));
    m_snippet->setText(QStringLiteral("--tensor_parallel_size %1 --pipeline_parallel_size %2%3 \\\n  --resume_from_checkpoint %4")
                           .arg(plan.tpSize).arg(plan.ppSize)
                           .arg(plan.vocabParallel ? QString() : QStringLiteral(" --disable_embedding_parallelization"),
                                shellWord(where)));
}

}  // namespace ingot
