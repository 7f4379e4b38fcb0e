// The Jobs page's "Other jobs in your Slurm queue": the jobs the user submitted outside Ingot (sbatch by hand,
// another tool) on the clusters Ingot's jobs ran on, read-only, so the page is the user's whole queue. Each can show
// the end of its output file. Asked when the history changes, on Refresh and every 30 s while shown; hidden while
// the history has no Slurm job.
#pragma once

#include "services/jobs/jobmanager.h"
#include "services/util/task.h"

#include <QGroupBox>

class QLabel;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace ingot {

class JobFileDialog;
class JobService;

class SlurmQueueSection final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SlurmQueueSection)

public:
    enum Column { Job, Name, Cluster, State, Nodes, Time, Output, ColumnCount };

    explicit SlurmQueueSection(JobService *service, QWidget *parent = nullptr);
    ~SlurmQueueSection() override;

    QTreeWidget *list() const { return m_list; }
    QPushButton *outputButton() const { return m_output; }
    QLabel *statusLabel() const { return m_status; }
    const QVector<OtherSlurmJob> &jobs() const { return m_jobs; }
    bool hasClusters() const { return m_clusters > 0; }
    bool hasSlurmHistory() const;  // the history has a Slurm job (its clusters are asked)
    JobFileDialog *showOutput();  // of the selected job; nullptr when none is selected

public Q_SLOTS:
    void refresh();

Q_SIGNALS:
    void refreshed();

private:
    void showJobs(const QVector<OtherSlurmJob> &jobs, int clusters, const QStringList &errors);

    JobService *m_service;
    QTreeWidget *m_list;
    QLabel *m_status;
    QPushButton *m_output;
    QPushButton *m_refresh;
    QTimer *m_timer;
    QVector<OtherSlurmJob> m_jobs;
    int m_clusters = -1;  // -1: not asked yet
    bool m_askAgain = false;  // asked while a question ran: ask once more when it is answered
    Task m_task;
};

}  // namespace ingot
