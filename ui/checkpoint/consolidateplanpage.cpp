#include "ui/checkpoint/consolidateplanpage.h"

#include "models/checkpoint/planmodel.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace ingot {

ConsolidatePlanPage::ConsolidatePlanPage(ConsolidationRequest &request, QWidget *parent)
    : QWizardPage(parent)
    , m_request(request)
{
    setTitle(tr("Check the checkpoint"));
    setSubTitle(tr("Every shard is read and compared before anything is written. Below: every tensor the "
                   "output will hold, and how it is put together from the ranks' pieces."));
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_problemBox = new QGroupBox(this);
    m_problems = new QListWidget(m_problemBox);
    m_problems->setWordWrap(true);
    m_problems->setTextElideMode(Qt::ElideNone);
    m_problems->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_problems->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    auto *pl = new QVBoxLayout(m_problemBox);
    pl->addWidget(m_problems);
    m_problemBox->hide();
    m_planFilter = new QLineEdit(this);
    m_planFilter->setPlaceholderText(tr("Filter tensors (name, dtype, merge…)"));
    m_planFilter->setClearButtonEnabled(true);
    m_planModel = new PlanModel(this);
    m_planProxy = new QSortFilterProxyModel(this);
    m_planProxy->setSourceModel(m_planModel);
    m_planProxy->setSortRole(PlanModel::SortRole);
    m_planProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_planProxy->setFilterKeyColumn(-1);
    connect(m_planFilter, &QLineEdit::textChanged, m_planProxy, &QSortFilterProxyModel::setFilterFixedString);
    m_planView = new QTreeView(this);
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
    auto *kl = new QVBoxLayout(this);
    kl->addWidget(m_problemBox);
    kl->addWidget(m_planFilter);
    kl->addWidget(m_planView, 1);
    kl->addWidget(m_status);
    kl->addStretch(0);  // takes the room when there is no plan to show
}

ConsolidatePlanPage::~ConsolidatePlanPage() = default;

bool ConsolidatePlanPage::isComplete() const
{
    return m_checked && m_request.isPlanned() && m_request.planProblems().isEmpty();
}

void ConsolidatePlanPage::forget()
{
    m_checking.discard();
    m_checked = false;
}

void ConsolidatePlanPage::check()
{
    if (!m_request.checkpoint())
        return;
    m_checked = false;
    m_problems->clear();
    m_problemBox->hide();
    m_planModel->clear();
    m_planFilter->clear();
    qsizetype shards = 0;
    for (const CheckpointCandidate *x : m_request.members())
        shards += x->shards.size();
    m_status->setText(tr("Reading %n shard(s)…", nullptr, int(shards)));
    m_status->show();
    refresh();
    m_checking.discard();
    m_checking = runTask(this, [request = m_request](TaskControl &) { return request.makePlans(); },
                         [this](const QVector<ConsolidationPlan> &plans) { showCheck(plans); });
}

void ConsolidatePlanPage::showCheck(const QVector<ConsolidationPlan> &plans)
{
    if (plans.isEmpty())
        return;
    m_request.setPlans(plans);
    const bool several = plans.size() > 1;
    const QStringList problems = m_request.planProblems();
    QStringList parts;
    qsizetype entries = 0, shards = 0;
    for (const ConsolidationPlan &p : plans) {
        const QString sub = adapterOutputSubfolder(p.checkpoint);
        parts << (sub.isEmpty() ? tr("the output folder") : displayName(sub) + QLatin1Char('/'));
        entries += p.entries.size();
        shards += p.checkpoint.shards.size();
    }
    m_problems->addItems(problems);
    m_problemBox->setTitle(tr("%n problem(s): nothing can be written until they are fixed", nullptr, int(problems.size())));
    m_problemBox->setVisible(!problems.isEmpty());
    // A DCP checkpoint's optimizer state: listed as what it writes when asked for on the next page.
    QVector<ConsolidationPlan> shown = plans;
    const bool optimizer = !several && !plans.first().optimizerEntries.isEmpty();
    if (optimizer) {
        ConsolidationPlan o = plans.first();
        o.entries = o.optimizerEntries;
        shown << o;
        parts << tr("optimizer.safetensors (if asked for)");
    }
    m_planModel->setPlans(shown, parts);
    m_planView->setColumnHidden(PlanModel::PartColumn, !several && !optimizer);
    const bool planned = entries > 0;
    m_planView->setVisible(planned);
    m_planFilter->setVisible(planned);
    // The problems take the room the plan leaves; above a plan, a few lines (the list scrolls).
    m_problems->setMaximumHeight(m_problems->fontMetrics().lineSpacing() * (planned ? 6 : 16) + 8);
    // The name as wide as it needs, up to 40% of the view; the merge takes what is left (its tooltip has it whole).
    m_planView->resizeColumnToContents(PlanModel::NameColumn);
    if (several || optimizer)
        m_planView->resizeColumnToContents(PlanModel::PartColumn);
    QHeaderView *h = m_planView->header();
    h->resizeSection(PlanModel::NameColumn, std::min(h->sectionSize(PlanModel::NameColumn), m_planView->width() * 2 / 5));
    m_checked = true;
    qint64 bytes = 0;
    for (const ConsolidationPlan &p : plans)
        bytes += p.bytes();
    const QString totals = tr("%n output tensor(s), %1 to write, from %2.", nullptr, int(entries))
                               .arg(formatBytes(bytes), tr("%n shard(s)", nullptr, int(shards)));
    QString adapter;
    if (several)
        adapter = tr("%n LoRA adapter(s), each written as a folder PEFT loads (adapter_model.safetensors and its adapter_config.json): "
                     "the default one in the output folder, the others in a folder of their name below it. ", nullptr, int(plans.size()));
    else if (!plans.first().checkpoint.adapter.isEmpty())
        adapter = tr("LoRA adapter %1: written as a folder PEFT loads (adapter_model.safetensors and its "
                     "adapter_config.json). ").arg(displayName(plans.first().checkpoint.adapter));
    const QString optimizerText = optimizer ? QLatin1Char(' ') + tr("It also holds the optimizer state: %n tensor(s) (%1), written on request "
                                                                   "(next page).", nullptr, int(plans.first().optimizerEntries.size()))
                                                                    .arg(formatBytes(plans.first().optimizerBytes()))
                                            : QString();
    m_status->setText(planned ? adapter + totals + optimizerText : QString());
    m_status->setVisible(planned);
    refresh();
    if (checkFinished)
        checkFinished(int(problems.size()));
}

}  // namespace ingot
