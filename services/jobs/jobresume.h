// Resuming a job and its lineage: whether a job can be resumed, the settings that resume it from its newest
// checkpoint, and which job a job resumed. The monitor's Resume and "Resumed from …", the history's tooltip and
// ingot-cli's `job resume` and `job status` all ask these.
#pragma once

#include "services/jobs/jobmanager.h"

namespace ingot {

// Why job `job` (its status, its newest checkpoint-N: JobManager::latestCheckpoint) cannot be resumed now; "" when it
// can: it has ended and left a checkpoint, and Ingot launched it (an imported run is read-only).
QString resumeRefusal(const JobRecordFile &job, const JobStatus &status, const QString &checkpoint);
// The same settings as `job`, resuming from `checkpoint` and naming `job` as the one resumed.
JobSpec resumeSpec(const JobRecordFile &job, const QString &checkpoint);

// The id of the job `job` resumed: its spec's resumed_from_job (Resume in the monitor, `job resume`), else the job of
// `history` on the same machine whose output folder holds the checkpoint it resumed from (a resume from the CLI's
// launch or a folder chosen by hand); "" for none.
QString resumedFromJob(const JobRecordFile &job, const QVector<JobSummary> &history);
// The same, asked where `jobs` runs (the history there is listed only when the record does not name the job). Blocking.
QString resumedFromJob(JobManager &jobs, const JobRecordFile &job);

// A resume planned where `jobs` runs: job `id`'s settings from its newest checkpoint, on the same nodes. False with
// why in *error (it runs, it left no checkpoint) or the plan's problems. Blocking.
bool planResume(JobManager &jobs, const QString &id, LaunchPlan *plan, QVector<JobProblem> *problems, QString *error);

}  // namespace ingot
