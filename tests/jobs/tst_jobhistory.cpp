// A job's folder as Ingot writes and reads it, on both runners (this machine, and /bin/sh as a host over SSH runs
// it): a final summary is written once, by whoever saw the end, with the time the job really ended and its reason in
// English (this test speaks Chinese, as Ingot did for the user who found it rewritten); folders that are already
// there keep their mode; writes never follow a link planted in the folder; a FIFO never hangs a read; an
// environment variable's name cannot smuggle a command into the job's scripts.
#include "app/i18n/translations.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/jobvalidate.h"
#include "services/jobs/shelljobrunner.h"
#include "services/util/remoteshell.h"
#include "services/util/names.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <future>
#include <sys/stat.h>
#include <unistd.h>

using namespace ingot;

namespace {

double nowSeconds()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

double modifiedSeconds(const QString &path)
{
    struct stat st {};
    if (::stat(nameToBytes(path).constData(), &st) != 0)
        return 0;
    return double(st.st_mtim.tv_sec) + double(st.st_mtim.tv_nsec) / 1e9;
}

unsigned modeOf(const QString &path)
{
    struct stat st {};
    return ::stat(nameToBytes(path).constData(), &st) == 0 ? unsigned(st.st_mode & 07777) : 0u;
}

// Bytes this process has read so far (read(2) and friends, every thread; a shell's output through its pipe too).
qint64 bytesRead()
{
    for (const QByteArray &line : test::readFile(QStringLiteral("/proc/self/io")).split('\n'))
        if (line.startsWith("rchar: "))
            return line.mid(7).toLongLong();
    return -1;
}

QByteArray metricLines(qint64 from, qint64 to, const QByteArray &loss)
{
    QByteArray out;
    // "time" is when the step was logged, as the backend writes it (time.time(), reporting.py): now, for a job that
    // runs (a step logged in 1970 would make it stalled).
    const QByteArray now = QByteArray::number(QDateTime::currentMSecsSinceEpoch() / 1000.0, 'f', 3);
    for (qint64 i = from; i <= to; ++i)
        out += "INGOT_METRIC {\"step\": " + QByteArray::number(i) + ", \"loss\": " + loss + ", \"time\": " + now + "}\n";
    return out;
}

// A host whose shell gives its commands (and so the jobs started through it) an environment of its own.
class HostEnvShell final : public RemoteShell
{
public:
    explicit HostEnvShell(QByteArray exports) : m_exports(std::move(exports)) {}
    QString describe() const override { return QStringLiteral("trn-host"); }
    ShellResult run(const QByteArray &script, const QVector<QByteArray> &args, const QByteArray &input, qint64 maxOut,
                    int timeoutMs) override
    {
        return m_inner->run(m_exports + script, args, input, maxOut, timeoutMs);
    }

private:
    QByteArray m_exports;
    std::shared_ptr<RemoteShell> m_inner = makeLocalShell();
};

QJsonObject summaryStatus(const QByteArray &summaryJson)
{
    return QJsonDocument::fromJson(summaryJson).object().value(QLatin1String("status")).toObject();
}

JobSpec tinySpec(int maxSteps)
{
    JobSpec s;
    s.python = QStringLiteral("/usr/bin/python3");
    s.maxSteps = maxSteps;
    return s;
}

}  // namespace

