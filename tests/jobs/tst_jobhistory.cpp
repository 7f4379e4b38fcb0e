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
#include "services/stores/remoteshell.h"
#include "services/util/names.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
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
        for (const QString &f : {model + QStringLiteral("/config.json"), checkpoint + QStringLiteral("/training_args.json")})
            QCOMPARE(::mkfifo(nameToBytes(f).constData(), 0600), 0);
        JobSpec spec = tinySpec(2);
        spec.modelPath = model;
        spec.resumeFrom = checkpoint;
        auto checking = std::async(std::launch::async, [spec] { return gatherJobFacts(spec); });
        const bool checked = checking.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
        for (const QString &f : {model + QStringLiteral("/config.json"), checkpoint + QStringLiteral("/training_args.json")}) {
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
