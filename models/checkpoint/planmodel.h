// The consolidation plan as a table: each output tensor, its shape and dtype, how its pieces are merged and from
// which ranks (the words are the plan's own: mergeText(), sourceRanks()). A thin adapter over a ConsolidationPlan.
#pragma once

#include "services/checkpoint/plan.h"

#include <QAbstractTableModel>

namespace ingot {

class PlanModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanModel)

public:
    enum Column { NameColumn, ShapeColumn, DTypeColumn, MergeColumn, RanksColumn, SizeColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,  // numbers sort as numbers (sizes, element counts, first rank)
        MergeKindRole,                // int(MergeKind)
    };

    explicit PlanModel(QObject *parent = nullptr);

    void setPlan(const ConsolidationPlan &plan);
    void clear();
    const ConsolidatePlanEntry *entry(int row) const;

    // "0–7", or "0–7 (pp 1)" when the checkpoint has pipeline stages.
    static QString ranksText(const SourceRanks &r, int ppSize);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVector<ConsolidatePlanEntry> m_entries;
    int m_tpSize = 1;
    int m_ppSize = 1;
};

}  // namespace ingot
