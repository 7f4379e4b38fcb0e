#include "services/jobs/jobresume.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>

namespace ingot {

namespace {
struct ResumeText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobResume)
};
}  // namespace

QString resumeRefusal(const JobRecordFile &job, const JobStatus &status, const QString &checkpoint)
{
    if (job.imported())
        return ResumeText::tr("Job %1 is a run Ingot did not launch (imported from its folder): it is read-only here, "
                              "Ingot knows no settings to resume it with.").arg(job.id);
    if (!isFinal(status.state))
        return ResumeText::tr("Job %1 has not ended: it can be resumed once it has.").arg(job.id);
    if (checkpoint.isEmpty())
        return ResumeText::tr("No checkpoint-N in the output folder to resume from");
    return {};
}

JobSpec resumeSpec(const JobRecordFile &job, const QString &checkpoint)
{
    JobSpec spec = job.spec;
    spec.resumeFrom = checkpoint;
    spec.resumedFromJob = job.id;
    return spec;
}

QString resumedFromJob(const JobRecordFile &job, const QVector<JobSummary> &history)
{
    if (!job.spec.resumedFromJob.isEmpty() || job.spec.resumeFrom.isEmpty())
        return job.spec.resumedFromJob;
    const QString folder = QDir::cleanPath(job.spec.resumeFrom + QStringLiteral("/.."));
    for (const JobSummary &s : history)
        if (s.record.id != job.id && s.record.where == job.where && !s.record.outputDir.isEmpty()
            && QDir::cleanPath(s.record.outputDir) == folder)
            return s.record.id;
    return {};
}

QString resumedFromJob(JobManager &jobs, const JobRecordFile &job)
{
    if (!job.spec.resumedFromJob.isEmpty() || job.spec.resumeFrom.isEmpty())
        return job.spec.resumedFromJob;
    return resumedFromJob(job, jobs.list());
}

bool planResume(JobManager &jobs, const QString &id, LaunchPlan *plan, QVector<JobProblem> *problems, QString *error)
{
    const JobSummary s = jobs.summary(id, false, error);
    if (!error->isEmpty())
        return false;
    const QString checkpoint = isFinal(s.status.state) ? jobs.latestCheckpoint(s.record) : QString();
    *error = resumeRefusal(s.record, s.status, checkpoint);
    if (!error->isEmpty())
        return false;
    // A multi-node job again on its hosts, this runner's first (as it was launched).
    const QStringList nodes = s.record.nodes.size() > 1 ? s.record.nodes : QStringList();
    return jobs.plan(resumeSpec(s.record, checkpoint), plan, problems, error, nodes);
}

}  // namespace ingot
