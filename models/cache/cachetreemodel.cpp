#include "models/cache/cachetreemodel.h"

#include "services/cache/compilerversion.h"
#include "services/cache/classify.h"
#include "models/cache/statecolors.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QDateTime>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QThread>

namespace ingot {

struct CacheTreeModel::Group {
    QString version;
    int row = 0;
    QVector<CacheModule> entries;
    QHash<QString, int> rowOf;  // name -> row
    qint64 size = 0;
    qint64 lastUsed = 0;
    int files = 0;
    int modules = 0;
    std::array<int, ModuleStateCount> perState{};
    int warnings = 0;
};

CacheTreeModel::CacheTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_nowMs(QDateTime::currentMSecsSinceEpoch())
{
}

CacheTreeModel::~CacheTreeModel() = default;

QModelIndex CacheTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < int(m_groups.size()) ? createIndex(row, column, nullptr) : QModelIndex();
    if (parent.internalPointer() || parent.row() >= int(m_groups.size()))
        return {};
    Group *g = m_groups[size_t(parent.row())].get();
    return row < g->entries.size() ? createIndex(row, column, g) : QModelIndex();
}

QModelIndex CacheTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || !child.internalPointer())
        return {};
    const auto *g = static_cast<Group *>(child.internalPointer());
    return createIndex(g->row, 0, nullptr);
}

int CacheTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.internalPointer() || parent.column() != 0)
        return 0;
    return int(m_groups[size_t(parent.row())]->entries.size());
}

int CacheTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant CacheTreeModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case StateColumn: return tr("State");
    case SizeColumn: return tr("Size");
    case LastUsedColumn: return tr("Last used");
    case FilesColumn: return tr("Files");
    }
    return {};
}

QString CacheTreeModel::wideGroupStateSample()
{
    return QStringList{tr("%n failed", nullptr, 99), tr("%n locked", nullptr, 9), tr("%n unknown", nullptr, 99)}
        .join(QStringLiteral(", "));
}

QStringList CacheTreeModel::groupProblems(const Group &g)
{
    QStringList parts;
    if (g.perState[int(ModuleState::Failed)])
        parts << tr("%n failed", nullptr, g.perState[int(ModuleState::Failed)]);
    if (g.perState[int(ModuleState::Locked)])
        parts << tr("%n locked", nullptr, g.perState[int(ModuleState::Locked)]);
    const int unknown = int(g.entries.size()) - g.modules;
    if (unknown)
        parts << tr("%n unknown", nullptr, unknown);
    return parts;
}

