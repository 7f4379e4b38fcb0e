#include "models/checkpoint/planmodel.h"

#include "services/util/names.h"
#include "services/util/format.h"

namespace ingot {

namespace {
// Names come from files: shown escaped.
QString nameText(const std::string &s)
{
    return displayName(nameFromBytes(QByteArray::fromStdString(s)));
}

qint64 elements(const std::vector<std::int64_t> &shape)
{
    std::int64_t n = 0;
    return checkedNumel(shape, &n) ? n : -1;
}
}  // namespace

PlanModel::PlanModel(QObject *parent) : QAbstractTableModel(parent) {}

void PlanModel::setPlan(const ConsolidationPlan &plan)
{
    setPlans({plan}, {QString()});
}

void PlanModel::setPlans(const QVector<ConsolidationPlan> &plans, const QStringList &parts)
{
    beginResetModel();
    m_entries.clear();
    m_partOf.clear();
    m_parts = parts;
    for (int i = 0; i < plans.size(); ++i) {
        m_entries += plans[i].entries;
        m_partOf += QVector<int>(plans[i].entries.size(), i);
    }
    m_tpSize = plans.isEmpty() ? 1 : std::max(plans.first().checkpoint.tpSize, 1);
    m_ppSize = plans.isEmpty() ? 1 : std::max(plans.first().checkpoint.ppSize, 1);
    endResetModel();
}

void PlanModel::clear()
{
    beginResetModel();
    m_entries.clear();
    m_partOf.clear();
    m_parts.clear();
    endResetModel();
}

const ConsolidatePlanEntry *PlanModel::entry(int row) const
{
    return row >= 0 && row < m_entries.size() ? &m_entries[row] : nullptr;
}

QString PlanModel::ranksText(const SourceRanks &r, int ppSize)
{
    const QString tp = r.firstTp == r.lastTp ? QString::number(r.firstTp)
                                             : tr("%1–%2", "a range of ranks").arg(r.firstTp).arg(r.lastTp);
    return ppSize > 1 ? tr("%1 (pp %2)", "tp ranks, then the pipeline stage").arg(tp).arg(r.pp) : tp;
}

int PlanModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int PlanModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanModel::data(const QModelIndex &index, int role) const
{
    const ConsolidatePlanEntry *e = entry(index.row());
    if (!e || index.column() < 0 || index.column() >= ColumnCount)
        return {};
    if (role == MergeKindRole)
        return int(mergeKind(*e, m_tpSize));
    if (role == Qt::TextAlignmentRole && index.column() == SizeColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == NameColumn && e->source != e->name)
        return tr("From %1 in the shards").arg(nameText(e->source));
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    const SourceRanks ranks = sourceRanks(*e, m_tpSize);
    switch (Column(index.column())) {
    case NameColumn:
        return nameText(e->name);
    case ShapeColumn:
        return role == SortRole ? QVariant(elements(e->shape)) : QVariant(shapeText(e->shape));
    case DTypeColumn:
        return QString::fromLatin1(safetensorsName(e->dtype));
    case MergeColumn:
        return mergeText(*e, m_tpSize);
    case RanksColumn:
        return role == SortRole ? QVariant(qint64(ranks.pp) * kMaxRanks + ranks.lastTp) : QVariant(ranksText(ranks, m_ppSize));
    case SizeColumn:
        return role == SortRole ? QVariant(e->bytes) : QVariant(formatBytes(e->bytes));
    case PartColumn:
        return role == SortRole ? QVariant(m_partOf.value(index.row())) : QVariant(m_parts.value(m_partOf.value(index.row())));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant PlanModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case NameColumn:
        return tr("Output tensor");
    case ShapeColumn:
        return tr("Shape");
    case DTypeColumn:
        return tr("Dtype");
    case MergeColumn:
        return tr("Merge");
    case RanksColumn:
        return tr("tp ranks");
    case SizeColumn:
        return tr("Size");
    case PartColumn:
        return tr("Written to");
    case ColumnCount:
        break;
    }
    return {};
}

}  // namespace ingot
