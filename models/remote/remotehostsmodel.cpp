#include "models/remote/remotehostsmodel.h"

#include "services/util/names.h"

#include "models/common/tones.h"

#include <QColor>
#include <QPainter>
#include <QPixmap>

namespace ingot {

QString remoteStateText(const RemoteHostStatus &status)
{
    using State = RemoteHostStatus::State;
    switch (status.state) {
    case State::NotConnected:
        return RemoteHostsModel::tr("not connected");
    case State::Connecting:
        return RemoteHostsModel::tr("connecting…");
    case State::Connected:
        return RemoteHostsModel::tr("connected");
    case State::Failed:
        return status.reason.isEmpty() ? RemoteHostsModel::tr("failed")
                                       : RemoteHostsModel::tr("failed: %1").arg(status.reason);
    case State::Lost:
        if (status.retryInSeconds > 0)
            return RemoteHostsModel::tr("connection lost, retrying in %n s", nullptr, status.retryInSeconds);
        if (status.retryInSeconds == 0)
            return RemoteHostsModel::tr("connection lost, retrying now…");
        return RemoteHostsModel::tr("connection lost");
    }
    return {};
}

QColor remoteStateColor(RemoteHostStatus::State state)
{
    using State = RemoteHostStatus::State;
    switch (state) {
    case State::NotConnected: return toneFillColor(Tone::Neutral);
    case State::Connecting: return toneFillColor(Tone::Info);
    case State::Connected: return toneFillColor(Tone::Good);
    case State::Failed: return toneFillColor(Tone::Bad);
    case State::Lost: return toneFillColor(Tone::Warning);
    }
    return toneFillColor(Tone::Neutral);
}

QIcon remoteStateIcon(RemoteHostStatus::State state)
{
    static QIcon cache[5];
    QIcon &icon = cache[int(state)];
    if (icon.isNull()) {
        QPixmap pm(32, 32);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        const QColor c = remoteStateColor(state);
        if (state == RemoteHostStatus::State::NotConnected || state == RemoteHostStatus::State::Connecting) {
            // A ring: nothing is up (yet).
            p.setPen(QPen(c, 4));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(QRectF(8, 8, 16, 16));
        } else {
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawEllipse(QRectF(6, 6, 20, 20));
        }
        icon = QIcon(pm);
    }
    return icon;
}

RemoteHostsModel::RemoteHostsModel(QObject *parent) : QAbstractTableModel(parent) {}

void RemoteHostsModel::setHosts(const QVector<RemoteHostEntry> &hosts)
{
    beginResetModel();
    QVector<Row> rows;
    rows.reserve(hosts.size());
    for (const RemoteHostEntry &e : hosts)
        rows.push_back(Row{e, status(e.name)});
    m_rows = std::move(rows);
    endResetModel();
}

void RemoteHostsModel::setStatus(const QString &host, const RemoteHostStatus &status)
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].entry.name != host)
            continue;
        if (m_rows[i].status == status)
            return;
        m_rows[i].status = status;
        Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
        return;
    }
}

RemoteHostStatus RemoteHostsModel::status(const QString &host) const
{
    for (const Row &r : m_rows)
        if (r.entry.name == host)
            return r.status;
    return {};
}

const RemoteHostEntry *RemoteHostsModel::entry(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row].entry : nullptr;
}

QModelIndex RemoteHostsModel::indexOf(const QString &host) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].entry.name == host)
            return index(i, 0);
    return {};
}

QStringList RemoteHostsModel::hostNames() const
{
    QStringList names;
    for (const Row &r : m_rows)
        names << r.entry.name;
    return names;
}

int RemoteHostsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RemoteHostsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RemoteHostsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case HostColumn: return displayName(r.entry.name);
        case SourceColumn: return r.entry.fromSshConfig ? tr("ssh config") : tr("added in Ingot");
        case StateColumn: return remoteStateText(r.status);
        }
        break;
    case Qt::DecorationRole:
        if (index.column() == HostColumn)
            return remoteStateIcon(r.status.state);
        break;
    case Qt::ToolTipRole:
        if (index.column() == StateColumn || index.column() == HostColumn) {
            const QString where = r.entry.fromSshConfig ? tr("a Host of your ssh config") : tr("added in Ingot");
            QString tip = tr("%1 (%2): %3").arg(displayName(r.entry.name), where, remoteStateText(r.status));
            if (!r.status.detail.isEmpty())
                tip += QStringLiteral("\n\n") + r.status.detail;
            return tip;
        }
        break;
    case HostTextRole: return r.entry.name;
    case StateRole: return int(r.status.state);
    case ReasonRole: return r.status.reason;
    case FromSshConfigRole: return r.entry.fromSshConfig;
    case RetryRole: return r.status.retryInSeconds;
    case DetailRole: return r.status.detail;
    }
    return {};
}

QVariant RemoteHostsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case HostColumn: return tr("Host");
    case SourceColumn: return tr("From");
    case StateColumn: return tr("State");
    }
    return {};
}

}  // namespace ingot
