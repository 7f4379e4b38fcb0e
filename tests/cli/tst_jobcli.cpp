// `ingot-cli job` as users run it: real torchrun jobs on CPU, exit codes, JSON, logs; the language it speaks (one
// word for a state, reasons stored in English); hostile job folders (FIFOs, huge logs) and arguments that are not
// UTF-8 or would smuggle a command.
#include "app/i18n/translations.h"
#include "services/jobs/jobfolder.h"
#include "services/jobs/jobfollower.h"
#include "services/util/names.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

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
    QList<QByteArray> argBytes{QByteArray(INGOT_CLI_PATH)};
    for (const QString &a : args)
        argBytes << a.toUtf8();
    QList<QByteArray> envBytes;
    const QProcessEnvironment e = cli.environment();
    for (const QString &k : e.keys())
        envBytes << (k + QLatin1Char('=') + e.value(k)).toUtf8();
    std::vector<char *> argv, envp;
    for (QByteArray &a : argBytes)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (QByteArray &v : envBytes)
        envp.push_back(v.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    const QByteArray outPath = QFile::encodeName(outFile.fileName());
    posix_spawn_file_actions_addopen(&fa, 1, outPath.constData(), O_WRONLY | O_TRUNC, 0);
    Measured m;
    pid_t pid = 0;
    if (posix_spawn(&pid, argv.front(), &fa, nullptr, argv.data(), envp.data()) == 0) {
        int status = 0;
        struct rusage ru {};
        if (::wait4(pid, &status, 0, &ru) == pid) {
            m.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            m.maxRssKb = ru.ru_maxrss;
        }
    }
    posix_spawn_file_actions_destroy(&fa);
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
};

QTEST_GUILESS_MAIN(TestJobCli)
#include "tst_jobcli.moc"
