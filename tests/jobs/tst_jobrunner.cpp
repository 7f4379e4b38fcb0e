// Jobs on this machine with real torchrun (Debian's python3-torch, CPU/gloo) through the backend's launcher:
// detached start in a session of its own, following the files to the end, stop with a checkpoint and resume,
// kill after the grace period, failure reasons, re-attach, and never signalling a process that is not the job's.
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/trainerlog.h"
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

#include <csignal>
#include <unistd.h>

using namespace ingot;

namespace {

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The metric records the backend appended to OUTPUT/metrics.jsonl.
QVector<QJsonObject> metricRecords(const QString &outputDir)
{
    QVector<QJsonObject> out;
    for (const QString &line : readAll(outputDir + QStringLiteral("/metrics.jsonl")).split(QLatin1Char('\n'))) {
        const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
        if (o.value(QLatin1String("type")).toString() == QLatin1String("metric"))
            out << o;
    }
    return out;
}

JobSpec tinySpec(int nproc, int tp, int maxSteps)
{
    JobSpec s;
    s.python = QStringLiteral("/usr/bin/python3");
    s.nprocPerNode = nproc;
    s.tensorParallel = tp;
    s.maxSteps = maxSteps;
    return s;
}

// Follows until `until` is true or the job ends; returns the follower's final status.
JobStatus follow(JobFollower &f, int timeoutMs, const std::function<bool(const JobFollower &)> &until = {})
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        const JobFollower::Update u = f.poll();
        if (until && until(f))
            break;
        if (u.caughtUp && isFinal(f.status().state))
            break;
        QTest::qWait(100);
    }
    return f.status();
}

}  // namespace