QVariant CacheTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    if (!index.internalPointer()) {
        const Group *g = m_groups[size_t(index.row())].get();
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case NameColumn: return g->version.isEmpty() ? tr("Other items in the cache root") : displayName(g->version);
            case StateColumn: {
                // What needs attention, else the count: the whole line (the tooltip) does not fit the column.
                const QStringList problems = groupProblems(*g);
                return problems.isEmpty() ? tr("%n entries", nullptr, g->modules) : problems.join(QStringLiteral(", "));
            }
            case SizeColumn: return formatBytes(g->size);
            case LastUsedColumn: return formatAge(g->lastUsed, m_nowMs);
            case FilesColumn: return g->files;
            }
            break;
        case SortRole:
            switch (index.column()) {
            case NameColumn: return g->version;
            case StateColumn: return g->modules;
            case SizeColumn: return g->size;
            case LastUsedColumn: return g->lastUsed;
            case FilesColumn: return g->files;
            }
            break;
        case Qt::FontRole:
            if (index.column() == NameColumn) {
                QFont f;
                f.setBold(true);
                return f;
            }
            break;
        case Qt::ToolTipRole:
            if (index.column() == LastUsedColumn)
                return formatDateTime(g->lastUsed);
            if (index.column() == StateColumn)
                return (QStringList{tr("%n entries", nullptr, g->modules)} + groupProblems(*g)).join(QStringLiteral(", "));
            return g->version.isEmpty() ? tr("Files and folders at the top of the cache that are not compiler-version folders")
                                        : tr("Compiler version %1").arg(CompilerVersion::parse(g->version).display());
        case Qt::TextAlignmentRole:
            if (index.column() == SizeColumn || index.column() == FilesColumn)
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            break;
        case IsGroupRole: return true;
        case StateRole: return -1;
        case KeyRole: return g->version;
        case VersionRole: return g->version;
        case WarningCountRole: return g->warnings;
        }
        return {};
    }
    const auto *g = static_cast<Group *>(index.internalPointer());
    if (index.row() >= g->entries.size())
        return {};
    const CacheModule &m = g->entries[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return displayName(m.name);
        case StateColumn:
            if (m_transferring.contains(m.key()))
                return tr("%1 · in transfer").arg(entryStateLabel(m));
            return entryStateLabel(m);
        case SizeColumn: return m.kind == EntryKind::UnknownDir || m.kind == EntryKind::LinkedDir ? QVariant() : QVariant(formatBytes(m.size));
        case LastUsedColumn: return formatAge(m.lastUsedMs, m_nowMs);
        case FilesColumn: return m.isModule() ? QVariant(m.fileCount()) : QVariant();
        }
        break;
    case SortRole:
        switch (index.column()) {
        case NameColumn: return m.name;
        case StateColumn: return int(m.state);
        case SizeColumn: return m.size;
        case LastUsedColumn: return m.lastUsedMs;
        case FilesColumn: return m.fileCount();
        }
        break;
    case Qt::DecorationRole:
        if (index.column() == StateColumn)
            return stateIcon(m.state);
        break;
    case Qt::ToolTipRole: {
        if (index.column() == LastUsedColumn)
            return formatDateTime(m.lastUsedMs);
        QString why;
        if (m.isModule())
            classifyModule(m.files, CompilerVersion::parse(m.version).writesDoneMarker(), &why);
        QStringList lines;
        if (!why.isEmpty())
            lines << why;
        lines += m.warnings;
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::ForegroundRole:
        if (!m.isModule())
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        if (index.column() == StateColumn && (m.state == ModuleState::Failed || m.state == ModuleState::Locked))
            return stateColor(m.state);
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn || index.column() == FilesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case IsGroupRole: return false;
    case StateRole: return int(m.state);
    case KeyRole: return m.key();
    case VersionRole: return m.version;
    case WarningCountRole: return int(m.warnings.size());
    }
    return {};
}

void CacheTreeModel::clear()
{
    beginResetModel();
    m_groups.clear();
    m_groupByVersion.clear();
    m_scanWarnings.clear();
    m_entryCount = 0;
    endResetModel();
}

void CacheTreeModel::setNow(qint64 nowMs)
{
    m_nowMs = nowMs;
    if (!m_groups.empty())
        Q_EMIT dataChanged(index(0, LastUsedColumn), index(int(m_groups.size()) - 1, LastUsedColumn));
}

void CacheTreeModel::setTransferring(const QSet<QString> &keys)
{
    const QSet<QString> changed = (keys - m_transferring) + (m_transferring - keys);
    m_transferring = keys;
    for (const QString &k : changed)
        if (const QModelIndex i = indexForKey(k); i.isValid())
            Q_EMIT dataChanged(i.siblingAtColumn(StateColumn), i.siblingAtColumn(StateColumn));
}

CacheTreeModel::Group *CacheTreeModel::groupFor(const QString &version, bool create)
{
    if (Group *g = m_groupByVersion.value(version))
        return g;
    if (!create)
        return nullptr;
    const int row = int(m_groups.size());
    beginInsertRows({}, row, row);
    auto g = std::make_unique<Group>();
    g->version = version;
    g->row = row;
    Group *raw = g.get();
    m_groups.push_back(std::move(g));
    m_groupByVersion.insert(version, raw);
    endInsertRows();
    return raw;
}

void CacheTreeModel::refreshGroup(Group *g)
{
    g->size = 0;
    g->lastUsed = 0;
    g->files = 0;
    g->modules = 0;
    g->warnings = 0;
    g->perState.fill(0);
    for (const CacheModule &m : std::as_const(g->entries)) {
        g->size += m.size;
        g->files += m.fileCount();
        g->warnings += int(m.warnings.size());
        if (m.isModule()) {
            ++g->modules;
            ++g->perState[int(m.state)];
            g->lastUsed = std::max(g->lastUsed, m.lastUsedMs);
        }
    }
    Q_EMIT dataChanged(createIndex(g->row, 0, nullptr), createIndex(g->row, ColumnCount - 1, nullptr));
}

