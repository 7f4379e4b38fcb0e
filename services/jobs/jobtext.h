// A job's place and scheduler state in words a user reads (translated): what the history's columns, the monitor and
// the CLI's tables show, one definition for all of them.
#pragma once

#include "services/jobs/jobfolder.h"
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/neuronmonitor.h"

#include <QString>

namespace ingot {

// A Slurm job's scheduler state in one line: "job 42, PENDING on partition debug (Resources; 1 in the partition's
// queue), nodes n1, 0:12 of 10:00". The CLI's status and the monitor show it.
QString slurmStatusText(const SchedulerStatus &s);
// A Slurm job's scheduler state with its precompile phase when it has one: "precompile job 41, RUNNING …; training
// job 42, PENDING … (Dependency)"; slurmStatusText(status.slurm) otherwise.
QString slurmPhasesText(const JobStatus &status);
// A Slurm time limit as a user reads it: "unlimited" for UNLIMITED, INFINITE, and 365 days or more (what Slurm's
// backfill scheduler sets on a job without a limit in a partition without one, YEAR_MINUTES, until slurmctld
// restarts and says UNLIMITED again: one limit, one word); Slurm's own form otherwise.
QString slurmTimeLimitText(const QString &limit);
// A runner's place: "this machine" for "local", else the host as given.
QString placeName(const QString &where);
// Where a job runs: "this machine", the host, every host of a multi-node job, or for a Slurm job "Slurm 42 on HOST,
// debug, 2 nodes" (HOST: the login node, or "this machine"); an imported run: "imported from FOLDER".
QString jobPlaceText(const JobRecordFile &record, const JobStatus &status);
// How long a Slurm job waited in the queue ("3 min 12 s"), "waiting" while it still does, "" for other jobs or
// when the scheduler never said.
QString queueWaitText(const JobRecordFile &record, const JobStatus &status);
// "1 h 2 min", "3 min 12 s", "12 s": a duration in a table ("" for a negative or NaN one).
QString durationText(double seconds);

// A stalled job in one line (the monitor's banner, `job show`, the notification that it stalled): "No step for 6 min
// 12 s (threshold 5 min), since 10:41:58 at step 40; the ranks that logged last: rank 1 at 10:42:03, rank 0 at
// 10:41:58". Empty unless its state is Stalled.
QString jobStallText(const JobStatus &status);

// NeuronCores as the monitor's tab and `job neuroncores` write them. The devices neuron-ls listed: "2 Neuron devices, 4
// NeuronCores", then each device with processes on it.
QStringList neuronDevicesLines(const QVector<NeuronDevice> &devices);
// One report in a line: "trn1.2xlarge · 4 cores in use, 52.5 % on average · device memory 11.7 GiB · …".
QString neuronReportText(const NeuronMonitorReport &report);
// What needs a look in a report: execution errors by kind, ECC events, what neuron-monitor could not collect.
QStringList neuronAlerts(const NeuronMonitorReport &report);

// What removing a job takes first (its removal preview; the Jobs page's dialog and `job remove` say it): "Removes the
// job's folder DIR (SIZE): its settings, logs and metrics."
QString removeJobFolderText(const RemovePreview &preview);

}  // namespace ingot
