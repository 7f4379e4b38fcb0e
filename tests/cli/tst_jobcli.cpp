// `ingot-cli job` as users run it: real torchrun jobs on CPU, exit codes, JSON, logs; the language it speaks (one
// word for a state, reasons stored in English); hostile job folders (FIFOs, huge logs) and arguments that are not
// UTF-8 or would smuggle a command.
#include "app/i18n/translations.h"
#include "services/jobs/jobfolder.h"
#include "services/jobs/jobfollower.h"
#include "services/util/childspawn.h"
#include "services/util/names.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <algorithm>

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ingot;

namespace {

struct Run {
    int code = -1;
    QString out, err;
    bool finished = true;  // false: it ran past its time and was killed
    QJsonDocument json() const { return QJsonDocument::fromJson(out.toUtf8()); }
};

class JobCli
{
public:
    QTemporaryDir data;
    QString language;  // INGOT_LANGUAGE for the CLI ("": the tests' English)
    QProcessEnvironment environment(const QString &backendDir = QString()) const
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), data.path() + QStringLiteral("/config"));  // the presets
        e.insert(QStringLiteral("CLI"), QStringLiteral(INGOT_CLI_PATH));
        e.remove(QStringLiteral("INGOT_BACKEND_DIR"));
        e.remove(QStringLiteral("INGOT_LANGUAGE"));
        if (!language.isEmpty())
            e.insert(QStringLiteral("INGOT_LANGUAGE"), language);
        if (!backendDir.isEmpty())
            e.insert(QStringLiteral("INGOT_BACKEND_DIR"), backendDir);
        return e;
    }
    Run operator()(const QStringList &args, int timeoutMs = 180000, const QString &backendDir = QString()) const
    {
        return run(QStringLiteral(INGOT_CLI_PATH), args, timeoutMs, backendDir);
    }
    Run run(const QString &program, const QStringList &args, int timeoutMs, const QString &backendDir = QString()) const
    {
        QProcess p;
        p.setProcessEnvironment(environment(backendDir));
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(program, args);
        Run r;
        r.finished = p.waitForFinished(timeoutMs);
        if (!r.finished) {
            p.kill();
            p.waitForFinished(10000);
        }
        r.code = r.finished ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }
    QString jobsRoot() const { return data.path() + QStringLiteral("/Ingot/ingot/jobs"); }
    // Saves a preset as the launcher's Save as preset… does (AppSettings: jobs/presets, name -> the job's JSON).
    void savePreset(const QString &name, const JobSpec &spec) const
    {
        QSettings settings(data.path() + QStringLiteral("/config/Ingot/ingot.conf"), QSettings::IniFormat);
        QVariantMap presets = settings.value(QStringLiteral("jobs/presets")).toMap();
        presets.insert(name, QString::fromUtf8(QJsonDocument(spec.toJson()).toJson(QJsonDocument::Compact)));
        settings.setValue(QStringLiteral("jobs/presets"), presets);
    }
};

// A job folder as a finished job leaves it (job.json, launcher.pid of processes long gone, exit status 0, rank 0's
// logs), written by hand: the hostile cases plant things in it.
QString fakeJob(const JobCli &cli, JobProgram program, QString *stdoutLog)
{
    JobRecordFile r;
    r.id = newJobId();
    r.spec.program = program;
    r.spec.script = QStringLiteral("/nonexistent/train.py");
    r.spec.passSettings = program == JobProgram::Backend;
    r.spec.maxSteps = -1;
    r.createdMs = QDateTime::currentMSecsSinceEpoch() - 3600 * 1000;
    const QString root = cli.jobsRoot() + QLatin1Char('/') + r.id;
    r.cwd = root;
    r.outputDir = root + QStringLiteral("/output");
    QDir().mkpath(root + QStringLiteral("/logs/run_x/attempt_0/0"));
    QDir().mkpath(r.outputDir);
    test::writeFile(root + QStringLiteral("/job.json"), r.toJson());
    const QByteArray boot = test::readFile(QStringLiteral("/proc/sys/kernel/random/boot_id")).trimmed();
    test::writeFile(root + QStringLiteral("/launcher.pid"),
                    "4000001 (sh) S 1 4000001 4000001 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 123 0 0\n"
                    "4000002 (python3) S 4000001 4000001 4000001 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 124 0 0\n"
                    + boot + "\n");
    test::writeFile(root + QStringLiteral("/exit_status"), "0\n");
    test::writeFile(root + QStringLiteral("/logs/run_x/attempt_0/0/stderr.log"), "");
    *stdoutLog = root + QStringLiteral("/logs/run_x/attempt_0/0/stdout.log");
    return r.id;
}

// Runs ingot-cli and measures its peak resident memory (its own rusage, through wait4).
struct Measured {
    int code = -1;
    qint64 maxRssKb = 0;
    QByteArray out;
};
Measured runMeasured(const JobCli &cli, const QStringList &args)
{
    QTemporaryFile outFile;
    if (!outFile.open())
        return {};
    // Started as Ingot starts its children (spawnChild), its stdout into the file, waited for with wait4.
    ChildSetup setup;
    setup.program = QStringLiteral(INGOT_CLI_PATH);
    setup.arguments = args;
    setup.environment = cli.environment();
    setup.stdoutFd = outFile.handle();
    setup.stderrFd = STDERR_FILENO;
    Measured m;
    pid_t pid = 0;
    if (spawnChild(setup, &pid) == 0) {
        int status = 0;
        struct rusage ru {};
        if (::wait4(pid, &status, 0, &ru) == pid) {
            m.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            m.maxRssKb = ru.ru_maxrss;
        }
    }
    outFile.seek(0);
    m.out = outFile.readAll();
    return m;
}

