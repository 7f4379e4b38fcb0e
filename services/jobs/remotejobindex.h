// The jobs this machine started on remote hosts: one small file per job in the local jobs folder
// (<local jobs>/.remote/<id>.json, the job's record as launched), so `ingot-cli job status ID` and the Jobs page know
// which host to ask, and the jobs of a host that cannot be reached are still listed (as unknown). The folder's name
// is never a job id, so the local history does not take it for a job.
#pragma once

#include "services/jobs/jobfolder.h"

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

}  // namespace ingot
