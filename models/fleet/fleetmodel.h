// The Fleet page's table: each place Ingot knows (services/fleet/fleetplaces.h) with its summary as last read
// (services/fleet/fleetsummary.h), or "reading…" while a read of it runs. A thin adapter: the page hands it the places
// and each summary as it arrives; it reads nothing itself.
#pragma once

#include "services/fleet/fleetsummary.h"

#include <QAbstractTableModel>

namespace ingot {

class FleetModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetModel)

public:
    enum Column { PlaceColumn, KindColumn, SizeColumn, EntriesColumn, FailedColumn, LockedColumn, CompilersColumn,
                  LastUsedColumn, StatusColumn, ColumnCount };
    enum Role {
        PlaceIdRole = Qt::UserRole + 1,  // FleetPlace::id
        SortRole,                        // numbers as numbers, times as times
        ReadRole,                        // bool: read whole the last time
        ReadingRole,                     // bool: a read runs now
    };

    explicit FleetModel(QObject *parent = nullptr);

    // The places to list, in order; a place listed before keeps its last summary until a new one arrives.
    void setPlaces(const QVector<FleetPlace> &places);
    void setReading(int row, bool reading);
    // The summary of the place at `row` (its place, a host's with its cache resolved, replaces the row's).
    void setSummary(int row, const FleetSummary &summary);
    void setNow(qint64 nowMs);  // "last used" is written as an age from it

    int placeCount() const { return int(m_rows.size()); }
    const FleetPlace &place(int row) const { return m_rows.at(row).summary.place; }
    // The last summary of `row`; nullptr when it was never read.
    const FleetSummary *summary(int row) const;
    bool isReading(int row) const { return m_rows.at(row).reading; }
    int rowOf(const QString &placeId) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString kindText(FleetPlace::Kind kind);

private:
    struct Row {
        FleetSummary summary;  // its place always set; the figures once `read`
        bool read = false;     // a summary arrived
        bool reading = false;
    };
    QVariant display(const Row &r, int column) const;
    QVariant sortKey(const Row &r, int column) const;
    QString statusText(const Row &r) const;
    QVector<Row> m_rows;
    qint64 m_now = 0;
};

}  // namespace ingot
