// Sorting and filtering for the cache tree: text (entry or version name) or filter expressions (CacheFilter, the rule
// `cache list --filter` uses: "size>1GB used>30d"), state, and "problems only".
#pragma once

#include "services/cache/cachefilter.h"
#include "services/cache/cachetypes.h"

#include <QSortFilterProxyModel>

namespace ingot {

class CacheFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CacheFilterProxy)

public:
    enum class StateFilter { All, Problems, Only };

    explicit CacheFilterProxy(QObject *parent = nullptr);

    // Words to look for in entries' names, or filter expressions when the text starts like one (CacheFilter::
    // looksLikeExpressions); expressions that do not parse filter nothing and expressionError() says why.
    void setText(const QString &text);
    QString text() const { return m_text; }
    bool hasExpressions() const { return m_expressions; }
    const CacheFilter &expressionFilter() const { return m_exprFilter; }
    QString expressionError() const { return m_exprError; }
    // All states; "problems" (failed, locked, incomplete, empty, unknown, or with warnings); or one state.
    void setStateFilter(StateFilter f, ModuleState only = ModuleState::Success);
    StateFilter stateFilter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override;
    bool lessThan(const QModelIndex &a, const QModelIndex &b) const override;

private:
    QString m_text;
    bool m_expressions = false;
    CacheFilter m_exprFilter;
    QString m_exprError;
    qint64 m_nowMs = 0;  // when the expressions were set: "used>30d" is measured from then
    StateFilter m_filter = StateFilter::All;
    ModuleState m_only = ModuleState::Success;
};

}  // namespace ingot
