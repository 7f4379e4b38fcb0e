#include "services/jobs/neuronmonitor.h"

#include "services/jobs/jobfolder.h"
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobrunner.h"
#include "services/util/remoteshell.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ingot {

namespace {
struct NeuronMonitorText {
    Q_DECLARE_TR_FUNCTIONS(ingot::NeuronMonitor)
};

qint64 count(const QJsonValue &v)
{
    const double d = v.toDouble(0);
    return d > 0 && d < 9e18 ? qint64(d) : 0;
}

void groupError(const QJsonObject &group, const QString &name, NeuronMonitorReport *r)
{
    const QString e = group.value(QLatin1String("error")).toString();
    if (!e.isEmpty() && r->errors.size() < 32)
        r->errors << QStringLiteral("%1: %2").arg(name, e.left(500));
}

void runtimeReport(const QJsonObject &report, NeuronMonitorReport *r)
{
    const QJsonObject nc = report.value(QLatin1String("neuroncore_counters")).toObject();
    groupError(nc, QStringLiteral("neuroncore_counters"), r);
    const QJsonObject inUse = nc.value(QLatin1String("neuroncores_in_use")).toObject();
    for (auto it = inUse.begin(); it != inUse.end(); ++it) {
        bool ok = false;
        const int core = it.key().toInt(&ok);
        if (!ok || core < 0 || core >= maxNeuronCores || r->utilization.size() >= maxNeuronCores)
            continue;
        const double u = it.value().toObject().value(QLatin1String("neuroncore_utilization")).toDouble(0);
        r->utilization[core] = std::clamp(r->utilization.value(core) + (std::isfinite(u) ? u : 0.0), 0.0, 100.0);
    }
    const QJsonObject mem = report.value(QLatin1String("memory_used")).toObject();
    groupError(mem, QStringLiteral("memory_used"), r);
    const QJsonObject used = mem.value(QLatin1String("neuron_runtime_used_bytes")).toObject();
    if (used.contains(QLatin1String("host")))
        r->hostBytes = std::max<qint64>(r->hostBytes, 0) + count(used.value(QLatin1String("host")));
    if (used.contains(QLatin1String("neuron_device")))
        r->deviceBytes = std::max<qint64>(r->deviceBytes, 0) + count(used.value(QLatin1String("neuron_device")));
    const QJsonObject ex = report.value(QLatin1String("execution_stats")).toObject();
    groupError(ex, QStringLiteral("execution_stats"), r);
    r->executions += count(ex.value(QLatin1String("execution_summary")).toObject().value(QLatin1String("completed")));
    const QJsonObject errors = ex.value(QLatin1String("error_summary")).toObject();
    for (auto it = errors.begin(); it != errors.end() && r->errorKinds.size() < 32; ++it) {
        const qint64 n = count(it.value());
        if (n > 0) {
            r->errorKinds[it.key().left(64)] += n;
            r->executionErrors += n;
        }
    }
}
}  // namespace

std::optional<NeuronMonitorReport> parseNeuronMonitorReport(const QByteArray &json, const QString &tag, QString *error)
{
    if (json.size() > maxNeuronReportBytes) {
        if (error)
            *error = NeuronMonitorText::tr("a neuron-monitor report over %1 MiB").arg(maxNeuronReportBytes >> 20);
        return std::nullopt;
    }
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = NeuronMonitorText::tr("not a neuron-monitor report (a JSON object per line)");
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    NeuronMonitorReport r;
    for (const QJsonValue &v : o.value(QLatin1String("neuron_runtime_data")).toArray()) {
        const QJsonObject rt = v.toObject();
        if (rt.value(QLatin1String("neuron_runtime_tag")).toString() != tag)
            continue;  // another process's runtime
        ++r.runtimes;
        groupError(rt, QStringLiteral("runtime"), &r);
        runtimeReport(rt.value(QLatin1String("report")).toObject(), &r);
    }
    const QJsonObject hw = o.value(QLatin1String("system_data")).toObject().value(QLatin1String("neuron_hw_counters")).toObject();
    groupError(hw, QStringLiteral("neuron_hw_counters"), &r);
    for (const QJsonValue &d : hw.value(QLatin1String("neuron_devices")).toArray()) {
        const QJsonObject dev = d.toObject();
        r.eccCorrected += count(dev.value(QLatin1String("mem_ecc_corrected"))) + count(dev.value(QLatin1String("sram_ecc_corrected")));
        r.eccUncorrected += count(dev.value(QLatin1String("mem_ecc_uncorrected"))) + count(dev.value(QLatin1String("sram_ecc_uncorrected")));
    }
    const QJsonObject hi = o.value(QLatin1String("neuron_hardware_info")).toObject();
    r.deviceType = hi.value(QLatin1String("neuron_device_type")).toString().left(64);
    r.deviceCount = int(std::min<qint64>(count(hi.value(QLatin1String("neuron_device_count"))), 4096));
    r.coresPerDevice = int(std::min<qint64>(count(hi.value(QLatin1String("neuroncore_per_device_count"))), 4096));
    groupError(hi, QStringLiteral("neuron_hardware_info"), &r);
    r.instanceType = o.value(QLatin1String("instance_info")).toObject().value(QLatin1String("instance_type")).toString().left(64);
    return r;
}

