// Training jobs on remote hosts over SSH, against real OpenSSH servers on 127.0.0.1 (TestSshd) and real torchrun
// (Debian's python3-torch): a 2-process job on a "host" followed to the end; the job service destroyed mid-run and
// the server killed (a dropped network) while the job goes on, then a new service re-attaches and reads on; stop
// (SIGTERM: a checkpoint, stopped); a 2-node job over two servers whose losses equal one node's with 2 processes;
// ingot-cli on remote jobs by id, and its refusal of a host whose key is not trusted (never a prompt).
// The servers' sessions get XDG_DATA_HOME and XDG_CACHE_HOME from the client config (SetEnv), so the runners'
// own defaults (the jobs and backend folders Ingot uses on a host) land in this test's folder.
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/jobvalidate.h"
#include "services/jobs/neuronmonitor.h"
#include "services/jobs/precompile.h"
#include "services/jobs/remotejobindex.h"
#include "services/remote/remotehosts.h"
#include "services/remote/jobrunners.h"
#include "services/util/appsettings.h"
#include "tests/support/testsshd.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;
using ingot::test::TestSshd;

namespace {

// The losses the backend wrote to OUTPUT/metrics.jsonl, by step.
QVector<double> losses(const QString &outputDir)
{
    QVector<double> out;
    for (const QByteArray &line : test::readFile(outputDir + QStringLiteral("/metrics.jsonl")).split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(QLatin1String("type")).toString() == QLatin1String("metric"))
            out << o.value(QLatin1String("loss")).toDouble();
    }
    return out;
}

JobSpec tinySpec(int nproc, int maxSteps)
{
    JobSpec s;
    s.python = QStringLiteral("/usr/bin/python3");
    s.nprocPerNode = nproc;
    s.maxSteps = maxSteps;
    return s;
}

}  // namespace

