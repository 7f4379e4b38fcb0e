// The preview of a maintenance action (what goes, why, bytes freed, what stays), then the run itself with
// progress and per-entry results. Nothing is touched until the user presses the delete button.
#pragma once

#include "services/cache/maintenance.h"
#include "services/stores/storelocation.h"
#include "services/util/task.h"

#include <QDialog>

#include <functional>
#include <memory>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace ingot {

class CacheStore;

class MaintenanceDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MaintenanceDialog)

public:
    using PruneReplanner = std::function<MaintenancePlan(int ttlDays, qint64 maxBytes)>;
    // Plans whose last input needs I/O (clear locks: the running compilers) are made off the UI thread.
    using AsyncPlanner = std::function<MaintenancePlan(CacheStore &store)>;
    // Clear locks by age: the plan for locks older than olderThanMs (0: no age given).
    using LockAgePlanner = std::function<MaintenancePlan(CacheStore &store, qint64 olderThanMs)>;

    // The plan runs on a store of `location`, made by the StoreFactory on the worker thread.
    MaintenanceDialog(MaintenancePlan plan, StoreLocation location, QWidget *parent = nullptr);
    ~MaintenanceDialog() override;

    // Prune only: shows the policy in the dialog; the preview is planned again as the numbers change.
    void setPruneReplanner(int ttlDays, qint64 maxBytes, PruneReplanner replan);
    // Shows the preview as "checking…" (nothing can be confirmed) until `planner` has run on a store off the UI
    // thread; then shows its plan.
    void planAsync(const QString &checking, AsyncPlanner planner);
    bool isPlanning() const { return m_planning.isRunning(); }
    // Clear locks where whether a compile holds them cannot be seen (an S3 cache): an age to set (none at first:
    // nothing is planned), the rule said beside it; the preview is planned again, off the UI thread, as it changes.
    void offerLockAge(LockAgePlanner planner);
    qint64 lockAgeMs() const;  // 0: none set (or not offered)
    QSpinBox *lockAgeBox() const { return m_age; }
    QComboBox *lockAgeUnit() const { return m_ageUnit; }
    QLabel *lockAgeRule() const { return m_ageRule; }
    int pruneTtlDays() const;      // -1 when not a prune
    qint64 pruneMaxBytes() const;  // -1 when not a prune

    const MaintenancePlan &plan() const { return m_plan; }
    const MaintenanceReport &report() const { return m_report; }
    bool hasRun() const { return m_ran; }
    QPushButton *confirmButton() const { return m_confirm; }
    QTreeWidget *itemsView() const { return m_items; }
    QTreeWidget *keptView() const { return m_kept; }
    QLabel *summaryLabel() const { return m_summary; }

    void reject() override;  // while running: stop after the current entry instead of closing

Q_SIGNALS:
    void executed(const ingot::MaintenanceReport &report);

private:
    void setPlan(MaintenancePlan plan);
    void populate();
    QString summaryText() const;
    void run();
    void showReport();

    MaintenancePlan m_plan;
    StoreLocation m_location;
    MaintenanceReport m_report;
    bool m_ran = false;
    bool m_running = false;
    bool m_itemsFitted = false;  // the columns were sized to a plan's contents
    bool m_keptFitted = false;
    Task m_planning;
    Task m_execution;
    QLabel *m_summary;
    QLabel *m_refusal;
    QTreeWidget *m_items;
    QTreeWidget *m_kept;
    QLabel *m_notes;
    QLabel *m_keptLabel = nullptr;
    QWidget *m_policyRow = nullptr;
    QSpinBox *m_ttl = nullptr;
    QDoubleSpinBox *m_limit = nullptr;
    PruneReplanner m_replan;
    QSpinBox *m_age = nullptr;
    QComboBox *m_ageUnit = nullptr;
    QLabel *m_ageRule = nullptr;
    QProgressBar *m_progress;
    QLabel *m_current;
    QDialogButtonBox *m_buttons;
    QPushButton *m_confirm;
};

}  // namespace ingot
