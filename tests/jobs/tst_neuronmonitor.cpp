// NeuronCores of a job: neuron-monitor's reports and neuron-ls's devices in the documented formats (the Neuron
// Monitor and Neuron LS user guides; stand-ins in tests/support/standins print them, as no Neuron device is here),
// read only for the job's own runtimes, bounded, and asked where the job runs.
#include "services/jobs/jobrunner.h"
#include "services/jobs/neuronmonitor.h"
#include "tests/support/testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace ingot;

namespace {
// The user guide's example report, trimmed to the groups Ingot asks for.
const QByteArray documented = R"({"neuron_runtime_data":[
 {"pid":1,"address":"","neuron_runtime_tag":"job-1","error":"","report":{
   "neuroncore_counters":{"period":1.000113182,"neuroncores_in_use":{
      "0":{"neuroncore_utilization":42.01,"flops":1234567891011},
      "1":{"neuroncore_utilization":42.02,"flops":1234567891021}},"error":""},
   "execution_stats":{"period":1.03,"error_summary":{"generic":0,"numerical":3,"transient":0,"model":0,"runtime":0,"hardware":1},
      "execution_summary":{"completed":123,"completed_with_err":0,"completed_with_num_err":0,"timed_out":0,"incorrect_input":0,"failed_to_queue":0},
      "latency_stats":{"total_latency":null,"device_latency":null},"error":""},
   "memory_used":{"period":1.00001,"neuron_runtime_used_bytes":{"host":6997643264,"neuron_device":12519788544,"usage_breakdown":{}},"error":""}}},
 {"pid":2,"address":"","neuron_runtime_tag":"other","error":"","report":{
   "neuroncore_counters":{"period":1.0,"neuroncores_in_use":{"5":{"neuroncore_utilization":99.0}},"error":""}}}],
 "system_data":{"neuron_hw_counters":{"period":1.03,"neuron_devices":[
   {"neuron_device_index":0,"mem_ecc_corrected":2,"mem_ecc_uncorrected":0,"sram_ecc_uncorrected":1,"sram_ecc_corrected":0}],"error":""}},
 "instance_info":{"instance_type":"trn2n.48xlarge","error":""},
 "neuron_hardware_info":{"neuron_device_type":"trainium2","neuron_device_count":16,"neuroncore_per_device_count":4,"error":""}})";
}  // namespace

