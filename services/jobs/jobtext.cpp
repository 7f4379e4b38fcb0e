#include "services/jobs/jobtext.h"

#include "services/slurm/slurmparse.h"
#include "services/slurm/slurmtypes.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>

namespace ingot {

namespace {

struct JobMonitorText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobMonitor)
};

struct RemoveText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobRemoveDialog)
};

struct NeuronText {
    Q_DECLARE_TR_FUNCTIONS(ingot::NeuronCoresView)
};

}  // namespace

QString jobStallText(const JobStatus &st)
{
    if (st.state != JobState::Stalled)
        return {};
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    QString text = JobMonitorText::tr("No step for %1 (threshold %2), since %3 at step %4")
                       .arg(durationText(std::max(0.0, now - st.stall.lastStepAt)),
                            durationText(st.stall.thresholdSeconds),
                            formatDateTime(qint64(st.stall.lastStepAt * 1000)), formatCount(st.step));
    QStringList ranks;
    for (const StallStatus::RankLog &l : st.stall.lastLogs)
        ranks << JobMonitorText::tr("rank %1 at %2").arg(l.rank).arg(formatDateTime(qint64(l.at * 1000)));
    if (!ranks.isEmpty())
        text += JobMonitorText::tr("; the ranks that logged last: %1").arg(ranks.join(QStringLiteral(", ")));
    return text;
}

QString slurmTimeLimitText(const QString &limit)
{
    const QString t = limit.trimmed();
    const qint64 seconds = slurmDurationSeconds(t.toLatin1());
    if (t.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0 || t.compare(QLatin1String("INFINITE"), Qt::CaseInsensitive) == 0
        || seconds >= 365LL * 86400)
        return JobMonitorText::tr("unlimited");
    return t;
}

QString slurmStatusText(const SchedulerStatus &s)
{
    if (!s.known)
        return JobMonitorText::tr("job %1 (no longer known to the scheduler)").arg(s.jobId);
    QString line = JobMonitorText::tr("job %1, %2 on partition %3").arg(s.jobId, slurmJobStateText(s.state.toUtf8()), s.partition);
    if (!s.reason.isEmpty())
        line += s.position > 0 ? JobMonitorText::tr(" (%1; %2 in the partition's queue)").arg(s.reason).arg(s.position)
                               : JobMonitorText::tr(" (%1)").arg(s.reason);
    if (!s.nodeList.isEmpty())
        line += JobMonitorText::tr(", nodes %1").arg(s.nodeList);
    if (!s.runTime.isEmpty() && s.state != QLatin1String("PENDING"))
        line += JobMonitorText::tr(", %1 of %2").arg(s.runTime, slurmTimeLimitText(s.timeLimit));
    return line;
}

QString slurmPhasesText(const JobStatus &status)
{
    const SchedulerStatus &p = status.precompile;
    if (p.jobId.isEmpty())
        return slurmStatusText(status.slurm);
    QString first = p.batchExitStatus >= 0 ? JobMonitorText::tr("job %1, ended with exit status %2").arg(p.jobId).arg(p.batchExitStatus)
                                            : slurmStatusText(p);
    const QString second = status.slurm.jobId.isEmpty() ? JobMonitorText::tr("not submitted yet") : slurmStatusText(status.slurm);
    return JobMonitorText::tr("precompile %1; training %2").arg(first, second);
}

QString placeName(const QString &where)
{
    return where == QLatin1String("local") ? JobMonitorText::tr("this machine") : where;
}

QString jobPlaceText(const JobRecordFile &record, const JobStatus &status)
{
    if (record.imported())  // a run Ingot did not launch: where its folder is (on this machine)
        return JobMonitorText::tr("imported from %1").arg(displayName(record.importedFrom));
    if (record.spec.slurm.enabled) {
        const SchedulerStatus &s = status.slurm;
        const QString partition = !s.partition.isEmpty() ? s.partition : record.spec.slurm.partition;
        const int nodes = s.nodes > 0 ? s.nodes : record.spec.nnodes;
        const QString id = s.jobId.isEmpty() ? JobMonitorText::tr("(not submitted)") : s.jobId;
        return partition.isEmpty() ? JobMonitorText::tr("Slurm %1 on %2, %n node(s)", nullptr, nodes).arg(id, placeName(record.where))
                                   : JobMonitorText::tr("Slurm %1 on %2, %3, %n node(s)", nullptr, nodes)
                                         .arg(id, placeName(record.where), partition);
    }
    if (record.nodes.size() > 1)
        return record.nodes.join(QStringLiteral(", "));
    return placeName(record.where);
}

