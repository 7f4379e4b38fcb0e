// The preview of a maintenance action (what goes, why, bytes freed, what stays), then the run itself with
// progress and per-entry results. Nothing is touched until the user presses the delete button.
#pragma once

#include "maintenance.h"

#include <QDialog>

#include <functional>
#include <memory>

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
    using StoreFactory = std::function<std::unique_ptr<CacheStore>()>;
    using PruneReplanner = std::function<MaintenancePlan(int ttlDays, qint64 maxBytes)>;

    MaintenanceDialog(MaintenancePlan plan, StoreFactory storeFactory, QWidget *parent = nullptr);
    ~MaintenanceDialog() override;

    // Prune only: shows the policy in the dialog; the preview is planned again as the numbers change.
    void setPruneReplanner(int ttlDays, qint64 maxBytes, PruneReplanner replan);
    int pruneTtlDays() const;      // -1 when not a prune
    qint64 pruneMaxBytes() const;  // -1 when not a prune

    const MaintenancePlan &plan() const { return m_plan; }
    const MaintenanceReport &report() const { return m_report; }
    bool hasRun() const { return m_ran; }
    QPushButton *confirmButton() const { return m_confirm; }
    QTreeWidget *itemsView() const { return m_items; }

    void reject() override;  // while running: stop after the current entry instead of closing

Q_SIGNALS:
    void executed(const ingot::MaintenanceReport &report);

private:
    void populate();
    void run();
    void showReport();

    MaintenancePlan m_plan;
    StoreFactory m_storeFactory;
    MaintenanceReport m_report;
    bool m_ran = false;
    bool m_running = false;
    std::shared_ptr<std::atomic_bool> m_cancel;
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
    QProgressBar *m_progress;
    QLabel *m_current;
    QDialogButtonBox *m_buttons;
    QPushButton *m_confirm;
};

}  // namespace ingot
