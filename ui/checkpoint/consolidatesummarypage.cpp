#include "ui/checkpoint/consolidatesummarypage.h"

#include "services/checkpoint/consolidationrequest.h"
#include "services/util/format.h"
#include "services/util/names.h"
#include "services/util/shellquote.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace ingot {

namespace {
// A Python string literal holding `s`.
QString pythonString(const QString &s)
{
    QString out = s;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}
}  // namespace

ConsolidateSummaryPage::ConsolidateSummaryPage(QWidget *parent)
    : QWizardPage(parent)
{
    setTitle(tr("Done"));
    setSubTitle(tr("The consolidated model is ready to load with transformers."));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);  // every path and file name in it is escaped
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *open = new QPushButton(tr("Open folder"), this);
    auto *copy = new QPushButton(tr("Copy path"), this);
    connect(open, &QPushButton::clicked, this, [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_output)); });
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(QFileInfo(m_output).absoluteFilePath()); });
    m_snippet = new QLabel(this);
    m_snippet->setTextFormat(Qt::PlainText);
    m_snippet->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_snippet->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_snippet->setWordWrap(true);
    m_snippet->setFrameShape(QFrame::StyledPanel);
    m_snippet->setBackgroundRole(QPalette::Base);
    m_snippet->setAutoFillBackground(true);
    m_snippet->setMargin(6);
    auto *copySnippet = new QPushButton(tr("Copy code"), this);
    connect(copySnippet, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_snippet->text()); });
    auto *sl = new QVBoxLayout(this);
    sl->addWidget(m_summary);
    auto *brow = new QHBoxLayout;
    brow->addWidget(open);
    brow->addWidget(copy);
    brow->addStretch();
    sl->addLayout(brow);
    sl->addSpacing(8);
    m_snippetTitle = new QLabel(tr("Load it in Python:"), this);
    m_snippetTitle->setObjectName(QStringLiteral("snippetTitle"));
    sl->addWidget(m_snippetTitle);
    auto *crow = new QHBoxLayout;
    crow->addWidget(m_snippet, 1);
    crow->addWidget(copySnippet, 0, Qt::AlignTop);
    sl->addLayout(crow);
    sl->addStretch();
}

ConsolidateSummaryPage::~ConsolidateSummaryPage() = default;

void ConsolidateSummaryPage::showResult(const ConsolidationRequest &request, const ConsolidationResult &r, qint64 runMs)
{
    m_output = request.options.output;
    if (r.resharded)
        showResharded(request, r);
    else
        showConsolidated(request, r, runMs);
}

