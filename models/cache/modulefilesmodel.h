// The files of one cache entry, for the details pane.
#pragma once

#include "services/cache/cachetypes.h"

#include <QAbstractTableModel>

namespace ingot {

class ModuleFilesModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModuleFilesModel)

public:
    enum Column { NameColumn, SizeColumn, ModifiedColumn, NoteColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit ModuleFilesModel(QObject *parent = nullptr);

    // linkTargets: file name -> where its symlink points (read by the caller through the store).
    void setModule(const CacheModule &m, const QHash<QString, QString> &linkTargets = {});
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    static QString noteFor(const CacheFile &f, const QString &target);

private:
    QVector<CacheFile> m_files;
    QHash<QString, QString> m_targets;
};

}  // namespace ingot