void CacheTreeModel::applyDelta(const ScanDelta &delta)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_scanWarnings += delta.warnings;
    QSet<Group *> touched;

    // Updates in place and appends, one insert signal per run of new rows in a group.
    int i = 0;
    const int n = int(delta.upserts.size());
    while (i < n) {
        Group *g = groupFor(delta.upserts[i].version, true);
        touched.insert(g);
        QVector<const CacheModule *> fresh;
        int j = i;
        for (; j < n && delta.upserts[j].version == g->version; ++j) {
            const CacheModule &m = delta.upserts[j];
            const auto it = g->rowOf.constFind(m.name);
            if (it != g->rowOf.cend()) {
                g->entries[*it] = m;
                Q_EMIT dataChanged(createIndex(*it, 0, g), createIndex(*it, ColumnCount - 1, g));
            } else {
                fresh << &m;
            }
        }
        if (!fresh.isEmpty()) {
            const int first = int(g->entries.size());
            beginInsertRows(createIndex(g->row, 0, nullptr), first, first + int(fresh.size()) - 1);
            for (const CacheModule *m : std::as_const(fresh)) {
                g->rowOf.insert(m->name, int(g->entries.size()));
                g->entries.append(*m);
            }
            m_entryCount += int(fresh.size());
            endInsertRows();
        }
        i = j;
    }

    // Removals: per group, highest rows first, one signal per contiguous range, one index rebuild.
    QHash<Group *, QVector<int>> gone;
    for (const QString &key : delta.removed) {
        const int slash = key.indexOf(QLatin1Char('/'));
        Group *g = groupFor(slash < 0 ? QString() : key.left(slash), false);
        if (!g)
            continue;
        const auto it = g->rowOf.constFind(slash < 0 ? key : key.mid(slash + 1));
        if (it != g->rowOf.cend())
            gone[g].append(*it);
    }
    for (auto it = gone.begin(); it != gone.end(); ++it) {
        Group *g = it.key();
        QVector<int> &rows = it.value();
        std::sort(rows.begin(), rows.end(), std::greater<int>());
        int k = 0;
        while (k < rows.size()) {
            int last = rows[k], first = rows[k];
            while (k + 1 < rows.size() && rows[k + 1] == first - 1)
                first = rows[++k];
            ++k;
            beginRemoveRows(createIndex(g->row, 0, nullptr), first, last);
            g->entries.remove(first, last - first + 1);
            m_entryCount -= last - first + 1;
            endRemoveRows();
        }
        g->rowOf.clear();
        for (int r = 0; r < g->entries.size(); ++r)
            g->rowOf.insert(g->entries[r].name, r);
        touched.insert(g);
    }

    // Drop groups that became empty.
    for (int row = int(m_groups.size()) - 1; row >= 0; --row) {
        Group *g = m_groups[size_t(row)].get();
        if (!g->entries.isEmpty() || !touched.contains(g))
            continue;
        touched.remove(g);
        beginRemoveRows({}, row, row);
        m_groupByVersion.remove(g->version);
        m_groups.erase(m_groups.begin() + row);
        for (size_t r = size_t(row); r < m_groups.size(); ++r)
            m_groups[r]->row = int(r);
        endRemoveRows();
    }
    for (Group *g : std::as_const(touched))
        refreshGroup(g);
}

const CacheModule *CacheTreeModel::module(const QModelIndex &index) const
{
    if (!index.isValid() || !index.internalPointer() || index.model() != this)
        return nullptr;
    const auto *g = static_cast<Group *>(index.internalPointer());
    return index.row() < g->entries.size() ? &g->entries[index.row()] : nullptr;
}

QModelIndex CacheTreeModel::indexForKey(const QString &key) const
{
    const int slash = key.indexOf(QLatin1Char('/'));
    if (slash < 0 && !key.isEmpty()) {
        if (Group *vg = m_groupByVersion.value(key))  // a version folder itself
            return createIndex(vg->row, 0, nullptr);
    }
    Group *g = m_groupByVersion.value(slash < 0 ? QString() : key.left(slash));
    if (!g)
        return {};
    const auto it = g->rowOf.constFind(slash < 0 ? key : key.mid(slash + 1));
    return it == g->rowOf.cend() ? QModelIndex() : createIndex(*it, 0, g);
}

QVector<CacheModule> CacheTreeModel::modules() const
{
    QVector<CacheModule> out;
    out.reserve(m_entryCount);
    for (const auto &g : m_groups)
        out += g->entries;
    return out;
}

CacheStats CacheTreeModel::stats(qint64 nowMs) const
{
    CacheStatsBuilder b(nowMs);
    for (const auto &g : m_groups)
        for (const CacheModule &m : std::as_const(g->entries))
            b.add(m);
    return b.finish();
}

}  // namespace ingot