// The names in a folder, as bytes.
QList<QByteArray> entries(const QString &folder)
{
    QList<QByteArray> out;
    if (DIR *d = ::opendir(QFile::encodeName(folder).constData())) {
        while (const dirent *e = ::readdir(d))
            if (qstrcmp(e->d_name, ".") && qstrcmp(e->d_name, ".."))
                out << QByteArray(e->d_name);
        ::closedir(d);
    }
    return out;
}

const QStringList python = {QStringLiteral("--python"), QStringLiteral("/usr/bin/python3")};

}  // namespace

class TestJobCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // job backend: where the backend is (here the source tree's: the build tree has no installed one beside
    // ingot-cli; tests/packaging checks the installed package finds its own), and a clear error when it is missing.
    void backendFolder()
    {
        JobCli cli;
        Run r = cli({QStringLiteral("job"), QStringLiteral("backend")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.trimmed(), QStringLiteral(INGOT_SOURCE_DIR "/resources/backend"));
        r = cli({QStringLiteral("job"), QStringLiteral("backend"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().object().value(QLatin1String("found")).toBool(), true);

        QTemporaryDir empty;
        r = cli({QStringLiteral("job"), QStringLiteral("backend"), QStringLiteral("--json")}, 60000, empty.path());
        QCOMPARE(r.code, 1);
        QCOMPARE(r.json().object().value(QLatin1String("backend_dir")).toString(), empty.path());
        QCOMPARE(r.json().object().value(QLatin1String("found")).toBool(), false);
        QVERIFY2(r.err.contains(QLatin1String("the training backend is missing")) && r.err.contains(empty.path()),
                 qPrintable(r.err));
    }

    void launchStatusWaitList()
    {
        JobCli cli;
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--nproc-per-node"),
                                QStringLiteral("2"), QStringLiteral("--name"), QStringLiteral("cli tp2")}
                    + python + QStringList{QStringLiteral("--"), QStringLiteral("--config_name"), QStringLiteral("tiny"),
                                           QStringLiteral("--tensor_parallel_size"), QStringLiteral("2"),
                                           QStringLiteral("--max_steps"), QStringLiteral("5")});
        QCOMPARE(r.code, 0);
        const QString id = r.out.trimmed();
        QVERIFY2(id.size() > 10 && !id.contains(QLatin1Char(' ')), qPrintable(r.out + r.err));

        r = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QJsonObject st = r.json().object();
        QCOMPARE(st.value(QLatin1String("id")).toString(), id);
        QVERIFY(QStringList({QStringLiteral("starting"), QStringLiteral("compiling"), QStringLiteral("running"),
                             QStringLiteral("saving"), QStringLiteral("finished")})
                    .contains(st.value(QLatin1String("state")).toString()));
        QVERIFY(st.value(QLatin1String("pids")).toObject().value(QLatin1String("launcher")).toInteger() > 0);

        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QLatin1String("Finished")));

        r = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
        st = r.json().object();
        QCOMPARE(st.value(QLatin1String("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(st.value(QLatin1String("step")).toInt(), 5);
        QCOMPARE(st.value(QLatin1String("max_steps")).toInt(), 5);
        QVERIFY(st.value(QLatin1String("last_loss")).toDouble() > 0);
        const QString outputDir = st.value(QLatin1String("output_dir")).toString();
        QVERIFY(QFileInfo(outputDir + QStringLiteral("/trainer_state.json")).isFile());
        // Where it compiled: the runtime's rule (here the default, nothing set), named as the cache commands name it.
        const QJsonObject cache = st.value(QLatin1String("compile_cache")).toObject();
        QCOMPARE(cache.value(QLatin1String("resolved")).toString(), QStringLiteral("/var/tmp/neuron-compile-cache"));
        QCOMPARE(cache.value(QLatin1String("rule")).toString(), QStringLiteral("default"));

        // Its checkpoint, consolidated by the job's id (where the job ran: here), verified against the shards.
        r = cli({QStringLiteral("job"), QStringLiteral("consolidate"), id, QStringLiteral("--verify"), QStringLiteral("--json")}, 180000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject rep = r.json().object();
        QVERIFY(rep.value(QLatin1String("verified")).toBool());
        QVERIFY(rep.value(QLatin1String("tensors")).toInt() > 0);
        QCOMPARE(rep.value(QLatin1String("output")).toString(), outputDir + QStringLiteral("/consolidated"));
        QVERIFY(QFileInfo(outputDir + QStringLiteral("/consolidated/model.safetensors")).isFile());
        r = cli({QStringLiteral("job"), QStringLiteral("consolidate"), id, QStringLiteral("--format"), QStringLiteral("npz")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("unknown format")), qPrintable(r.err));
        r = cli({QStringLiteral("job"), QStringLiteral("consolidate"), QStringLiteral("20200101-000000-dead")});
        QVERIFY(r.code != 0);

        r = cli({QStringLiteral("job"), QStringLiteral("list")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(id));
        QVERIFY(r.out.contains(QLatin1String("cli tp2")));
        QVERIFY(r.out.contains(QStringLiteral("1\u00d72\u00d71")));  // the layout as the GUI writes it (issue 35)
        QVERIFY(r.out.contains(QLatin1String("Finished")));  // the state as the status and the GUI name it

        r = cli({QStringLiteral("job"), QStringLiteral("logs"), id, QStringLiteral("--rank"), QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        r = cli({QStringLiteral("job"), QStringLiteral("logs"), id});
        QVERIFY(r.out.contains(QLatin1String("INGOT_EVENT")));
        QVERIFY(r.out.contains(QLatin1String("\"finished\"")));
    }

    // The launch preview names the compile cache the job will use: the environment table's NEURON_CC_FLAGS wins
    // over the field, as the job's script exports it last.
    void aDryRunNamesTheCompileCache()
    {
        JobCli cli;
        const Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--dry-run"),
                                      QStringLiteral("--json"), QStringLiteral("--env"),
                                      QStringLiteral("NEURON_CC_FLAGS=--cache_dir=/from/table"), QStringLiteral("--env"),
                                      QStringLiteral("NEURON_COMPILE_CACHE_URL=/from/url")}
                          + python + QStringList{QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("2")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject cache = r.json().object().value(QLatin1String("compile_cache")).toObject();
        QCOMPARE(cache.value(QLatin1String("resolved")).toString(), QStringLiteral("/from/table"));
        QCOMPARE(cache.value(QLatin1String("rule")).toString(), QStringLiteral("NEURON_CC_FLAGS --cache_dir"));
        QVERIFY(r.json().object().value(QLatin1String("script")).toString().contains(QLatin1String("--cache_dir=/from/table")));
    }

    // --preset: the launcher's preset, changed by the options given; job presets lists them. Before the job starts,
    // the warnings the launcher shows about its compile cache go to stderr; they refuse nothing.
    void presetsAndLaunchWarnings()
    {
        JobCli cli;
        Run r = cli({QStringLiteral("job"), QStringLiteral("presets")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QLatin1String("No presets yet")), qPrintable(r.out));

        const QString cache = cli.data.path() + QStringLiteral("/cache-bad");
        test::makeModule(cache, QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), QStringLiteral("MODULE_abc+def"),
                         {QStringLiteral("model.log")});
        JobSpec s;
        s.python = QStringLiteral("/usr/bin/python3");
        s.nprocPerNode = 2;
        s.tensorParallel = 2;
        s.maxSteps = 7;
        s.compileCacheUrl = cache;
        cli.savePreset(QStringLiteral("tp2 short"), s);
        r = cli({QStringLiteral("job"), QStringLiteral("presets")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.trimmed(), QStringLiteral("tp2 short"));
        r = cli({QStringLiteral("job"), QStringLiteral("presets"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const QJsonObject listed = r.json().array().first().toObject();
        QCOMPARE(listed.value(QLatin1String("name")).toString(), QStringLiteral("tp2 short"));
        QCOMPARE(listed.value(QLatin1String("spec")).toObject().value(QLatin1String("settings")).toObject()
                     .value(QLatin1String("tensor_parallel_size")).toInt(), 2);  // as job.json has it

        r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--preset"), QStringLiteral("tp2 short"),
                 QStringLiteral("--dry-run")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const char *part : {"--nproc_per_node=2", "--tensor_parallel_size 2", "--max_steps 7"})
            QVERIFY2(r.out.contains(QLatin1String(part)), qPrintable(r.out));
        QVERIFY2(r.err.contains(QLatin1String("warning: ")) && r.err.contains(QLatin1String("1 failed entry"))
                     && r.err.contains(cache),
                 qPrintable(r.err));
        // The options given change the preset; the others stay its own.
        r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--preset"), QStringLiteral("tp2 short"),
                 QStringLiteral("--nproc-per-node"), QStringLiteral("4"), QStringLiteral("--dry-run"), QStringLiteral("--"),
                 QStringLiteral("--max_steps"), QStringLiteral("9")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const char *part : {"--nproc_per_node=4", "--tensor_parallel_size 2", "--max_steps 9"})
            QVERIFY2(r.out.contains(QLatin1String(part)), qPrintable(r.out));
        // Without a preset, the same warning for the same cache.
        r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--dry-run"), QStringLiteral("--env"),
                            QStringLiteral("NEURON_COMPILE_CACHE_URL=") + cache}
                + python);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("1 failed entry")), qPrintable(r.err));

        r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--preset"), QStringLiteral("nothing"),
                 QStringLiteral("--dry-run")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("no preset named nothing")), qPrintable(r.err));
    }

    // The last run with the same settings: its log names the graphs it used (the Neuron compiler wrapper's lines, as
    // tst_jobmonitor's script prints them); one of them is FAILED in the cache now, and job launch says so as the
    // launcher does.
    void launchWarnsOfTheLastRunsBlockedGraphs()
    {
        JobCli cli;
        const QString version = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
        const QString cache = cli.data.path() + QStringLiteral("/cache");
        test::makeModule(cache, version, QStringLiteral("MODULE_hit+aaaa1111"),
                         {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::makeModule(cache, version, QStringLiteral("MODULE_bad+aaaa1111"),
                         {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.log")});
        JobSpec s;
        s.python = QStringLiteral("/usr/bin/python3");
        s.maxSteps = 5;
        s.compileCacheUrl = cache;
        QString log;
        const QString id = fakeJob(cli, JobProgram::Backend, &log);
        JobRecordFile r;
        QString error;
        const QString record = cli.jobsRoot() + QLatin1Char('/') + id + QStringLiteral("/job.json");
        QVERIFY2(JobRecordFile::fromJson(test::readFile(record), &r, &error), qPrintable(error));
        r.spec = s;
        test::writeFile(record, r.toJson());
        const QByteArray w = "2024-01-11 05:53:27.000498:  741535  INFO ||NEURON_CC_WRAPPER||: ";
        const QByteArray root = (cache + QLatin1Char('/') + version).toUtf8();
        test::writeFile(log, w + "Using a cached neff at " + root + "/MODULE_hit+aaaa1111/model.neff. Exiting with a "
                                 "successfully compiled graph.\n"
                             + QByteArray(w).replace("INFO", "ERROR") + "Got a cached failed neff at " + root
                             + "/MODULE_bad+aaaa1111/model.neff. Will skip compilation\n");
        cli.savePreset(QStringLiteral("same"), s);
        Run run = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--preset"), QStringLiteral("same"),
                       QStringLiteral("--dry-run")});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QLatin1String("warning: The last run with these settings (") + id)
                     && run.err.contains(QLatin1String("2 graph")) && run.err.contains(QLatin1String("1 blocked"))
                     && run.err.contains(QLatin1String("MODULE_bad+aaaa1111")),
                 qPrintable(run.err));
        // Other settings: no run to compare with, and a cache with a failed entry is still said.
        run = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--preset"), QStringLiteral("same"),
                   QStringLiteral("--dry-run"), QStringLiteral("--"), QStringLiteral("--block_size"), QStringLiteral("128")});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(!run.err.contains(QLatin1String("The last run")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QLatin1String("1 failed entry")), qPrintable(run.err));
    }

    void stopThenWaitSaysStopped()
    {
        JobCli cli;
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--json")} + python
                    + QStringList{QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("100000")});
        QCOMPARE(r.code, 0);
        const QString id = r.json().object().value(QLatin1String("id")).toString();
        QVERIFY(!id.isEmpty());
        // Wait for the first step, then stop.
        for (int i = 0; i < 600; ++i) {
            r = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
            if (r.json().object().value(QLatin1String("step")).toInt() >= 1)
                break;
            QTest::qWait(200);
        }
        // Ingot speaks Chinese: it says so, and records the end in English (the one who saw the end writes it).
        cli.language = QStringLiteral("zh_CN");
        r = cli({QStringLiteral("job"), QStringLiteral("stop"), id, QStringLiteral("--wait")});
        QCOMPARE(r.code, 9);
        QVERIFY(r.out.contains(QLatin1String("checkpoint-")));
        QVERIFY2(!r.out.contains(QLatin1String("Stopped")), qPrintable(r.out));
        const QString jobDir = cli.jobsRoot() + QLatin1Char('/') + id;
        const QByteArray summary = test::readFile(jobDir + QStringLiteral("/summary.json"));
        const QJsonObject stored = QJsonDocument::fromJson(summary).object().value(QLatin1String("status")).toObject();
        QCOMPARE(stored.value(QLatin1String("state")).toString(), QStringLiteral("stopped"));
        QVERIFY2(stored.value(QLatin1String("reason")).toString().startsWith(QLatin1String("Stopped at step ")),
                 summary.constData());
        // One word for the state, in the table and in the status.
        qputenv("INGOT_LANGUAGE", "zh_CN");
        installTranslations(*QCoreApplication::instance());
        qunsetenv("INGOT_LANGUAGE");
        const QString stopped = jobStateTitle(JobState::Stopped);
        QVERIFY(stopped != QLatin1String("Stopped"));
        r = cli({QStringLiteral("job"), QStringLiteral("list")});
        QVERIFY2(r.out.contains(stopped) && !r.out.contains(QLatin1String("stopped")), qPrintable(r.out));
        r = cli({QStringLiteral("job"), QStringLiteral("status"), id});
        QVERIFY2(r.out.contains(stopped), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QLatin1String("Stopped at step")), qPrintable(r.out));  // the reason translated
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QCOMPARE(r.code, 9);
        QVERIFY2(r.out.startsWith(stopped), qPrintable(r.out));
        r = cli({QStringLiteral("job"), QStringLiteral("stop"), id});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(stopped), qPrintable(r.out));
        // Read again and again, in any language: the record is the same bytes.
        cli.language.clear();
        r = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
        QCOMPARE(r.json().object().value(QLatin1String("reason")).toString(), stored.value(QLatin1String("reason")).toString());
        r = cli({QStringLiteral("job"), QStringLiteral("stop"), id});
        QVERIFY(r.out.contains(QLatin1String("not running")));
        QCOMPARE(test::readFile(jobDir + QStringLiteral("/summary.json")), summary);
    }

    // --env with a name that is not one: exit 2, a clear error, nothing run or written (a ';' or a newline in the
    // name would have run commands in run.sh and in the preview).
    void envNamesCannotRunCommands()
    {
        JobCli cli;
        QTemporaryDir cwd;
        for (const QString &kv : {QStringLiteral("X;touch pwned;Y=1"), QStringLiteral("X\ntouch pwned\nY=1"),
                                  QStringLiteral("$(touch pwned)=1")}) {
            for (const bool dryRun : {true, false}) {
                QStringList args = QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--env"), kv} + python;
                if (dryRun)
                    args << QStringLiteral("--dry-run");
                QProcess p;
                p.setProcessEnvironment(cli.environment());
                p.setWorkingDirectory(cwd.path());
                p.start(QStringLiteral(INGOT_CLI_PATH), args);
                QVERIFY(p.waitForFinished(120000));
                QCOMPARE(p.exitCode(), 2);
                const QString err = QString::fromUtf8(p.readAllStandardError());
                QVERIFY2(err.contains(QLatin1String("is not a variable name")), qPrintable(err));
            }
        }
        QVERIFY(!QFileInfo::exists(cwd.filePath(QStringLiteral("pwned"))));
        const Run r = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().array().size(), 0);
    }

    // A FIFO where a rank's log, summary.json or trainer_state.json would be: every command answers at once, saying
    // which file it could not read.
    void aFifoInAJobFolderNeverHangs()
    {
        JobCli cli;
        QString log;
        const QString id = fakeJob(cli, JobProgram::Script, &log);
        const QString root = cli.jobsRoot() + QLatin1Char('/') + id;
        for (const QString &f : QStringList{log, root + QStringLiteral("/summary.json"), root + QStringLiteral("/output/trainer_state.json")})
            QCOMPARE(::mkfifo(QFile::encodeName(f).constData(), 0600), 0);
        Run r = cli({QStringLiteral("job"), QStringLiteral("status"), id}, 60000);
        QVERIFY2(r.finished, "job status hung on a FIFO");
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains(QLatin1String("stdout.log")) && r.err.contains(QLatin1String("not a regular file")), qPrintable(r.err));
        r = cli({QStringLiteral("job"), QStringLiteral("list")}, 60000);
        QVERIFY2(r.finished, "job list hung on a FIFO");
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(id));
        r = cli({QStringLiteral("job"), QStringLiteral("logs"), id}, 60000);
        QVERIFY2(r.finished, "job logs hung on a FIFO");
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String("stdout.log")) && r.err.contains(QLatin1String("not a regular file")), qPrintable(r.err));
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id}, 60000);
        QVERIFY2(r.finished, "job wait hung on a FIFO");
        QCOMPARE(r.code, 0);
    }

    // A rank log of 200 MB: job status reads it in bounded memory (no point kept but the last few, chunks of a few
    // MB) and reports the right figures; then the final summary answers without reading the log again.
    void aHugeLogIsReadInBoundedMemory()
    {
        JobCli cli;
        QString log;
        const QString id = fakeJob(cli, JobProgram::Backend, &log);
        {
            QByteArray block;
            for (int i = 1; i <= 10000; ++i)
                block += "INGOT_METRIC {\"step\": " + QByteArray::number(i) + ", \"loss\": 2.5, \"learning_rate\": 0.0001, "
                         "\"tokens_per_second\": 1234.5}\n";
            QFile f(log);
            QVERIFY(f.open(QIODevice::WriteOnly));
            while (f.size() < (200 << 20))
                QVERIFY(f.write(block) == block.size());
            QVERIFY(f.write("INGOT_METRIC {\"step\": 777777, \"loss\": 1.25, \"tokens_per_second\": 99.5}\n") > 0);
        }
        const Measured m = runMeasured(cli, {QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
        QCOMPARE(m.code, 0);
        const QJsonObject st = QJsonDocument::fromJson(m.out).object();
        QCOMPARE(st.value(QLatin1String("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(st.value(QLatin1String("step")).toInteger(), 777777);
        QCOMPARE(st.value(QLatin1String("last_loss")).toDouble(), 1.25);
        QCOMPARE(st.value(QLatin1String("tokens_per_second")).toDouble(), 99.5);
        QVERIFY2(m.maxRssKb < test::memoryBoundKb(150 * 1024), qPrintable(QStringLiteral("peak RSS %1 MB").arg(m.maxRssKb / 1024)));
        // Recorded: list and status answer from summary.json.
        const Measured again = runMeasured(cli, {QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(again.code, 0);
        QCOMPARE(QJsonDocument::fromJson(again.out).array().first().toObject().value(QLatin1String("step")).toInteger(), 777777);
        QVERIFY2(again.maxRssKb < test::memoryBoundKb(100 * 1024), qPrintable(QStringLiteral("peak RSS %1 MB").arg(again.maxRssKb / 1024)));
    }

    // Arguments are bytes: a folder name that is not UTF-8 is created as it is (not as U+FFFD), and a job's
    // arguments reach its script byte for byte.
    void argumentsThatAreNotUtf8KeepTheirBytes()
    {
        JobCli cli;
        QTemporaryDir base;
        Run r = cli.run(QStringLiteral("/bin/sh"),
                    {QStringLiteral("-c"), QStringLiteral("exec \"$CLI\" cache sample --modules 2 \"$0/caf$(printf '\\351')\""),
                     base.path()},
                    120000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(entries(base.path()).contains(QByteArray("caf\xe9")), true);
        QVERIFY(!entries(base.path()).contains(QByteArray("caf\xef\xbf\xbd")));

        const QString script = base.filePath(QStringLiteral("argv.py"));
        test::writeFile(script, "import os, sys\nif int(os.environ.get('RANK', '0')) == 0:\n"
                                "    open(sys.argv[2], 'wb').write(os.fsencode(sys.argv[1]))\n");
        const QString got = base.filePath(QStringLiteral("got"));
        r = cli.run(QStringLiteral("/bin/sh"),
                    {QStringLiteral("-c"),
                     QStringLiteral("exec \"$CLI\" job launch --python /usr/bin/python3 --script \"$0\" --no-settings -- "
                                    "\"x$(printf '\\351\\377')y\" \"$1\""),
                     script, got},
                    120000);
        QCOMPARE(r.code, 0);
        const QString id = r.out.trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(test::readFile(got), QByteArray("x\xe9\xffy"));
        test::removeTree(base.path());  // by bytes (QDir cannot name "caf\xe9")
    }

    // job resume: the monitor's Resume, launched at once: the same settings from the newest checkpoint-N, the job it
    // resumed recorded in job.json, and said by `job status` (its lineage) in words and in JSON. A job without a
    // checkpoint, or one still running, is refused with why.
    void resumeLaunchesFromTheNewestCheckpoint()
    {
        JobCli cli;
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--name"), QStringLiteral("first run")}
                    + python + QStringList{QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("4"),
                                           QStringLiteral("--save_steps"), QStringLiteral("2")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString first = r.out.trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), first});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        const QString outputDir = cli.jobsRoot() + QLatin1Char('/') + first + QStringLiteral("/output");
        QStringList checkpoints = QDir(outputDir).entryList({QStringLiteral("checkpoint-*")}, QDir::Dirs);
        QVERIFY(!checkpoints.isEmpty());
        std::sort(checkpoints.begin(), checkpoints.end(), [](const QString &a, const QString &b) {
            return a.section(QLatin1Char('-'), 1).toInt() < b.section(QLatin1Char('-'), 1).toInt();
        });
        const QString newest = outputDir + QLatin1Char('/') + checkpoints.last();

        r = cli({QStringLiteral("job"), QStringLiteral("resume"), first, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString second = r.json().object().value(QLatin1String("id")).toString();
        QVERIFY(!second.isEmpty() && second != first);
        QCOMPARE(r.json().object().value(QLatin1String("resumed_from")).toString(), first);
        QCOMPARE(r.json().object().value(QLatin1String("checkpoint")).toString(), newest);
        // While it runs it cannot be resumed (it has not ended).
        r = cli({QStringLiteral("job"), QStringLiteral("resume"), second});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QLatin1String("has not ended")), qPrintable(r.err));
        JobRecordFile record;
        QString error;
        QVERIFY(JobRecordFile::fromJson(test::readFile(cli.jobsRoot() + QLatin1Char('/') + second + QStringLiteral("/job.json")), &record, &error));
        QCOMPARE(record.spec.resumedFromJob, first);
        QCOMPARE(record.spec.resumeFrom, newest);
        QCOMPARE(record.spec.name, QStringLiteral("first run"));  // the same settings
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), second});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));

        r = cli({QStringLiteral("job"), QStringLiteral("status"), second});
        QVERIFY2(r.out.contains(QStringLiteral("Resumed from: %1 (first run").arg(first)), qPrintable(r.out));
        r = cli({QStringLiteral("job"), QStringLiteral("status"), second, QStringLiteral("--json")});
        QCOMPARE(r.json().object().value(QLatin1String("resumed_from")).toString(), first);
        r = cli({QStringLiteral("job"), QStringLiteral("status"), first, QStringLiteral("--json")});
        QVERIFY(r.json().object().value(QLatin1String("resumed_from")).isNull());

        // A job launched from that checkpoint by hand (job launch -- --resume_from_checkpoint, no resumed_from_job
        // recorded): the job whose output folder holds it. It left no checkpoint itself: resuming it is refused.
        QString log;
        const QString none = fakeJob(cli, JobProgram::Backend, &log);
        const QString noneJson = cli.jobsRoot() + QLatin1Char('/') + none + QStringLiteral("/job.json");
        JobRecordFile byHand;
        QVERIFY(JobRecordFile::fromJson(test::readFile(noneJson), &byHand, &error));
        byHand.spec.resumeFrom = newest;
        test::writeFile(noneJson, byHand.toJson());
        r = cli({QStringLiteral("job"), QStringLiteral("status"), none, QStringLiteral("--json")});
        QCOMPARE(r.json().object().value(QLatin1String("resumed_from")).toString(), first);
        r = cli({QStringLiteral("job"), QStringLiteral("resume"), none});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QLatin1String("No checkpoint-N")), qPrintable(r.err));
        r = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().array().size(), 3);
        QMap<QString, QJsonValue> lineage;
        for (const QJsonValue &j : r.json().array())
            lineage.insert(j.toObject().value(QLatin1String("id")).toString(), j.toObject().value(QLatin1String("resumed_from")));
        QCOMPARE(lineage.value(second).toString(), first);
        QCOMPARE(lineage.value(none).toString(), first);
        QVERIFY(lineage.value(first).isNull());
    }

    // job remove: the preview the Jobs page's dialog shows (the job's folder and its size, the outputs kept unless
    // --outputs), nothing removed without --yes off a terminal, a running job never; then the folders go.
    void removePreviewsThenRemovesWithYes()
    {
        JobCli cli;
        QTemporaryDir outputs;
        const QString outputDir = outputs.filePath(QStringLiteral("run"));
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--output-dir"), outputDir}
                    + python + QStringList{QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("2"),
                                           QStringLiteral("--save_steps"), QStringLiteral("2")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString id = r.out.trimmed();
        const QString jobDir = cli.jobsRoot() + QLatin1Char('/') + id;
        // Running: refused, even with --yes.
        r = cli({QStringLiteral("job"), QStringLiteral("remove"), id, QStringLiteral("--yes")});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QLatin1String("is running: stop it first")), qPrintable(r.err));
        QVERIFY(QFileInfo(jobDir + QStringLiteral("/job.json")).isFile());
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));

        r = cli({QStringLiteral("job"), QStringLiteral("remove"), id});  // no terminal, no --yes
        QCOMPARE(r.code, 4);
        QVERIFY2(r.out.contains(QStringLiteral("Removes the job's folder %1 (").arg(jobDir)), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("Keeps the outputs %1 (").arg(outputDir)), qPrintable(r.out));
        QVERIFY(r.err.contains(QLatin1String("without --yes")));
        QVERIFY(QFileInfo(jobDir + QStringLiteral("/job.json")).isFile());

        r = cli({QStringLiteral("job"), QStringLiteral("remove"), id, QStringLiteral("--outputs"), QStringLiteral("--dry-run"),
                 QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QJsonObject pv = r.json().object();
        QCOMPARE(pv.value(QLatin1String("job_dir")).toString(), jobDir);
        QVERIFY(pv.value(QLatin1String("job_dir_bytes")).toInteger() > 0);
        QCOMPARE(pv.value(QLatin1String("output_dir")).toString(), outputDir);
        QVERIFY(pv.value(QLatin1String("output_bytes")).toInteger() > 0);
        QCOMPARE(pv.value(QLatin1String("outputs")).toString(), QStringLiteral("removed"));
        QCOMPARE(pv.value(QLatin1String("removed")).toBool(), false);
        QVERIFY(QFileInfo(outputDir).isDir());

        r = cli({QStringLiteral("job"), QStringLiteral("remove"), id, QStringLiteral("--outputs"), QStringLiteral("--yes")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("Also removes the outputs %1 (").arg(outputDir)), qPrintable(r.out));
        QVERIFY(!QFileInfo::exists(jobDir));
        QVERIFY(!QFileInfo::exists(outputDir));
        QVERIFY(QFileInfo(outputs.path()).isDir());  // only the job's own output folder
        r = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().array().size(), 0);
        r = cli({QStringLiteral("job"), QStringLiteral("remove"), id, QStringLiteral("--yes")});
        QVERIFY(r.code != 0);
    }

    // job graphs: the monitor's compile activity for a job that ran. Its output is the Neuron compiler wrapper's
    // lines (libneuronxla's neuron_cc_wrapper.py writes "Using a cached neff at ..." and "Call compiler with cmd: ...";
    // services/cache/compilelog.h): a hit from the cache and a graph the job compiled into it.
    void graphsExplainEachGraphOfTheJob()
    {
        JobCli cli;
        QTemporaryDir tmp;
        const QString cache = tmp.filePath(QStringLiteral("cache"));
        const QString version = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
        test::makeModule(cache, version, QStringLiteral("MODULE_hit+aaaa1111"),
                         {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.neff"),
                          QStringLiteral("model.done")}, 3);
        const QString script = tmp.filePath(QStringLiteral("compiles.py"));
        // (Written line by line: moc, which reads this file too, loses its classes in a raw string literal.)
        const QByteArray program = QByteArrayLiteral(
            "import os\n"
            "cache = os.environ[\"NEURON_COMPILE_CACHE_URL\"]\n"
            "root = os.path.join(cache, \"%1\")\n"
            "w = \"2024-01-11 05:53:27.000498:  741535  INFO ||NEURON_CC_WRAPPER||: \"\n"
            "print(w + \"Compile cache path: \" + cache, flush=True)\n"
            "print(w + \"Using a cached neff at \" + root + \"/MODULE_hit+aaaa1111/model.neff. Exiting with a successfully compiled graph.\", flush=True)\n"
            "name = \"MODULE_555+aaaa1111\"\n"
            "print(w + \"Call compiler with cmd: ['neuronx-cc', 'compile', '--framework=XLA', '/tmp/work/model.\" + name + \".hlo_module.pb', '--output', '/tmp/work/model.\" + name + \".neff']\", flush=True)\n"
            "d = os.path.join(root, name)\n"
            "os.makedirs(d)\n"
            "for f, text in [(\"model.hlo_module.pb\", \"hlo\"), (\"compile_flags.json\", '[\"--model-type=transformer\"]'), (\"model.neff\", \"neff\"), (\"model.done\", \"\")]:\n"
            "    open(os.path.join(d, f), \"w\").write(text)\n");
        test::writeFile(script, QString::fromUtf8(program).arg(version).toUtf8());
        qputenv("HF_HUB_OFFLINE", "1");
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--script"), script,
                                QStringLiteral("--no-settings"), QStringLiteral("--env"),
                                QStringLiteral("NEURON_COMPILE_CACHE_URL=") + cache} + python);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString id = r.out.trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));

        r = cli({QStringLiteral("job"), QStringLiteral("graphs"), id, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject a = r.json().object();
        QCOMPARE(a.value(QLatin1String("compile_cache")).toObject().value(QLatin1String("path")).toString(), cache);
        QCOMPARE(a.value(QLatin1String("counts")).toObject().value(QLatin1String("hit")).toInt(), 1);
        QCOMPARE(a.value(QLatin1String("counts")).toObject().value(QLatin1String("new-graph")).toInt(), 1);
        QMap<QString, QString> why;
        for (const QJsonValue &g : a.value(QLatin1String("graphs")).toArray())
            why.insert(g.toObject().value(QLatin1String("entry")).toString(), g.toObject().value(QLatin1String("verdict")).toString());
        const QMap<QString, QString> expected = {{version + QStringLiteral("/MODULE_hit+aaaa1111"), QStringLiteral("hit")},
                                                 {version + QStringLiteral("/MODULE_555+aaaa1111"), QStringLiteral("new-graph")}};
        QCOMPARE(why, expected);

        r = cli({QStringLiteral("job"), QStringLiteral("graphs"), id});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith(QStringLiteral("2 graphs: 1 hit, 1 new")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("MODULE_555+aaaa1111")) && r.out.contains(QStringLiteral("SUCCESS")), qPrintable(r.out));

        // A job that compiles without a cache: said, exit 5.
        QString log;
        const QString plain = fakeJob(cli, JobProgram::Backend, &log);
        JobRecordFile rec;
        const QString jobJson = cli.jobsRoot() + QLatin1Char('/') + plain + QStringLiteral("/job.json");
        QString error;
        QVERIFY(JobRecordFile::fromJson(test::readFile(jobJson), &rec, &error));
        rec.spec.env.append({QStringLiteral("NEURON_CC_FLAGS"), QStringLiteral("--no_cache")});
        test::writeFile(jobJson, rec.toJson());
        r = cli({QStringLiteral("job"), QStringLiteral("graphs"), plain});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains(QLatin1String("without a cache")), qPrintable(r.err));
        qunsetenv("HF_HUB_OFFLINE");
    }

    // job neuroncores: one sample of a running job's NeuronCores, as the monitor's tab reads it: neuron-monitor and
    // neuron-ls where the job runs (stand-ins printing the documented formats: tests/support/standins). Without them,
    // or once the job has ended, a clear "no neuron-monitor data".
    void neuronCoresOfARunningJob()
    {
        JobCli cli;
        QTemporaryDir tmp;
        const QString script = tmp.filePath(QStringLiteral("runs.py"));
        test::writeFile(script, "import time\ntime.sleep(600)\n");
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--script"), script,
                                QStringLiteral("--no-settings")} + python);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString id = r.out.trimmed();

        const QByteArray path = qgetenv("PATH");
        r = cli({QStringLiteral("job"), QStringLiteral("neuroncores"), id});
        QCOMPARE(r.code, 5);
        QVERIFY2(r.err.contains(QLatin1String("no neuron-monitor data: neuron-monitor is not installed")), qPrintable(r.err));

        const QString bin = test::neuronStandIns(tmp.path());
        qputenv("PATH", bin.toUtf8() + ':' + path);
        r = cli({QStringLiteral("job"), QStringLiteral("neuroncores"), id});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("trn1.2xlarge")) && r.out.contains(QLatin1String("4 cores in use")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("device memory 11.7 GiB")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("2 NeuronCores")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("ECC events: 1 corrected, 0 uncorrected")), qPrintable(r.out));
        r = cli({QStringLiteral("job"), QStringLiteral("neuroncores"), id, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject rep = r.json().object().value(QLatin1String("report")).toObject();
        QCOMPARE(rep.value(QLatin1String("instance_type")).toString(), QStringLiteral("trn1.2xlarge"));
        QCOMPARE(rep.value(QLatin1String("utilization")).toObject().keys(),
                 (QStringList{QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}));  // not the other process's
        QCOMPARE(rep.value(QLatin1String("device_bytes")).toInteger(), 12519788544LL);

        r = cli({QStringLiteral("job"), QStringLiteral("stop"), id, QStringLiteral("--kill"), QStringLiteral("--wait")});
        QCOMPARE(r.code, 9);
        r = cli({QStringLiteral("job"), QStringLiteral("neuroncores"), id});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QLatin1String("no neuron-monitor data")) && r.err.contains(QLatin1String("not running")),
                 qPrintable(r.err));
        qputenv("PATH", path);
    }

    void failuresAndBadInput()
    {
        JobCli cli;
        // Invalid settings: the field and the rule, nothing started.
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--nproc-per-node"),
                                QStringLiteral("2")} + python
                    + QStringList{QStringLiteral("--"), QStringLiteral("--tensor_parallel_size"), QStringLiteral("3")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("--tensor_parallel_size")), qPrintable(r.err));
        QVERIFY(r.err.contains(QLatin1String("does not divide")));
        r = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().array().size(), 0);
        r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--"), QStringLiteral("--bogus")});
        QCOMPARE(r.code, 2);
        r = cli({QStringLiteral("job"), QStringLiteral("status"), QStringLiteral("../../etc")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains(QLatin1String("not a job id")));

        // A job that fails: wait exits 1 and says why.
        QTemporaryDir dir;
        test::writeFile(dir.filePath(QStringLiteral("bad.jsonl")), "{\"text\": \"ok\"}\nnot json\n");
        r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch")} + python
                + QStringList{QStringLiteral("--"), QStringLiteral("--train_file"), dir.filePath(QStringLiteral("bad.jsonl"))});
        QCOMPARE(r.code, 0);
        const QString id = r.out.trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(QLatin1String("is not JSON")), qPrintable(r.out));

        // --dry-run starts nothing and prints the exact command.
        r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--dry-run")} + python);
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QLatin1String("-m ingot_train.launch")));
        r = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().array().size(), 1);
    }

    // --engine, --fsdp and --torch-compile (issue 37): the contract's flags in the command, what automatic runs said
    // with why (real Pythons: the PyTorch 2 root's torch 2.6, Debian's torch 1.13), and a refused combination refused
    // in the launcher's words before anything starts.
    void launchChoosesTheEngine()
    {
        JobCli cli;
        const QString torch2 = QStringLiteral(INGOT_SOURCE_DIR "/tests/support/torch2/python3");
        const QStringList launch{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--dry-run")};
        Run r = cli(launch + QStringList{QStringLiteral("--json"), QStringLiteral("--python"), torch2, QStringLiteral("--engine"),
                                         QStringLiteral("native"), QStringLiteral("--fsdp"), QStringLiteral("--torch-compile"),
                                         QStringLiteral("--nproc-per-node"), QStringLiteral("2")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = r.json().object();
        QStringList argv;
        for (const QJsonValue &a : o.value(QLatin1String("argv")).toArray())
            argv << a.toString();
        const int at = int(argv.indexOf(QStringLiteral("--engine")));
        QVERIFY2(at > 0 && argv.value(at + 1) == QLatin1String("native"), qPrintable(argv.join(QLatin1Char(' '))));
        QVERIFY(argv.contains(QStringLiteral("--fsdp")) && argv.contains(QStringLiteral("--torch_compile")));
        QVERIFY(o.value(QLatin1String("command")).toString().contains(QLatin1String("--engine native")));
        QVERIFY2(r.err.contains(QLatin1String("note: --fsdp: fully sharded over dp 2: FSDP2")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("note: --torch_compile: torch.compile with a CPU backend")), qPrintable(r.err));

        // Automatic, asked for: not passed (the backend's default), and what it runs there said with why.
        r = cli(launch + QStringList{QStringLiteral("--python"), torch2, QStringLiteral("--engine"), QStringLiteral("auto")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.out.contains(QLatin1String("--engine")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QLatin1String("note: --engine: automatic: torch 2."))
                     && r.err.contains(QLatin1String("without torch_xla: native PyTorch")), qPrintable(r.err));
        r = cli(launch + QStringList{QStringLiteral("--python"), QStringLiteral("/usr/bin/python3"), QStringLiteral("--engine"),
                                     QStringLiteral("auto")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("note: --engine: automatic: torch 1.")) && r.err.contains(QLatin1String("PyTorch/XLA")),
                 qPrintable(r.err));

        // XLA chosen where there is no torch_xla: a warning, not a refusal.
        r = cli(launch + QStringList{QStringLiteral("--python"), torch2, QStringLiteral("--engine"), QStringLiteral("xla")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("--engine xla")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QLatin1String("warning: --engine: the job's Python (torch 2.")) && r.err.contains(QLatin1String("has no torch_xla")),
                 qPrintable(r.err));

        // Refused before anything starts, in validateJob's words (the launcher shows the same under the field).
        r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--python"), QStringLiteral("/usr/bin/python3"),
                            QStringLiteral("--engine"), QStringLiteral("xla"), QStringLiteral("--fsdp"), QStringLiteral("--"),
                            QStringLiteral("--zero_1")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("error: --fsdp: fully sharded (ZeRO-3) shards the optimizer state already: turn ZeRO-1 off")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("error: --fsdp: fully sharded runs on the native engine only")), qPrintable(r.err));
        r = cli(launch + QStringList{QStringLiteral("--engine"), QStringLiteral("tpu")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("error: --engine: one of auto, native, xla")), qPrintable(r.err));
        QVERIFY(QDir(cli.jobsRoot()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestJobCli)
#include "tst_jobcli.moc"
