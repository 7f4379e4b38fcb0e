// Sorting and filtering for the cache tree: text (entry or version name), state, and "problems only".
#pragma once

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

    void setText(const QString &text);
    QString text() const { return m_text; }
    // All states; "problems" (failed, locked, incomplete, empty, unknown, or with warnings); or one state.
    void setStateFilter(StateFilter f, ModuleState only = ModuleState::Success);
    StateFilter stateFilter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override;
    bool lessThan(const QModelIndex &a, const QModelIndex &b) const override;

private:
    QString m_text;
    StateFilter m_filter = StateFilter::All;
    ModuleState m_only = ModuleState::Success;
};

}  // namespace ingot
