// Choose the compiler versions to keep before "Remove other compiler versions" previews what goes.
#pragma once

#include "services/cache/cachestats.h"

#include <QDialog>

class QListWidget;

namespace ingot {

class VersionPickerDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VersionPickerDialog)

public:
    // versions: newest first. kept: previously kept versions (default: the newest one).
    VersionPickerDialog(const QVector<VersionStats> &versions, const QStringList &kept, QWidget *parent = nullptr);
    QStringList keptVersions() const;
    QListWidget *list() const { return m_list; }

private:
    QListWidget *m_list;
};

}  // namespace ingot
