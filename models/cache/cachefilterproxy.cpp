#include "models/cache/cachefilterproxy.h"

#include "services/cache/compilerversion.h"
#include "models/cache/cachetreemodel.h"

#include <QDateTime>

namespace ingot {

CacheFilterProxy::CacheFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setSortRole(CacheTreeModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void CacheFilterProxy::setText(const QString &text)
{
    const QString t = text.trimmed();
    if (t == m_text)
        return;
    m_text = t;
    m_expressions = CacheFilter::looksLikeExpressions(t);
    m_exprError.clear();
    m_exprFilter = CacheFilter();
    if (m_expressions && !CacheFilter::parse(CacheFilter::splitExpressions(t), &m_exprFilter, &m_exprError))
        m_exprFilter = CacheFilter();
    m_nowMs = QDateTime::currentMSecsSinceEpoch();
    invalidateRowsFilter();
}

void CacheFilterProxy::setStateFilter(StateFilter f, ModuleState only)
{
    if (f == m_filter && only == m_only)
        return;
    m_filter = f;
    m_only = only;
    invalidateRowsFilter();
}

bool CacheFilterProxy::filterAcceptsRow(int row, const QModelIndex &parent) const
{
    const QModelIndex idx = sourceModel()->index(row, 0, parent);
    if (idx.data(CacheTreeModel::IsGroupRole).toBool())
        return m_text.isEmpty() && m_filter == StateFilter::All;  // otherwise shown through matching children
    const auto state = ModuleState(idx.data(CacheTreeModel::StateRole).toInt());
    switch (m_filter) {
    case StateFilter::All: break;
    case StateFilter::Only:
        if (state != m_only)
            return false;
        break;
    case StateFilter::Problems:
        if (state == ModuleState::Success && idx.data(CacheTreeModel::WarningCountRole).toInt() == 0)
            return false;
        break;
    }
    if (m_text.isEmpty())
        return true;
    if (m_expressions) {
        if (!m_exprError.isEmpty())
            return true;  // an expression being typed filters nothing until it reads
        const auto *tree = qobject_cast<const CacheTreeModel *>(sourceModel());
        const CacheModule *m = tree ? tree->module(idx) : nullptr;
        return m && m_exprFilter.matches(*m, m_nowMs);
    }
    return idx.data(CacheTreeModel::KeyRole).toString().contains(m_text, Qt::CaseInsensitive);
}

bool CacheFilterProxy::lessThan(const QModelIndex &a, const QModelIndex &b) const
{
    // Compiler versions compare by number (2.9 < 2.15), not as text. (A group row of the tree model has no internal
    // pointer: asked without a QVariant, as this runs about n log n times when 100k rows are sorted.)
    const bool groups = qobject_cast<const CacheTreeModel *>(a.model()) ? !a.internalPointer() && !b.internalPointer()
                                                                         : a.data(CacheTreeModel::IsGroupRole).toBool() &&
                                                                               b.data(CacheTreeModel::IsGroupRole).toBool();
    if (a.column() == CacheTreeModel::NameColumn && groups)
        return compareCompilerFolders(a.data(CacheTreeModel::VersionRole).toString(),
                                      b.data(CacheTreeModel::VersionRole).toString()) < 0;
    // The tree's raw values are text and whole numbers: compared as such, without QVariant's generic comparison.
    const QVariant l = a.data(sortRole()), r = b.data(sortRole());
    if (l.typeId() == r.typeId()) {
        if (l.typeId() == QMetaType::QString && !isSortLocaleAware())
            return QString::compare(l.toString(), r.toString(), sortCaseSensitivity()) < 0;
        if (l.typeId() == QMetaType::LongLong)
            return l.toLongLong() < r.toLongLong();
    }
    return QSortFilterProxyModel::lessThan(a, b);
}

}  // namespace ingot
