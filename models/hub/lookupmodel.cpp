#include "models/hub/lookupmodel.h"

#include "services/util/names.h"

#include <QTextDocument>

namespace ingot {

LookupModel::LookupModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void LookupModel::setEntries(const QVector<LookupEntry> &entries)
{
    beginResetModel();
    m_entries = entries;
    endResetModel();
}

int LookupModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int LookupModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LookupModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const LookupEntry &e = m_entries[index.row()];
    auto num = [](int v) { return v < 0 ? QVariant() : QVariant(v); };
    if (!e.known && (role == Qt::DisplayRole || role == SortRole)) {
        // An entry of a shape Ingot does not know: listed, with its raw JSON on demand.
        if (index.column() == InstanceColumn)
            return tr("(unknown shape)");
        if (index.column() == CompilerColumn)
            return displayName(e.path.section(QLatin1Char('/'), -1));
        return role == SortRole && index.column() <= TensorParallelColumn ? QVariant(-1) : QVariant();
    }
    // The registry's values are the server's text: shown escaped (and copied so, a row per line).
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case BatchColumn: return num(e.batchSize);
        case SequenceColumn: return num(e.sequenceLength);
        case TensorParallelColumn: return num(e.tensorParallel);
        case DtypeColumn: return displayName(e.dtype);
        case InstanceColumn: return displayName(e.instanceType);
        case CompilerColumn: return displayName(e.compilerVersion);
        case RevisionColumn: return displayName(role == Qt::DisplayRole ? e.checkpointRevision.left(12) : e.checkpointRevision);
        }
    }
    if (role == Qt::ToolTipRole)
        return Qt::convertFromPlainText(tr("%1\nregistry layout: %2").arg(displayName(e.path), e.registryLayout), Qt::WhiteSpaceNormal);
    if (role == RawRole)
        return QString::fromUtf8(e.raw);
    if (role == PathRole)
        return e.path;
    if (role == Qt::TextAlignmentRole && index.column() <= TensorParallelColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant LookupModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case BatchColumn: return tr("batch size");
    case SequenceColumn: return tr("sequence length");
    case TensorParallelColumn: return tr("tensor parallel");
    case DtypeColumn: return tr("dtype");
    case InstanceColumn: return tr("instance type");
    case CompilerColumn: return tr("compiler version");
    case RevisionColumn: return tr("checkpoint revision");
    }
    return {};
}

QString LookupModel::rowsAsText(const QList<int> &rows) const
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < ColumnCount; ++c)
        header << headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells << index(r, c).data(SortRole).toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ingot
