// The "Remote hosts" list: each host Ingot knows (the ssh config's Host names, then the ones added in Ingot) with
// where it comes from and the state of its connection, as the page last learned it. A thin adapter: the page hands
// it the hosts (RemoteHosts::hosts(), read off the UI thread) and every state change; it never runs ssh itself.
#pragma once

#include "services/remote/remotehosts.h"

#include <QAbstractTableModel>
#include <QIcon>

namespace ingot {

// What the page knows of a host's connection.
struct RemoteHostStatus {
    enum class State { NotConnected, Connecting, Connected, Failed, Lost };
    State state = State::NotConnected;
    QString reason;           // Failed, Lost: why, in a few words (escaped for display)
    QString detail;           // Failed, Lost: what happened and what to do, in sentences (escaped for display)
    int retryInSeconds = -1;  // Lost: seconds until the next attempt; 0: trying now; -1: none planned

    bool operator==(const RemoteHostStatus &o) const
    {
        return state == o.state && reason == o.reason && detail == o.detail && retryInSeconds == o.retryInSeconds;
    }
};

// Words and icons for a state, for lists, labels and the status bar.
QString remoteStateText(const RemoteHostStatus &status);  // "connected", "failed: …", "connection lost, retrying in 4 s"
QIcon remoteStateIcon(RemoteHostStatus::State state);
QColor remoteStateColor(RemoteHostStatus::State state);

class RemoteHostsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteHostsModel)

public:
    enum Column { HostColumn, SourceColumn, StateColumn, ColumnCount };
    enum Role {
        HostTextRole = Qt::UserRole + 1,  // the name as listed (what RemoteHosts::connection() takes)
        StateRole,                        // int(RemoteHostStatus::State)
        ReasonRole,
        FromSshConfigRole,
        RetryRole,
        DetailRole,
    };

    explicit RemoteHostsModel(QObject *parent = nullptr);

    // The hosts to list, in order; a host listed before keeps its status.
    void setHosts(const QVector<RemoteHostEntry> &hosts);
    void setStatus(const QString &host, const RemoteHostStatus &status);
    RemoteHostStatus status(const QString &host) const;

    int hostCount() const { return int(m_rows.size()); }
    const RemoteHostEntry *entry(int row) const;
    QModelIndex indexOf(const QString &host) const;
    QStringList hostNames() const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        RemoteHostEntry entry;
        RemoteHostStatus status;
    };
    QVector<Row> m_rows;
};

}  // namespace ingot
