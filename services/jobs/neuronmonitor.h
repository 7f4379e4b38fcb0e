// NeuronCores in the job monitor (docs/formats.md, "neuron-monitor and neuron-ls"): neuron-monitor, run where the
// job runs with a config asking for neuroncore_counters, memory_used and execution_stats of the job's runtimes (its
// NEURON_PROCESS_TAG is the job id) and for neuron_hw_counters, prints one JSON report per period; neuron-ls -j
// lists the devices once. The parsers are bounded (document size, cores, devices) and fuzzed; a history keeps a
// fixed number of samples for the heat strip.
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace ingot {

class JobRunner;
struct JobRecordFile;
struct JobStatus;

struct NeuronMonitorReport {
    double time = 0;  // seconds since the epoch, when it was read
    QMap<int, double> utilization;  // NeuronCore index -> percent, of the job's runtimes in this period
    int runtimes = 0;               // the job's Neuron runtimes in the report (processes tagged with its id)
    qint64 hostBytes = -1;          // memory of the job's runtimes (-1: not reported)
    qint64 deviceBytes = -1;
    qint64 executions = 0;          // completed in this period
    qint64 executionErrors = 0;     // every kind of error_summary, summed
    QMap<QString, qint64> errorKinds;  // error_summary, non-zero ones
    qint64 eccCorrected = 0, eccUncorrected = 0;  // neuron_hw_counters, every device (DRAM and SRAM)
    QString instanceType, deviceType;
    int deviceCount = 0, coresPerDevice = 0;
    QStringList errors;  // what neuron-monitor said it could not collect
};

constexpr qint64 maxNeuronReportBytes = 16 << 20;
constexpr int maxNeuronCores = 4096;

// One report (a line of neuron-monitor's output); only the runtimes tagged `tag` count for the job's figures.
std::optional<NeuronMonitorReport> parseNeuronMonitorReport(const QByteArray &json, const QString &tag, QString *error);

// The configuration Ingot runs neuron-monitor with: the job's runtimes (tag_filter: exactly `tag`) and the
// hardware counters, every `periodSeconds` (1 to 5).
QByteArray neuronMonitorConfig(const QString &tag, int periodSeconds);

struct NeuronDevice {
    int index = -1;
    int cores = 0;
    qint64 memoryBytes = 0;
    QList<int> coreIds;
    QStringList processes;  // "pid command"
};
// neuron-ls -j (a JSON array of devices; the format of Neuron < 2.34) or --output-format json (an object whose
// "neuron_devices" array holds the same entries).
std::optional<QVector<NeuronDevice>> parseNeuronLs(const QByteArray &json, QString *error);

// Samples kept for the monitor, oldest dropped first.
class NeuronCoreHistory
{
public:
    explicit NeuronCoreHistory(int maxSamples = 600) : m_max(maxSamples) {}
    void add(const NeuronMonitorReport &r);
    void clear() { m_samples.clear(); }
    const QVector<NeuronMonitorReport> &samples() const { return m_samples; }
    QList<int> cores() const;  // every core seen, in order
    bool isEmpty() const { return m_samples.isEmpty(); }

private:
    int m_max;
    QVector<NeuronMonitorReport> m_samples;
};

// What the NeuronCores tab shows, asked where the job runs: one neuron-monitor report and (first time) the
// devices. available == false: neuron-monitor is not installed there (the words in `error`).
struct NeuronSample {
    bool available = false;
    bool notYet = false;  // nothing to ask yet (a Slurm job still waiting for its nodes): ask again later
    QString error;
    std::optional<NeuronMonitorReport> report;
    std::optional<QVector<NeuronDevice>> devices;
};
// Runs neuron-monitor (and neuron-ls -j when `withDevices`) through `runner`'s shell for one report, within
// timeoutMs. Looked for on the PATH there, then in /opt/aws/neuron/bin. A Slurm job's (`slurmJobId` set; `runner`
// is its login node): run on the job's first node as a step of it, `srun --jobid ID --overlap` (with `slurmConf`
// as SLURM_CONF when set), so it sees that node's devices beside the job's own steps.
NeuronSample sampleNeuronCores(JobRunner &runner, const QString &jobId, bool withDevices, int timeoutMs = 20000,
                               const QString &slurmJobId = QString(), const QString &slurmConf = QString());
// One sample of job `record` (its status as last read), `runner` being where it runs: a Slurm job's cores are on its
// nodes, asked through a step of the running job (notYet while the scheduler has not started it). The monitor's
// NeuronCores tab and ingot-cli's `job neuroncores` ask this.
NeuronSample sampleJobNeuronCores(JobRunner &runner, const JobRecordFile &record, const JobStatus &status,
                                  bool withDevices, int timeoutMs = 20000);

}  // namespace ingot
