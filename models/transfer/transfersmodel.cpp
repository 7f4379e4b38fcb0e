#include "models/transfer/transfersmodel.h"

#include "models/cache/statecolors.h"
#include "services/util/names.h"
#include "services/util/format.h"

namespace ingot {

namespace {
QString duration(qint64 seconds)
{
    if (seconds < 0)
        return QString();
    if (seconds < 60)
        return TransfersModel::tr("%n s", nullptr, int(seconds));
    if (seconds < 3600)
        return TransfersModel::tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    return TransfersModel::tr("%1 h %2 min").arg(seconds / 3600).arg((seconds % 3600) / 60);
}

double fraction(const TransferRecord &r)
{
    const qint64 total = r.estimatedBytesTotal();
    if (r.finished() && r.count(TransferItem::State::Failed) == 0 && !r.cancelled && r.error.isEmpty())
        return 1.0;
    if (total <= 0)
        return -1;
    return qBound(0.0, double(r.bytesDone()) / double(total), 1.0);
}

QString itemStateText(TransferItem::State s)
{
    switch (s) {
    case TransferItem::State::Pending: return TransferItemsModel::tr("waiting");
    case TransferItem::State::Running: return TransferItemsModel::tr("moving");
    case TransferItem::State::Done: return TransferItemsModel::tr("done");
    case TransferItem::State::Skipped: return TransferItemsModel::tr("skipped");
    case TransferItem::State::Failed: return TransferItemsModel::tr("failed");
    }
    return QString();
}
}  // namespace

QString transferSummary(const TransferRecord &r)
{
    const int n = int(r.items.size());
    const QString from = displayName(r.from.display());
    const QString to = displayName(r.to.display());
    switch (r.kind) {
    case TransferKind::Pull: return TransfersModel::tr("Pull %n entries from %1 to %2", nullptr, n).arg(from, to);
    case TransferKind::Push: return TransfersModel::tr("Push %n entries from %1 to %2", nullptr, n).arg(from, to);
    case TransferKind::Copy: return TransfersModel::tr("Copy %n entries from %1 to %2", nullptr, n).arg(from, to);
    }
    return QString();
}

QString transferStateText(const TransferQueue &queue, const TransferRecord &r)
{
    switch (transferStatus(r, queue.isRunning(r.id))) {
    case TransferStatus::Failed: return TransfersModel::tr("Failed: %1").arg(r.error);
    case TransferStatus::Cancelled: return TransfersModel::tr("Cancelled");
    case TransferStatus::Running: return TransfersModel::tr("Running");
    case TransferStatus::Paused: return TransfersModel::tr("Paused");
    case TransferStatus::Queued: return TransfersModel::tr("Queued");
    case TransferStatus::SomeFailed:
        return TransfersModel::tr("%n failed", nullptr, r.count(TransferItem::State::Failed));
    case TransferStatus::Done: break;
    }
    return TransfersModel::tr("Done");
}

TransfersModel::TransfersModel(TransferQueue *queue, QObject *parent) : QAbstractTableModel(parent), m_queue(queue)
{
    connect(queue, &TransferQueue::added, this, &TransfersModel::reload);
    connect(queue, &TransferQueue::removed, this, &TransfersModel::reload);
    connect(queue, &TransferQueue::changed, this, &TransfersModel::rowChanged);
    reload();
}

void TransfersModel::reload()
{
    beginResetModel();
    m_ids.clear();
    if (m_queue) {
        const QVector<TransferRecord> records = m_queue->records();
        for (auto it = records.crbegin(); it != records.crend(); ++it)
            m_ids.append(it->id);
    }
    endResetModel();
}

void TransfersModel::rowChanged(const QString &id)
{
    const int row = m_ids.indexOf(id);
    if (row >= 0)
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int TransfersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ids.size());
}

int TransfersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString TransfersModel::idAt(int row) const
{
    return m_ids.value(row);
}

int TransfersModel::rowOf(const QString &id) const
{
    return int(m_ids.indexOf(id));
}