class TestSshJobs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<TestSshd> m_a, m_b, m_untrusted;
    std::shared_ptr<JobRunners> m_runners;
    QString m_sshConfig;

    QString remoteData() const { return m_dir.filePath(QStringLiteral("host data")); }
    QString remoteJobsRoot() const { return remoteData() + QStringLiteral("/Ingot/ingot/jobs"); }

    std::shared_ptr<JobRunner> runner(const QString &host)
    {
        QString error;
        auto r = m_runners->runner(host, &error);
        if (!r)
            qWarning() << error;
        return r;
    }

    QString launch(const std::shared_ptr<JobRunner> &runner, const JobSpec &spec, LaunchPlan *planOut = nullptr,
                   const QStringList &nodes = {})
    {
        JobManager jobs(runner, m_runners->lookup());
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
        if (!jobs.plan(spec, &plan, &problems, &error, nodes)) {
            qWarning() << error << (problems.isEmpty() ? QString() : problems.first().message);
            return {};
        }
        // As the service and ingot-cli do: a remote job is recorded here with its host.
        if (runner != m_runners->local() && !RemoteJobIndex().add(plan.record, &error))
            qWarning() << error;
        if (!jobs.launch(plan, &error)) {
            qWarning() << error;
            return {};
        }
        if (planOut)
            *planOut = plan;
        return plan.record.id;
    }

    int runCli(const QStringList &args, QByteArray *out, QByteArray *err)
    {
        QProcess p;
        p.setStandardInputFile(QProcess::nullDevice());  // no terminal: a prompt would hang or fail
        p.start(QStringLiteral(INGOT_CLI_PATH), args);
        if (!p.waitForFinished(180000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        *out = p.readAllStandardOutput();
        *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // What ingot-cli (a child) reads too: the same settings and data folders.
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        m_a = std::make_unique<TestSshd>(QStringLiteral("ingot-node-a"));
        m_b = std::make_unique<TestSshd>(QStringLiteral("ingot-node-b"));
        m_untrusted = std::make_unique<TestSshd>(QStringLiteral("ingot-untrusted"));
        QString error;
        for (TestSshd *s : {m_a.get(), m_b.get(), m_untrusted.get()})
            QVERIFY2(s->start(&error), qPrintable(error));
        QVERIFY(m_a->trustHostKey() && m_b->trustHostKey());
        const QString env = QStringLiteral("  SetEnv XDG_DATA_HOME=\"%1\" XDG_CACHE_HOME=\"%2\"\n")
                                .arg(remoteData(), m_dir.filePath(QStringLiteral("host cache")));
        m_sshConfig = m_dir.filePath(QStringLiteral("ssh_config"));
        test::writeFile(m_sshConfig, (m_a->configBlock() + env + QLatin1Char('\n') + m_b->configBlock() + env
                                      + QLatin1Char('\n') + m_untrusted->configBlock() + env)
                                         .toUtf8());
        AppSettings::setSshConfigFile(m_sshConfig);
        RemoteHosts::instance().reset();
        QDir().mkpath(localJobsRoot());
        m_runners = JobRunners::create(makeLocalJobRunner());
    }

    void cleanupTestCase()
    {
        // The hosts' masters end with the servers.
        for (const RemoteHostEntry &h : RemoteHosts::instance().hosts())
            if (auto c = RemoteHosts::instance().connection(h.name))
                c->close();
    }

    // Issue 37: the job's Python is asked on the host, through its shell, for the engine the launcher proposes there:
    // the PyTorch 2 root's (torch 2.6, native) and Debian's (torch 1.13, xla); a Python that is not there is said.
    void theJobsPythonIsAskedOnTheHost()
    {
        const auto host = runner(m_a->alias());
        QVERIFY(host);
        const PythonInfo torch2 = probeJobPython(*host, QStringLiteral(INGOT_SOURCE_DIR "/tests/support/torch2/python3"));
        QVERIFY2(torch2.usable(), qPrintable(torch2.error));
        QVERIFY(torch2.hasDTensor && !torch2.hasTorchXla);
        QCOMPARE(jobEngineFor(torch2).engine, QStringLiteral("native"));
        const PythonInfo debian = probeJobPython(*host, QStringLiteral("/usr/bin/python3"));
        QVERIFY2(debian.usable(), qPrintable(debian.error));
        QCOMPARE(jobEngineFor(debian).engine, QStringLiteral("xla"));
        const QString missing = m_dir.filePath(QStringLiteral("no such python"));
        const PythonInfo none = probeJobPython(*host, missing);
        QVERIFY(!none.usable());
        QVERIFY2(none.error.contains(QStringLiteral("is not an executable")) && none.error.contains(missing), qPrintable(none.error));
    }

    void oddNamesArriveByteForByte()
    {
        // Through the login shell there (bash, with its startup files) and ssh's quoting: the runner's arguments
        // and files are bytes.
        const auto host = runner(m_a->alias());
        QVERIFY(host);
        const QString base = m_dir.filePath(QStringLiteral("ssh odd"));
        const QStringList names{QStringLiteral("back\\slash\\n"), QStringLiteral("it's \"$(id)\" `id` *"),
                                QStringLiteral("line\nbreak"), QStringLiteral("%s %b \\0101")};
        const QByteArray data("bytes\0\\n\xff\n", 10);
        QString error;
        for (const QString &n : names) {
            const QString file = base + QLatin1Char('/') + n + QLatin1Char('/') + n;
            QVERIFY2(host->makeFolder(base + QLatin1Char('/') + n, &error), qPrintable(error));
            QVERIFY2(host->writeFile(file, data, false, &error), qPrintable(error));
            QCOMPARE(test::readFile(file), data);
            QCOMPARE(host->readFile(file, 0, 100).data, data);
        }
        QStringList listed = host->listFiles(base, 1), expected;
        for (const QString &n : names)
            expected << n + QLatin1Char('/') + n;
        std::sort(listed.begin(), listed.end());
        std::sort(expected.begin(), expected.end());
        QCOMPARE(listed, expected);
        QVERIFY2(host->removeTree(base, m_dir.path(), &error), qPrintable(error));
        QVERIFY(!QFileInfo::exists(base));
    }

    void aRemoteJobRunsToTheEnd()
    {
        const auto host = runner(m_a->alias());
        QVERIFY(host);
        QCOMPARE(host->jobsRoot(), remoteJobsRoot());
        QCOMPARE(host->where(), m_a->alias());
        LaunchPlan plan;
        const QString id = launch(host, tinySpec(2, 5), &plan);
        QVERIFY(!id.isEmpty());
        QCOMPARE(plan.record.where, m_a->alias());
        // The backend was copied there, versioned by its hash.
        QVERIFY(plan.record.backendDir.startsWith(m_dir.filePath(QStringLiteral("host cache/ingot/backend/"))));
        QVERIFY(QFileInfo(plan.record.backendDir + QStringLiteral("/ingot_train/train.py")).isFile());
        JobRecordFile r;
        QString error;
        QVERIFY2(JobManager(host).load(id, &r, &error), qPrintable(error));
        JobFollower f(host, r);
        const JobStatus st = test::followJob(f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("finished"));
        QCOMPARE(st.step, 5);
        QCOMPARE(f.metrics().size(), 5);
        QCOMPARE(f.ranks(), (QList<int>{0, 1}));
        QCOMPARE(f.metrics().last().loss, losses(plan.record.outputDir).last());
        // Detached: a session of its own, so it did not end with the ssh session that started it.
        QVERIFY(st.pids.wrapper.sid == st.pids.wrapper.pid);
        QCOMPARE(st.exitStatus, 0);
    }

    // Precompile first on a host: the same two phases as on this machine, the tool found beside the job's Python
    // there (the stand-in of tests/support/standins), its progress read over the connection. NeuronCores: the host
    // has no neuron-monitor, and the answer names the host.
    void precompileAndNeuronCoresOnAHost()
    {
        const auto host = runner(m_a->alias());
        QVERIFY(host);
        const QString bin = test::neuronStandIns(m_dir.filePath(QStringLiteral("sdk")));
        JobSpec s = tinySpec(1, 3);
        s.python = bin + QStringLiteral("/python3");
        s.precompile = true;
        s.compileCacheUrl = m_dir.filePath(QStringLiteral("host compile cache"));
        LaunchPlan plan;
        const QString id = launch(host, s, &plan);
        QVERIFY(!id.isEmpty());
        QCOMPARE(plan.record.precompileArgv.value(0), bin + QStringLiteral("/neuron_parallel_compile"));
        JobFollower f(host, plan.record);
        const JobStatus st = test::followJob(f, 180000);
        QVERIFY2(st.state == JobState::Finished, qPrintable(jobStateName(st.state) + QStringLiteral(": ") + st.reason));
        QCOMPARE(st.precompileExit, 0);
        QCOMPARE(st.step, 3);
        const PrecompileProgress p = readPrecompileProgress(*host, JobManager(host).paths(id), nullptr);
        QCOMPARE(p.found, 3);
        QCOMPARE(p.exitStatus, 0);
        for (const PrecompileGraph &g : p.graphs)
            QVERIFY(g.result && g.result->ok);

        const NeuronSample n = sampleNeuronCores(*host, id, true);
        QVERIFY(!n.available);
        QVERIFY2(n.error.contains(m_a->alias()) && n.error.contains(QStringLiteral("neuron-monitor")), qPrintable(n.error));
    }

    void reattachAfterTheServiceAndTheNetworkWentAway()
    {
        const QString local = localJobsRoot();
        auto service = std::make_unique<JobService>(makeLocalJobRunner(), m_runners->lookup());
        service->setPollInterval(200);
        QSignalSpy launched(service.get(), &JobService::launched);
        LaunchPlan plan;
        QString planError;
        bool planned = false;
        service->plan(
            tinySpec(1, 40),
            [&](const LaunchPlan &p, const QVector<JobProblem> &problems, const QString &error) {
                plan = p;
                planError = error + (problems.isEmpty() ? QString() : problems.first().message);
                planned = true;
            },
            {m_a->alias()});
        QTRY_VERIFY_WITH_TIMEOUT(planned, 60000);
        QVERIFY2(planError.isEmpty(), qPrintable(planError));
        service->launch(plan);
        QVERIFY(launched.wait(60000));
        const QString id = plan.record.id;
        // Recorded here with its host, so a new service (and ingot-cli) finds it.
        JobRecordFile indexed;
        QVERIFY(RemoteJobIndex(local).find(id, &indexed));
        QCOMPARE(indexed.where, m_a->alias());
        QTRY_VERIFY_WITH_TIMEOUT(service->status(id).step >= 3, 120000);
        service.reset();  // Ingot closes mid-run

        // The network drops: the job goes on there.
        m_a->kill();
        auto again = std::make_unique<JobService>(makeLocalJobRunner(), m_runners->lookup());
        again->setPollInterval(200);
        again->setRemoteRefreshInterval(500);
        QTRY_VERIFY_WITH_TIMEOUT(again->find(id) != nullptr, 60000);
        QVERIFY(!again->find(id)->status.unreachable.isEmpty());  // listed, as unknown
        QVERIFY(!isFinal(again->status(id).state));
        QString error;
        QVERIFY2(m_a->restart(&error), qPrintable(error));
        // Back: the new service follows it from the start to the end.
        QTRY_COMPARE_WITH_TIMEOUT(again->status(id).state, JobState::Finished, 120000);
        QVERIFY(again->status(id).unreachable.isEmpty());
        const QVector<MetricPoint> m = again->metrics(id);
        QCOMPARE(m.size(), 40);
        QCOMPARE(m.first().step, 1);
        QCOMPARE(m.last().step, 40);
        QCOMPARE(m.last().loss, losses(plan.record.outputDir).last());
    }

    void stopSavesACheckpoint()
    {
        const auto host = runner(m_a->alias());
        QVERIFY(host);
        LaunchPlan plan;
        const QString id = launch(host, tinySpec(2, 5000), &plan);
        QVERIFY(!id.isEmpty());
        JobFollower f(host, plan.record);
        test::followJob(f, 120000, [](const JobFollower &x) { return x.status().step >= 2; });
        QVERIFY(f.status().step >= 2);
        // ingot-cli finds the remote job by id.
        QByteArray out, err;
        QCOMPARE(runCli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")}, &out, &err), 0);
        const QJsonObject status = QJsonDocument::fromJson(out).object();
        QCOMPARE(status.value(QLatin1String("where")).toString(), m_a->alias());
        QVERIFY(status.value(QLatin1String("alive")).toBool());
        QCOMPARE(runCli({QStringLiteral("job"), QStringLiteral("stop"), id, QStringLiteral("--wait")}, &out, &err), 9);
        const JobStatus st = test::followJob(f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("stopped"));
        const QString checkpoint = plan.record.outputDir + QStringLiteral("/checkpoint-%1").arg(st.step);
        QCOMPARE(st.lastCheckpoint, checkpoint);
        QVERIFY(QFileInfo(checkpoint + QStringLiteral("/trainer_state.json")).isFile());
        // No process of the job is left there.
        QCOMPARE(host->signalJobGroup(st.pids.wrapper.pgid, id, 0), 0);
    }

    void twoNodesEqualOneNodeWithTwoProcesses()
    {
        const auto a = runner(m_a->alias());
        const auto b = runner(m_b->alias());
        QVERIFY(a && b);
        QCOMPARE(a->masterAddress(), QStringLiteral("127.0.0.1"));
        JobSpec spec = tinySpec(1, 6);
        spec.nnodes = 2;
        // On hosts that share a home, the output folder is shared (the backend checks).
        spec.outputDir = m_dir.filePath(QStringLiteral("two nodes"));
        LaunchPlan plan;
        const QString id = launch(a, spec, &plan, {m_a->alias(), m_b->alias()});
        QVERIFY(!id.isEmpty());
        QCOMPARE(plan.otherNodes.size(), 1);
        QVERIFY(plan.commandLine.contains(QStringLiteral("--node_rank=0")));
        QCOMPARE(plan.otherNodes.first().record.nodeRank, 1);
        QVERIFY(plan.otherNodes.first().record.argv.contains(QStringLiteral("--node_rank=1")));
        QVERIFY(plan.otherNodes.first().record.argv.contains(QStringLiteral("--master_addr=127.0.0.1")));
        JobFollower f(a, plan.record, m_runners->lookup());
        const JobStatus st = test::followJob(f, 180000);
        QVERIFY2(st.state == JobState::Finished, qPrintable(st.reason + QLatin1Char(' ') + st.reasonDetail));
        QCOMPARE(f.ranks(), (QList<int>{0, 1}));  // one monitor, every node's ranks
        QCOMPARE(f.nodePids().size(), 2);
        QVERIFY(f.nodePids().at(1).launcher.isValid());
        // The same run on one node with two processes.
        JobSpec single = tinySpec(2, 6);
        single.outputDir = m_dir.filePath(QStringLiteral("one node"));
        LaunchPlan plan1;
        const QString id1 = launch(m_runners->local(), single, &plan1);
        QVERIFY(!id1.isEmpty());
        JobFollower f1(m_runners->local(), plan1.record);
        QCOMPARE(jobStateName(test::followJob(f1, 120000).state), QStringLiteral("finished"));
        const QVector<double> two = losses(spec.outputDir), one = losses(single.outputDir);
        QCOMPARE(two.size(), 6);
        QCOMPARE(two, one);
        QCOMPARE(f.metrics().size(), 6);
        for (int i = 0; i < 6; ++i)
            QCOMPARE(f.metrics().at(i).loss, one.at(i));
        // Removing it removes every node's folder.
        QString error;
        QVERIFY2(JobManager(a, m_runners->lookup()).remove(id, false, &error), qPrintable(error));
        QVERIFY(!QFileInfo::exists(nodeFolder(remoteJobsRoot(), id, 1)));
        QVERIFY(!QFileInfo::exists(nodeFolder(remoteJobsRoot(), id, 0)));
    }

    void anUntrustedHostKeyEndsTheCli()
    {
        QByteArray out, err;
        // Unknown key: exit 11 with words, nothing run there, no prompt (stdin is not a terminal).
        const int rc = runCli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--host"),
                               m_untrusted->alias(), QStringLiteral("--python"), QStringLiteral("/usr/bin/python3"),
                               QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("1")},
                              &out, &err);
        QCOMPARE(rc, 11);
        QVERIFY2(err.contains("host key"), err.constData());
        QVERIFY(out.isEmpty());
        QCOMPARE(m_untrusted->acceptedLogins(), 0);
        // A changed key: the same refusal.
        QString error;
        QVERIFY(m_untrusted->trustHostKey());
        QVERIFY(m_untrusted->replaceHostKey(&error));
        QVERIFY2(m_untrusted->restart(&error), qPrintable(error));
        QCOMPARE(runCli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--hosts"),
                         m_a->alias() + QLatin1Char(',') + m_untrusted->alias(), QStringLiteral("--python"),
                         QStringLiteral("/usr/bin/python3")},
                        &out, &err),
                 11);
        QVERIFY2(err.contains("CHANGED"), err.constData());
        QCOMPARE(m_untrusted->acceptedLogins(), 0);
        // The job list still lists the remote jobs (their host is reachable) without asking anything.
        QCOMPARE(runCli({QStringLiteral("job"), QStringLiteral("list")}, &out, &err), 0);
        QVERIFY(out.contains(m_a->alias().toUtf8()));
    }
};

QTEST_GUILESS_MAIN(TestSshJobs)
#include "tst_sshjobs.moc"
