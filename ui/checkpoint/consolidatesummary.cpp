// The consolidation wizard's last steps: offering to merge a LoRA adapter into its base model, and the summary of
// what was written and how to load it (the rest of the wizard is in consolidatewizard.cpp).
#include "ui/checkpoint/consolidatewizard.h"

#include "services/checkpoint/loramerge.h"

#include "services/util/names.h"
#include "services/util/format.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>

namespace ingot {

// Merging is offered for a LoRA adapter only; the base model's folder is taken from its adapter_config.json when
// that names a folder here.
void ConsolidateWizard::showMergeChoice()
{
    const bool adapter = !m_plan.checkpoint.adapter.isEmpty();
    m_merge->setVisible(adapter);
    m_baseModel->setVisible(adapter);
    if (auto *form = qobject_cast<QFormLayout *>(m_baseModel->parentWidget()->layout()))
        if (QWidget *label = form->labelForField(m_baseModel))
            label->setVisible(adapter);
    if (!adapter || !m_baseModel->text().isEmpty())
        return;
    m_baseModel->setText(localBaseModelOf(m_plan.checkpoint.root));
}

namespace {
// A Python string literal holding `s`.
QString pythonString(const QString &s)
{
    QString out = s;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}
}  // namespace

void ConsolidateWizard::showSummary(const RunResult &r, const ConsolidateOptions &o)
{
    const ConsolidateReport &rep = r.report;
    QStringList lines;
    for (qsizetype i = 0; i < rep.files.size(); ++i)
        lines << QStringLiteral("%1 &nbsp; <span style='color:gray'>%2</span>")
                     .arg(displayName(rep.files[i]).toHtmlEscaped(), formatBytes(r.fileSizes.value(i)));
    const QString where = QFileInfo(o.output).absoluteFilePath();
    const QString verified = o.verify ? (rep.verified ? tr("Verified: every tensor was read back and matches its shards.")
                                                      : tr("Not verified."))
                                      : tr("Not verified (verification was not asked for).");
    const QString took = m_runMs < 1000 ? tr("%1 ms").arg(m_runMs)
                         : m_runMs < 120000 ? tr("%1 s").arg(QLocale().toString(double(m_runMs) / 1000.0, 'f', 1))
                                            : tr("%1 min %2 s").arg(m_runMs / 60000).arg(m_runMs / 1000 % 60);
    QString text = tr("<b>%n tensor(s)</b> (%1) written to <tt>%2</tt> in %3:", nullptr, rep.tensors)
                       .arg(formatBytes(rep.bytes), displayName(where).toHtmlEscaped(), took);
    text += QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")) + QStringLiteral("<br><br>") + verified.toHtmlEscaped();
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
    if (!m_plan.checkpoint.adapter.isEmpty())
        code = QStringLiteral("from peft import AutoPeftModelForCausalLM\n\nmodel = AutoPeftModelForCausalLM.from_pretrained(%1)\n")
                   .arg(pythonString(where));
    if (!r.mergedOutput.isEmpty() && r.merged.ok())
        code = QStringLiteral("from transformers import AutoModelForCausalLM\n\nmodel = AutoModelForCausalLM.from_pretrained(%1)\n")
                   .arg(pythonString(QFileInfo(r.mergedOutput).absoluteFilePath()));
    m_snippet->setText(code.trimmed());
}

}  // namespace ingot
