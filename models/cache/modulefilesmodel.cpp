#include "models/cache/modulefilesmodel.h"

#include "services/util/names.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QPalette>

namespace ingot {

ModuleFilesModel::ModuleFilesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ModuleFilesModel::setModule(const CacheModule &m, const QHash<QString, QString> &linkTargets)
{
    beginResetModel();
    m_files = m.files;
    m_targets = linkTargets;
    endResetModel();
}

void ModuleFilesModel::clear()
{
    beginResetModel();
    m_files.clear();
    m_targets.clear();
    endResetModel();
}

int ModuleFilesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_files.size());
}

int ModuleFilesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ModuleFilesModel::noteFor(const CacheFile &f, const QString &target)
{
    QStringList notes;
    if (f.is(CacheFile::Symlink)) {
        if (f.is(CacheFile::Broken))
            notes << tr("broken link");
        else if (f.is(CacheFile::HubBlob))
            notes << tr("link into the Hugging Face hub cache (not counted)");
        else if (f.is(CacheFile::OutsideRoot))
            notes << tr("link outside the cache root (not counted, never followed)");
        else
            notes << tr("link inside the cache (not counted twice)");
        if (!target.isEmpty())
            notes << QStringLiteral("→ ") + target;
    }
    if (f.is(CacheFile::Directory))
        notes << tr("sub-folder, not scanned");
    if (f.is(CacheFile::Special))
        notes << tr("not a regular file");
    if (f.is(CacheFile::Unexpected) && !f.is(CacheFile::Directory))
        notes << tr("not written by the compiler");
    if (f.allocated > 0 && f.allocated < f.size / 2 && !f.is(CacheFile::Symlink))
        notes << tr("sparse: %1 on disk").arg(formatBytes(f.allocated));
    return notes.join(QStringLiteral(" "));
}

QVariant ModuleFilesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_files.size())
        return {};
    const CacheFile &f = m_files[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return displayName(f.name);
        case SizeColumn: return f.is(CacheFile::Directory) ? QVariant() : QVariant(formatBytes(f.size));
        case ModifiedColumn: return formatDateTime(f.mtimeMs);
        case NoteColumn: return noteFor(f, m_targets.value(f.name));
        }
        break;
    case SortRole:
        switch (index.column()) {
        case NameColumn: return displayName(f.name);
        case SizeColumn: return f.size;
        case ModifiedColumn: return f.mtimeMs;
        case NoteColumn: return noteFor(f, m_targets.value(f.name));
        }
        break;
    case Qt::ToolTipRole:
        return m_targets.value(f.name);
    case Qt::ForegroundRole:
        if (f.is(CacheFile::Broken))
            return QColor(0xd6, 0x3a, 0x3a);
        if (f.is(CacheFile::Symlink))
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    }
    return {};
}

QVariant ModuleFilesModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("File");
    case SizeColumn: return tr("Size");
    case ModifiedColumn: return tr("Modified");
    case NoteColumn: return tr("Note");
    }
    return {};
}

}  // namespace ingot
