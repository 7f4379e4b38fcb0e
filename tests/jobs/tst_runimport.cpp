// Run folders Ingot did not launch (issue 38, "Open any run folder"): TensorBoard event files read from their TFRecord
// framing and Event protos (the generator writes what torch's SummaryWriter writes: tests/fixtures/make_run_folders.py),
// hostile event files skipped or refused with words and bounded, a NeuronTrainer-style folder (trainer_state.json as
// transformers saves it, checkpoint-N), a TorchTitan-style folder (the TorchTitan stand-in run for real with PyTorch 2,
// its log and its checkpoint/step-N), each imported as an ordinary read-only job of the history.
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobresume.h"
#include "services/jobs/jobtext.h"
#include "services/jobs/runimport.h"
#include "services/jobs/torchtitanjob.h"
#include "services/jobs/tfevents.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include "tfevents_subset.pb.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <sys/stat.h>

using namespace ingot;

namespace {

const QString kGenerator = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_run_folders.py");

bool generate(const QStringList &args)
{
    const test::ProgramRun r = test::runProgram(QStringLiteral("/usr/bin/python3"), QStringList{kGenerator} + args);
    if (r.code != 0)
        qWarning("%s", r.err.constData());
    return r.code == 0;
}

QByteArray frame(const QByteArray &data)
{
    QByteArray header(8, '\0');
    const quint64 n = quint64(data.size());
    for (int i = 0; i < 8; ++i)
        header[i] = char((n >> (8 * i)) & 0xff);
    auto le32 = [](std::uint32_t v) {
        QByteArray b(4, '\0');
        for (int i = 0; i < 4; ++i)
            b[i] = char((v >> (8 * i)) & 0xff);
        return b;
    };
    return header + le32(maskedCrc32c(header.constData(), 8)) + data + le32(maskedCrc32c(data.constData(), data.size()));
}

QByteArray scalarEvent(qint64 step, const std::string &tag, float value)
{
    tfevents::Event e;
    e.set_wall_time(1767225600.0 + double(step));
    e.set_step(step);
    auto *v = e.mutable_summary()->add_value();
    v->set_tag(tag);
    v->set_simple_value(value);
    return frame(QByteArray::fromStdString(e.SerializeAsString()));
}

TfEventReader readWhole(const QByteArray &bytes)
{
    TfEventReader r;
    r.feed(bytes);
    r.finish();
    return r;
}

QString eventFile(const QString &dir)
{
    const QStringList names = QDir(dir).entryList({QStringLiteral("events.out.tfevents.*")}, QDir::Files);
    return names.isEmpty() ? QString() : dir + QLatin1Char('/') + names.first();
}

}  // namespace

