// TorchTitan jobs (*Run a command* with `-m torchtitan.train --job.config_file FILE`): recognised, their TOML config
// read with bounds (the shape of torchtitan's own train_configs/*.toml, 0.1.0's enable_checkpoint and 0.2's enable),
// and their step-N DCP checkpoints found and offered for consolidation. Then a real job: the TorchTitan stand-in
// (tests/support/torchtitan_standin, formats cited there) under torchrun with PyTorch 2 (tests/support/torch2),
// charted from its step lines and its newest step-N found where Ingot looks for a job's checkpoints.
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/torchtitanjob.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

// torchtitan 0.2.2's torchtitan/models/llama3/train_configs/debug_model.toml, abridged, with checkpointing on.
const QByteArray debugModelToml = R"([job]
dump_folder = "./outputs"
description = "Llama 3 debug training"
print_config = false

[metrics]
log_freq = 1
disable_color_printing = false

[model]
name = "llama3"
flavor = "debugmodel"
# test folder with tokenizer.json, for debug purpose only
hf_assets_path = "./tests/assets/tokenizer"

[training]
local_batch_size = 8
seq_len = 2048
steps = 10
dataset = "c4_test"  # supported datasets: c4_test (2K), c4 (177M)

[checkpoint]
enable = true
folder = "checkpoint"
interval = 10
last_save_model_only = false
async_mode = "disabled"  # ["disabled", "async", "async_with_pinned_mem"]

[compile]
enable=false
components = ["model", "loss"]
)";

JobSpec titanSpec(const QStringList &args)
{
    JobSpec s;
    s.program = JobProgram::Module;
    s.module = QStringLiteral("torchtitan.train");
    s.passSettings = false;
    s.extraArgs = args;
    return s;
}

}  // namespace