QString queueWaitText(const JobRecordFile &record, const JobStatus &status)
{
    if (!record.spec.slurm.enabled)
        return {};
    if (status.slurm.queueWaitSeconds >= 0)
        return durationText(double(status.slurm.queueWaitSeconds));
    if (status.state == JobState::Pending)
        return JobMonitorText::tr("waiting");
    return {};
}

QString durationText(double seconds)
{
    if (!(seconds >= 0))
        return {};
    const qint64 s = qint64(seconds);
    if (s < 60)
        return QCoreApplication::translate("ingot::JobListModel", "%1 s").arg(s);
    if (s < 3600)
        return QCoreApplication::translate("ingot::JobListModel", "%1 min %2 s").arg(s / 60).arg(s % 60);
    return QCoreApplication::translate("ingot::JobListModel", "%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}

QStringList neuronDevicesLines(const QVector<NeuronDevice> &devices)
{
    qint64 cores = 0;
    for (const NeuronDevice &d : devices)
        cores += d.cores;
    QStringList lines{NeuronText::tr("%n Neuron device(s), %1 NeuronCores", nullptr, int(devices.size())).arg(cores)};
    for (const NeuronDevice &d : devices)
        if (!d.processes.isEmpty())
            lines << NeuronText::tr("device %1: %2").arg(d.index).arg(displayName(d.processes.join(QStringLiteral(", "))));
    return lines;
}

QString neuronReportText(const NeuronMonitorReport &r)
{
    QStringList parts;
    if (!r.instanceType.isEmpty())
        parts << displayName(r.instanceType);
    if (r.runtimes == 0) {
        parts << NeuronText::tr("no Neuron runtime of this job yet (NEURON_PROCESS_TAG=its id)");
        return parts.join(QStringLiteral(" · "));
    }
    double sum = 0;
    for (double u : r.utilization)
        sum += u;
    parts << NeuronText::tr("%n core(s) in use, %1 % on average", nullptr, int(r.utilization.size()))
                 .arg(r.utilization.isEmpty() ? 0.0 : sum / double(r.utilization.size()), 0, 'f', 1);
    if (r.deviceBytes >= 0)
        parts << NeuronText::tr("device memory %1").arg(formatBytes(r.deviceBytes));
    if (r.hostBytes >= 0)
        parts << NeuronText::tr("host memory %1").arg(formatBytes(r.hostBytes));
    parts << NeuronText::tr("%1 executions in the last period").arg(r.executions);
    return parts.join(QStringLiteral(" · "));
}

QStringList neuronAlerts(const NeuronMonitorReport &r)
{
    QStringList alerts;
    if (r.executionErrors > 0) {
        QStringList kinds;
        for (auto it = r.errorKinds.cbegin(); it != r.errorKinds.cend(); ++it)
            kinds << QStringLiteral("%1 %2").arg(it.value()).arg(displayName(it.key()));
        alerts << NeuronText::tr("execution errors: %1").arg(kinds.join(QStringLiteral(", ")));
    }
    if (r.eccUncorrected > 0 || r.eccCorrected > 0)
        alerts << NeuronText::tr("ECC events: %1 corrected, %2 uncorrected").arg(r.eccCorrected).arg(r.eccUncorrected);
    for (const QString &e : r.errors)
        alerts << displayName(e);
    return alerts;
}

QString removeJobFolderText(const RemovePreview &preview)
{
    return RemoveText::tr("Removes the job's folder %1 (%2): its settings, logs and metrics.")
        .arg(displayName(preview.jobFolder), formatBytes(preview.jobFolderBytes));
}

}  // namespace ingot
