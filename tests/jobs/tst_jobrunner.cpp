// Jobs with real torchrun (Debian's python3-torch, CPU/gloo) through the backend's launcher, on both runners:
// LocalJobRunner and ShellJobRunner over /bin/sh (what a host over SSH runs, without the network): detached start in
// a session of its own, following the files to the end, stop with a checkpoint and resume, kill after the grace
// period, failure reasons, re-attach, and never signalling a process that is not the job's. Then the shell runner's
// own hostile cases: odd names, links, a short write, removal outside the root, the backend copied once.
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/shelljobrunner.h"
#include "services/util/remoteshell.h"
#include "services/util/names.h"
#include "services/jobs/trainerlog.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <sys/stat.h>
#include <thread>
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

// The shell the runner talks through, with what crossed it counted, and a transport that can drop the end of what
// is sent (a connection that breaks mid-upload).
class CountingShell final : public RemoteShell
{
public:
    QString describe() const override { return m_inner->describe(); }
    ShellResult run(const QByteArray &script, const QVector<QByteArray> &args, const QByteArray &input, qint64 maxOut,
                    int timeoutMs) override
    {
        inputs << input.size();
        return m_inner->run(script, args, cutInputAt >= 0 ? input.left(cutInputAt) : input, maxOut, timeoutMs);
    }
    QVector<qint64> inputs;
    qint64 cutInputAt = -1;

private:
    std::shared_ptr<RemoteShell> m_inner = makeLocalShell();
};

QByteArray readBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList sorted(QStringList l)
{
    std::sort(l.begin(), l.end());
    return l;
}

}  // namespace