class TestJobRunner : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<JobRunner> m_runner;

    QString launch(const JobSpec &spec, LaunchPlan *planOut = nullptr)
    {
        JobManager jobs(m_runner);
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
        if (!jobs.plan(spec, &plan, &problems, &error)) {
            qWarning() << error << (problems.isEmpty() ? QString() : problems.first().message);
            return {};
        }
        if (!jobs.launch(plan, &error)) {
            qWarning() << error;
            return {};
        }
        if (planOut)
            *planOut = plan;
        return plan.record.id;
    }

    std::unique_ptr<JobFollower> follower(const QString &id)
    {
        JobRecordFile r;
        QString error;
        if (!JobManager(m_runner).load(id, &r, &error))
            return {};
        return std::make_unique<JobFollower>(m_runner, r);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs")));
    }

    void launchFollowFinish()
    {
        LaunchPlan plan;
        const QString id = launch(tinySpec(2, 2, 6), &plan);
        QVERIFY(!id.isEmpty());
        QVERIFY(plan.record.port > 0 && plan.record.port != 29400);
        QVERIFY(plan.commandLine.contains(QStringLiteral("--master_port=%1").arg(plan.record.port)));
        auto f = follower(id);
        const JobStatus st = follow(*f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("finished"));
        // Detached: a session and process group of its own, not Ingot's.
        QVERIFY(st.pids.launcher.isValid());
        QVERIFY(st.pids.wrapper.sid != ::getsid(0));
        QCOMPARE(st.pids.launcher.sid, st.pids.wrapper.sid);
        // One point per logged step, equal to what the backend wrote.
        const QVector<QJsonObject> records = metricRecords(plan.record.outputDir);
        QCOMPARE(f->metrics().size(), records.size());
        QCOMPARE(records.size(), 6);
        for (int i = 0; i < records.size(); ++i) {
            QCOMPARE(f->metrics().at(i).step, records.at(i).value(QLatin1String("step")).toInteger());
            QCOMPARE(f->metrics().at(i).loss, records.at(i).value(QLatin1String("loss")).toDouble());
            QVERIFY(f->metrics().at(i).time >= 0);
        }
        QCOMPARE(st.step, 6);
        QCOMPARE(st.maxSteps, 6);
        QCOMPARE(st.exitStatus, 0);
        QCOMPARE(st.tensorParallel, 2);
        QCOMPARE(st.parameters, countParameters(builtinModel(QStringLiteral("tiny")), 2, 1, true).total);
        QCOMPARE(st.peakMemoryPerRank.size(), 2);
        QCOMPARE(f->ranks(), (QList<int>{0, 1}));
        QVERIFY(QFileInfo(f->rankLog(1, false)).isFile());
        // The history has it, and keeps its final status.
        const QVector<JobSummary> list = JobManager(m_runner).list();
        QVERIFY(std::any_of(list.begin(), list.end(), [&](const JobSummary &s) {
            return s.record.id == id && s.status.state == JobState::Finished && s.status.step == 6;
        }));
        QVERIFY(QFileInfo::exists(JobManager(m_runner).paths(id).file("summary.json")));
    }

    void stopSavesACheckpointAndResumeGoesOn()
    {
        LaunchPlan plan;
        const QString id = launch(tinySpec(2, 1, 2000), &plan);
        QVERIFY(!id.isEmpty());
        auto f = follower(id);
        follow(*f, 120000, [](const JobFollower &x) { return x.status().step >= 3; });
        QVERIFY(f->status().step >= 3);
        QString message;
        QCOMPARE(JobManager(m_runner).stop(id, false, &message), JobManager::StopResult::Signalled);
        // A second Stop within the grace period does not kill.
        QCOMPARE(JobManager(m_runner).stop(id, false, &message), JobManager::StopResult::Signalled);
        const JobStatus st = follow(*f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("stopped"));
        const QString checkpoint = plan.record.outputDir + QStringLiteral("/checkpoint-%1").arg(st.step);
        QCOMPARE(st.lastCheckpoint, checkpoint);
        QVERIFY(QFileInfo(checkpoint + QStringLiteral("/trainer_state.json")).isFile());

        JobSpec resume = plan.record.spec;
        resume.resumeFrom = checkpoint;
        resume.maxSteps = int(st.step) + 2;
        LaunchPlan plan2;
        const QString id2 = launch(resume, &plan2);
        QVERIFY(!id2.isEmpty());
        auto f2 = follower(id2);
        QCOMPARE(jobStateName(follow(*f2, 120000).state), QStringLiteral("finished"));
        QVERIFY(!f2->metrics().isEmpty());
        QCOMPARE(f2->metrics().first().step, st.step + 1);
    }

    void aSecondStopAfterTheGraceKills()
    {
        const QString id = launch(tinySpec(2, 1, 100000));
        QVERIFY(!id.isEmpty());
        auto f = follower(id);
        follow(*f, 120000, [](const JobFollower &x) { return x.status().step >= 1; });
        QString message;
        QCOMPARE(JobManager(m_runner).stop(id, true, &message), JobManager::StopResult::Killed);
        const JobStatus st = follow(*f, 60000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("stopped"));
        QVERIFY(st.reason.contains(QLatin1String("status")) || st.reason.contains(QLatin1String("Killed")));
        // No process of the job is left.
        QTest::qWait(500);
        QCOMPARE(m_runner->signalJobGroup(st.pids.launcher.pgid, id, 0), 0);
    }

    void neverSignalsAReusedPid()
    {
        QProcess sleeper;
        sleeper.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(sleeper.waitForStarted());
        QFile stat(QStringLiteral("/proc/%1/stat").arg(sleeper.processId()));
        QVERIFY(stat.open(QIODevice::ReadOnly));
        ProcessIdentity real;
        QVERIFY(parseProcStat(stat.readAll(), &real));
        real.bootId = m_runner->bootId();
        QCOMPARE(m_runner->processState(real), ProcessState::Running);
        // Same pid, another start time: a different process to us. Not signalled.
        ProcessIdentity other = real;
        other.startTime += 1;
        QCOMPARE(m_runner->processState(other), ProcessState::Gone);
        QString error;
        QVERIFY(!m_runner->signalProcess(other, SIGKILL, &error));
        QVERIFY(!error.isEmpty());
        // A group signal needs the job's id in the process's environment.
        QCOMPARE(m_runner->signalJobGroup(real.pgid, QStringLiteral("20260101-000000-beef"), SIGKILL), 0);
        QVERIFY(!sleeper.waitForFinished(300));
        // Another boot: gone.
        ProcessIdentity rebooted = real;
        rebooted.bootId = QStringLiteral("00000000-0000-0000-0000-000000000000");
        QCOMPARE(m_runner->processState(rebooted), ProcessState::Gone);
        // The real identity is signalled.
        QVERIFY(m_runner->signalProcess(real, SIGTERM, &error));
        QVERIFY(sleeper.waitForFinished(5000));
    }

    void aFailedJobSaysWhy()
    {
        const QString data = m_dir.filePath(QStringLiteral("latin1.txt"));
        test::writeFile(data, QByteArray("caf\xe9 au lait\n").repeated(100));
        JobSpec s = tinySpec(2, 1, 5);
        s.trainFile = data;
        const QString id = launch(s);
        QVERIFY(!id.isEmpty());
        auto f = follower(id);
        const JobStatus st = follow(*f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("failed"));
        QVERIFY2(st.reason.contains(QLatin1String("is not UTF-8 text")), qPrintable(st.reason));
        QVERIFY(st.exitStatus != 0);
    }

    void aPythonWithoutTorchSaysWhy()
    {
        // A Python that cannot run torchrun: the reason comes from the launcher's own output.
        const QString fake = m_dir.filePath(QStringLiteral("python3"));
        test::writeFile(fake, "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'torch'\" >&2\nexit 1\n");
        QFile::setPermissions(fake, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        JobSpec s = tinySpec(1, 1, 5);
        s.python = fake;
        const QString id = launch(s);
        QVERIFY(!id.isEmpty());
        auto f = follower(id);
        const JobStatus st = follow(*f, 30000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("failed"));
        QVERIFY2(st.reason.contains(QLatin1String("No module named 'torch'")), qPrintable(st.reason));
        QCOMPARE(st.exitStatus, 1);
    }

    void aTrainerScriptIsCharted()
    {
        // A user script logging like the Hugging Face Trainer: dicts on stdout, tqdm's bar on stderr.
        const QString script = m_dir.filePath(QStringLiteral("trainer_like.py"));
        test::writeFile(script, R"(import os, sys, time
rank = int(os.environ.get("RANK", "0"))
for step in range(1, 11):
    sys.stderr.write(f"\r {step * 10}%|{'█' * step}| {step}/10 [00:0{step % 10}<00:00,  2.00it/s]")
    sys.stderr.flush()
    if rank == 0 and step % 2 == 0:
        print({'loss': 3.0 - step * 0.1, 'grad_norm': 1.5, 'learning_rate': 5e-05 * (1 - step / 10), 'epoch': step / 10})
    time.sleep(0.2)
if rank == 0:
    print({'train_runtime': 2.1, 'train_samples_per_second': 30.0, 'train_steps_per_second': 8.0, 'train_loss': 2.5, 'epoch': 1.0})
)");
        JobSpec s = tinySpec(2, 1, -1);
        s.program = JobProgram::Script;
        s.script = script;
        s.passSettings = false;
        const QString id = launch(s);
        QVERIFY(!id.isEmpty());
        auto f = follower(id);
        const JobStatus st = follow(*f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("finished"));
        QCOMPARE(f->metrics().size(), 5);
        for (int i = 0; i < 5; ++i) {
            const int step = 2 * (i + 1);
            QCOMPARE(f->metrics().at(i).step, step);
            QCOMPARE(f->metrics().at(i).loss, 3.0 - step * 0.1);
            QCOMPARE(f->metrics().at(i).gradNorm, 1.5);
        }
        QCOMPARE(st.step, 10);
        QCOMPARE(st.maxSteps, 10);
    }

    void aJobStartedElsewhereAppearsInTheHistory()
    {
        // Another program (ingot-cli) starts a job while the service runs: the history lists it, followed.
        JobService service(m_runner);
        service.setPollInterval(100);
        QSignalSpy changed(&service, &JobService::historyChanged);
        QVERIFY(changed.wait(20000));
        const QString id = launch(tinySpec(1, 1, 3));
        QVERIFY(!id.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(service.find(id) != nullptr, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(service.status(id).state, JobState::Finished, 120000);
    }

    void reattachReadsFromTheStart()
    {
        const QString id = launch(tinySpec(1, 1, 60));
        QVERIFY(!id.isEmpty());
        auto first = follower(id);
        follow(*first, 120000, [](const JobFollower &x) { return x.status().step >= 5; });
        first.reset();  // Ingot closes while the job runs
        auto again = follower(id);
        again->poll();
        QVERIFY(again->metrics().size() >= 5);  // everything so far, at once
        QCOMPARE(again->metrics().first().step, 1);
        const JobStatus st = follow(*again, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("finished"));
        QCOMPARE(again->metrics().size(), 60);
    }

    void removeKeepsOutputsUnlessAsked()
    {
        LaunchPlan plan;
        JobSpec s = tinySpec(1, 1, 2);
        s.outputDir = m_dir.filePath(QStringLiteral("outside-output"));
        const QString id = launch(s, &plan);
        QVERIFY(!id.isEmpty());
        auto f = follower(id);
        QCOMPARE(jobStateName(follow(*f, 120000).state), QStringLiteral("finished"));
        JobManager jobs(m_runner);
        const RemovePreview keep = jobs.previewRemove(id, false);
        QVERIFY(keep.refusal.isEmpty());
        QVERIFY(keep.outputFolder.isEmpty());
        QVERIFY(keep.jobFolderBytes > 0);
        const RemovePreview all = jobs.previewRemove(id, true);
        QCOMPARE(all.outputFolder, s.outputDir);
        QVERIFY(all.outputBytes > 0);
        QString error;
        QVERIFY2(jobs.remove(id, false, &error), qPrintable(error));
        QVERIFY(!QFileInfo::exists(jobs.paths(id).root));
        QVERIFY(QFileInfo(s.outputDir + QStringLiteral("/model.safetensors")).isFile()
                || QFileInfo(s.outputDir + QStringLiteral("/metrics.jsonl")).isFile());
        // An output folder that holds the jobs folder itself is refused.
        JobRecordFile r;
        QVERIFY(!jobs.load(QStringLiteral("../x"), &r, &error));
    }
};

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