class TestNeuronMonitor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsTheJobsRuntimesOnly()
    {
        QString error;
        const auto r = parseNeuronMonitorReport(documented, QStringLiteral("job-1"), &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->runtimes, 1);
        QCOMPARE(r->utilization.keys(), (QList<int>{0, 1}));  // core 5 is another process's
        QCOMPARE(r->utilization.value(0), 42.01);
        QCOMPARE(r->hostBytes, 6997643264LL);
        QCOMPARE(r->deviceBytes, 12519788544LL);
        QCOMPARE(r->executions, 123);
        QCOMPARE(r->executionErrors, 4);
        QCOMPARE(r->errorKinds.value(QStringLiteral("numerical")), 3);
        QCOMPARE(r->eccCorrected, 2);
        QCOMPARE(r->eccUncorrected, 1);
        QCOMPARE(r->instanceType, QStringLiteral("trn2n.48xlarge"));
        QCOMPARE(r->deviceCount, 16);
        QCOMPARE(r->coresPerDevice, 4);
        // Another job: no runtime of its own, the system figures still read.
        const auto other = parseNeuronMonitorReport(documented, QStringLiteral("job-2"), nullptr);
        QVERIFY(other);
        QCOMPARE(other->runtimes, 0);
        QVERIFY(other->utilization.isEmpty());
        QCOMPARE(other->hostBytes, -1);
    }

    void hostileReports()
    {
        QString error;
        QVERIFY(!parseNeuronMonitorReport("[1,2,3]", QStringLiteral("t"), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!parseNeuronMonitorReport(QByteArray(maxNeuronReportBytes + 1, ' '), QStringLiteral("t"), &error));
        // Wrong types, absurd numbers and indexes: clamped or skipped, never trusted.
        const QByteArray odd = R"({"neuron_runtime_data":[{"neuron_runtime_tag":"t","report":{
            "neuroncore_counters":{"neuroncores_in_use":{"-1":{"neuroncore_utilization":50},"99999":{"neuroncore_utilization":50},
               "x":{},"2":{"neuroncore_utilization":1e300},"3":{"neuroncore_utilization":"high"}},"error":"driver gone"},
            "memory_used":{"neuron_runtime_used_bytes":{"host":-5,"neuron_device":1e30}},
            "execution_stats":{"error_summary":{"generic":"many"},"execution_summary":[]}}}],
          "system_data":{"neuron_hw_counters":{"neuron_devices":{"not":"a list"}}},"neuron_hardware_info":{"neuron_device_count":1e12}})";
        const auto r = parseNeuronMonitorReport(odd, QStringLiteral("t"), &error);
        QVERIFY(r);
        QCOMPARE(r->utilization.keys(), (QList<int>{2, 3}));
        QCOMPARE(r->utilization.value(2), 100.0);
        QCOMPARE(r->utilization.value(3), 0.0);
        QCOMPARE(r->hostBytes, 0);
        QCOMPARE(r->deviceBytes, 0);
        QCOMPARE(r->executionErrors, 0);
        QCOMPARE(r->deviceCount, 4096);
        QVERIFY(r->errors.join(QLatin1Char('\n')).contains(QStringLiteral("driver gone")));
    }

    void configAndDevices()
    {
        const QJsonObject c = QJsonDocument::fromJson(neuronMonitorConfig(QStringLiteral("20261126-120000-ab.c"), 9)).object();
        QCOMPARE(c.value(QStringLiteral("period")).toString(), QStringLiteral("5s"));
        const QJsonObject rt = c.value(QStringLiteral("neuron_runtimes")).toArray().first().toObject();
        QCOMPARE(rt.value(QStringLiteral("tag_filter")).toString(), QStringLiteral("^20261126\\-120000\\-ab\\.c$"));
        QCOMPARE(rt.value(QStringLiteral("metrics")).toArray().size(), 3);

        QString error;
        const auto devices = parseNeuronLs(R"([{"neuron_device":0,"bdf":"cc:00.0","nc_count":4,"memory_size":103079215104,
            "neuroncore_ids":[0,1,2,3],"neuron_processes":[{"pid":113985,"command":"python train.py","neuron_runtime_version":"2.0.0"}]}])", &error);
        QVERIFY2(devices, qPrintable(error));
        QCOMPARE(devices->size(), 1);
        QCOMPARE(devices->first().cores, 4);
        QCOMPARE(devices->first().processes, QStringList{QStringLiteral("113985 python train.py")});
        QVERIFY(parseNeuronLs(R"({"instance_type":"trn2.48xlarge","neuron_devices":[{"neuron_device":3,"nc_count":8}]})", &error));
        QVERIFY(!parseNeuronLs("instance-type: trn1", &error));

        NeuronCoreHistory h(3);
        for (int i = 0; i < 5; ++i) {
            NeuronMonitorReport r;
            r.time = i;
            r.utilization[i % 2] = 10.0 * i;
            h.add(r);
        }
        QCOMPARE(h.samples().size(), 3);
        QCOMPARE(h.samples().first().time, 2.0);
        QCOMPARE(h.cores(), (QList<int>{0, 1}));
    }

    // Asked where the job runs: without the SDK, words; with the stand-ins on the PATH, the job's runtime only.
    void asksWhereTheJobRuns()
    {
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.filePath(QStringLiteral("jobs")));
        const QByteArray path = qgetenv("PATH");
        NeuronSample none = sampleNeuronCores(*runner, QStringLiteral("job-x"), true);
        QVERIFY(!none.available);
        QVERIFY2(none.error.contains(QStringLiteral("neuron-monitor is not installed")), qPrintable(none.error));

        const QString bin = test::neuronStandIns(tmp.path());
        qputenv("PATH", bin.toUtf8() + ':' + path);
        QProcess job;  // a process of the job: its NEURON_PROCESS_TAG is the job's id
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("NEURON_PROCESS_TAG"), QStringLiteral("20261126-101010-abcd"));
        job.setProcessEnvironment(env);
        job.start(QStringLiteral("/bin/sleep"), {QStringLiteral("30")});
        QVERIFY(job.waitForStarted());
        const NeuronSample s = sampleNeuronCores(*runner, QStringLiteral("20261126-101010-abcd"), true);
        job.kill();
        job.waitForFinished();
        qputenv("PATH", path);
        QVERIFY2(s.available && s.report, qPrintable(s.error));
        QCOMPARE(s.report->runtimes, 1);
        QCOMPARE(s.report->utilization.size(), 4);
        QCOMPARE(s.report->eccCorrected, 1);
        QCOMPARE(s.report->instanceType, QStringLiteral("trn1.2xlarge"));
        QVERIFY(s.devices);
        QCOMPARE(s.devices->size(), 1);
        QCOMPARE(s.devices->first().cores, 2);
    }
};

QTEST_GUILESS_MAIN(TestNeuronMonitor)
#include "tst_neuronmonitor.moc"
