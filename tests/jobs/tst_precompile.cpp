// Precompile as a step of a job on this machine: the same command first under neuron_parallel_compile (a stand-in
// that prints the documented formats: tests/support/standins), then the training, as one job with two phases.
// The progress and results are read as the monitor reads them; a failed phase stops before training.
#include "services/cache/cachescanner.h"
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobrunner.h"
#include "services/jobs/precompile.h"
#include "services/stores/localcachestore.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace ingot;

namespace {
CacheSnapshot scanned(const QString &root)
{
    LocalCacheStore store(root);
    QString error;
    store.open(&error);
    CacheScanner scanner(store);
    CacheSnapshot snap = scanner.scan(nullptr);
    snap.reindex();
    return snap;
}
}  // namespace

class TestPrecompile : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::shared_ptr<JobRunner> m_runner;
    QString m_bin;

    JobSpec spec(const char *flag = nullptr)
    {
        for (const char *f : {"fail", "slow", "trialfail"})
            QFile::remove(m_bin + QLatin1Char('/') + QLatin1String(f));
        if (flag)
            test::writeFile(m_bin + QLatin1Char('/') + QLatin1String(flag), "");
        JobSpec s;
        QString error;
        s.parseTrainingArguments({QStringLiteral("--max_steps"), QStringLiteral("3")}, &error);
        s.python = m_bin + QStringLiteral("/python3");
        s.compileCacheUrl = m_tmp.filePath(QStringLiteral("cache"));
        s.precompile = true;
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_bin = test::neuronStandIns(m_tmp.path());
        m_runner = makeLocalJobRunner(m_tmp.filePath(QStringLiteral("jobs")));
    }

    void formats()
    {
        // The tool's results file (indent=4, booleans as JSON), and its log lines.
        const QByteArray results = R"({
    "compilation_summary": {"true": 1, "false": 1},
    "compilation_report": {
        "/c/neuronxcc-2.15.128.0+56dc5a86/MODULE_1+aa/model.hlo_module.pb": {"status": true, "retry": 0, "compile_time": 61.5},
        "/c/neuronxcc-2.15.128.0+56dc5a86/MODULE_2+aa/model.hlo_module.pb": {"status": false, "retry": 1, "compile_time": 3.0}
    },
    "start_time": 1700000000.0,
    "compilation_time": 64.5
})";
        const auto r = parsePrecompileResults(results, nullptr);
        QVERIFY(r);
        QCOMPARE(r->size(), 2);
        const PrecompileResult bad = r->value(QStringLiteral("/c/neuronxcc-2.15.128.0+56dc5a86/MODULE_2+aa/model.hlo_module.pb"));
        QVERIFY(!bad.ok);
        QCOMPARE(bad.retries, 1);
        QCOMPARE(bad.seconds, 3.0);
        QString error;
        QVERIFY(!parsePrecompileResults("{\"total_neuron_parallel_compile_time\": 3}", &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!parsePrecompileResults("not json", &error));

        PrecompileLogScanner log;
        log.feed("2024-07-03 10:00:00.000000:  12  INFO ||NEURON_PARALLEL_COMPILE||: Running trial run (add option)\n"
                 "2024-07-03 10:00:01.000000:  13  INFO ||NEURON_CACHE||: Extracting graphs (/c/neuronxcc-2.15.128.0+56dc5a86/MODULE_1+aa/model.hlo_module.pb) for ahead-of-time parallel compilation. No execution.\n"
                 "... Extracting graphs (/c/neuronxcc-2.15.128.0+56dc5a86/MODULE_1+aa/model.hlo_module.pb) again\n"
                 "2024-07-03 10:09:00.000000:  12  INFO ||NEURON_PARALLEL_COMPILE||: Total graphs: 38\n"
                 "2024-07-03 10:09:00.000000:  12  INFO ||NEURON_PARALLEL_COMPILE||: Total successful compilations: 37\n"
                 "2024-07-03 10:09:00.000000:  12  INFO ||NEURON_PARALLEL_COMPILE||: Total failed compilations: 1");
        log.finish();
        QVERIFY(log.trialRunStarted());
        QCOMPARE(log.extracted().size(), 1);  // the same graph twice is one graph
        QCOMPARE(log.totalGraphs(), 38);
        QCOMPARE(log.totalSucceeded(), 37);
        QCOMPARE(log.totalFailed(), 1);
        // A line too long is dropped whole; what follows it is read.
        PrecompileLogScanner longLine;
        longLine.feed(QByteArray(PrecompileLogScanner::maxLineBytes + 10, 'x'));
        longLine.feed(" Total graphs: 5\nINFO Total graphs: 7\n");
        QCOMPARE(longLine.totalGraphs(), 7);
    }

    void precompilesThenTrains()
    {
        JobSpec s = spec("slow");
        s.precompileParallel = 2;
        JobManager jobs(m_runner);
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
        QVERIFY2(jobs.plan(s, &plan, &problems, &error), qPrintable(error));
        QCOMPARE(plan.record.precompileArgv.value(0), m_bin + QStringLiteral("/neuron_parallel_compile"));
        QVERIFY(plan.script.contains(QStringLiteral("neuron_parallel_compile")));
        QVERIFY2(plan.commandLine.contains(QStringLiteral("NEURON_PARALLEL_COMPILE_DUMP_RESULTS=1")), qPrintable(plan.commandLine));
        QVERIFY(jobs.launch(plan, &error));
        const QString id = plan.record.id;
        JobFollower f(m_runner, plan.record);
        bool sawCompiling = false, sawLocked = false;
        const JobStatus st = test::followJob(f, 180000, [&](const JobFollower &x) {
            if (x.status().state == JobState::Compiling && isPrecompiling(x.status())) {
                sawCompiling = true;
                const CacheSnapshot snap = scanned(s.compileCacheUrl);
                const PrecompileProgress p = readPrecompileProgress(*m_runner, jobs.paths(id), &snap);
                sawLocked = sawLocked || (p.found == 3 && p.locked == 1);
            }
            return false;
        });
        QVERIFY2(st.state == JobState::Finished, qPrintable(jobStateName(st.state) + QStringLiteral(": ") + st.reason));
        QVERIFY(sawCompiling);
        QVERIFY(sawLocked);  // a graph compiling (its lock) while the phase ran
        QCOMPARE(st.precompileExit, 0);
        QCOMPARE(st.step, 3);  // then the training ran to its end
        const QByteArray calls = test::readFile(m_bin + QStringLiteral("/calls"));
        QVERIFY2(calls.startsWith("--num_parallel 2 "), calls.constData());
        QVERIFY(calls.contains("NEURON_PARALLEL_COMPILE_DUMP_RESULTS=1\n"));
        QVERIFY(calls.contains("NEURON_PARALLEL_COMPILE_MAX_RETRIES=1\n"));
        // The trial run wrote into the phase's own output folder, not the training's.
        QVERIFY(QFileInfo::exists(jobs.paths(id).precompilePhase().defaultOutputDir()));
        const CacheSnapshot snap = scanned(s.compileCacheUrl);
        const PrecompileProgress p = readPrecompileProgress(*m_runner, jobs.paths(id), &snap);
        QCOMPARE(p.exitStatus, 0);
        QCOMPARE(p.found, 3);
        QCOMPARE(p.done, 3);
        QCOMPARE(p.failed, 0);
        for (const PrecompileGraph &g : p.graphs) {
            QVERIFY2(g.key.startsWith(QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_300")), qPrintable(g.key));
            QVERIFY(g.result && g.result->ok);
            QCOMPARE(g.result->seconds, 1.5);
        }
        QVERIFY(p.text().startsWith(QStringLiteral("Precompile finished: 3 graph")));
        // The saved status keeps the phase (read back as `job status` reads it).
        QCOMPARE(jobs.summary(id, false, &error).status.precompileExit, 0);
    }

    void aFailedGraphStopsBeforeTraining()
    {
        // The stand-in exits 0 but its results file marks a graph failed: the job reads the file, not only the status.
        JobManager jobs(m_runner);
        QString error;
        JobSpec s = spec("fail");
        s.compileCacheUrl = m_tmp.filePath(QStringLiteral("cache-fail"));  // a cache without the graphs
        const QString id = test::launchSpec(jobs, s, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        const JobStatus st = test::waitForEnd(jobs, id, 180000);
        QCOMPARE(st.state, JobState::Failed);
        QCOMPARE(st.reasonCode, QStringLiteral("precompile_failed"));
        QCOMPARE(st.precompileExit, 1);
        QVERIFY2(st.reasonDetail.contains(QStringLiteral("Total failed compilations: 1")), qPrintable(st.reasonDetail));
        QCOMPARE(st.step, 0);
        QVERIFY(!QFileInfo::exists(jobs.paths(id).launcherLog()));  // the training never started
        const CacheSnapshot snap = scanned(s.compileCacheUrl);
        const PrecompileProgress p = readPrecompileProgress(*m_runner, jobs.paths(id), &snap);
        QCOMPARE(p.failed, 1);
        QCOMPARE(p.done, 2);
        QCOMPARE(p.exitStatus, 1);
        QVERIFY(p.text().contains(QStringLiteral("The training was not started")));

        const QString trial = test::launchSpec(jobs, spec("trialfail"), &error);
        const JobStatus t = test::waitForEnd(jobs, trial, 120000);
        QCOMPARE(t.state, JobState::Failed);
        QCOMPARE(t.reasonCode, QStringLiteral("precompile_failed"));
        QVERIFY(readPrecompileProgress(*m_runner, jobs.paths(trial), nullptr).trialRunFailed);
    }

    void withoutTheSdkItIsRefusedWithWords()
    {
        JobSpec s = spec();
        s.python = QStringLiteral("/usr/bin/python3");  // no neuron_parallel_compile beside it, none on the PATH
        JobManager jobs(m_runner);
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
        QVERIFY(!jobs.plan(s, &plan, &problems, &error));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.first().field, QStringLiteral("precompile"));
        QVERIFY(problems.first().message.contains(QStringLiteral("neuron_parallel_compile")));
        s.precompile = false;
        QVERIFY2(jobs.plan(s, &plan, &problems, &error), qPrintable(error));
        QVERIFY(plan.record.precompileArgv.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPrecompile)
#include "tst_precompile.moc"
