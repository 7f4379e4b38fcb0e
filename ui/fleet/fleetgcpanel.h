// The Fleet page's policy actions (issue 39, "Policies" and "On a schedule"): the chosen policy previewed on every
// place Ingot knows at once (services/fleet/fleetgc.h: what each place frees, what stays and why, the total), then
// applied with progress and its report, the run appended to the gc log; and "Run this policy every day", the policy's
// systemd user timer (services/fleet/gcschedule.h; where no user manager answers, the units are written and the cron
// line is said). Every call runs off the UI thread (runTask).
#pragma once

#include "services/fleet/fleetgc.h"
#include "services/util/task.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace ingot {

class FleetGcPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetGcPanel)

public:
    // `policyName` says which saved policy is chosen now (the page's chooser).
    explicit FleetGcPanel(std::function<QString()> policyName, QWidget *parent = nullptr);
    ~FleetGcPanel() override;

    QPushButton *previewButton() const { return m_previewButton; }
    QPushButton *applyButton() const { return m_applyButton; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    QCheckBox *dailyBox() const { return m_daily; }
    QTreeWidget *planView() const { return m_plan; }
    QLabel *totalLabel() const { return m_total; }
    QLabel *scheduleLabel() const { return m_scheduleText; }
    QProgressBar *progressBar() const { return m_progress; }
    bool isBusy() const { return m_task.isRunning(); }
    const FleetGcPreview &preview() const { return m_preview; }
    // The places previewed (tests name them; default: every place Ingot knows).
    void setPlaces(std::function<QVector<FleetPlace>()> places) { m_places = std::move(places); }
    void setOptions(const FleetGcOptions &options) { m_options = options; }

public Q_SLOTS:
    void previewPolicy();
    void applyPreview();
    void cancel();
    // The chosen policy changed: its preview is dropped, its schedule read again.
    void policyChanged();

Q_SIGNALS:
    void statusChanged(const QString &text, bool busy);
    void previewed();
    void applied(const ingot::GcRun &run);  // appended to the gc log when it could be
    void scheduleChanged();                 // the daily box's state is known (read, installed or removed)

protected:
    void showEvent(QShowEvent *e) override;

private:
    void showPreview();
    void showReport(const GcRun &run, const QVector<MaintenanceReport> &reports);
    void setDaily(bool on);
    void readSchedule();
    void updateButtons();

    std::function<QString()> m_policyName;
    std::function<QVector<FleetPlace>()> m_places;
    FleetGcOptions m_options;
    FleetGcPreview m_preview;
    Task m_task;
    Task m_scheduleTask;
    bool m_shown = false;  // the schedule is asked of systemd only once the panel is seen
    QPushButton *m_previewButton;
    QPushButton *m_applyButton;
    QPushButton *m_cancelButton;
    QCheckBox *m_daily;
    QLabel *m_scheduleText;
    QProgressBar *m_progress;
    QTreeWidget *m_plan;
    QLabel *m_total;
};

}  // namespace ingot
