// The transfer queue as tables: one row per transfer (what, progress, speed, time left, state) and the entries of
// one transfer (state, bytes, why it failed). Thin adapters: they read the queue and follow its signals.
#pragma once

#include "services/transfer/transferqueue.h"

#include <QAbstractTableModel>
#include <QPointer>

namespace ingot {

// "Running", "Queued", "Paused", "Done", "3 failed", "Cancelled", "Failed: <why>" for a transfer.
QString transferStateText(const TransferQueue &queue, const TransferRecord &r);
// "Pull 3 entries from hub:org/cache to /var/tmp/neuron-compile-cache"
QString transferSummary(const TransferRecord &r);

class TransfersModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TransfersModel)

public:
    enum Column { WhatColumn, ProgressColumn, SpeedColumn, EtaColumn, StateColumn, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1, FractionRole /* 0..1, -1 unknown */, SortRole };

    explicit TransfersModel(TransferQueue *queue, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    QString idAt(int row) const;
    int rowOf(const QString &id) const;

private:
    void reload();
    void rowChanged(const QString &id);

    QPointer<TransferQueue> m_queue;
    QStringList m_ids;  // newest first
};

class TransferItemsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TransferItemsModel)

public:
    enum Column { EntryColumn, StateColumn, BytesColumn, MessageColumn, ColumnCount };
    enum Role { StateRole = Qt::UserRole + 1, SortRole };

    explicit TransferItemsModel(TransferQueue *queue, QObject *parent = nullptr);

    void setTransfer(const QString &id);
    QString transfer() const { return m_id; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    void refresh(const QString &id);

    QPointer<TransferQueue> m_queue;
    QString m_id;
    QVector<TransferItem> m_items;
};

}  // namespace ingot