class TestJobRunner : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<JobRunner> m_local, m_shell;
    std::shared_ptr<JobRunner> m_runner;  // this row's

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
    void initTestCase_data()
    {
        QTest::addColumn<QString>("runner");
        QTest::newRow("local") << QStringLiteral("local");
        QTest::newRow("shell") << QStringLiteral("shell");
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_local = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs")));
        ShellJobRunnerOptions o;
        o.jobsRoot = m_dir.filePath(QStringLiteral("shell jobs 'quoted'"));
        o.cacheRoot = m_dir.filePath(QStringLiteral("shell cache"));
        auto shell = std::make_shared<ShellJobRunner>(makeLocalShell(), o);
        QString error;
        QVERIFY2(shell->open(&error), qPrintable(error));
        QCOMPARE(shell->jobsRoot(), o.jobsRoot);
        QVERIFY(shell->backendDir().startsWith(o.cacheRoot + QStringLiteral("/backend/")));
        m_shell = shell;
    }

    void init()
    {
        QFETCH_GLOBAL(QString, runner);
        m_runner = runner == QLatin1String("local") ? m_local : m_shell;
    }

    void launchFollowFinish()
    {
        LaunchPlan plan;
        const QString id = launch(tinySpec(2, 2, 6), &plan);
        QVERIFY(!id.isEmpty());
        QVERIFY(plan.record.port > 0 && plan.record.port != 29400);
        QVERIFY(plan.commandLine.contains(QStringLiteral("--master_port=%1").arg(plan.record.port)));
        auto f = follower(id);
        const JobStatus st = test::followJob(*f, 120000);
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

    // The job starts when Launch is pressed, not when its plan (the launcher's preview) was made: its record's
    // creation time and the time in its name are the launch's; what runs is still the plan shown.
    void theStartIsTheLaunchNotThePlan()
    {
        JobManager jobs(m_runner);
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
        QVERIFY2(jobs.plan(tinySpec(1, 1, 2), &plan, &problems, &error), qPrintable(error));
        // The user reads the preview for a while.
        QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentMSecsSinceEpoch() >= plan.record.createdMs + 1500, 10000);
        const qint64 pressed = QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(jobs.launch(plan, &error), qPrintable(error));
        JobRecordFile r;
        QVERIFY(jobs.load(plan.record.id, &r, &error));
        QVERIFY2(r.createdMs >= pressed, qPrintable(QStringLiteral("%1 < %2").arg(r.createdMs).arg(pressed)));
        QCOMPARE(r.argv, plan.record.argv);
        const QString name = r.spec.displayName(r.id, r.createdMs);
        QVERIFY2(name.endsWith(QDateTime::fromMSecsSinceEpoch(r.createdMs).toString(QStringLiteral("HH:mm:ss"))), qPrintable(name));
        QVERIFY(name != plan.record.spec.displayName(plan.record.id, plan.record.createdMs));
        auto f = follower(r.id);
        const JobStatus st = test::followJob(*f, 120000);
        QCOMPARE(st.state, JobState::Finished);
        QCOMPARE(st.startedAt, double(r.createdMs) / 1000.0);
    }

    void stopSavesACheckpointAndResumeGoesOn()
    {
        LaunchPlan plan;
        const QString id = launch(tinySpec(2, 1, 2000), &plan);
        QVERIFY(!id.isEmpty());
        auto f = follower(id);
        test::followJob(*f, 120000, [](const JobFollower &x) { return x.status().step >= 3; });
        QVERIFY(f->status().step >= 3);
        QString message;
        QCOMPARE(JobManager(m_runner).stop(id, false, &message), JobManager::StopResult::Signalled);
        // A second Stop within the grace period does not kill.
        QCOMPARE(JobManager(m_runner).stop(id, false, &message), JobManager::StopResult::Signalled);
        const JobStatus st = test::followJob(*f, 120000);
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
        QCOMPARE(jobStateName(test::followJob(*f2, 120000).state), QStringLiteral("finished"));
        QVERIFY(!f2->metrics().isEmpty());
        QCOMPARE(f2->metrics().first().step, st.step + 1);
    }

    void aSecondStopAfterTheGraceKills()
    {
        const QString id = launch(tinySpec(2, 1, 100000));
        QVERIFY(!id.isEmpty());
        auto f = follower(id);
        test::followJob(*f, 120000, [](const JobFollower &x) { return x.status().step >= 1; });
        QString message;
        QCOMPARE(JobManager(m_runner).stop(id, true, &message), JobManager::StopResult::Killed);
        const JobStatus st = test::followJob(*f, 60000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("stopped"));
        QVERIFY(st.reason.contains(QLatin1String("status")) || st.reason.contains(QLatin1String("Killed")));
        // No process of the job is left.
        QTRY_COMPARE_WITH_TIMEOUT(m_runner->signalJobGroup(st.pids.launcher.pgid, id, 0), 0, 15000);
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
        const JobStatus st = test::followJob(*f, 120000);
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
        const JobStatus st = test::followJob(*f, 30000);
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
        const JobStatus st = test::followJob(*f, 120000);
        QCOMPARE(jobStateName(st.state), QStringLiteral("finished"));
        QCOMPARE(f->metrics().size(), 5);
        for (int i = 0; i < 5; ++i) {
            const int step = 2 * (i + 1);
            // A dict has no step of its own: it takes the bar's, read from the other file just before. The two files
            // are read one after the other, so the step is the bar's at that read: a bar drawn between the two reads
            // leaves it one behind, a poll that comes later than the next bar (a loaded machine, a host's round
            // trip) one ahead. Bars 0.2 s apart keep it within one step on this machine.
            QVERIFY2(std::abs(f->metrics().at(i).step - step) <= 1,
                     qPrintable(QStringLiteral("dict %1: step %2").arg(i).arg(f->metrics().at(i).step)));
            QVERIFY(i == 0 || f->metrics().at(i).step >= f->metrics().at(i - 1).step);
            QCOMPARE(f->metrics().at(i).loss, 3.0 - step * 0.1);
            QCOMPARE(f->metrics().at(i).gradNorm, 1.5);
        }
        QCOMPARE(st.step, 10);
        QCOMPARE(st.maxSteps, 10);
    }

    void aJobStartedElsewhereAppearsInTheHistory()
    {
        // Another program (ingot-cli) starts a job while the service runs: the history lists it, followed.
        if (m_runner != m_local)
            QSKIP("the service watches this machine's jobs folder (remote hosts: tst_sshjobs)");
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
        test::followJob(*first, 120000, [](const JobFollower &x) { return x.status().step >= 5; });
        first.reset();  // Ingot closes while the job runs
        auto again = follower(id);
        again->poll();
        QVERIFY(again->metrics().size() >= 5);  // everything so far, at once
        QCOMPARE(again->metrics().first().step, 1);
        const JobStatus st = test::followJob(*again, 120000);
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
        QCOMPARE(jobStateName(test::followJob(*f, 120000).state), QStringLiteral("finished"));
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

    // ---- The shell runner's own cases (the local row skips them) ----

    void oddNamesAreBytes()
    {
        if (m_runner == m_local)
            QSKIP("the shell runner's own case");
        const QString base = m_dir.filePath(QStringLiteral("odd"));
        const QStringList names{QStringLiteral("with space"), QStringLiteral("it's \"quoted\""),
                                QStringLiteral("line\nbreak"), QStringLiteral("back\\slash\\"),
                                QStringLiteral("$(touch pwned) `id` *"), QStringLiteral("-n"),
                                nameFromBytes(QByteArray("caf\xe9\xff"))};
        QString error;
        const QByteArray data("first\nsecond\0third\n\xff", 20);
        for (const QString &n : names) {
            const QString folder = base + QLatin1Char('/') + n;
            QVERIFY2(m_shell->makeFolder(folder, &error), qPrintable(error));
            QVERIFY2(m_shell->writeFile(folder + QLatin1Char('/') + n, data, false, &error), qPrintable(error));
            struct stat st {};
            QCOMPARE(::stat(nameToBytes(folder + QLatin1Char('/') + n).constData(), &st), 0);
            QCOMPARE(st.st_mode & 0777, 0600u);
            const FileChunk all = m_shell->readFile(folder + QLatin1Char('/') + n, 0, 1 << 20);
            QVERIFY(all.exists);
            QCOMPARE(all.size, data.size());
            QCOMPARE(all.data, data);
            // By offset, bounded: what the follower does.
            const FileChunk part = m_shell->readFile(folder + QLatin1Char('/') + n, 6, 8);
            QCOMPARE(part.data, data.mid(6, 8));
            QCOMPARE(part.size, data.size());
            QVERIFY(m_shell->readFile(folder + QLatin1Char('/') + n, data.size(), 100).data.isEmpty());
            QVERIFY(m_shell->pathInfo(folder).isDir);
            QVERIFY(m_shell->pathInfo(folder + QLatin1Char('/') + n).isFile);
        }
        QVERIFY(!QFile::exists(QStringLiteral("pwned")) && !QFile::exists(base + QStringLiteral("/pwned")));
        // The same answers as the local runner on the same folder (which, going through QDir, cannot list a name
        // that is not UTF-8: the shell runner can).
        QStringList utf8 = m_shell->listFiles(base, 1);
        utf8.removeIf([&](const QString &f) { return f.startsWith(names.last()); });
        QCOMPARE(sorted(utf8), sorted(m_local->listFiles(base, 1)));
        QCOMPARE(sorted(m_shell->listFiles(base, 1)), sorted([&] {
                     QStringList l;
                     for (const QString &n : names)
                         l << n + QLatin1Char('/') + n;
                     return l;
                 }()));
        QCOMPARE(m_shell->listFiles(base, 0).size(), 0);
        QCOMPARE(m_shell->treeSize(base), qint64(data.size() * names.size()));
        const FileChunk missing = m_shell->readFile(base + QStringLiteral("/nothing"), 0, 10);
        QVERIFY(!missing.exists);
        QVERIFY(missing.error.isEmpty());
        QVERIFY(!m_shell->pathInfo(base + QStringLiteral("/nothing")).exists);
        // A folder where a file would go is not replaced.
        QVERIFY(!m_shell->writeFile(base + QLatin1Char('/') + names.first(), "x", false, &error));
        QVERIFY(QFileInfo(base + QLatin1Char('/') + names.first()).isDir());
        // Removed whole, odd names and all.
        QVERIFY2(m_shell->removeTree(base, m_dir.path(), &error), qPrintable(error));
        QVERIFY(!QFileInfo::exists(base));
    }

    void linksAreNeverFollowed()
    {
        if (m_runner == m_local)
            QSKIP("the shell runner's own case");
        const QString root = m_shell->jobsRoot();
        const QString outside = m_dir.filePath(QStringLiteral("outside"));
        QVERIFY(QDir().mkpath(outside + QStringLiteral("/sub")));
        test::writeFile(outside + QStringLiteral("/job.json"), "{\"id\": \"20260101-000000-0bad\"}");
        test::writeFile(outside + QStringLiteral("/sub/keep"), "precious");
        QVERIFY(QDir().mkpath(root));
        const QString link = root + QStringLiteral("/20260101-000000-0bad");
        QVERIFY(QFile::link(outside, link));
        // Listing does not enter it; the history does not show it.
        QVERIFY(!m_shell->listFiles(root, 1).contains(QStringLiteral("20260101-000000-0bad/job.json")));
        for (const JobSummary &s : JobManager(m_shell).list())
            QVERIFY(s.record.id != QLatin1String("20260101-000000-0bad"));
        // Reading through a link at the path itself is refused.
        const QString fileLink = root + QStringLiteral("/file-link");
        QVERIFY(QFile::link(outside + QStringLiteral("/job.json"), fileLink));
        const FileChunk c = m_shell->readFile(fileLink, 0, 100);
        QVERIFY(c.data.isEmpty());
        QVERIFY(!c.error.isEmpty());
        // Removing: the link is refused, never followed; outside the root, or through a link leading out, refused.
        QString error;
        QVERIFY(!m_shell->removeTree(link, root, &error));
        QVERIFY(error.contains(QLatin1String("link")));
        QVERIFY(!m_shell->removeTree(link + QStringLiteral("/sub"), root, &error));
        QVERIFY(!m_shell->removeTree(outside, root, &error));
        QVERIFY(!m_shell->removeTree(root + QStringLiteral("/../outside"), root, &error));
        QVERIFY(!m_shell->removeTree(root, root, &error));
        QVERIFY(QFileInfo(outside + QStringLiteral("/sub/keep")).isFile());
        QVERIFY(QFileInfo(link).isSymLink());
        // A real folder inside is removed whole, without touching what a link inside it points to.
        const QString folder = root + QStringLiteral("/20260101-000000-0a0a");
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/deep")));
        QVERIFY(QFile::link(outside, folder + QStringLiteral("/deep/out")));
        QVERIFY2(m_shell->removeTree(folder, root, &error), qPrintable(error));
        QVERIFY(!QFileInfo::exists(folder));
        QVERIFY(QFileInfo(outside + QStringLiteral("/sub/keep")).isFile());
        QVERIFY(QFile::remove(link) && QFile::remove(fileLink));
        QCOMPARE(QDir(root).entryList({QStringLiteral(".ingot-removing-*")}, QDir::AllEntries | QDir::Hidden).size(), 0);
    }

    void aCutWriteChangesNothing()
    {
        if (m_runner == m_local)
            QSKIP("the shell runner's own case");
        auto shell = std::make_shared<CountingShell>();
        ShellJobRunnerOptions o;
        o.jobsRoot = m_shell->jobsRoot();
        ShellJobRunner runner(shell, o);
        QString error;
        QVERIFY2(runner.open(&error), qPrintable(error));
        const QString file = m_dir.filePath(QStringLiteral("whole.txt"));
        QVERIFY(runner.writeFile(file, "the old content", false, &error));
        shell->cutInputAt = 5;
        QVERIFY(!runner.writeFile(file, "a new content that is cut", false, &error));
        QVERIFY(error.contains(QLatin1String("cut short")));
        QCOMPARE(readBytes(file), QByteArray("the old content"));
        QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral(".ingot-write-*")}, QDir::Files | QDir::Hidden).size(), 0);
    }

    void theBackendIsCopiedOnceAndChecked()
    {
        if (m_runner == m_local)
            QSKIP("the shell runner's own case");
        const QString cache = m_dir.filePath(QStringLiteral("backend cache"));
        auto deploy = [&](CountingShell **counting) {
            auto shell = std::make_shared<CountingShell>();
            *counting = shell.get();
            ShellJobRunnerOptions o;
            o.cacheRoot = cache;
            auto r = std::make_shared<ShellJobRunner>(shell, o);
            QString error;
            if (!r->open(&error) || !r->prepareLaunch(&error))
                qWarning() << error;
            return r;
        };
        CountingShell *first = nullptr;
        const auto r1 = deploy(&first);
        const QString dir = r1->backendDir();
        QVERIFY(QFileInfo(dir + QStringLiteral("/ingot_train/__init__.py")).isFile());
        QVERIFY(QFileInfo(dir + QStringLiteral("/data/sample.txt")).isFile());
        QCOMPARE(readBytes(dir + QStringLiteral("/ingot_train/train.py")),
                 readBytes(backendLocation() + QStringLiteral("/ingot_train/train.py")));
        QVERIFY(*std::max_element(first->inputs.begin(), first->inputs.end()) > 10000);  // the tar went over
        // Present: nothing is sent again; byte code Python leaves there does not count as a change.
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/ingot_train/__pycache__")));
        test::writeFile(dir + QStringLiteral("/ingot_train/__pycache__/train.cpython-311.pyc"), "bytecode");
        CountingShell *second = nullptr;
        const auto r2 = deploy(&second);
        QCOMPARE(r2->backendDir(), dir);
        QCOMPARE(*std::max_element(second->inputs.begin(), second->inputs.end()), qint64(0));
        // A changed copy is replaced whole.
        test::writeFile(dir + QStringLiteral("/ingot_train/train.py"), "broken");
        QString error;
        QVERIFY(!r2->backendPresent(&error));
        CountingShell *third = nullptr;
        const auto r3 = deploy(&third);  // kept: it owns the counting shell
        QVERIFY(*std::max_element(third->inputs.begin(), third->inputs.end()) > 10000);
        QCOMPARE(readBytes(dir + QStringLiteral("/ingot_train/train.py")),
                 readBytes(backendLocation() + QStringLiteral("/ingot_train/train.py")));
        QCOMPARE(QDir(cache + QStringLiteral("/backend")).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{QFileInfo(dir).fileName()});
    }

    void aHangingPythonProbeIsStoppedAndOneThatCannotRunSaysSo()
    {
        if (m_runner != m_local)
            QSKIP("the local runner's own case");
        // $VIRTUAL_ENV's python3 is asked first: here one that hangs (a python on a file system that does not answer).
        QTemporaryDir venv;
        QVERIFY(venv.isValid() && QDir(venv.path()).mkdir(QStringLiteral("bin")));
        const QString python = venv.filePath(QStringLiteral("bin/python3"));
        const QString started = venv.filePath(QStringLiteral("started"));
        auto writePython = [&](const QByteArray &script) {
            QFile f(python);
            return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(script) == script.size()
                   && f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        };
        QVERIFY(writePython("#!/bin/sh\n: > \"$(dirname \"$0\")/../started\"\nexec sleep 60\n"));
        const QByteArray oldVenv = qgetenv("VIRTUAL_ENV");
        const bool hadVenv = qEnvironmentVariableIsSet("VIRTUAL_ENV");
        qputenv("VIRTUAL_ENV", QFile::encodeName(venv.path()));
        auto restore = qScopeGuard([&] { hadVenv ? qputenv("VIRTUAL_ENV", oldVenv) : qunsetenv("VIRTUAL_ENV"); });

        std::atomic_bool stop{false}, done{false};
        QVector<PythonInfo> found;
        std::thread search([&] {
            found = m_local->detectPythons(&stop);
            done = true;
        });
        auto join = qScopeGuard([&] {
            stop = true;
            search.join();
        });
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(started), 30000);
        stop = true;
        // Well within the probe's own 30 s: the stop ends the probe, not only the search.
        QTRY_VERIFY_WITH_TIMEOUT(done.load(), 10000);
        join.dismiss();
        search.join();
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().path, python);
        QVERIFY(!found.first().usable());
        QVERIFY2(found.first().error.contains(QStringLiteral("stopped")), qPrintable(found.first().error));

        // An interpreter that cannot be started says so; it is not one that did not answer.
        QVERIFY(writePython("#!/nonexistent/interpreter\n"));
        found = m_local->detectPythons(nullptr);
        QVERIFY(!found.isEmpty());
        QCOMPARE(found.first().path, python);
        QVERIFY2(found.first().error.startsWith(QStringLiteral("cannot run: ")), qPrintable(found.first().error));
    }

    void pythonsAreFoundThere()
    {
        if (m_runner == m_local)
            QSKIP("the shell runner's own case");
        const QVector<PythonInfo> shell = m_shell->detectPythons(nullptr);
        const QVector<PythonInfo> local = m_local->detectPythons(nullptr);
        auto debian = [](const QVector<PythonInfo> &v) {
            for (const PythonInfo &p : v)
                if (p.path == QLatin1String("/usr/bin/python3"))
                    return p;
            return PythonInfo();
        };
        QVERIFY(debian(shell).usable());
        QCOMPARE(debian(shell).torchVersion, debian(local).torchVersion);
        QCOMPARE(debian(shell).version, debian(local).version);
        QString error;
        const int port = m_shell->freePort({}, &error);
        QVERIFY2(port > 0 && port != 29400, qPrintable(error));
        QVERIFY(!m_shell->bootId().isEmpty());
        QCOMPARE(m_shell->bootId(), m_local->bootId());
    }
};

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
