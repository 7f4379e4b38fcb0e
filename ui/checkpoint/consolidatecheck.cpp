// The consolidation wizard's checkpoint choice and Check page: a checkpoint of LoRA adapters is one choice, its
// adapters planned together and shown as the parts of one plan, each written to its own folder (the rest of the
// wizard is in consolidatewizard.cpp).
#include "ui/checkpoint/consolidatewizard.h"

#include "models/checkpoint/planmodel.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTreeView>

namespace ingot {

QString ConsolidateWizard::choiceText(int candidate) const
{
    const CheckpointCandidate &c = m_found[candidate];
    const QVector<const CheckpointCandidate *> set = consolidationSet(m_found, &c);
    if (set.isEmpty() || set.first() != &c)
        return {};  // listed with the first of its set
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
    return complete ? tr("%1 — tp=%2 pp=%3, %4").arg(title).arg(c.tpSize).arg(c.ppSize).arg(formatBytes(bytes))
                    : tr("%1 — tp=%2 pp=%3, %4 (incomplete)").arg(title).arg(c.tpSize).arg(c.ppSize).arg(formatBytes(bytes));
}

qint64 ConsolidateWizard::plannedBytes() const
{
    qint64 n = 0;
    for (const ConsolidationPlan &p : m_plans)
        n += p.bytes();
    return n;
}

void ConsolidateWizard::check()
{
    const CheckpointCandidate *c = chosen();
    if (!c)
        return;
    m_checked = false;
    m_plan = ConsolidationPlan();
    m_plans.clear();
    m_problems->clear();
    m_problemBox->hide();
    m_planModel->clear();
    m_planFilter->clear();
    QVector<CheckpointCandidate> members;
    qsizetype shards = 0;
    for (const CheckpointCandidate *x : consolidationSet(m_found, c)) {
        members << *x;
        shards += x->shards.size();
    }
    m_checkStatus->setText(tr("Reading %n shard(s)…", nullptr, int(shards)));
    m_checkStatus->show();
    refreshPage(CheckPage);
    m_checking.discard();
    m_checking = runTask(this, [members](TaskControl &) {
        QVector<ConsolidationPlan> plans;
        for (const CheckpointCandidate &m : members)
            plans << planConsolidation(m);
        return plans;
    }, [this](const QVector<ConsolidationPlan> &plans) { showCheck(plans); });
}

void ConsolidateWizard::showCheck(const QVector<ConsolidationPlan> &plans)
{
    if (plans.isEmpty())
        return;
    m_plans = plans;
    m_plan = plans.first();
    const bool several = plans.size() > 1;
    QStringList problems, parts;
    qsizetype entries = 0, shards = 0;
    for (const ConsolidationPlan &p : plans) {
        for (const QString &x : p.problems)
            problems << (several ? tr("Adapter %1: %2").arg(displayName(p.checkpoint.adapter), x) : x);
        const QString sub = adapterOutputSubfolder(p.checkpoint);
        parts << (sub.isEmpty() ? tr("the output folder") : displayName(sub) + QLatin1Char('/'));
        entries += p.entries.size();
        shards += p.checkpoint.shards.size();
    }
    m_plan.problems = problems;  // Next and the run follow every plan's problems
    m_problems->addItems(problems);
    m_problemBox->setTitle(tr("%n problem(s): nothing can be written until they are fixed", nullptr, int(problems.size())));
    m_problemBox->setVisible(!problems.isEmpty());
    m_planModel->setPlans(plans, parts);
    m_planView->setColumnHidden(PlanModel::PartColumn, !several);
    const bool planned = entries > 0;
    m_planView->setVisible(planned);
    m_planFilter->setVisible(planned);
    // The problems take the room the plan leaves; above a plan, a few lines (the list scrolls).
    m_problems->setMaximumHeight(m_problems->fontMetrics().lineSpacing() * (planned ? 6 : 16) + 8);
    // The name as wide as it needs, up to 40% of the view; the merge takes what is left (its tooltip has it whole).
    m_planView->resizeColumnToContents(PlanModel::NameColumn);
    if (several)
        m_planView->resizeColumnToContents(PlanModel::PartColumn);
    QHeaderView *h = m_planView->header();
    h->resizeSection(PlanModel::NameColumn, std::min(h->sectionSize(PlanModel::NameColumn), m_planView->width() * 2 / 5));
    m_checked = true;
    const QString totals = tr("%n output tensor(s), %1 to write, from %2.", nullptr, int(entries))
                               .arg(formatBytes(plannedBytes()), tr("%n shard(s)", nullptr, int(shards)));
    QString adapter;
    if (several)
        adapter = tr("%n LoRA adapter(s), each written as a folder PEFT loads (adapter_model.safetensors and its adapter_config.json): "
                     "the default one in the output folder, the others in a folder of their name below it. ", nullptr, int(plans.size()));
    else if (!m_plan.checkpoint.adapter.isEmpty())
        adapter = tr("LoRA adapter %1: written as a folder PEFT loads (adapter_model.safetensors and its "
                     "adapter_config.json). ").arg(displayName(m_plan.checkpoint.adapter));
    m_checkStatus->setText(planned ? adapter + totals : QString());
    m_checkStatus->setVisible(planned);
    refreshPage(CheckPage);
    Q_EMIT checkFinished(int(problems.size()));
}

}  // namespace ingot
