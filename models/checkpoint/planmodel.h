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
    // PartColumn: which part of the output a tensor belongs to, when a plan has several (each LoRA adapter of a
    // checkpoint is written as a folder of its own).
    enum Column { NameColumn, ShapeColumn, DTypeColumn, MergeColumn, RanksColumn, SizeColumn, PartColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,  // numbers sort as numbers (sizes, element counts, first rank)
        MergeKindRole,                // int(MergeKind)
    };

    explicit PlanModel(QObject *parent = nullptr);

    void setPlan(const ConsolidationPlan &plan);
    // Several plans written together (a checkpoint's adapters), each a part named by `parts` (as many).
    void setPlans(const QVector<ConsolidationPlan> &plans, const QStringList &parts);
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
    QVector<int> m_partOf;  // per row, its index in m_parts
    QStringList m_parts;
    int m_tpSize = 1;
    int m_ppSize = 1;
};

}  // namespace ingot
