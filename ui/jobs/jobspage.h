// The Jobs page: the history of training jobs on the left, and on the right either the launcher (New job…) or the
// monitor of the selected job. Launching a job shows its monitor; removing one previews what goes first.
#pragma once

#include "services/jobs/jobspec.h"

#include <QDialog>
#include <QPointer>
#include <QWidget>

class QCheckBox;

class QDialogButtonBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace ingot {

class JobListModel;
class JobMonitor;
class JobService;
class RunComparisonDialog;
class SlurmQueueSection;

// The job service of the window: this machine's jobs and those on SSH hosts (RemoteHosts' connections).
JobService *makeJobService(QObject *parent);

// Removing a job: what goes (the job's folder and its size; the outputs only when asked), refused while it runs.
class JobRemoveDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobRemoveDialog)

public:
    JobRemoveDialog(JobService *service, const QString &id, QWidget *parent = nullptr);
    QString jobId() const { return m_id; }
    bool isReady() const { return m_ready; }  // both previews arrived
    QLabel *summary() const { return m_summary; }
    QCheckBox *withOutputsCheck() const { return m_withOutputs; }
    QPushButton *removeButton() const;

Q_SIGNALS:
    void ready();

private:
    QPointer<JobService> m_service;
    QString m_id;
    bool m_ready = false;
    QLabel *m_summary;
    QCheckBox *m_withOutputs;
    QDialogButtonBox *m_buttons;
};

class JobsPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobsPage)

public:
    explicit JobsPage(JobService *service, QWidget *parent = nullptr);
    ~JobsPage() override;

    // Puts the launcher where the placeholder is. Its signals launched(QString) and cleanCacheRequested(QString),
    // when it has them, are connected here (showJob, cleanCacheRequested). Resume / Launch again emit
    // launcherSpecRequested: connect that to the launcher's setSpec.
    void setLauncher(QWidget *launcher);
    QWidget *launcher() const { return m_launcher; }

    QString currentJob() const;
    JobService *service() const { return m_service; }
    JobListModel *model() const { return m_model; }
    QTableView *historyView() const { return m_view; }
    JobMonitor *monitor() const { return m_monitor; }
    SlurmQueueSection *otherSlurmJobs() const { return m_otherSlurmJobs; }
    QStackedWidget *detailStack() const { return m_stack; }
    QPushButton *newJobButton() const { return m_new; }
    QPushButton *removeButton() const { return m_remove; }
    // Compare: enabled with two or more runs selected in the history; opens their comparison.
    QPushButton *compareButton() const { return m_compare; }
    QStringList selectedJobs() const;  // in the history's order
    // What the right side shows when no job is selected: what to do (no history yet) or to pick one.
    QWidget *emptyState() const { return m_empty; }
    QLabel *emptyStateLabel() const { return m_emptyText; }
    QPushButton *emptyStateNewButton() const { return m_emptyNew; }
    bool showsMonitor() const;

public Q_SLOTS:
    void showJob(const QString &id);  // selects it (once listed) and shows its monitor
    void newJob();                    // shows the launcher
    JobRemoveDialog *removeSelected();
    RunComparisonDialog *compareSelected();  // null with fewer than two selected

Q_SIGNALS:
    void consolidateRequested(const QString &outputFolder);
    void showCacheEntry(const QString &root, const QString &key);
    void cleanCacheRequested(const QString &root);
    void launcherSpecRequested(const ingot::JobSpec &spec);  // the launcher is shown: fill it with these settings

private:
    void onSelectionChanged();
    void selectPending();
    QWidget *buildEmptyState();
    void updateEmptyState();

    JobService *m_service;
    JobListModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QPushButton *m_new;
    QPushButton *m_remove;
    QPushButton *m_compare;
    QStackedWidget *m_stack;
    QWidget *m_empty = nullptr;
    QLabel *m_emptyTitle = nullptr;
    QLabel *m_emptyText = nullptr;
    QPushButton *m_emptyNew = nullptr;
    QWidget *m_launcher;  // the placeholder until setLauncher()
    JobMonitor *m_monitor;
    SlurmQueueSection *m_otherSlurmJobs = nullptr;
    QString m_pendingSelect;
};

}  // namespace ingot
