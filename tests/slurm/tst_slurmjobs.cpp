// Training jobs submitted through a real private Slurm cluster (slurmctld + slurmd on 127.0.0.1): Ingot's backend at
// tp=2 runs to the end with the same losses as the same job run here; a job waiting for nodes shows Slurm's reason,
// is stopped by Stop (SIGTERM through Slurm: checkpoint-N, stopped, nothing left in the queue) and the waiting one
// then runs; a time limit ends a job as timed out; a drained node keeps a job pending with the reason; a restarted
// service follows a running job again; a submit Slurm refuses is said in its words and leaves no job folder; the
// login node over a real sshd; `ingot-cli job launch --slurm local` and `job status --json` name the Slurm job.
#include "services/jobs/jobmanager.h"
#include "services/jobs/neuronmonitor.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/jobtext.h"
#include "services/jobs/jobvalidate.h"
#include "services/jobs/shelljobrunner.h"
#include "services/remote/remotehosts.h"
#include "services/remote/sshconnection.h"
#include "services/remote/jobrunners.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "tests/support/testsshd.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testslurm.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ingot;
using ingot::test::TestSlurm;
using ingot::test::TestSlurmOptions;

class TestSlurmJobs : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSlurm> m_slurm;
    QTemporaryDir m_tmp;
    std::shared_ptr<JobRunner> m_runner;

    JobSpec spec(const QStringList &args, bool slurm = true) const
    {
        JobSpec s;
        QString error;
        if (!s.parseTrainingArguments(args, &error))
            qWarning("%s", qPrintable(error));
        s.nprocPerNode = 2;
        s.python = QStringLiteral("/usr/bin/python3");
        s.slurm.enabled = slurm;
        s.slurm.slurmConf = m_slurm->confPath();
        return s;
    }

    QString launch(JobManager &jobs, const JobSpec &s, QString *error, LaunchPlan *planOut = nullptr)
    {
        LaunchPlan plan;
        QVector<JobProblem> problems;
        if (!jobs.plan(s, &plan, &problems, error)) {
            for (const JobProblem &p : problems)
                *error += QStringLiteral(" --%1: %2").arg(p.field, p.message);
            return {};
        }
        if (planOut)
            *planOut = plan;
        return jobs.launch(plan, error) ? plan.record.id : QString();
    }

    // Follows a job (as the service and `job wait` do) until `until` holds or it has ended.
    JobStatus follow(JobManager &jobs, const QString &id, int timeoutMs,
                     const std::function<bool(const JobStatus &)> &until = {})
    {
        JobRecordFile r;
        QString error;
        if (!jobs.load(id, &r, &error))
            return {};
        JobFollower f(m_runner, r);
        return test::followJob(f, timeoutMs, [&](const JobFollower &x) { return until && until(x.status()); });
    }

    // A Neuron SDK environment as the precompile step needs one, with a stand-in for what cannot run here: a folder
    // with `python3` (this machine's) and `neuron_parallel_compile`, a stand-in that records how it was called and
    // runs the command as the real one's graph extraction does (NEURON_EXTRACT_GRAPHS_ONLY=1), printing its
    // summary line; with the file `fail` beside it, it reports a failed graph and exits 1 without running anything;
    // with `slow`, it waits (a long compile). The real tool's behaviour: docs/formats.md ("Slurm jobs").
    QString neuronEnvironment()
    {
        const QString bin = m_tmp.filePath(QStringLiteral("neuron-venv/bin"));
        QDir().mkpath(bin);
        QFile::remove(bin + QStringLiteral("/python3"));
        QFile::link(QStringLiteral("/usr/bin/python3"), bin + QStringLiteral("/python3"));
        const QString tool = bin + QStringLiteral("/neuron_parallel_compile");
        test::writeFile(tool, "#!/bin/sh\n"
                              "here=$(dirname \"$0\")\n"
                              "{ printf '%s\\n' \"$*\"; env | grep '^NEURON_PARALLEL_COMPILE' | sort; } >\"$here/calls.$SLURM_NODEID\"\n"
                              "if [ -e \"$here/fail\" ]; then\n"
                              "  echo 'ERROR ||NEURON_PARALLEL_COMPILE||: Compilation failed for 1 graph(s): MODULE_123+abc' >&2; exit 1\n"
                              "fi\n"
                              "[ -e \"$here/slow\" ] && sleep 600\n"
                              "NEURON_EXTRACT_GRAPHS_ONLY=1 \"$@\" || exit $?\n"
                              "echo 'INFO ||NEURON_PARALLEL_COMPILE||: Total graphs: 0, compiled 0, failed 0'\n");
        QFile::setPermissions(tool, QFile::permissions(tool) | QFileDevice::ExeOwner | QFileDevice::ExeUser);
        for (const char *flag : {"fail", "slow"})
            QFile::remove(bin + QLatin1Char('/') + QLatin1String(flag));
        return bin;
    }

    // A 3-step job with a precompile phase in the Neuron environment; `flag` ("fail", "slow") set beside the stand-in.
    JobSpec precompileSpec(const char *flag = nullptr)
    {
        const QString bin = neuronEnvironment();
        if (flag)
            test::writeFile(bin + QLatin1Char('/') + QLatin1String(flag), "");
        JobSpec s = spec({QStringLiteral("--max_steps"), QStringLiteral("3")});
        s.python = bin + QStringLiteral("/python3");
        s.slurm.precompile = true;
        return s;
    }

    QByteArray queue() const
    {
        return m_slurm->client(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%i")}).out.trimmed();
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        if (!TestSlurm::available())
            QSKIP("slurmctld/slurmd/slurm-client are not installed (packaging/install-deps.sh --test)");
        TestSlurmOptions o;
        o.nodes = 1;
        o.cpus = 2;
        m_slurm = std::make_unique<TestSlurm>(o);
        QString error;
        QVERIFY2(m_slurm->start(&error), qPrintable(error));
        m_runner = makeLocalJobRunner(m_tmp.filePath(QStringLiteral("jobs")));
    }

    void cleanup()
    {
        if (!m_slurm)
            return;
        for (const QByteArray &id : queue().split('\n'))
            if (!id.trimmed().isEmpty())
                m_slurm->client(QStringLiteral("scancel"), {QString::fromLatin1(id.trimmed())});
        m_slurm->resume(QStringLiteral("n1"));  // a test that failed while it held the node drained
        QVERIFY(m_slurm->waitQueueEmpty(60000));
        QVERIFY2(m_slurm->waitIdle(60000), qPrintable(m_slurm->log()));
    }

    void cleanupTestCase() { m_slurm.reset(); }

    // Ingot's backend at tp=2 through sbatch: the batch script previewed is the one submitted, every rank's log is
    // where the follower reads it, and the losses equal those of the same job run here without Slurm.
    void aTp2JobRunsAsItRunsHere()
    {
        JobManager jobs(m_runner);
        const QStringList args = {QStringLiteral("--config_name"), QStringLiteral("tiny"), QStringLiteral("--tensor_parallel_size"),
                                  QStringLiteral("2"), QStringLiteral("--max_steps"), QStringLiteral("4")};
        QString error;
        LaunchPlan plan;
        const QString id = launch(jobs, spec(args), &error, &plan);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        QVERIFY(plan.script.startsWith(QLatin1String("#!/bin/bash\n#SBATCH --job-name=ingot-") + id));
        QVERIFY(plan.script.contains(QLatin1String("--exclusive")));
        QCOMPARE(test::readFile(jobs.paths(id).slurmScript()), plan.batchScript);
        const QByteArray slurmId = test::readFile(jobs.paths(id).slurmJobIdFile()).trimmed();
        QVERIFY(!slurmId.isEmpty());

        const JobStatus st = follow(jobs, id, 240000);
        QVERIFY2(st.state == JobState::Finished, qPrintable(jobStateName(st.state) + QStringLiteral(": ") + st.reason
                                                             + QString::fromUtf8(test::readFile(jobs.paths(id).launcherLog()))));
        QCOMPARE(st.slurm.jobId, QString::fromLatin1(slurmId));
        QCOMPARE(st.step, 4);
        QCOMPARE(st.exitStatus, 0);
        const QVector<MetricPoint> viaSlurm = jobs.summary(id, true, &error).metrics;
        QCOMPARE(viaSlurm.size(), 4);

        const QString here = launch(jobs, spec(args, false), &error);
        QVERIFY2(!here.isEmpty(), qPrintable(error));
        QCOMPARE(follow(jobs, here, 240000).state, JobState::Finished);
        const QVector<MetricPoint> local = jobs.summary(here, true, &error).metrics;
        QCOMPARE(local.size(), viaSlurm.size());
        for (int i = 0; i < local.size(); ++i) {
            QCOMPARE(viaSlurm.at(i).step, local.at(i).step);
            QCOMPARE(viaSlurm.at(i).loss, local.at(i).loss);
        }
        QVERIFY(queue().isEmpty());
    }

    // Two nodes (two slurmd on this machine) with one process each: the same tp=2 job as one node with two
    // processes, the same losses; node 1's ranks log into node-1/logs and the follower reads them there.
    void twoNodesEqualOneNodeWithTwoProcesses()
    {
        TestSlurmOptions o;
        o.nodes = 2;
        o.cpus = 1;
        TestSlurm two(o);
        QString error;
        QVERIFY2(two.start(&error), qPrintable(error));
        JobManager jobs(m_runner);
        const QStringList args = {QStringLiteral("--config_name"), QStringLiteral("tiny"), QStringLiteral("--tensor_parallel_size"),
                                  QStringLiteral("2"), QStringLiteral("--max_steps"), QStringLiteral("3")};
        JobSpec s = spec(args);
        s.slurm.slurmConf = two.confPath();
        s.nnodes = 2;
        s.nprocPerNode = 1;
        const QString id = launch(jobs, s, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        JobRecordFile r;
        QVERIFY(jobs.load(id, &r, &error));
        JobFollower f(m_runner, r);
        const JobStatus st = test::followJob(f, 240000);
        QVERIFY2(st.state == JobState::Finished, qPrintable(jobStateName(st.state) + QStringLiteral(": ") + st.reason
                                                             + QString::fromUtf8(test::readFile(jobs.paths(id).launcherLog()))));
        QCOMPARE(st.worldSize, 2);
        QVERIFY2(f.ranks() == (QList<int>{0, 1}), qPrintable(QString::number(f.ranks().size())));
        QVERIFY(f.rankLog(1, false).contains(QLatin1String("/node-1/logs/")));
        QCOMPARE(st.slurm.nodes, 2);
        QCOMPARE(f.metrics().size(), 3);
        const QVector<MetricPoint> twoNodes = jobs.summary(id, true, &error).metrics;
        QVERIFY2(error.isEmpty(), qPrintable(error));

        const QString one = launch(jobs, spec(args, false), &error);
        QVERIFY2(!one.isEmpty(), qPrintable(error));
        QCOMPARE(follow(jobs, one, 240000).state, JobState::Finished);
        const QVector<MetricPoint> oneNode = jobs.summary(one, true, &error).metrics;
        QCOMPARE(twoNodes.size(), oneNode.size());
        for (int i = 0; i < oneNode.size(); ++i)
            QCOMPARE(twoNodes.at(i).loss, oneNode.at(i).loss);
        QVERIFY(two.waitQueueEmpty(60000));
    }

    // Two jobs for one node: the second waits with Slurm's reason and its place in the queue; Stop sends SIGTERM to
    // the first through Slurm (it saves checkpoint-N and is stopped), then the second runs to its end.
    void aWaitingJobShowsWhyAndRunsWhenTheFirstStops()
    {
        JobManager jobs(m_runner);
        QString error;
        const QString first = launch(jobs, spec({QStringLiteral("--max_steps"), QStringLiteral("100000")}), &error);
        QVERIFY2(!first.isEmpty(), qPrintable(error));
        JobStatus st = follow(jobs, first, 180000, [](const JobStatus &s) { return s.step >= 1; });
        QVERIFY2(st.step >= 1, qPrintable(jobStateName(st.state) + QStringLiteral(" ") + st.reason));
        QCOMPARE(st.state, JobState::Running);
        QCOMPARE(st.slurm.state, QStringLiteral("RUNNING"));
        // No time limit in a partition without one: Slurm says 365-00:00:00 (its backfill's stand-in) until slurmctld
        // restarts and says UNLIMITED; Ingot says "unlimited" for both.
        QVERIFY2(slurmStatusText(st.slurm).endsWith(QLatin1String(" of unlimited")), qPrintable(slurmStatusText(st.slurm)));
        SchedulerStatus restarted = st.slurm;
        restarted.timeLimit = QStringLiteral("UNLIMITED");
        QCOMPARE(slurmStatusText(restarted), slurmStatusText(st.slurm));

        const QString second = launch(jobs, spec({QStringLiteral("--max_steps"), QStringLiteral("2")}), &error);
        QVERIFY2(!second.isEmpty(), qPrintable(error));
        st = follow(jobs, second, 60000, [](const JobStatus &s) { return !s.slurm.reason.isEmpty(); });
        QCOMPARE(st.state, JobState::Pending);
        QCOMPARE(st.slurm.state, QStringLiteral("PENDING"));
        QVERIFY2(st.slurm.reason == QLatin1String("Resources") || st.slurm.reason == QLatin1String("Priority"), qPrintable(st.slurm.reason));
        QCOMPARE(st.slurm.position, 1);
        QVERIFY(st.alive);

        QString message;
        QCOMPARE(jobs.stop(first, false, &message), JobManager::StopResult::Signalled);
        st = follow(jobs, first, 120000);
        QCOMPARE(st.state, JobState::Stopped);
        QCOMPARE(st.reasonCode, QStringLiteral("stopped_at_step"));
        // One outcome: a stop that went as asked is COMPLETED for Slurm too (the batch script ends 0), not FAILED.
        QCOMPARE(st.slurm.state, QStringLiteral("COMPLETED"));
        QVERIFY2(st.lastCheckpoint.contains(QLatin1String("checkpoint-")), qPrintable(st.lastCheckpoint));
        QVERIFY(QFileInfo(st.lastCheckpoint).isDir());

        st = follow(jobs, second, 240000);
        QCOMPARE(st.state, JobState::Finished);
        // The history keeps how long it waited for the node (the first job's run, at least its first step) and
        // how long it ran as Slurm counts it, in summary.json.
        QVERIFY2(st.slurm.queueWaitSeconds >= 1, qPrintable(st.slurm.submitTime + QStringLiteral(" ") + st.slurm.startTime));
        QVERIFY(st.slurm.runSeconds >= 0);
        QVERIFY(st.slurm.runSeconds <= st.elapsed(0) + 1);
        QCOMPARE(jobs.summary(second, false, &error).status.state, JobState::Finished);  // what the CLI's status records
        JobStatus saved;
        QVERIFY(jobs.finalSummary(second, &saved));
        QCOMPARE(saved.slurm.queueWaitSeconds, st.slurm.queueWaitSeconds);
        QCOMPARE(saved.slurm.runSeconds, st.slurm.runSeconds);
        JobRecordFile record;
        QVERIFY(jobs.load(second, &record, &error));
        const QString place = jobPlaceText(record, saved);
        QVERIFY2(place.startsWith(QStringLiteral("Slurm %1 on this machine, debug, 1 node").arg(saved.slurm.jobId)), qPrintable(place));
        QCOMPARE(queueWaitText(record, saved), durationText(double(saved.slurm.queueWaitSeconds)));
        QVERIFY(m_slurm->waitQueueEmpty(60000));
    }

    // The job rewrites its folder's slurm_job_id to another Slurm job's id (someone's job in the same queue): Ingot
    // follows and stops the id sbatch gave it (kept on this machine, out of the job's folder), and a stop --kill
    // cancels the job's own Slurm job, never the other. Where no id is kept (the job listed from another machine),
    // the folder's id is checked with scontrol (JobName, WorkDir) first: the stop is refused with words.
    void aRewrittenSlurmJobIdNeverCancelsAnotherJob()
    {
        const QString script = m_tmp.filePath(QStringLiteral("rewrites.py"));
        const QString otherIdFile = m_tmp.filePath(QStringLiteral("other-id"));
        QFile::remove(otherIdFile);
        test::writeFile(script, "import os, time\n"
                                "src = '" + QFile::encodeName(otherIdFile) + "'\n"
                                "while not os.path.exists(src):\n"
                                "    time.sleep(0.2)\n"
                                "job = os.environ['INGOT_JOB_DIR']\n"
                                "open(os.path.join(job, 'slurm_job_id.tmp'), 'w').write(open(src).read())\n"
                                "os.rename(os.path.join(job, 'slurm_job_id.tmp'), os.path.join(job, 'slurm_job_id'))\n"
                                "open(os.path.join(job, 'rewritten'), 'w').close()\n"
                                "time.sleep(600)\n");
        JobSpec s = spec({});
        s.program = JobProgram::Script;
        s.script = script;
        s.passSettings = false;
        s.nprocPerNode = 1;
        JobManager jobs(m_runner);
        QString error;
        const QString id = launch(jobs, s, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        const QByteArray own = test::readFile(jobs.paths(id).slurmJobIdFile()).trimmed();
        JobStatus st = follow(jobs, id, 120000, [](const JobStatus &x) { return x.slurm.state == QLatin1String("RUNNING"); });
        QCOMPARE(st.slurm.state, QStringLiteral("RUNNING"));
        // Someone else's job: it waits behind Ingot's (which holds the node exclusively).
        const TestSlurm::Run other = m_slurm->client(QStringLiteral("sbatch"), {QStringLiteral("--parsable"), QStringLiteral("--job-name=someone"),
                                                                               QStringLiteral("--output=/dev/null"), QStringLiteral("--wrap=sleep 600")});
        QCOMPARE(other.code, 0);
        const QByteArray otherId = other.out.trimmed();
        test::writeFile(otherIdFile, otherId + '\n');
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(jobs.paths(id).root + QStringLiteral("/rewritten")), 60000);
        QCOMPARE(test::readFile(jobs.paths(id).slurmJobIdFile()).trimmed(), otherId);

        st = follow(jobs, id, 10000, [](const JobStatus &) { return true; });
        QCOMPARE(st.slurm.jobId, QString::fromLatin1(own));  // the kept id, not the folder's
        // Listed from elsewhere (no id kept here): the folder's id is someone else's job, and the stop says so.
        const QString kept = keptSlurmJobIdFile(QStringLiteral("local"), jobs.paths(id).root);
        const QByteArray keptBytes = test::readFile(kept);
        QVERIFY(QFile::remove(kept));
        QString message;
        QCOMPARE(jobs.stop(id, true, &message), JobManager::StopResult::Failed);
        QVERIFY2(message.contains(QString::fromLatin1(otherId)) && message.contains(QLatin1String("not this job's")), qPrintable(message));
        test::writeFile(kept, keptBytes);
        QCOMPARE(jobs.stop(id, true, &message), JobManager::StopResult::Killed);
        QVERIFY2(message.contains(QString::fromLatin1(own)), qPrintable(message));
        st = follow(jobs, id, 120000);
        QCOMPARE(st.state, JobState::Stopped);
        // The other job was never cancelled: it runs now on the node Ingot's job left.
        QTRY_COMPARE_WITH_TIMEOUT(m_slurm->client(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-j"), QString::fromLatin1(otherId),
                                                                              QStringLiteral("-o"), QStringLiteral("%T")}).out.trimmed(),
                                  QByteArray("RUNNING"), 60000);
    }

    // Ingot restarts while a Slurm job runs: a new service finds the job in its history and follows it, from the
    // scheduler and the files, to its end.
    void aRestartedServiceFollowsTheJobAgain()
    {
        QString error;
        JobManager jobs(m_runner);
        const QString id = launch(jobs, spec({QStringLiteral("--max_steps"), QStringLiteral("40")}), &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        auto service = std::make_unique<JobService>(m_runner);
        service->setPollInterval(200);
        QTRY_VERIFY_WITH_TIMEOUT(service->find(id), 20000);
        service->watch(id);
        QTRY_VERIFY_WITH_TIMEOUT(service->status(id).step >= 1, 180000);
        QVERIFY(service->status(id).alive);
        service.reset();  // Ingot quits; the job goes on in Slurm
        QCOMPARE(queue(), test::readFile(jobs.paths(id).slurmJobIdFile()).trimmed());
        service = std::make_unique<JobService>(m_runner);
        service->setPollInterval(200);
        QTRY_VERIFY_WITH_TIMEOUT(service->find(id), 20000);
        service->watch(id);
        QTRY_COMPARE_WITH_TIMEOUT(service->status(id).state, JobState::Finished, 240000);
        QCOMPARE(service->status(id).step, 40);
        QVERIFY(!service->status(id).slurm.jobId.isEmpty());
    }

    // Slurm refuses the submit (no such partition): its words, and no job folder is left.
    void aRefusedSubmitLeavesNothing()
    {
        JobManager jobs(m_runner);
        JobSpec s = spec({QStringLiteral("--max_steps"), QStringLiteral("2")});
        s.slurm.partition = QStringLiteral("nosuch");
        const QStringList before = QDir(m_runner->jobsRoot()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QString error;
        QVERIFY(launch(jobs, s, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("partition"), Qt::CaseInsensitive), qPrintable(error));
        QCOMPARE(QDir(m_runner->jobsRoot()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), before);
        QVERIFY(queue().isEmpty());
    }

    // Precompile first: a Slurm job runs the command under neuron_parallel_compile in JOB/precompile (its own output
    // folder), the training job waits on it (afterok) and then runs to its end; the job shows Compiling meanwhile.
    void precompileRunsFirstThenTheTraining()
    {
        JobManager jobs(m_runner);
        const JobSpec s = precompileSpec();
        const QString bin = QFileInfo(s.python).path();
        QString error;
        LaunchPlan plan;
        const QString id = launch(jobs, s, &error, &plan);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        // The preview: both scripts, and one shell line that submits them as Ingot did.
        QVERIFY(plan.script.contains(bin + QStringLiteral("/neuron_parallel_compile")));
        QVERIFY(plan.script.contains(QLatin1String("NEURON_PARALLEL_COMPILE_DUMP_RESULTS")));
        QVERIFY2(plan.commandLine.contains(QLatin1String("--dependency=afterok:\"$ID\" --kill-on-invalid-dep=yes")),
                 qPrintable(plan.commandLine));
        const JobPaths phase = jobs.paths(id).precompilePhase();
        QVERIFY(QFileInfo(phase.slurmScript()).isFile());

        JobRecordFile r;
        QVERIFY(jobs.load(id, &r, &error));
        QCOMPARE(slurmScriptsOf(r), (QStringList{phase.slurmScript(), jobs.paths(id).slurmScript()}));  // the monitor's Batch script…
        JobFollower f(m_runner, r);
        bool sawCompiling = false;
        const JobStatus st = test::followJob(f, 240000, [&](const JobFollower &x) {
            if (x.status().state == JobState::Compiling && isPrecompiling(x.status()))
                sawCompiling = true;
            return false;
        });
        QVERIFY2(st.state == JobState::Finished, qPrintable(jobStateName(st.state) + QStringLiteral(": ") + st.reason));
        QVERIFY(sawCompiling);
        QCOMPARE(st.precompile.batchExitStatus, 0);
        QVERIFY(!st.precompile.jobId.isEmpty());
        QVERIFY(st.precompile.jobId != st.slurm.jobId);
        QCOMPARE(QString::fromLatin1(test::readFile(phase.slurmJobIdFile()).trimmed()), st.precompile.jobId);
        QCOMPARE(f.metrics().size(), 3);
        // It ran the training command, writing into its own output folder, with the SDK's settings.
        const QByteArray calls = test::readFile(bin + QStringLiteral("/calls.0"));
        QVERIFY2(calls.contains("-m ingot_train.launch") && calls.contains(nameToBytes(phase.defaultOutputDir())), calls.constData());
        QVERIFY(calls.contains("NEURON_PARALLEL_COMPILE_DUMP_RESULTS=1\nNEURON_PARALLEL_COMPILE_MAX_RETRIES=1"));
        QVERIFY(QFileInfo(phase.defaultOutputDir()).isDir());
        QVERIFY(test::readFile(phase.launcherLog()).contains("Total graphs"));
        QVERIFY(jobs.summary(id, false, &error).status.precompile.batchExitStatus == 0);  // kept in summary.json
        QVERIFY(m_slurm->waitQueueEmpty(60000));
    }

    // A failed precompile: Slurm cancels the training job that waited on it, and the job is failed with the
    // precompile's words; the training never started.
    void aFailedPrecompileNeverStartsTheTraining()
    {
        JobManager jobs(m_runner);
        QString error;
        const QString id = launch(jobs, precompileSpec("fail"), &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        const JobStatus st = follow(jobs, id, 240000);
        QVERIFY2(st.state == JobState::Failed, qPrintable(jobStateName(st.state) + QStringLiteral(": ") + st.reason));
        QCOMPARE(st.reasonCode, QStringLiteral("slurm_precompile_failed"));
        QCOMPARE(st.reasonArgs.value(1), QStringLiteral("exit status 1"));
        QVERIFY2(st.reasonDetail.contains(QLatin1String("Compilation failed for 1 graph(s)")), qPrintable(st.reasonDetail));
        QCOMPARE(st.step, 0);
        QVERIFY(!QFileInfo::exists(jobs.paths(id).exitFile()));  // the training's script never ran
        QVERIFY(m_slurm->waitQueueEmpty(60000));
    }

    // Stop while it precompiles: nothing to save yet, so both Slurm jobs are cancelled and the job is stopped.
    void aStopDuringThePrecompileCancelsBoth()
    {
        JobManager jobs(m_runner);
        QString error;
        const QString id = launch(jobs, precompileSpec("slow"), &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        JobStatus st = follow(jobs, id, 120000, [](const JobStatus &x) { return x.state == JobState::Compiling; });
        QCOMPARE(st.state, JobState::Compiling);
        QVERIFY2(slurmPhasesText(st).contains(QLatin1String("precompile job")), qPrintable(slurmPhasesText(st)));
        QVERIFY2(st.slurm.reason == QLatin1String("Dependency"), qPrintable(st.slurm.reason));
        QString message;
        QCOMPARE(jobs.stop(id, false, &message), JobManager::StopResult::Killed);
        QVERIFY2(message.contains(st.precompile.jobId) && message.contains(st.slurm.jobId), qPrintable(message));
        QVERIFY(m_slurm->waitQueueEmpty(60000));
        st = follow(jobs, id, 60000);
        QCOMPARE(st.state, JobState::Stopped);
    }

    // Without neuron_parallel_compile where the job runs, the launch is refused before anything is submitted.
    void precompileWithoutTheSdkIsRefused()
    {
        JobManager jobs(m_runner);
        JobSpec s = spec({QStringLiteral("--max_steps"), QStringLiteral("3")});
        s.slurm.precompile = true;
        const QStringList before = QDir(m_runner->jobsRoot()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QString error;
        QVERIFY(launch(jobs, s, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("neuron_parallel_compile")), qPrintable(error));
        QCOMPARE(QDir(m_runner->jobsRoot()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), before);
        QVERIFY(queue().isEmpty());
    }

    // Issue 37: a Slurm job's Python is asked on a compute node (srun from the login node, never queued), for the
    // engine the launcher proposes: Debian's torch 1.13 there proposes xla. A node that is not free at once: asked on
    // the login node, and said.
    void theJobsPythonIsAskedOnANode()
    {
        SlurmSettings slurm;
        slurm.enabled = true;
        slurm.slurmConf = m_slurm->confPath();
        // What the launcher and job launch ask: the login node, said so.
        const PythonInfo onLogin = probeJobPython(*m_runner, QStringLiteral("/usr/bin/python3"), slurm);
        QVERIFY2(onLogin.usable(), qPrintable(onLogin.error));
        QVERIFY2(onLogin.askedOn.startsWith(QStringLiteral("asked on the login node")), qPrintable(onLogin.askedOn));
        QVERIFY(queue().isEmpty());  // nothing was put in the queue
        const PythonInfo there = probeJobPython(*m_runner, QStringLiteral("/usr/bin/python3"), slurm, true);
        QVERIFY2(there.usable(), qPrintable(there.error));
        QVERIFY2(there.askedOn.isEmpty(), qPrintable(there.askedOn));
        QCOMPARE(jobEngineFor(there).engine, QStringLiteral("xla"));
        QVERIFY(m_slurm->waitQueueEmpty(60000));  // the probe's allocation ends with it
        // Once a node answered, the checks that ask the login node take the node's answer (nothing queued again).
        const PythonInfo after = probeJobPython(*m_runner, QStringLiteral("/usr/bin/python3"), slurm);
        QVERIFY2(after.askedOn.isEmpty(), qPrintable(after.askedOn));
        QCOMPARE(after.version, there.version);
        QVERIFY(queue().isEmpty());

        // The node drained: no node at once, so the login node answers, and the proposal says so.
        QVERIFY(m_slurm->drain(QStringLiteral("n1"), QStringLiteral("probe test")));
        slurm.partition = QStringLiteral("debug");  // another key: asked again
        const PythonInfo login = probeJobPython(*m_runner, QStringLiteral("/usr/bin/python3"), slurm, true);
        QVERIFY2(login.usable(), qPrintable(login.error));
        QVERIFY2(login.askedOn.startsWith(QStringLiteral("asked on the login node: srun gave no compute node at once")),
                 qPrintable(login.askedOn));
        QVERIFY(jobEngineFor(login).reason.contains(QStringLiteral("asked on the login node")));
        QVERIFY(m_slurm->resume(QStringLiteral("n1")));
    }

    // An output folder whose name is odd bytes (spaces, quotes, a byte that is not UTF-8, a '$'): the batch script
    // carries it byte for byte, the job writes its checkpoint there, and the follower reads it.
    // NeuronCores of a running Slurm job: neuron-monitor (the stand-in of tests/support/standins, on the PATH the
    // job and srun inherit) runs on the job's node as a step of it (srun --overlap), and sees the job's runtime.
    void neuronCoresOfARunningJob()
    {
        const QByteArray path = qgetenv("PATH");
        const QString bin = test::neuronStandIns(m_tmp.filePath(QStringLiteral("sdk")));
        qputenv("PATH", bin.toUtf8() + ':' + path);
        const QString script = m_tmp.filePath(QStringLiteral("waits.py"));
        test::writeFile(script, "import time\ntime.sleep(40)\n");
        JobSpec s = spec({});
        s.program = JobProgram::Script;
        s.script = script;
        s.passSettings = false;
        s.nprocPerNode = 1;
        JobManager jobs(m_runner);
        QString error;
        const QString id = launch(jobs, s, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        JobRecordFile r;
        QVERIFY(jobs.load(id, &r, &error));
        JobFollower f(m_runner, r);
        const JobStatus running = test::followJob(f, 120000, [](const JobFollower &x) {
            return x.status().slurm.state == QLatin1String("RUNNING") && x.status().alive;
        });
        QCOMPARE(running.slurm.state, QStringLiteral("RUNNING"));
        const NeuronSample n = sampleNeuronCores(*m_runner, id, true, 60000, running.slurm.jobId, m_slurm->confPath());
        qputenv("PATH", path);
        // Without the SDK on the node (srun passes this PATH on): said, with the job's id.
        const NeuronSample none = sampleNeuronCores(*m_runner, id, false, 60000, running.slurm.jobId, m_slurm->confPath());
        jobs.stop(id, true, &error);
        QVERIFY2(n.available && n.report, qPrintable(n.error));
        QCOMPARE(n.report->runtimes, 1);
        QCOMPARE(n.report->utilization.size(), 4);
        QVERIFY(n.devices);
        QCOMPARE(n.devices->size(), 1);
        QVERIFY(!none.available);
        QVERIFY2(none.error.contains(QStringLiteral("not installed on the nodes of Slurm job ") + running.slurm.jobId),
                 qPrintable(none.error));
    }

    void anOutputFolderOfOddBytes()
    {
        JobManager jobs(m_runner);
        JobSpec s = spec({QStringLiteral("--max_steps"), QStringLiteral("3"), QStringLiteral("--save_steps"), QStringLiteral("2")});
        const QByteArray folder = QFile::encodeName(m_tmp.path()) + "/out 'it''s' \xe9 $HOME";
        s.outputDir = nameFromBytes(folder);
        QString error;
        const QString id = launch(jobs, s, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        const JobStatus st = follow(jobs, id, 240000);
        QVERIFY2(st.state == JobState::Finished, qPrintable(jobStateName(st.state) + QStringLiteral(": ") + st.reason));
        struct stat info;
        QCOMPARE(::stat(QByteArray(folder + "/checkpoint-2").constData(), &info), 0);  // the exact bytes on disk
        QVERIFY(S_ISDIR(info.st_mode));
        QCOMPARE(nameToBytes(st.lastCheckpoint), folder);  // the final save, in the folder itself
        QVERIFY(m_slurm->waitQueueEmpty(60000));
    }

    // A job at its time limit: Slurm ends it (SIGTERM: the backend saves a checkpoint on its way out) and the job is
    // shown as timed out, not as stopped by the user.
    void aTimeLimitEndsItAsTimedOut()
    {
        JobManager jobs(m_runner);
        JobSpec s = spec({QStringLiteral("--max_steps"), QStringLiteral("1000000")});
        s.slurm.timeLimit = QStringLiteral("1");
        QString error;
        const QString id = launch(jobs, s, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        const JobStatus st = follow(jobs, id, 300000);
        QCOMPARE(st.state, JobState::Failed);
        QCOMPARE(st.reasonCode, QStringLiteral("slurm_timeout"));
        QCOMPARE(st.slurm.state, QStringLiteral("TIMEOUT"));
        QVERIFY(st.step > 0);
        QVERIFY(m_slurm->waitQueueEmpty(60000));
    }

    // A node drained while a job waits for it: the job stays pending with Slurm's reason, and runs once the node is
    // back.
    void aDrainedNodeKeepsItPendingWithTheReason()
    {
        QVERIFY(m_slurm->drain(QStringLiteral("n1"), QStringLiteral("maintenance by the test")));
        JobManager jobs(m_runner);
        QString error;
        const QString id = launch(jobs, spec({QStringLiteral("--max_steps"), QStringLiteral("2")}), &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        JobStatus st = follow(jobs, id, 60000, [](const JobStatus &s) { return !s.slurm.reason.isEmpty(); });
        QCOMPARE(st.state, JobState::Pending);
        QVERIFY2(!st.slurm.reason.isEmpty() && st.slurm.reason != QLatin1String("None"), qPrintable(st.slurm.reason));
        QVERIFY(m_slurm->resume(QStringLiteral("n1")));
        st = follow(jobs, id, 240000);
        QCOMPARE(st.state, JobState::Finished);
    }

    // The cluster's login node over SSH (a real sshd on loopback): the job is planned, written and submitted there,
    // followed through the same connection, and its end read from the shared job folder.
    void aLoginNodeOverSsh()
    {
        test::TestSshd sshd(QStringLiteral("ingot-login"));
        QString error;
        QVERIFY2(sshd.start(&error), qPrintable(error));
        QVERIFY(sshd.trustHostKey());
        AppSettings::setSshConfigFile(sshd.sshConfigFile());
        RemoteHosts::instance().reset();
        std::shared_ptr<SshConnection> connection = RemoteHosts::instance().connection(sshd.alias(), &error);
        QVERIFY2(connection, qPrintable(error));
        ShellJobRunnerOptions o;
        o.jobsRoot = m_tmp.filePath(QStringLiteral("login node jobs"));
        o.cacheRoot = m_tmp.filePath(QStringLiteral("login node cache"));
        std::shared_ptr<JobRunner> login = makeSshJobRunner(connection, o, &error);
        QVERIFY2(login, qPrintable(error));
        JobManager jobs(login);
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QVERIFY2(jobs.plan(spec({QStringLiteral("--max_steps"), QStringLiteral("3")}), &plan, &problems, &error), qPrintable(error));
        QVERIFY(plan.commandLine.contains(QLatin1String("SLURM_CONF=")));
        QVERIFY2(jobs.launch(plan, &error), qPrintable(error));
        JobFollower f(login, plan.record);
        const JobStatus st = test::followJob(f, 240000);
        QCOMPARE(st.state, JobState::Finished);
        QVERIFY(!st.slurm.jobId.isEmpty());
        QCOMPARE(st.step, 3);
        QVERIFY(QFileInfo::exists(plan.paths.slurmScript()));
        if (connection)
            connection->close();
    }

    // The CLI: job launch --slurm local, then job status --json names the Slurm job; job wait says how it ended.
    void theCliLaunchesThroughSlurm()
    {
        QProcessEnvironment env = m_slurm->environment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_tmp.filePath(QStringLiteral("cli-data")));
        env.insert(QStringLiteral("INGOT_KEYCHAIN"), QStringLiteral("none"));
        const auto cli = [&](const QStringList &args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(INGOT_CLI_PATH), args);
            p.waitForFinished(300000);
            return std::make_pair(p.exitCode(), std::make_pair(p.readAllStandardOutput(), p.readAllStandardError()));
        };
        QVERIFY(m_slurm->drain(QStringLiteral("n1"), QStringLiteral("held for the status check")));
        auto r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--slurm"), QStringLiteral("local"),
                      QStringLiteral("--nodes"), QStringLiteral("1"), QStringLiteral("--nproc-per-node"), QStringLiteral("2"),
                      QStringLiteral("--time"), QStringLiteral("10"), QStringLiteral("--python"), QStringLiteral("/usr/bin/python3"),
                      QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("2")});
        QVERIFY2(r.first == 0, r.second.second.constData());
        const QString id = QString::fromUtf8(r.second.first).trimmed();
        // Pending (its node drained): the status says so, without a process here ("torchrun pid 0").
        r = cli({QStringLiteral("job"), QStringLiteral("status"), id});
        QCOMPARE(r.first, 0);
        QVERIFY2(!r.second.first.contains("Processes:") && !r.second.first.contains("pid 0"), r.second.first.constData());
        QVERIFY(m_slurm->resume(QStringLiteral("n1")));
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id, QStringLiteral("--timeout"), QStringLiteral("240")});
        QVERIFY2(r.first == 0, QByteArray(r.second.first + r.second.second).constData());
        r = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
        QCOMPARE(r.first, 0);
        const QJsonObject st = QJsonDocument::fromJson(r.second.first).object();
        QCOMPARE(st.value(QLatin1String("state")).toString(), QStringLiteral("finished"));
        const QJsonObject slurm = st.value(QLatin1String("slurm")).toObject();
        QVERIFY(!slurm.value(QLatin1String("job_id")).toString().isEmpty());
        QCOMPARE(st.value(QLatin1String("slurm_job_id")).toString(), slurm.value(QLatin1String("job_id")).toString());
        QCOMPARE(st.value(QLatin1String("partition")).toString(), QStringLiteral("debug"));
        QCOMPARE(slurm.value(QLatin1String("partition")).toString(), QStringLiteral("debug"));
        QVERIFY(slurm.value(QLatin1String("queue_wait_s")).toDouble() >= 0);  // the history keeps the queue wait
        r = cli({QStringLiteral("job"), QStringLiteral("list")});
        QVERIFY2(r.second.first.contains("QUEUED") && r.second.first.contains(QByteArray("Slurm " + slurm.value(QLatin1String("job_id")).toString().toLatin1())),
                 r.second.first.constData());
        // --precompile with the Neuron SDK's stand-in: both phases in the dry run's script, one shell line to submit.
        const QString bin = neuronEnvironment();
        r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--slurm"), QStringLiteral("local"),
                 QStringLiteral("--precompile"), QStringLiteral("--python"), bin + QStringLiteral("/python3"),
                 QStringLiteral("--dry-run"), QStringLiteral("--json"), QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("2")});
        QVERIFY2(r.first == 0, r.second.second.constData());
        const QJsonObject dry = QJsonDocument::fromJson(r.second.first).object();
        QVERIFY2(dry.value(QLatin1String("script")).toString().contains(QLatin1String("# 1. The precompile job")), r.second.first.constData());
        QVERIFY(dry.value(QLatin1String("command")).toString().contains(QLatin1String("--dependency=afterok:")));
        // --slurm's options without --slurm: refused.
        r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--partition"), QStringLiteral("debug"),
                 QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("2")});
        QCOMPARE(r.first, 2);
        r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--precompile"), QStringLiteral("--"),
                 QStringLiteral("--max_steps"), QStringLiteral("2")});
        QCOMPARE(r.first, 2);
    }
};

QTEST_GUILESS_MAIN(TestSlurmJobs)
#include "tst_slurmjobs.moc"
