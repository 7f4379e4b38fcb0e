// The jobs' history as a table: one row per job folder, newest first, with the live status of followed jobs.
// Rows are merged by job id when the history is read again, so a selection survives refreshes.
#pragma once

#include "models/common/tones.h"
#include "services/jobs/jobmanager.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QIcon>
#include <QPointer>

namespace ingot {

class JobService;

Tone jobStateTone(JobState s);
QColor jobStateColor(JobState s);  // text, for the application's palette (light or dark)
QIcon jobStateIcon(JobState s);

class JobListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobListModel)

public:
    // Where: this machine, the host(s), or the Slurm job (id, login node, partition, nodes). Queued: how long a
    // Slurm job waited for its nodes. Duration: a Slurm job's run time as Slurm counts it, else since its launch.
    // FinalLoss: the final loss of an ended job, the latest of a running one (headed "Loss").
    enum Column { Name, Where, Model, Layout, State, Started, Queued, Duration, FinalLoss, OutputFolder, ColumnCount };
    enum Role { JobIdRole = Qt::UserRole + 1, StateRole, SortRole };

    explicit JobListModel(JobService *service, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QString jobId(int row) const;
    int rowOf(const QString &id) const;  // -1: not in the history
    JobStatus status(int row) const;     // live when followed, else the history's

    // Reads the service's history now (also done on historyChanged).
    void reload();

private:
    void onJobUpdated(const QString &id);
    QString resumedFromName(const JobSummary &s) const;  // the job it resumed: its name, or its id once removed

    QPointer<JobService> m_service;
    QVector<JobSummary> m_rows;
};

}  // namespace ingot
