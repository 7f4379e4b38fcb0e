#include "services/jobs/remotejobindex.h"

#include "services/util/atomicfile.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>

#include <algorithm>

namespace ingot {

RemoteJobIndex::RemoteJobIndex(QString jobsRoot) : m_root(std::move(jobsRoot)) {}

QString RemoteJobIndex::folder() const
{
    return m_root + QStringLiteral("/.remote");
}

bool RemoteJobIndex::add(const JobRecordFile &record, QString *error)
{
    if (!isJobId(record.id) || record.where == QLatin1String("local")) {
        *error = QCoreApplication::translate("ingot::RemoteJobIndex", "Not a remote job: %1").arg(displayName(record.id));
        return false;
    }
    if (!QDir().mkpath(folder())) {
        *error = QCoreApplication::translate("ingot::RemoteJobIndex", "Cannot create %1.").arg(displayName(folder()));
        return false;
    }
    return writeFileAtomically(folder() + QLatin1Char('/') + record.id + QStringLiteral(".json"), record.toJson(), error,
                               true);
}

bool RemoteJobIndex::remove(const QString &id)
{
    return isJobId(id) && QFile::remove(folder() + QLatin1Char('/') + id + QStringLiteral(".json"));
}

bool RemoteJobIndex::find(const QString &id, JobRecordFile *out) const
{
    if (!isJobId(id))
        return false;
    QFile f(folder() + QLatin1Char('/') + id + QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    QString error;
    JobRecordFile r;
    if (!JobRecordFile::fromJson(f.read(4 << 20), &r, &error) || r.id != id || r.where == QLatin1String("local"))
        return false;
    *out = r;
    return true;
}

QVector<JobRecordFile> RemoteJobIndex::all(QStringList *warnings) const
{
    QVector<JobRecordFile> out;
    const QStringList files = QDir(folder()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name | QDir::Reversed);
    for (const QString &f : files) {
        JobRecordFile r;
        if (find(f.chopped(5), &r))
            out << r;
        else if (warnings)
            *warnings << QCoreApplication::translate("ingot::RemoteJobIndex", "%1 is not a remote job's record.")
                             .arg(displayName(folder() + QLatin1Char('/') + f));
    }
    return out;
}

QStringList RemoteJobIndex::hosts() const
{
    QStringList hosts;
    for (const JobRecordFile &r : all())
        if (!hosts.contains(r.where))
            hosts << r.where;
    std::sort(hosts.begin(), hosts.end());
    return hosts;
}

bool launchRecorded(JobManager &jobs, const LaunchPlan &plan, bool remote, RemoteJobIndex index, QString *error)
{
    JobRecordFile indexed = plan.record;
    indexed.createdMs = QDateTime::currentMSecsSinceEpoch();  // as JobManager::launch records it
    if (remote && !index.add(indexed, error))
        return false;
    if (jobs.launch(plan, error))
        return true;
    if (remote)
        index.remove(plan.record.id);
    return false;
}

bool removeRecorded(JobManager &jobs, const QString &id, bool withOutputs, bool remote, RemoteJobIndex index,
                    QString *error)
{
    if (!jobs.remove(id, withOutputs, error))
        return false;
    if (remote)
        index.remove(id);
    return true;
}

}  // namespace ingot
