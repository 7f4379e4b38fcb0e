// The consolidation wizard's Check step: the request planned off the UI thread (every shard of every member of the
// chosen checkpoint read and compared), its plan shown as one table (a part per adapter of a checkpoint's adapters),
// and above it the problems, if any, which block the way on.
#pragma once

#include "services/checkpoint/consolidationrequest.h"
#include "services/util/task.h"

#include <QCoreApplication>
#include <QWizardPage>

#include <functional>

class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSortFilterProxyModel;
class QTreeView;

namespace ingot {

class PlanModel;

class ConsolidatePlanPage final : public QWizardPage
{
    Q_DECLARE_TR_FUNCTIONS(ingot::ConsolidateWizard)  // the wizard's words, one context for translators
    Q_DISABLE_COPY_MOVE(ConsolidatePlanPage)

public:
    explicit ConsolidatePlanPage(ConsolidationRequest &request, QWidget *parent = nullptr);
    ~ConsolidatePlanPage() override;

    void initializePage() override { check(); }
    // Plans the request's choice (off the UI thread); checkFinished is called with the number of problems.
    void check();
    // The choice changed: a plan under way or made no longer holds.
    void forget();
    bool isChecked() const { return m_checked; }
    bool isComplete() const override;
    bool validatePage() override { return isComplete(); }

    std::function<void(int problems)> checkFinished;

    QListWidget *problemList() const { return m_problems; }
    QGroupBox *problemBox() const { return m_problemBox; }
    QTreeView *planView() const { return m_planView; }
    PlanModel *planModel() const { return m_planModel; }
    QLineEdit *planFilter() const { return m_planFilter; }
    QLabel *statusLabel() const { return m_status; }

private:
    void showCheck(const QVector<ConsolidationPlan> &plans);
    void refresh() { Q_EMIT completeChanged(); }

    ConsolidationRequest &m_request;
    bool m_checked = false;
    Task m_checking;
    QListWidget *m_problems = nullptr;
    QGroupBox *m_problemBox = nullptr;
    QLabel *m_status = nullptr;
    QLineEdit *m_planFilter = nullptr;
    QTreeView *m_planView = nullptr;
    PlanModel *m_planModel = nullptr;
    QSortFilterProxyModel *m_planProxy = nullptr;
};

}  // namespace ingot
