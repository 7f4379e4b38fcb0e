// The jobs this machine started on remote hosts: one small file per job in the local jobs folder
// (<local jobs>/.remote/<id>.json, the job's record as launched), so `ingot-cli job status ID` and the Jobs page know
// which host to ask, and the jobs of a host that cannot be reached are still listed (as unknown). The folder's name
// is never a job id, so the local history does not take it for a job.
#pragma once

#include "services/jobs/jobfolder.h"
#include "services/jobs/jobmanager.h"

#include <QVector>

namespace ingot {

class RemoteJobIndex final
{
public:
    explicit RemoteJobIndex(QString jobsRoot = localJobsRoot());
    QString folder() const;

    // Records a job launched on a host (written whole: temp + rename).
    bool add(const JobRecordFile &record, QString *error);
    bool remove(const QString &id);
    bool find(const QString &id, JobRecordFile *out) const;
    // Every recorded job, newest first; files that do not parse are skipped (and named in *warnings).
    QVector<JobRecordFile> all(QStringList *warnings = nullptr) const;
    // The hosts that have recorded jobs (node 0's), sorted.
    QStringList hosts() const;

private:
    QString m_root;
};

// Launches `plan` through `jobs`. A job on a host (`remote`) is recorded in `index` first, so it is listed even when
// the host goes away right after, and forgotten again when it does not start. Blocking (the Jobs page through
// JobService, ingot-cli's `job resume`).
bool launchRecorded(JobManager &jobs, const LaunchPlan &plan, bool remote, RemoteJobIndex index, QString *error);
// Removes job `id` through `jobs` (JobManager::remove: never a running one) and, for a job on a host, its record in
// `index`. Blocking (JobService, ingot-cli's `job remove`).
bool removeRecorded(JobManager &jobs, const QString &id, bool withOutputs, bool remote, RemoteJobIndex index,
                    QString *error);

}  // namespace ingot