class TestRunImport : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void theMaskedCrcIsTfRecords()
    {
        // CRC32C("123456789") is 0xe3069283 (the check value of the Castagnoli CRC), masked as TFRecord masks it.
        const std::uint32_t crc = 0xe3069283u;
        QCOMPARE(maskedCrc32c("123456789", 9), std::uint32_t(((crc >> 15) | (crc << 17)) + 0xa282ead8u));
    }

    // What torch's SummaryWriter writes: the file_version event, simple_value scalars, a new-style tensor scalar.
    void aSummaryWritersFileIsRead()
    {
        const QString dir = m_dir.filePath(QStringLiteral("tb"));
        QVERIFY(generate({QStringLiteral("tensorboard"), dir, QStringLiteral("--steps"), QStringLiteral("8")}));
        const QByteArray bytes = test::readFile(eventFile(dir));
        const TfEventReader r = readWhole(bytes);
        QCOMPARE(r.error(), QString());
        QCOMPARE(r.records(), qint64(1 + 4 * 8));
        QCOMPARE(r.badRecords(), qint64(0));
        QCOMPARE(r.truncatedBytes(), qint64(0));
        QCOMPARE(r.scalars().keys(), (QList<QByteArray>{"Loss/train", "eval/loss", "grad_norm", "lr"}));
        const QVector<TfScalar> loss = r.scalars().value("Loss/train").points;
        QCOMPARE(loss.size(), 8);
        QCOMPARE(loss.at(2).step, qint64(3));
        QCOMPARE(loss.at(2).value, 10.0 - 3 / 4.0);
        QCOMPARE(loss.at(2).wallTime, 1767225600.0 + 6);
        QCOMPARE(r.scalars().value("grad_norm").points.at(7).value, 2.0);  // the tensor's one float
        QCOMPARE(r.scalars().value("lr").points.at(0).value, 1 / 1024.0);
        QCOMPARE(r.firstWallTime(), 1767225600.0);

        // Fed a byte at a time (a file read as it grows): the same.
        TfEventReader bytewise;
        for (char c : bytes)
            bytewise.feed(&c, 1);
        bytewise.finish();
        QCOMPARE(bytewise.records(), r.records());
        QCOMPARE(bytewise.scalars().value("Loss/train").points.size(), 8);
        QCOMPARE(bytewise.offset(), qint64(bytes.size()));
    }

    void hostileEventFilesAreSkippedOrRefusedWithWords()
    {
        const QString dir = m_dir.filePath(QStringLiteral("hostile"));
        QVERIFY(generate({QStringLiteral("hostile"), dir}));
        const auto read = [&](const char *name) { return readWhole(test::readFile(eventFile(dir + QLatin1Char('/') + QLatin1String(name)))); };
        const auto steps = [](const TfEventReader &r) {
            QList<qint64> s;
            for (const TfScalar &p : r.scalars().value("loss").points)
                s << p.step;
            return s;
        };
        const TfEventReader badCrc = read("bad_crc");  // skipped and counted; reading goes on
        QCOMPARE(badCrc.badRecords(), qint64(1));
        QCOMPARE(steps(badCrc), (QList<qint64>{1, 3}));
        QCOMPARE(badCrc.error(), QString());
        const TfEventReader huge = read("huge_length");  // 1 TiB announced: passed over, never allocated
        QCOMPARE(huge.skippedLarge(), qint64(1));
        QCOMPARE(steps(huge), QList<qint64>{1});
        const TfEventReader badLength = read("bad_length_crc");  // nothing after it can be trusted: stops, says so
        QVERIFY(badLength.error().contains(QLatin1String("CRC")));
        QCOMPARE(steps(badLength), QList<qint64>{1});
        const TfEventReader cut = read("truncated");  // a live file's unfinished tail: not an error
        QCOMPARE(cut.error(), QString());
        QVERIFY(cut.truncatedBytes() > 0);
        QCOMPARE(steps(cut), QList<qint64>{1});
        const TfEventReader notEvent = read("not_an_event");  // CRCs fine, the data no Event
        QCOMPARE(notEvent.badRecords() + notEvent.records(), qint64(3));
        QVERIFY(steps(notEvent).contains(3));
        const TfEventReader random = read("random");
        QVERIFY(!random.error().isEmpty() || random.truncatedBytes() > 0);
        QVERIFY(random.scalars().isEmpty());

        // The import says what it skipped.
        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs-hostile")));
        QString error;
        const std::optional<RunFolder> run = readRunFolder(*runner, dir + QStringLiteral("/bad_crc"), &error);
        QVERIFY2(run, qPrintable(error));
        QCOMPARE(run->kind, RunFolderKind::TensorBoard);
        QCOMPARE(run->points.size(), 2);
        QVERIFY2(run->notes.join(QLatin1Char(' ')).contains(QLatin1String("wrong CRC")), qPrintable(run->notes.join(QLatin1Char('|'))));
        QVERIFY(!readRunFolder(*runner, dir + QStringLiteral("/random"), &error));
        QVERIFY2(error.contains(QLatin1String("no training run")), qPrintable(error));
    }

    // However many points and tags a file holds, what is kept is bounded: thinned evenly, extra tags counted.
    void manyPointsAndTagsAreBounded()
    {
        QByteArray bytes;
        const int n = 3 * TfEventReader::maxPointsPerTag + 7;
        for (int i = 0; i < n; ++i)
            bytes += scalarEvent(i, "loss", float(i));
        for (int t = 0; t < TfEventReader::maxTags + 10; ++t)
            bytes += scalarEvent(1, "tag" + std::to_string(t), 1.0f);
        const TfEventReader r = readWhole(bytes);
        const TfScalarSeries loss = r.scalars().value("loss");
        QVERIFY(loss.points.size() <= TfEventReader::maxPointsPerTag);
        QVERIFY(loss.points.size() >= TfEventReader::maxPointsPerTag / 4);
        QCOMPARE(loss.seen, qint64(n));
        for (qsizetype i = 1; i < loss.points.size(); ++i)  // evenly: one of every `stride`
            QCOMPARE(loss.points.at(i).step - loss.points.at(i - 1).step, qint64(loss.stride));
        QCOMPARE(r.scalars().size(), TfEventReader::maxTags);
        QCOMPARE(r.droppedTags(), qint64(11));
    }

    // A NeuronTrainer output: charted from trainer_state.json, its checkpoints offered, an ordinary read-only job.
    void aTrainerFolderIsImportedAsAJob()
    {
        const QString run = m_dir.filePath(QStringLiteral("neuron-run"));
        QVERIFY(generate({QStringLiteral("trainer"), run, QStringLiteral("--steps"), QStringLiteral("8")}));
        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs")));
        ImportedRun imported;
        QString error;
        QVERIFY2(importRunFolder(runner, run, &imported, &error), qPrintable(error));
        QVERIFY(!imported.existed);
        QCOMPARE(imported.run.kind, RunFolderKind::Trainer);
        QCOMPARE(imported.run.checkpoints, (QStringList{run + QStringLiteral("/checkpoint-4"), run + QStringLiteral("/checkpoint-8")}));
        QCOMPARE(imported.run.sources, QStringList{QStringLiteral("trainer_state.json")});

        JobManager jobs(runner);
        const JobSummary s = jobs.summary(imported.id, true, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(s.record.imported());
        QCOMPARE(s.record.importedFrom, run);
        QVERIFY(s.record.spec.outputDir.isEmpty());  // Launch again of its settings never writes into the user's folder
        QCOMPARE(jobStateName(s.status.state), QStringLiteral("finished"));
        QCOMPARE(jobPlaceText(s.record, s.status), QStringLiteral("imported from %1").arg(run));  // the history's Where
        QCOMPARE(s.metrics.size(), 8);
        QCOMPARE(s.metrics.at(2).step, qint64(3));
        QCOMPARE(s.metrics.at(2).loss, 9.25);
        QCOMPARE(s.metrics.at(2).learningRate, 3 / 1024.0);
        QCOMPARE(s.metrics.at(2).gradNorm, 1.375);
        QCOMPARE(s.status.step, qint64(8));
        QCOMPARE(s.status.maxSteps, qint64(8));
        const QVector<JobSummary> history = jobs.list();
        QCOMPARE(history.size(), 1);
        QCOMPARE(history.first().record.id, imported.id);
        QCOMPARE(jobs.latestCheckpoint(s.record), run + QStringLiteral("/checkpoint-8"));
        QString message;
        QCOMPARE(jobs.stop(imported.id, false, &message), JobManager::StopResult::NotRunning);
        // Read-only: Ingot knows no settings to resume it with, and says so where Resume is offered.
        QVERIFY(resumeRefusal(s.record, s.status, run + QStringLiteral("/checkpoint-8")).contains(QLatin1String("did not launch")));
        LaunchPlan plan;
        QVector<JobProblem> problems;
        QVERIFY(!planResume(jobs, imported.id, &plan, &problems, &error));
        QVERIFY2(error.contains(QLatin1String("did not launch")), qPrintable(error));

        // The folder grows (the run went on) and is opened again: the same job, refreshed.
        QVERIFY(generate({QStringLiteral("trainer"), run, QStringLiteral("--steps"), QStringLiteral("12")}));
        ImportedRun again;
        QVERIFY2(importRunFolder(runner, run + QStringLiteral("/"), &again, &error), qPrintable(error));
        QVERIFY(again.existed);
        QCOMPARE(again.id, imported.id);
        const JobSummary refreshed = jobs.summary(imported.id, true, &error);
        QCOMPARE(refreshed.metrics.size(), 12);
        QCOMPARE(refreshed.status.step, qint64(12));
        QCOMPARE(jobs.list().size(), 1);
        QCOMPARE(jobs.latestCheckpoint(refreshed.record), run + QStringLiteral("/checkpoint-12"));

        // Removing it forgets it: its outputs are the user's folder, which Ingot refuses to remove (and says why).
        const RemovePreview pv = jobs.previewRemove(imported.id, true);
        QVERIFY2(pv.refusal.contains(QLatin1String("only forgets it")), qPrintable(pv.refusal));
        QCOMPARE(pv.outputFolder, QString());
        QVERIFY(!jobs.remove(imported.id, true, &error));
        QVERIFY(QFileInfo::exists(run + QStringLiteral("/trainer_state.json")));
        QCOMPARE(jobs.previewRemove(imported.id, false).refusal, QString());
        QVERIFY2(jobs.remove(imported.id, false, &error), qPrintable(error));
        QVERIFY(jobs.list().isEmpty());
        QVERIFY(QFileInfo::exists(run + QStringLiteral("/trainer_state.json")));
        QVERIFY(QFileInfo::exists(run + QStringLiteral("/checkpoint-12/config.json")));
    }

    // TensorBoard files as the only record: the training's scalars charted (not the evaluation's), by wall time too.
    void aTensorBoardFolderIsImported()
    {
        const QString run = m_dir.filePath(QStringLiteral("tb-only"));
        QVERIFY(generate({QStringLiteral("tensorboard"), run + QStringLiteral("/runs/Nov28_10-00-00_trn1"),
                          QStringLiteral("--steps"), QStringLiteral("6")}));
        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs-tb")));
        ImportedRun imported;
        QString error;
        QVERIFY2(importRunFolder(runner, run, &imported, &error), qPrintable(error));
        QCOMPARE(imported.run.kind, RunFolderKind::TensorBoard);
        QCOMPARE(imported.run.startedAt, 1767225600.0);
        JobManager jobs(runner);
        const JobSummary s = jobs.summary(imported.id, true, &error);
        QCOMPARE(s.metrics.size(), 6);
        QCOMPARE(s.metrics.last().loss, 10.0 - 6 / 4.0);  // Loss/train, never eval/loss's 99
        QCOMPARE(s.metrics.last().learningRate, 6 / 1024.0);
        QCOMPARE(s.metrics.last().gradNorm, 1.0 + 6 / 8.0);
        QCOMPARE(s.metrics.last().time, 12.0);  // seconds since the run's first event
        QCOMPARE(s.record.createdMs, qint64(1767225600000));
    }

    // What a run folder's files may be planted as: trainer_state.json a link (to a real state elsewhere), a log a FIFO.
    // Neither is followed nor waited on; each is said, and the rest of the folder is still read.
    void linksAndFifosAreNotReadAndSaid()
    {
        const QString run = m_dir.filePath(QStringLiteral("planted"));
        const QString elsewhere = m_dir.filePath(QStringLiteral("elsewhere"));
        QVERIFY(generate({QStringLiteral("trainer"), elsewhere}));
        QVERIFY(generate({QStringLiteral("tensorboard"), run, QStringLiteral("--steps"), QStringLiteral("3")}));
        QVERIFY(QFile::link(elsewhere + QStringLiteral("/trainer_state.json"), run + QStringLiteral("/trainer_state.json")));
        QCOMPARE(::mkfifo(QFile::encodeName(run + QStringLiteral("/train.log")).constData(), 0600), 0);
        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs-planted")));
        QString error;
        const std::optional<RunFolder> read = readRunFolder(*runner, run, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->kind, RunFolderKind::TensorBoard);  // neither the linked state nor the FIFO
        QCOMPARE(read->points.size(), 3);
        const QString notes = read->notes.join(QLatin1Char('|'));
        QVERIFY2(notes.contains(QLatin1String("trainer_state.json could not be read")), qPrintable(notes));
        QVERIFY2(notes.contains(QLatin1String("train.log could not be read")), qPrintable(notes));
    }

    // TorchTitan with metrics.enable_tensorboard and no console kept: its tb/ events and checkpoint/step-N. Its tags
    // (torchtitan/components/metrics.py): the average loss charted, not the max, nor the validation's.
    void aTorchTitanTensorBoardFolderIsImported()
    {
        const QString run = m_dir.filePath(QStringLiteral("titan-tb"));
        QVERIFY(QDir().mkpath(run + QStringLiteral("/tb/20261128-1000")));
        QByteArray bytes;
        for (int step = 1; step <= 4; ++step) {
            bytes += scalarEvent(step, "loss_metrics/global_avg_loss", float(8 - step));
            bytes += scalarEvent(step, "loss_metrics/global_max_loss", 100.0f);
            bytes += scalarEvent(step, "validation_metrics/loss", 200.0f);
            bytes += scalarEvent(step, "throughput(tps)", float(1000 * step));
            bytes += scalarEvent(step, "lr", 0.5f);
        }
        test::writeFile(run + QStringLiteral("/tb/20261128-1000/events.out.tfevents.1767225600.host.1.0"), bytes);
        test::writeFile(run + QStringLiteral("/checkpoint/step-4/.metadata"), "not read here");
        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs-titan-tb")));
        QString error;
        const std::optional<RunFolder> read = readRunFolder(*runner, run, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->kind, RunFolderKind::TorchTitan);
        QCOMPARE(read->points.size(), 4);
        QCOMPARE(read->points.last().loss, 4.0);
        QCOMPARE(read->points.last().tokensPerSecond, 4000.0);
        QCOMPARE(read->points.last().learningRate, 0.5);
        QCOMPARE(read->checkpoints, QStringList{run + QStringLiteral("/checkpoint/step-4")});
    }

    // A trainer_state.json of the wrong shape, cut short, or not JSON at all: said, and the folder's other records read.
    void aBrokenTrainerStateIsSaid_data()
    {
        QTest::addColumn<QByteArray>("state");
        QTest::newRow("wrong type") << QByteArray("{\"global_step\": 3, \"log_history\": 5}");
        QTest::newRow("cut short") << QByteArray("{\"global_step\": 3, \"log_history\": [{\"loss\": 1.0, \"st");
        QTest::newRow("not json") << QByteArray("\xff\xfe garbage");
        QTest::newRow("an array") << QByteArray("[1, 2, 3]");
    }
    void aBrokenTrainerStateIsSaid()
    {
        QFETCH(QByteArray, state);
        const QString run = m_dir.filePath(QStringLiteral("broken-") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QVERIFY(generate({QStringLiteral("tensorboard"), run, QStringLiteral("--steps"), QStringLiteral("2")}));
        test::writeFile(run + QStringLiteral("/trainer_state.json"), state);
        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs-broken")));
        QString error;
        const std::optional<RunFolder> read = readRunFolder(*runner, run, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->kind, RunFolderKind::TensorBoard);
        QCOMPARE(read->points.size(), 2);
        const QString notes = read->notes.join(QLatin1Char('|'));
        QVERIFY2(notes.contains(QLatin1String("trainer_state.json could not be read")), qPrintable(notes));
    }

    void notARunIsRefusedWithWords()
    {
        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs-none")));
        const QString empty = m_dir.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        test::writeFile(empty + QStringLiteral("/notes.txt"), "nothing to see\n");
        ImportedRun imported;
        QString error;
        QVERIFY(!importRunFolder(runner, empty, &imported, &error));
        QVERIFY2(error.contains(QLatin1String("no training run")), qPrintable(error));
        QVERIFY(!importRunFolder(runner, m_dir.filePath(QStringLiteral("missing")), &imported, &error));
        QVERIFY2(error.contains(QLatin1String("not a folder")), qPrintable(error));
        QVERIFY(JobManager(runner).list().isEmpty());
    }

    // A TorchTitan output: the stand-in run for real (torchrun, 2 ranks, PyTorch 2) with its dump folder the run
    // folder, its console kept there as `tee` would (train.log): charted from the step lines, step-N offered.
    void aTorchTitanFolderIsImported()
    {
        const QString run = m_dir.filePath(QStringLiteral("titan-run"));
        QVERIFY(QDir().mkpath(run));
        auto launchRunner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("titan-jobs")));
        const QString config = m_dir.filePath(QStringLiteral("titan.toml"));
        test::writeFile(config, "[job]\ndump_folder = \"" + run.toUtf8() + "\"\n[training]\nsteps = 4\n"
                                "[checkpoint]\nenable = true\nfolder = \"checkpoint\"\ninterval = 2\n");
        JobManager launcher(launchRunner);
        QString error;
        const QString launched = test::launchTorchTitanStandIn(launcher, *launchRunner, QStringLiteral(INGOT_TORCH2_PYTHON),
                                                               QStringLiteral(INGOT_TORCHTITAN_STANDIN), config, &error);
        QVERIFY2(!launched.isEmpty(), qPrintable(error));
        JobRecordFile record;
        QVERIFY2(launcher.load(launched, &record, &error), qPrintable(error));
        JobFollower follower(launchRunner, record);
        const JobStatus st = test::followJob(follower, 240000);
        QVERIFY2(jobStateName(st.state) == QLatin1String("finished"), qPrintable(st.reason));
        QVERIFY(QFile::copy(follower.rankLog(0, false), run + QStringLiteral("/train.log")));

        auto runner = makeLocalJobRunner(m_dir.filePath(QStringLiteral("jobs-titan")));
        ImportedRun imported;
        QVERIFY2(importRunFolder(runner, run, &imported, &error), qPrintable(error));
        QCOMPARE(imported.run.kind, RunFolderKind::TorchTitan);
        QCOMPARE(imported.run.checkpoints, (QStringList{run + QStringLiteral("/checkpoint/step-2"), run + QStringLiteral("/checkpoint/step-4")}));
        JobManager jobs(runner);
        const JobSummary s = jobs.summary(imported.id, true, &error);
        QCOMPARE(s.metrics.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(s.metrics[i].step, qint64(i + 1));
            QCOMPARE(s.metrics[i].loss, 10.0 - (i + 1) * 0.5);
            QCOMPARE(s.metrics[i].tokensPerSecond, 1500.0 * (i + 1));
        }
        // Where Ingot looks for a TorchTitan job's checkpoints (the consolidation offer): the newest step.
        QCOMPARE(jobs.latestCheckpoint(s.record), run + QStringLiteral("/checkpoint/step-4"));
        QCOMPARE(consolidationSource(s.record, jobs.latestCheckpoint(s.record)), run + QStringLiteral("/checkpoint/step-4"));
    }
};

QTEST_GUILESS_MAIN(TestRunImport)
#include "tst_runimport.moc"
