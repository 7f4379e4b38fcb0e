// Lookup results as a table: batch size, sequence length, tensor parallel, dtype, instance type, compiler,
// revision; the raw entry is there on demand (RawRole) and rows copy as tab-separated text.
#pragma once

#include "services/hub/registry.h"

#include <QAbstractTableModel>

namespace ingot {

class LookupModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LookupModel)

public:
    enum Column { BatchColumn, SequenceColumn, TensorParallelColumn, DtypeColumn, InstanceColumn, CompilerColumn,
                  RevisionColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, RawRole, PathRole };

    explicit LookupModel(QObject *parent = nullptr);
    void setEntries(const QVector<LookupEntry> &entries);
    const QVector<LookupEntry> &entries() const { return m_entries; }
    // The rows as tab-separated text with a header line (what Ctrl+C copies).
    QString rowsAsText(const QList<int> &rows) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    QVector<LookupEntry> m_entries;
};

}  // namespace ingot