QByteArray neuronMonitorConfig(const QString &tag, int periodSeconds)
{
    const QString period = QStringLiteral("%1s").arg(std::clamp(periodSeconds, 1, 5));
    QJsonArray metrics;
    for (const char *m : {"neuroncore_counters", "memory_used", "execution_stats"})
    {
        QJsonObject g;
        g.insert(QStringLiteral("type"), QString::fromLatin1(m));
        metrics.append(g);
    }
    QJsonObject runtime;
    runtime.insert(QStringLiteral("tag_filter"), QStringLiteral("^%1$").arg(QRegularExpression::escape(tag)));
    runtime.insert(QStringLiteral("metrics"), metrics);
    QJsonObject hw;
    hw.insert(QStringLiteral("type"), QStringLiteral("neuron_hw_counters"));
    QJsonObject conf;
    conf.insert(QStringLiteral("period"), period);
    conf.insert(QStringLiteral("neuron_runtimes"), QJsonArray{runtime});
    conf.insert(QStringLiteral("system_metrics"), QJsonArray{hw});
    return QJsonDocument(conf).toJson(QJsonDocument::Compact);
}

std::optional<QVector<NeuronDevice>> parseNeuronLs(const QByteArray &json, QString *error)
{
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(json.left(maxNeuronReportBytes + 1), &pe);
    QJsonArray devices;
    if (pe.error == QJsonParseError::NoError && doc.isArray())
        devices = doc.array();
    else if (pe.error == QJsonParseError::NoError && doc.isObject() && doc.object().value(QLatin1String("neuron_devices")).isArray())
        devices = doc.object().value(QLatin1String("neuron_devices")).toArray();
    else {
        if (error)
            *error = NeuronMonitorText::tr("not neuron-ls JSON output (a list of devices)");
        return std::nullopt;
    }
    QVector<NeuronDevice> out;
    for (const QJsonValue &v : devices) {
        if (out.size() >= 4096)
            break;
        const QJsonObject d = v.toObject();
        NeuronDevice n;
        n.index = d.value(QLatin1String("neuron_device")).toInt(-1);
        n.cores = std::clamp(d.value(QLatin1String("nc_count")).toInt(0), 0, maxNeuronCores);
        n.memoryBytes = count(d.value(QLatin1String("memory_size")));
        for (const QJsonValue &c : d.value(QLatin1String("neuroncore_ids")).toArray())
            if (n.coreIds.size() < 256)
                n.coreIds << c.toInt(-1);
        for (const QJsonValue &p : d.value(QLatin1String("neuron_processes")).toArray())
            if (n.processes.size() < 64)
                n.processes << QStringLiteral("%1 %2").arg(p.toObject().value(QLatin1String("pid")).toInt())
                                   .arg(p.toObject().value(QLatin1String("command")).toString().left(200));
        out << n;
    }
    return out;
}

void NeuronCoreHistory::add(const NeuronMonitorReport &r)
{
    m_samples << r;
    if (m_samples.size() > m_max)
        m_samples.remove(0, m_samples.size() - m_max);
}

QList<int> NeuronCoreHistory::cores() const
{
    QList<int> c;
    for (const NeuronMonitorReport &r : m_samples)
        for (auto it = r.utilization.cbegin(); it != r.utilization.cend(); ++it)
            if (!c.contains(it.key()))
                c << it.key();
    std::sort(c.begin(), c.end());
    return c;
}

