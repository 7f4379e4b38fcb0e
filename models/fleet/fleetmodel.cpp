#include "models/fleet/fleetmodel.h"

#include "models/common/tones.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QDateTime>

namespace ingot {

FleetModel::FleetModel(QObject *parent) : QAbstractTableModel(parent), m_now(QDateTime::currentMSecsSinceEpoch()) {}

QString FleetModel::kindText(FleetPlace::Kind kind)
{
    switch (kind) {
    case FleetPlace::Kind::Local: return tr("Folder");
    case FleetPlace::Kind::TorchNeuron: return tr("TorchNeuron");
    case FleetPlace::Kind::Host: return tr("Host");
    case FleetPlace::Kind::S3: return tr("S3");
    case FleetPlace::Kind::Hub: return tr("Hub repo");
    }
    return {};
}

void FleetModel::setPlaces(const QVector<FleetPlace> &places)
{
    QVector<Row> rows;
    rows.reserve(places.size());
    for (const FleetPlace &p : places) {
        const int old = rowOf(p.id);
        Row r = old >= 0 ? m_rows.at(old) : Row();
        if (old < 0 || p.kind != FleetPlace::Kind::Host)
            r.summary.place = p;  // a host keeps its cache as resolved until it is read again
        r.summary.place.origin = p.origin;
        rows << r;
    }
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

void FleetModel::setReading(int row, bool reading)
{
    if (row < 0 || row >= m_rows.size() || m_rows[row].reading == reading)
        return;
    m_rows[row].reading = reading;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void FleetModel::setSummary(int row, const FleetSummary &summary)
{
    if (row < 0 || row >= m_rows.size())
        return;
    m_rows[row].summary = summary;
    m_rows[row].read = true;
    m_rows[row].reading = false;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void FleetModel::setNow(qint64 nowMs)
{
    m_now = nowMs;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, LastUsedColumn), index(int(m_rows.size()) - 1, LastUsedColumn));
}

const FleetSummary *FleetModel::summary(int row) const
{
    return row >= 0 && row < m_rows.size() && m_rows.at(row).read ? &m_rows.at(row).summary : nullptr;
}

int FleetModel::rowOf(const QString &placeId) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).summary.place.id == placeId)
            return i;
    return -1;
}

int FleetModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FleetModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString FleetModel::statusText(const Row &r) const
{
    if (r.reading)
        return tr("reading…");
    if (!r.read)
        return tr("not read yet");
    return displayName(r.summary.statusText());
}

QVariant FleetModel::display(const Row &r, int column) const
{
    const FleetSummary &s = r.summary;
    const bool figures = r.read && s.isRead();
    switch (column) {
    case PlaceColumn: return displayName(s.place.shown());
    case KindColumn: return kindText(s.place.kind);
    case StatusColumn: return statusText(r);
    default: break;
    }
    if (!figures)
        return QString();
    switch (column) {
    case SizeColumn: return formatBytes(s.bytes);
    case EntriesColumn: return formatCount(s.entries);
    case FailedColumn: return formatCount(s.failed);
    case LockedColumn: return formatCount(s.locked);
    case CompilersColumn:  // the newest, and how many more (the tooltip names them all)
        return s.compilers.size() > 1 ? tr("%1 (+%n)", nullptr, int(s.compilers.size()) - 1).arg(displayName(s.compilers.first()))
                                      : displayName(s.compilers.value(0));
    case LastUsedColumn: return s.lastUsedMs > 0 ? formatAge(s.lastUsedMs, m_now) : tr("not known");
    default: return {};
    }
}

QVariant FleetModel::sortKey(const Row &r, int column) const
{
    const FleetSummary &s = r.summary;
    switch (column) {
    case SizeColumn: return s.bytes;
    case EntriesColumn: return s.entries;
    case FailedColumn: return s.failed;
    case LockedColumn: return s.locked;
    case LastUsedColumn: return s.lastUsedMs;
    case KindColumn: return int(s.place.kind);
    default: return display(r, column);
    }
}

QVariant FleetModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(r, index.column());
    case Qt::ToolTipRole:
        if (index.column() == PlaceColumn)
            return tr("%1\nKnown as: %2").arg(displayName(r.summary.place.id), r.summary.place.origin);
        if (index.column() == CompilersColumn && r.read && !r.summary.compilers.isEmpty()) {
            QStringList names;  // each escaped, one a line
            for (const QString &c : r.summary.compilers)
                names << displayName(c);
            return names.join(QLatin1Char('\n'));
        }
        if (index.column() == StatusColumn && r.read)
            return tr("%1\nRead at %2").arg(statusText(r), formatDateTime(r.summary.readAtMs));
        return {};
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn && r.read && !r.reading)
            return toneTextColor(r.summary.isRead() ? Tone::Good : Tone::Bad);
        if (index.column() == FailedColumn && r.read && r.summary.failed > 0)
            return toneTextColor(Tone::Bad);
        if (index.column() == LockedColumn && r.read && r.summary.locked > 0)
            return toneTextColor(Tone::Warning);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() >= SizeColumn && index.column() <= LockedColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case PlaceIdRole:
        return r.summary.place.id;
    case SortRole:
        return sortKey(r, index.column());
    case ReadRole:
        return r.read && r.summary.isRead();
    case ReadingRole:
        return r.reading;
    default:
        return {};
    }
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case PlaceColumn: return tr("Place");
    case KindColumn: return tr("Kind");
    case SizeColumn: return tr("Size");
    case EntriesColumn: return tr("Entries");
    case FailedColumn: return tr("Failed");
    case LockedColumn: return tr("Locked");
    case CompilersColumn: return tr("Compilers");
    case LastUsedColumn: return tr("Last used");
    case StatusColumn: return tr("Status");
    default: return {};
    }
}

}  // namespace ingot