class TestJobHistory : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<JobRunner> m_local, m_shell;
    std::shared_ptr<JobRunner> m_runner;  // this row's
    QString m_row;

    QString folder(const QString &name) const
    {
        const QString f = m_dir.filePath(m_row + QLatin1Char('-') + name);
        QDir().mkpath(f);
        return f;
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
        // Ingot in Chinese: what it stores must stay English all the same.
        qputenv("INGOT_LANGUAGE", "zh_CN");
        installTranslations(*QCoreApplication::instance());
        QVERIFY2(jobStateTitle(JobState::Stopped) != QLatin1String("Stopped"), "the zh_CN translation is not installed");
        m_local = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs")));
        ShellJobRunnerOptions o;
        o.jobsRoot = m_dir.filePath(QStringLiteral("shell jobs"));
        o.cacheRoot = m_dir.filePath(QStringLiteral("shell cache"));
        auto shell = std::make_shared<ShellJobRunner>(makeLocalShell(), o);
        QString error;
        QVERIFY2(shell->open(&error), qPrintable(error));
        m_shell = shell;
    }

    void init()
    {
        QFETCH_GLOBAL(QString, runner);
        m_row = runner;
        m_runner = runner == QLatin1String("local") ? m_local : m_shell;
    }

    // job launch --output-dir on a folder that is there (a sticky /tmp, a multi-node job's shared folder): its mode
    // is kept; only the folders Ingot creates are private.
    void existingFoldersKeepTheirMode()
    {
        const QString base = folder(QStringLiteral("modes"));
        const QString sticky = base + QStringLiteral("/sticky"), shared = base + QStringLiteral("/shared");
        QVERIFY(QDir().mkpath(sticky) && QDir().mkpath(shared));
        QCOMPARE(::chmod(nameToBytes(sticky).constData(), 01777), 0);
        QCOMPARE(::chmod(nameToBytes(shared).constData(), 0755), 0);
        QString error;
        QVERIFY2(m_runner->makeFolder(sticky, &error), qPrintable(error));
        QVERIFY2(m_runner->makeFolder(shared, &error), qPrintable(error));
        QCOMPARE(modeOf(sticky), 01777u);
        QCOMPARE(modeOf(shared), 0755u);
        const QString created = shared + QStringLiteral("/new/deeper");
        QVERIFY2(m_runner->makeFolder(created, &error), qPrintable(error));
        QCOMPARE(modeOf(created), 0700u);
        QCOMPARE(modeOf(shared + QStringLiteral("/new")), 0700u);
        QCOMPARE(modeOf(shared), 0755u);
    }

    // summary.json, stop_request: a link planted there by the job is replaced, never written through; a job folder
    // that is itself a link is refused.
    void writesNeverFollowLinks()
    {
        const QString job = folder(QStringLiteral("links"));
        const QString bait = m_dir.filePath(m_row + QStringLiteral("-bait"));
        test::writeFile(bait, "precious");
        QVERIFY(QFile::link(bait, job + QStringLiteral("/summary.json")));
        const QString elsewhere = m_dir.filePath(m_row + QStringLiteral("-created-elsewhere"));
        QVERIFY(QFile::link(elsewhere, job + QStringLiteral("/stop_request")));  // dangling: would create a file
        QString error;
        QVERIFY2(m_runner->writeFile(job + QStringLiteral("/summary.json"), "{}", false, &error), qPrintable(error));
        QVERIFY2(m_runner->writeFile(job + QStringLiteral("/stop_request"), "{}", false, &error), qPrintable(error));
        QCOMPARE(test::readFile(bait), QByteArray("precious"));
        QVERIFY(!QFileInfo::exists(elsewhere));
        for (const char *name : {"/summary.json", "/stop_request"}) {
            const QFileInfo fi(job + QLatin1String(name));
            QVERIFY(!fi.isSymLink() && fi.isFile());
            QCOMPARE(test::readFile(fi.filePath()), QByteArray("{}"));
            QCOMPARE(modeOf(fi.filePath()), 0600u);
        }
        // The job folder itself a link to another place: refused, nothing written there.
        const QString outside = folder(QStringLiteral("outside"));
        const QString linked = job + QStringLiteral("/linked-job");
        QVERIFY(QFile::link(outside, linked));
        QVERIFY(!m_runner->writeFile(linked + QStringLiteral("/summary.json"), "{}", false, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(QDir(outside).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
        QVERIFY(QDir(job).entryList({QStringLiteral(".ingot-write-*")}, QDir::AllEntries | QDir::Hidden).isEmpty());
    }

    // A FIFO where a log, summary.json or trainer_state.json would be: read at once as "not a regular file".
    void aFifoNeverBlocksARead()
    {
        const QString job = folder(QStringLiteral("fifo"));
        const QString fifo = job + QStringLiteral("/stdout.log");
        QCOMPARE(::mkfifo(nameToBytes(fifo).constData(), 0600), 0);
        auto reading = std::async(std::launch::async, [&] { return m_runner->readFile(fifo, 0, 1 << 20); });
        const bool answered = reading.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
        if (!answered) {  // unblock the old code's open so the test ends (and fails)
            const int fd = ::open(nameToBytes(fifo).constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0)
                ::close(fd);
        }
        const FileChunk c = reading.get();
        QVERIFY2(answered, "reading a FIFO blocked");
        QVERIFY(c.exists);
        QVERIFY(c.data.isEmpty());
        QVERIFY(!c.error.isEmpty());
        // A regular file: its bytes, and when it was last written (the end time of a job comes from it).
        const QString file = job + QStringLiteral("/exit_status");
        test::writeFile(file, "0\n");
        const FileChunk f = m_runner->readFile(file, 0, 64);
        QCOMPARE(f.data, QByteArray("0\n"));
        QVERIFY2(std::abs(f.modified - modifiedSeconds(file)) < 1.0,
                 qPrintable(QStringLiteral("%1 vs %2").arg(f.modified, 0, 'f', 3).arg(modifiedSeconds(file), 0, 'f', 3)));

        // The launcher's checks of what the user chose (a model folder, a checkpoint to resume) do not wait either.
        const QString model = folder(QStringLiteral("fifo-model")), checkpoint = folder(QStringLiteral("fifo-checkpoint"));
        const QStringList fifos = {model + QStringLiteral("/config.json"), checkpoint + QStringLiteral("/training_args.json")};
        for (const QString &f : fifos)
            QCOMPARE(::mkfifo(nameToBytes(f).constData(), 0600), 0);
        JobSpec spec = tinySpec(2);
        spec.modelPath = model;
        spec.resumeFrom = checkpoint;
        auto checking = std::async(std::launch::async, [spec] { return gatherJobFacts(spec); });
        const bool checked = checking.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
        for (const QString &f : fifos) {
            if (checked)
                break;
            const int fd = ::open(nameToBytes(f).constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0)
                ::close(fd);
        }
        const JobFacts facts = checking.get();
        QVERIFY2(checked, "checking a model folder or a checkpoint blocked on a FIFO");
        QVERIFY(!facts.model.known);
        QVERIFY(!facts.resume.complete);
    }

    // --env 'X;touch F;Y=1': refused by the one validation (the CLI and the GUI's launcher), never written to run.sh.
    void environmentNamesAreChecked()
    {
        QVERIFY(isEnvName(QStringLiteral("NEURON_RT_LOG_LEVEL")) && isEnvName(QStringLiteral("_x1")));
        for (const QString &bad : {QStringLiteral("X;touch F;Y"), QStringLiteral("X\nY"), QStringLiteral("X\n"),
                                   QStringLiteral("1X"), QStringLiteral("A-B"), QStringLiteral("$(id)"), QString()})
            QVERIFY2(!isEnvName(bad), qPrintable(displayName(bad)));
        JobSpec spec = tinySpec(2);
        spec.env.append({QStringLiteral("X;touch pwned;Y"), QStringLiteral("1")});
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
        QVERIFY(!JobManager(m_runner).plan(spec, &plan, &problems, &error));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.first().field, QStringLiteral("env"));
        spec.env = {{QStringLiteral("GOOD_NAME"), QStringLiteral("a b;c")}};
        QVERIFY2(JobManager(m_runner).plan(spec, &plan, &problems, &error), qPrintable(error));
        QVERIFY(plan.script.contains(QStringLiteral("export GOOD_NAME='a b;c'")));
    }

    // A launcher that ended before the wrapper read its /proc stat (a Python without torch exits at once): the line
    // the wrapper records for it parses, so the launch is seen as started (it was refused as "did not start within
    // 10 s" when the machine was slow enough for the launcher to be reaped first).
    void aLauncherThatEndedAtOnceIsRecorded()
    {
        JobRecordFile r;
        r.id = newJobId();
        r.cwd = QStringLiteral("/tmp");
        r.argv = QStringList{QStringLiteral("true")};
        const QByteArray script = wrapperScript(r);
        QVERIFY(script.contains(QByteArray("child=\"$pid " + endedProcessStat(0).mid(2) + "\"")));
        const QByteArray self = test::readFile(QStringLiteral("/proc/self/stat")).trimmed();
        LauncherPids pids;
        QVERIFY(parseLauncherPids(self + '\n' + endedProcessStat(4242) + "\nboot\n", &pids));
        QCOMPARE(pids.launcher.pid, 4242);
        QCOMPARE(pids.launcher.startTime, 0u);
        QVERIFY(!pids.launcher.isValid());
        QCOMPARE(pids.wrapper.pid, qint64(::getpid()));
    }

    // `job status` on a running job, asked again and again (a watch loop, a script): each asks reads what is new since
    // the last, not the whole log again (a 40 MB log: read once); a log cut or rewritten since is read from the start;
    // once the job has ended, its summary is recorded and the saved place forgotten.
    void aRunningJobsLogsAreReadOnce()
    {
        qputenv("XDG_CACHE_HOME", nameToBytes(m_dir.filePath(m_row + QStringLiteral("-cache"))));
        QProcess sleeper;
        sleeper.start(QStringLiteral("sleep"), {QStringLiteral("600")});
        QVERIFY(sleeper.waitForStarted());
        const auto stopSleeper = qScopeGuard([&] {
            sleeper.kill();
            sleeper.waitForFinished();
        });
        const QByteArray stat = test::readFile(QStringLiteral("/proc/%1/stat").arg(sleeper.processId())).trimmed();
        const QByteArray boot = test::readFile(QStringLiteral("/proc/sys/kernel/random/boot_id")).trimmed();
        JobRecordFile r;
        r.id = newJobId();
        r.where = m_runner->where();
        r.spec = tinySpec(-1);
        r.createdMs = QDateTime::currentMSecsSinceEpoch() - 60 * 1000;
        JobManager jobs(m_runner);
        const JobPaths paths = jobs.paths(r.id);
        r.cwd = paths.root;
        const QString rank0 = paths.logsDir() + QStringLiteral("/run_x/attempt_0/0");
        QVERIFY(QDir().mkpath(rank0));
        test::writeFile(paths.jobJson(), r.toJson());
        test::writeFile(paths.pidFile(), stat + '\n' + stat + '\n' + boot + '\n');
        test::writeFile(rank0 + QStringLiteral("/stderr.log"), "");
        const QString log = rank0 + QStringLiteral("/stdout.log");
        {
            QFile f(log);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray block = metricLines(1, 1000, "2.5");
            for (int i = 0; i < 700; ++i)
                QVERIFY(f.write(block) == block.size());
        }
        const qint64 logSize = QFileInfo(log).size();
        QVERIFY(logSize > (30 << 20));
        const QString stateFile = followerStateFile(r.where, paths.root);

        QString error;
        qint64 before = bytesRead();
        JobSummary s = jobs.summary(r.id, false, &error);
        const qint64 first = bytesRead() - before;
        QCOMPARE(s.status.state, JobState::Running);
        QCOMPARE(s.status.step, 1000);
        QVERIFY2(first >= logSize, qPrintable(QString::number(first)));
        QVERIFY(QFileInfo::exists(stateFile));

        // Appended to: only what is new is read.
        QFile append(log);
        QVERIFY(append.open(QIODevice::Append));
        QVERIFY(append.write(metricLines(1001, 1001, "0.75")) > 0);
        append.close();
        before = bytesRead();
        s = jobs.summary(r.id, false, &error);
        const qint64 again = bytesRead() - before;
        QCOMPARE(s.status.step, 1001);
        QCOMPARE(s.status.lastLoss, 0.75);
        QCOMPARE(s.status.state, JobState::Running);
        QVERIFY2(again < (1 << 20), qPrintable(QStringLiteral("read %1 bytes for one new line of a %2-byte log").arg(again).arg(logSize)));

        // Rewritten (the same size, other bytes at the saved place): read from the start, the saved state ignored.
        QByteArray rewritten = metricLines(1, 40, "1.25");
        rewritten += QByteArray(int(logSize) + 200 - rewritten.size() - 1, ' ') + '\n';
        test::writeFile(log, rewritten);
        s = jobs.summary(r.id, false, &error);
        QCOMPARE(s.status.step, 40);
        QCOMPARE(s.status.lastLoss, 1.25);
        // Cut short: the same.
        test::writeFile(log, metricLines(1, 7, "3.5"));
        s = jobs.summary(r.id, false, &error);
        QCOMPARE(s.status.step, 7);
        QCOMPARE(s.status.lastLoss, 3.5);
        // A saved state of another shape, or garbage: ignored, the status read as it is.
        test::writeFile(stateFile, "{\"version\": 1, \"id\": 5, \"streams\": \"x\"}");
        QCOMPARE(jobs.summary(r.id, false, &error).status.step, 7);
        test::writeFile(stateFile, QByteArray(5000, '\xff'));
        QCOMPARE(jobs.summary(r.id, false, &error).status.step, 7);

        // The job ends: its summary is recorded, the saved place removed.
        test::writeFile(paths.exitFile(), "0\n");
        sleeper.kill();
        QVERIFY(sleeper.waitForFinished());
        s = jobs.summary(r.id, false, &error);
        QCOMPARE(s.status.state, JobState::Finished);
        QCOMPARE(s.status.step, 7);
        QVERIFY(QFileInfo(paths.file("summary.json")).isFile());
        QVERIFY(!QFileInfo::exists(stateFile));
    }

    // Where a job compiles, as the Neuron runtime will see it: the environment table is exported after the
    // NEURON_CC_FLAGS field by the job's own script, so a name set there wins (the monitor once let the field win);
    // a job on a host compiles into the host's cache, resolved from the host's environment and read there (the
    // monitor once read a folder of this machine).
    void theCompileCacheIsResolvedWhereTheJobRuns()
    {
        if (m_runner != m_local)
            QSKIP("one case covers both runners");
        JobSpec spec = tinySpec(2);
        spec.neuronCcFlags = QStringLiteral("--cache_dir=/from-field");
        spec.env = {{QStringLiteral("NEURON_CC_FLAGS"), QStringLiteral("--cache_dir=/from-table --retry_failed_compilation")}};
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QString error;
        QVERIFY2(JobManager(m_local).plan(spec, &plan, &problems, &error), qPrintable(error));
        // What the job's own script exports, run by the shell.
        JobRecordFile probe = plan.record;
        probe.cwd = m_dir.path();
        probe.argv = QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("printf %s \"$NEURON_CC_FLAGS\"")};
        const QString script = m_dir.filePath(QStringLiteral("probe.sh"));
        test::writeFile(script, commandScript(probe).toUtf8());
        QProcess sh;
        sh.start(QStringLiteral("/bin/sh"), {script});
        QVERIFY(sh.waitForFinished(10000));
        const QString exported = QString::fromUtf8(sh.readAllStandardOutput());
        QCOMPARE(exported, QStringLiteral("--cache_dir=/from-table --retry_failed_compilation"));
        const CacheLocation here = JobManager(m_local).compileCache(spec);
        QCOMPARE(here.path, QStringLiteral("/from-table"));
        QVERIFY(here.where.isEmpty());
        QCOMPARE(CacheLocation::resolve(QProcessEnvironment{}, QStringLiteral("/")).rule, CacheLocation::Rule::Default);

        // This machine has its own URL; the host has another: a job there compiles into the host's.
        qputenv("NEURON_COMPILE_CACHE_URL", "/cache-of-this-machine");
        const auto unset = qScopeGuard([] { qunsetenv("NEURON_COMPILE_CACHE_URL"); });
        ShellJobRunnerOptions o;
        o.where = QStringLiteral("trn-host");
        o.jobsRoot = m_dir.filePath(QStringLiteral("host jobs"));
        o.cacheRoot = m_dir.filePath(QStringLiteral("host cache"));
        o.storeKind = QStringLiteral("ssh");
        auto host = std::make_shared<ShellJobRunner>(
            std::make_shared<HostEnvShell>("export NEURON_COMPILE_CACHE_URL='~/neuron cache'\n"), o);
        QVERIFY2(host->open(&error), qPrintable(error));
        JobSpec plain = tinySpec(2);
        QCOMPARE(JobManager(m_local).compileCache(plain).path, QStringLiteral("/cache-of-this-machine"));
        const JobManager there(host);
        const CacheLocation remote = there.compileCache(plain);
        QCOMPARE(remote.path, host->homeDir() + QStringLiteral("/neuron cache"));
        QCOMPARE(remote.rule, CacheLocation::Rule::CompileCacheUrl);
        QCOMPARE(remote.where, QStringLiteral("trn-host"));
        const StoreLocation store = there.compileCacheStore(remote);
        QCOMPARE(store.kind, QStringLiteral("ssh"));
        QCOMPARE(store.host, QStringLiteral("trn-host"));
        QCOMPARE(store.path, remote.path);
        // The table still wins over the host's variable.
        QCOMPARE(there.compileCache(spec).path, QStringLiteral("/from-table"));
    }

    // A job stopped while no Ingot watched it, read later (Ingot restarted): its end is when it ended, not when it
    // was read; the summary is written once and stays byte for byte through restarts and a metrics overlay; the
    // reason is stored in English and shown translated. Links planted in the folder by the job are never written
    // through (the wrapper's own temp files included).
    void aJobsEndIsRecordedOnceInEnglish()
    {
        if (m_runner != m_local)
            QSKIP("the service re-attaches this machine's jobs here (the shell runner's end time: aFifoNeverBlocksARead)");
        JobManager jobs(m_runner);
        QString error;
        const QString id = test::launchSpec(jobs, tinySpec(100000), &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        const JobPaths paths = jobs.paths(id);
        JobRecordFile record;
        QVERIFY(jobs.load(id, &record, &error));
        JobFollower f(m_runner, record);
        test::followJob(f, 180000, [](const JobFollower &x) { return x.status().step >= 1; });
        QVERIFY(f.status().step >= 1);

        QHash<QString, QString> baits;  // planted link -> its target outside
        for (const char *name : {"summary.json", "stop_request", "exit_status.tmp"}) {
            const QString bait = m_dir.filePath(QStringLiteral("bait-") + QLatin1String(name));
            test::writeFile(bait, "bait");
            QVERIFY(QFile::link(bait, paths.file(name)));
            baits.insert(paths.file(name), bait);
        }
        QString message;
        QCOMPARE(jobs.stop(id, false, &message), JobManager::StopResult::Signalled);
        const JobStatus seen = test::followJob(f, 180000);
        QCOMPARE(seen.state, JobState::Stopped);
        QCOMPARE(seen.reasonCode, QStringLiteral("stopped_at_step"));
        QVERIFY2(seen.reason.startsWith(QLatin1String("Stopped at step ")), qPrintable(seen.reason));
        QVERIFY2(!jobReasonText(seen).contains(QLatin1String("Stopped at step")), qPrintable(jobReasonText(seen)));
        QVERIFY(jobReasonText(seen).contains(seen.lastCheckpoint));
        const double exitAt = modifiedSeconds(paths.exitFile());
        QVERIFY(exitAt > 0);
        QVERIFY2(std::abs(seen.endedAt - exitAt) < 1.0, qPrintable(QString::number(seen.endedAt - exitAt)));

        // Ingot starts again a while later: the service re-attaches, reads the job to its end and records it.
        QTRY_VERIFY_WITH_TIMEOUT(nowSeconds() - exitAt > 3, 10000);
        auto service = std::make_unique<JobService>(m_runner);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(paths.file("summary.json")).isFile()
                                     && !QFileInfo(paths.file("summary.json")).isSymLink(),
                                 120000);
        const QByteArray written = test::readFile(paths.file("summary.json"));
        const QJsonObject st = summaryStatus(written);
        QCOMPARE(st.value(QLatin1String("state")).toString(), QStringLiteral("stopped"));
        QVERIFY2(std::abs(st.value(QLatin1String("ended_at")).toDouble() - exitAt) < 1.0,
                 qPrintable(QStringLiteral("ended_at %1, exit_status written at %2")
                                .arg(st.value(QLatin1String("ended_at")).toDouble(), 0, 'f', 3)
                                .arg(exitAt, 0, 'f', 3)));
        QCOMPARE(st.value(QLatin1String("reason")).toString(), seen.reason);
        QCOMPARE(st.value(QLatin1String("reason_code")).toString(), QStringLiteral("stopped_at_step"));
        QTRY_VERIFY_WITH_TIMEOUT(service->find(id) && isFinal(service->status(id).state), 60000);
        QCOMPARE(service->status(id).endedAt, st.value(QLatin1String("ended_at")).toDouble());
        const double elapsed = service->status(id).elapsed(nowSeconds());

        // Closed, and started again later: nothing is recomputed or rewritten.
        service.reset();
        const double closedAt = nowSeconds();
        QTRY_VERIFY_WITH_TIMEOUT(nowSeconds() - closedAt > 1.5, 10000);  // time passes: a rewrite would show
        service = std::make_unique<JobService>(m_runner);
        QTRY_VERIFY_WITH_TIMEOUT(service->find(id) != nullptr, 60000);
        QCOMPARE(service->status(id).endedAt, st.value(QLatin1String("ended_at")).toDouble());
        QCOMPARE(service->status(id).elapsed(nowSeconds()), elapsed);
        QCOMPARE(jobs.summary(id, true, &error).status.endedAt, st.value(QLatin1String("ended_at")).toDouble());
        QCOMPARE(test::readFile(paths.file("summary.json")), written);
        jobs.saveSummary({record, seen, {}, {}});  // another reader that saw the end: the first record stays
        QCOMPARE(test::readFile(paths.file("summary.json")), written);

        // The planted links were replaced or removed, their targets untouched.
        for (auto it = baits.cbegin(); it != baits.cend(); ++it)
            QCOMPARE(test::readFile(it.value()), QByteArray("bait"));
        QVERIFY(!QFileInfo(paths.stopFile()).isSymLink());
    }
};

QTEST_GUILESS_MAIN(TestJobHistory)
#include "tst_jobhistory.moc"