NeuronSample sampleNeuronCores(JobRunner &runner, const QString &jobId, bool withDevices, int timeoutMs,
                               const QString &slurmJobId, const QString &slurmConf)
{
    // The sampling, run where the job's Neuron devices are: $1 the config, $2 1 to list the devices first. Exit 3:
    // no neuron-monitor there. Output: neuron-ls's JSON (if asked) ended by a marker line, then the first report
    // line of neuron-monitor.
    static const char *sample = R"SH(PATH=$PATH:/opt/aws/neuron/bin
command -v neuron-monitor >/dev/null 2>&1 || exit 3
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '%s' "$1" >"$d/monitor.json"
if [ "$2" = 1 ]; then
  neuron-ls -j 2>/dev/null || neuron-ls --output-format json 2>/dev/null
  echo; echo '@@INGOT-NEURON-LS-END@@'
fi
neuron-monitor -c "$d/monitor.json" 2>/dev/null | head -n 1
)SH";
    // The arguments (printf %b-escaped, as the shell passes them): $1 the config, $2 1/0, $3 a Slurm job to step
    // into (srun --overlap: its first node, beside the job's own steps; "" here), $4 its slurm.conf, $5 the
    // sampling script.
    static const char *script = R"SH(dec() { v=$(printf '%bX' "$1"); printf '%s' "${v%X}"; }
conf=$(dec "$1"); devices=$(dec "$2"); job=$(dec "$3"); slurmconf=$(dec "$4"); sample=$(dec "$5")
if [ -n "$job" ]; then
  [ -n "$slurmconf" ] && export SLURM_CONF="$slurmconf"
  [ -d /opt/slurm/bin ] && PATH=$PATH:/opt/slurm/bin
  exec srun --jobid="$job" --overlap --nodes=1 --ntasks=1 --quiet /bin/sh -c "$sample" sh "$conf" "$devices"
fi
exec /bin/sh -c "$sample" sh "$conf" "$devices"
)SH";
    NeuronSample s;
    const ShellResult r = runner.shell()->run(script,
                                              {neuronMonitorConfig(jobId, 1), withDevices ? "1" : "0", slurmJobId.toUtf8(),
                                               slurmConf.toUtf8(), QByteArray(sample)},
                                              {}, maxNeuronReportBytes * 2, timeoutMs);
    if (!r.ran()) {
        s.error = r.error;
        return s;
    }
    if (r.exitCode == 3) {
        s.error = slurmJobId.isEmpty()
                      ? NeuronMonitorText::tr("neuron-monitor is not installed where this job runs (%1): the Neuron "
                                              "SDK's aws-neuronx-tools provide it.").arg(runner.describe())
                      : NeuronMonitorText::tr("neuron-monitor is not installed on the nodes of Slurm job %1: the Neuron "
                                              "SDK's aws-neuronx-tools provide it.").arg(slurmJobId);
        return s;
    }
    if (r.exitCode != 0 && r.out.trimmed().isEmpty()) {
        s.error = NeuronMonitorText::tr("neuron-monitor could not be run (status %1): %2")
                      .arg(r.exitCode).arg(QString::fromUtf8(r.err.trimmed().left(2000)));
        return s;
    }
    s.available = true;
    QByteArray out = r.out;
    if (withDevices) {
        const qsizetype end = out.indexOf("@@INGOT-NEURON-LS-END@@");
        if (end >= 0) {
            QString e;
            s.devices = parseNeuronLs(out.left(end).trimmed(), &e);
            out = out.mid(end + qstrlen("@@INGOT-NEURON-LS-END@@"));
        }
    }
    QString e;
    s.report = parseNeuronMonitorReport(out.trimmed(), jobId, &e);
    if (s.report)
        s.report->time = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    else
        s.error = e;
    return s;
}

NeuronSample sampleJobNeuronCores(JobRunner &runner, const JobRecordFile &record, const JobStatus &status,
                                  bool withDevices, int timeoutMs)
{
    if (!record.spec.slurm.enabled)
        return sampleNeuronCores(runner, record.id, withDevices, timeoutMs);
    if (status.slurm.state != QLatin1String("RUNNING") || status.slurm.jobId.isEmpty()) {
        NeuronSample s;
        s.notYet = true;
        s.error = QCoreApplication::translate("ingot::JobMonitor", "The Slurm job has not started on its nodes yet.");
        return s;
    }
    return sampleNeuronCores(runner, record.id, withDevices, timeoutMs, status.slurm.jobId, record.spec.slurm.slurmConf);
}

}  // namespace ingot