void ConsolidateSummaryPage::showConsolidated(const ConsolidationRequest &request, const ConsolidationResult &r, qint64 runMs)
{
    const ConsolidateReport &rep = r.report;
    QStringList lines;
    for (qsizetype i = 0; i < rep.files.size(); ++i)
        lines << QStringLiteral("%1 &nbsp; <span style='color:gray'>%2</span>")
                     .arg(displayName(rep.files[i]).toHtmlEscaped(), formatBytes(r.fileSizes.value(i)));
    const QString where = QFileInfo(m_output).absoluteFilePath();
    const QString verified = request.options.verify ? (rep.verified ? tr("Verified: every tensor was read back and matches its shards.")
                                                                    : tr("Not verified."))
                                                    : tr("Not verified (verification was not asked for).");
    const QString took = runMs < 1000 ? tr("%1 ms").arg(runMs)
                         : runMs < 120000 ? tr("%1 s").arg(QLocale().toString(double(runMs) / 1000.0, 'f', 1))
                                          : tr("%1 min %2 s").arg(runMs / 60000).arg(runMs / 1000 % 60);
    QString text = tr("<b>%n tensor(s)</b> (%1) written to <tt>%2</tt> in %3:", nullptr, rep.tensors)
                       .arg(formatBytes(rep.bytes), displayName(where).toHtmlEscaped(), took);
    text += QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")) + QStringLiteral("<br><br>") + verified.toHtmlEscaped();
    if (request.options.optimizer && rep.ok())
        text += QStringLiteral("<br>") + tr("With the optimizer state: optimizer.safetensors (each tensor named after its parameter, "
                                            "e.g. model.norm.weight.exp_avg) and its settings in optimizer_param_groups.json.").toHtmlEscaped();
    for (const QString &w : rep.warnings)
        text += QStringLiteral("<br>") + displayName(w).toHtmlEscaped();
    if (!r.mergedOutput.isEmpty()) {
        const ConsolidateReport &m = r.merged;
        QStringList why = m.problems + m.verifyProblems;
        if (!m.error.isEmpty())
            why << m.error;
        text += QStringLiteral("<br><br>") +
                (m.ok() ? tr("Merged into the base model: %n tensor(s) (%1) in <tt>%2</tt>.", nullptr, m.tensors)
                              .arg(formatBytes(m.bytes), displayName(r.mergedOutput).toHtmlEscaped())
                        : tr("Merging into the base model failed, and left nothing in %1: %2")
                              .arg(displayName(r.mergedOutput), why.join(QLatin1Char(' '))).toHtmlEscaped());
    }
    m_summary->setText(text);
    const bool tokenizer = rep.files.contains(QStringLiteral("tokenizer.json")) || rep.files.contains(QStringLiteral("tokenizer_config.json")) ||
                           rep.files.contains(QStringLiteral("tokenizer.model"));
    QString code = QStringLiteral("from transformers import AutoModelForCausalLM%1\n\nmodel = AutoModelForCausalLM.from_pretrained(%2)\n")
                       .arg(tokenizer ? QStringLiteral(", AutoTokenizer") : QString(), pythonString(where));
    if (tokenizer)
        code += QStringLiteral("tokenizer = AutoTokenizer.from_pretrained(%1)\n").arg(pythonString(where));
    // A LoRA adapter is a PEFT folder: PEFT loads it onto the base model its adapter_config.json names.
    if (request.isAdapter())
        code = QStringLiteral("from peft import AutoPeftModelForCausalLM\n\nmodel = AutoPeftModelForCausalLM.from_pretrained(%1)\n")
                   .arg(pythonString(where));
    if (request.options.optimizer && rep.files.contains(QStringLiteral("optimizer_param_groups.json")))
        code += QStringLiteral("\nimport json, os\nfrom safetensors.torch import load_file\n\n"
                               "optimizer_state = {}\nfor f in sorted(os.listdir(%1)):\n"
                               "    if f.startswith(\"optimizer\") and f.endswith(\".safetensors\"):\n"
                               "        optimizer_state.update(load_file(os.path.join(%1, f)))\n"
                               "param_groups = json.load(open(os.path.join(%1, \"optimizer_param_groups.json\")))\n")
                    .arg(pythonString(where));
    if (!r.mergedOutput.isEmpty() && r.merged.ok())
        code = QStringLiteral("from transformers import AutoModelForCausalLM\n\nmodel = AutoModelForCausalLM.from_pretrained(%1)\n")
                   .arg(pythonString(QFileInfo(r.mergedOutput).absoluteFilePath()));
    m_snippet->setText(code.trimmed());
}

void ConsolidateSummaryPage::showResharded(const ConsolidationRequest &request, const ConsolidationResult &r)
{
    const ConsolidateReport &rep = r.report;
    const QString where = QFileInfo(m_output).absoluteFilePath();
    const ReshardPlan &plan = request.reshardPlan();
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
    setSubTitle(tr("The checkpoint is ready for the bundled training backend to resume from."));
    m_snippetTitle->setText(tr("Resume training with these settings (and the same global batch):"));
    m_snippet->setText(QStringLiteral("--tensor_parallel_size %1 --pipeline_parallel_size %2%3 \\\n  --resume_from_checkpoint %4")
                           .arg(plan.tpSize).arg(plan.ppSize)
                           .arg(plan.vocabParallel ? QString() : QStringLiteral(" --disable_embedding_parallelization"),
                                shellWord(where)));
}

}  // namespace ingot
