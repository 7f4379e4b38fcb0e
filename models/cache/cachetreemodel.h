// The cache as a tree: compiler version -> entries. Filled progressively from scan deltas.
#pragma once

#include "services/cache/cachescanner.h"
#include "services/cache/cachestats.h"

#include <QAbstractItemModel>
#include <QSet>
#include <QStringList>

#include <memory>
#include <vector>

namespace ingot {

class CacheTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheTreeModel)

public:
    // A wide compiler-row State text ("99 failed, 9 locked, 99 unknown"), to size the column for it.
    static QString wideGroupStateSample();
    enum Column { NameColumn, StateColumn, SizeColumn, LastUsedColumn, FilesColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,  // raw value for sorting (numbers, times)
        StateRole,                    // int(ModuleState); -1 for groups
        KeyRole,                      // "version/name"
        IsGroupRole,
        VersionRole,
        WarningCountRole,
    };

    explicit CacheTreeModel(QObject *parent = nullptr);
    ~CacheTreeModel() override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    void clear();
    void applyDelta(const ScanDelta &delta);

    const CacheModule *module(const QModelIndex &index) const;  // nullptr for group rows
    QModelIndex indexForKey(const QString &key) const;
    int entryCount() const { return m_entryCount; }
    QVector<CacheModule> modules() const;  // every entry (shared, cheap copies)
    CacheStats stats(qint64 nowMs) const;
    QVector<ScanWarning> scanWarnings() const { return m_scanWarnings; }
    void setNow(qint64 nowMs);
    // Keys of entries on their way in or out (the transfer queue's): their state reads "… · in transfer".
    void setTransferring(const QSet<QString> &keys);
    bool isTransferring(const QString &key) const { return m_transferring.contains(key); }  // "last used" is shown relative to this (tests pin it)

private:
    struct Group;
    Group *groupFor(const QString &version, bool create);
    // A compiler row's failed, locked and unknown counts, in words (empty when all is well).
    static QStringList groupProblems(const Group &g);
    void refreshGroup(Group *g);

    std::vector<std::unique_ptr<Group>> m_groups;
    QHash<QString, Group *> m_groupByVersion;
    QVector<ScanWarning> m_scanWarnings;
    int m_entryCount = 0;
    qint64 m_nowMs = 0;
    QSet<QString> m_transferring;
};

}  // namespace ingot