QVariant TransfersModel::data(const QModelIndex &index, int role) const
{
    if (!m_queue || !index.isValid() || index.row() >= m_ids.size())
        return {};
    const TransferRecord *r = m_queue->record(m_ids[index.row()]);
    if (!r)
        return {};
    const bool running = m_queue->isRunning(r->id);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case WhatColumn: return transferSummary(*r);
        case ProgressColumn: {
            const int done = r->count(TransferItem::State::Done) + r->count(TransferItem::State::Skipped);
            const qint64 total = r->estimatedBytesTotal();
            const bool estimate = total != r->bytesTotal();
            const int n = int(r->items.size());
            return total > 0 ? (estimate ? tr("%1 of about %2 · %3/%n entries", nullptr, n) : tr("%1 of %2 · %3/%n entries", nullptr, n))
                                   .arg(formatBytes(r->bytesDone()), formatBytes(total))
                                   .arg(done)
                             : tr("%1/%n entries", nullptr, n).arg(done);
        }
        case SpeedColumn: return running && m_queue->rate(r->id) > 0 ? tr("%1/s").arg(formatBytes(qint64(m_queue->rate(r->id)))) : QVariant();
        case EtaColumn: return running ? duration(m_queue->secondsLeft(r->id)) : QString();
        case StateColumn: return transferStateText(*m_queue, *r);
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == StateColumn && !r->error.isEmpty())
            return r->error;
        if (index.column() == WhatColumn)
            return transferSummary(*r);
        break;
    case Qt::DecorationRole:
        if (index.column() == StateColumn) {
            if (!r->error.isEmpty() || r->count(TransferItem::State::Failed) > 0)
                return stateIcon(ModuleState::Failed);
            if (r->finished() && !r->cancelled)
                return stateIcon(ModuleState::Success);
            if (running)
                return stateIcon(ModuleState::Locked);
        }
        break;
    case IdRole: return r->id;
    case FractionRole: return fraction(*r);
    case SortRole: return r->createdMs;
    }
    return {};
}

QVariant TransfersModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhatColumn: return tr("Transfer");
    case ProgressColumn: return tr("Progress");
    case SpeedColumn: return tr("Speed");
    case EtaColumn: return tr("Time left");
    case StateColumn: return tr("State");
    }
    return {};
}

TransferItemsModel::TransferItemsModel(TransferQueue *queue, QObject *parent)
    : QAbstractTableModel(parent), m_queue(queue)
{
    connect(queue, &TransferQueue::changed, this, &TransferItemsModel::refresh);
    connect(queue, &TransferQueue::removed, this, [this](const QString &id) {
        if (id == m_id)
            setTransfer(QString());
    });
}

void TransferItemsModel::setTransfer(const QString &id)
{
    beginResetModel();
    m_id = id;
    const TransferRecord *r = m_queue ? m_queue->record(id) : nullptr;
    m_items = r ? r->items : QVector<TransferItem>();
    endResetModel();
}

void TransferItemsModel::refresh(const QString &id)
{
    if (id != m_id || !m_queue)
        return;
    const TransferRecord *r = m_queue->record(id);
    if (!r || r->items.size() != m_items.size()) {
        setTransfer(id);
        return;
    }
    m_items = r->items;
    if (!m_items.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_items.size()) - 1, ColumnCount - 1));
}

int TransferItemsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int TransferItemsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TransferItemsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_items.size())
        return {};
    const TransferItem &i = m_items[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case EntryColumn: return displayName(i.key);
        case StateColumn: return itemStateText(i.state);
        case BytesColumn:
            if (i.bytesTotal < 0)
                return i.bytesDone > 0 ? formatBytes(i.bytesDone) : QString();
            return i.state == TransferItem::State::Running
                       ? tr("%1 of %2").arg(formatBytes(i.bytesDone), formatBytes(i.bytesTotal))
                       : formatBytes(i.bytesTotal);
        case MessageColumn: return displayName(i.message);
        }
        break;
    case Qt::ToolTipRole:
        if (!i.message.isEmpty())
            return displayName(i.message);
        break;
    case Qt::DecorationRole:
        if (index.column() == StateColumn)
            switch (i.state) {
            case TransferItem::State::Done: return stateIcon(ModuleState::Success);
            case TransferItem::State::Failed: return stateIcon(ModuleState::Failed);
            case TransferItem::State::Running: return stateIcon(ModuleState::Locked);
            case TransferItem::State::Skipped: return stateIcon(ModuleState::Empty);
            case TransferItem::State::Pending: return stateIcon(ModuleState::Unknown);
            }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == BytesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case StateRole: return int(i.state);
    case SortRole:
        switch (index.column()) {
        case BytesColumn: return i.bytesTotal;
        case StateColumn: return int(i.state);
        default: return data(index, Qt::DisplayRole);
        }
    }
    return {};
}

QVariant TransferItemsModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case EntryColumn: return tr("Entry");
    case StateColumn: return tr("State");
    case BytesColumn: return tr("Size");
    case MessageColumn: return tr("Details");
    }
    return {};
}

}  // namespace ingot