class TestTorchTitanJob : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void recognised()
    {
        auto job = torchTitanJob(titanSpec({QStringLiteral("--job.config_file"), QStringLiteral("train.toml")}));
        QVERIFY(job.has_value());
        QCOMPARE(job->configFile, QStringLiteral("train.toml"));
        job = torchTitanJob(titanSpec({QStringLiteral("--job.config-file=/c/x.toml"), QStringLiteral("--training.steps"),
                                       QStringLiteral("5")}));
        QVERIFY(job.has_value());
        QCOMPARE(job->configFile, QStringLiteral("/c/x.toml"));
        QCOMPARE(job->dumpFolder, QStringLiteral("./outputs"));

        JobSpec script;
        script.program = JobProgram::Script;
        script.script = QStringLiteral("/src/torchtitan/torchtitan/train.py");
        QVERIFY(torchTitanJob(script).has_value());

        JobSpec other = titanSpec({});
        other.module = QStringLiteral("torchtitan.trainer");
        QVERIFY(!torchTitanJob(other).has_value());
        QVERIFY(!torchTitanJob(JobSpec()).has_value());  // the backend
    }

    void configRead()
    {
        TorchTitanJob job;
        QString error;
        QVERIFY2(readTorchTitanConfig(debugModelToml, &job, &error), qPrintable(error));
        QCOMPARE(job.dumpFolder, QStringLiteral("./outputs"));
        QCOMPARE(job.checkpointFolder, QStringLiteral("checkpoint"));
        QVERIFY(job.checkpointing);
        QCOMPARE(job.steps, qint64(10));

        // 0.1.0: enable_checkpoint; literal strings; another table's "folder" is not the checkpoint's; a multi-line
        // string that holds a [checkpoint] line is no table.
        TorchTitanJob old;
        QVERIFY2(readTorchTitanConfig("[job]\ndump_folder = '/fsx/runs/a'\nnotes = \"\"\"\n[checkpoint]\nfolder = "
                                      "\"no\"\n\"\"\"\n[profiling]\nfolder = \"trace\"\n[checkpoint]\n"
                                      "enable_checkpoint = true # on\nfolder = \"ckpt\"\n",
                                      &old, &error),
                 qPrintable(error));
        QCOMPARE(old.dumpFolder, QStringLiteral("/fsx/runs/a"));
        QCOMPARE(old.checkpointFolder, QStringLiteral("ckpt"));
        QVERIFY(old.checkpointing);
        QCOMPARE(torchTitanCheckpointDir(old, QStringLiteral("/jobs/1")), QStringLiteral("/fsx/runs/a/ckpt"));
        QCOMPARE(torchTitanCheckpointDir(job, QStringLiteral("/jobs/1")), QStringLiteral("/jobs/1/outputs/checkpoint"));

        // The command line wins over the file.
        applyTorchTitanArguments({QStringLiteral("--job.dump_folder=/out"), QStringLiteral("--checkpoint.folder"),
                                  QStringLiteral("/abs/ck"), QStringLiteral("--checkpoint.no-enable"),
                                  QStringLiteral("--training.steps=1_000")},
                                 &job);
        QCOMPARE(job.steps, qint64(10));  // not a number on the command line: the file's stays
        applyTorchTitanArguments({QStringLiteral("--training.steps"), QStringLiteral("3000")}, &job);
        QCOMPARE(job.steps, qint64(3000));
        TorchTitanJob underscores;
        QVERIFY(readTorchTitanConfig("[training]\nsteps = 1_000_000 # long\n", &underscores, &error));
        QCOMPARE(underscores.steps, qint64(1000000));
        QCOMPARE(torchTitanCheckpointDir(job, QStringLiteral("/jobs/1")), QStringLiteral("/abs/ck"));
        QVERIFY(!job.checkpointing);
    }

    void hostileConfigs_data()
    {
        QTest::addColumn<QByteArray>("toml");
        QTest::addColumn<QString>("words");
        QTest::newRow("twice") << QByteArray("[job]\ndump_folder = \"a\"\ndump_folder = \"b\"\n") << QStringLiteral("twice");
        QTest::newRow("number as folder") << QByteArray("[checkpoint]\nfolder = 3\n") << QStringLiteral("not a folder");
        QTest::newRow("empty folder") << QByteArray("[checkpoint]\nfolder = \"\"\n") << QStringLiteral("not a folder");
        QTest::newRow("unterminated") << QByteArray("[job]\ndump_folder = \"./out\n") << QStringLiteral("not a folder");
        QTest::newRow("newline escape") << QByteArray("[job]\ndump_folder = \"a\\nb\"\n") << QStringLiteral("not a folder");
        QTest::newRow("string as bool") << QByteArray("[checkpoint]\nenable = \"yes\"\n") << QStringLiteral("true or false");
        QTest::newRow("number as bool") << QByteArray("[checkpoint]\nenable = 1\n") << QStringLiteral("true or false");
        QTest::newRow("steps as words") << QByteArray("[training]\nsteps = \"ten\"\n") << QStringLiteral("whole number");
        QTest::newRow("negative steps") << QByteArray("[training]\nsteps = -5\n") << QStringLiteral("whole number");
        QTest::newRow("huge steps") << QByteArray("[training]\nsteps = 99999999999999999999\n") << QStringLiteral("whole number");
        QTest::newRow("fractional steps") << QByteArray("[training]\nsteps = 1.5\n") << QStringLiteral("whole number");
        QTest::newRow("huge") << QByteArray("[job]\n") + QByteArray(torchTitanMaxConfigBytes, '#')
                              << QStringLiteral("over");
    }

    void hostileConfigs()
    {
        QFETCH(QByteArray, toml);
        QFETCH(QString, words);
        TorchTitanJob job;
        QString error;
        QVERIFY(!readTorchTitanConfig(toml, &job, &error));
        QVERIFY2(error.contains(words), qPrintable(error));
        QCOMPARE(job.dumpFolder, QStringLiteral("./outputs"));  // nothing half-read
    }

    void newestStep()
    {
        // A step whose .metadata is not there yet (a save under way) is not offered, nor anything else.
        QCOMPARE(newestTorchTitanStep({QStringLiteral("step-10/.metadata"), QStringLiteral("step-10/__0_0.distcp"),
                                       QStringLiteral("step-20/__0_0.distcp"), QStringLiteral("step-9/.metadata"),
                                       QStringLiteral("xstep-30/.metadata"), QStringLiteral("step-40/x/.metadata"),
                                       QStringLiteral("step-99999999999999999999/.metadata")}),
                 QStringLiteral("step-10"));
        QCOMPARE(newestTorchTitanStep({}), QString());
    }

    // A real run of the stand-in through torchrun (2 ranks, PyTorch 2): the step lines charted, step-4 found.
    void aTorchTitanRunIsChartedAndItsCheckpointFound()
    {
        QVERIFY(m_dir.isValid());
        const QString standin = QStringLiteral(INGOT_TORCHTITAN_STANDIN);
        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs")));
        const QString config = m_dir.filePath(QStringLiteral("llama3_debug.toml"));
        test::writeFile(config, "[job]\ndump_folder = \"./outputs\"\n[training]\nsteps = 4\n"
                                "[checkpoint]\nenable = true\nfolder = \"checkpoint\"\ninterval = 2\n");
        JobManager jobs(runner);
        QString error;
        const QString id = test::launchTorchTitanStandIn(jobs, *runner, QStringLiteral(INGOT_TORCH2_PYTHON), standin, config, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        JobRecordFile record;
        QVERIFY2(jobs.load(id, &record, &error), qPrintable(error));
        JobFollower follower(runner, record);
        const JobStatus st = test::followJob(follower, 240000);
        QVERIFY2(jobStateName(st.state) == QLatin1String("finished"), qPrintable(st.reason + follower.status().reason));

        const QVector<MetricPoint> points = follower.metrics();
        QCOMPARE(points.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(points[i].step, qint64(i + 1));
            QCOMPARE(points[i].loss, 10.0 - (i + 1) * 0.5);
            QCOMPARE(points[i].tokensPerSecond, 1500.0 * (i + 1));
            QCOMPARE(points[i].peakMemory, qint64((i + 1) * (qint64(1) << 29)));
        }
        QCOMPARE(st.step, qint64(4));
        QCOMPARE(st.maxSteps, qint64(4));  // the config's [training] steps: TorchTitan draws no bar
        QCOMPARE(st.lastLoss, 8.0);

        bool exists = false;
        const QString checkpoint = jobs.latestCheckpoint(record, &exists);
        QVERIFY(exists);
        QCOMPARE(checkpoint, QDir::cleanPath(record.cwd + QStringLiteral("/outputs/checkpoint/step-4")));
        QVERIFY(QFileInfo::exists(checkpoint + QStringLiteral("/.metadata")));
        QCOMPARE(consolidationSource(record, checkpoint), checkpoint);

        // An unreadable config: nothing offered, and the folder is not claimed.
        QVERIFY(QFile::remove(config));
        QCOMPARE(jobs.latestCheckpoint(record, &exists), QString());
        QVERIFY(!exists);
    }
};

QTEST_GUILESS_MAIN(TestTorchTitanJob)
#include "tst_torchtitanjob.moc"
