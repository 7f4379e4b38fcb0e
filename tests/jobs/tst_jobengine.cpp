// The training engine as a launch setting (issue 37): the backend flags of the shared contract (--engine, --fsdp,
// --torch_compile) in the job's argv, old presets loading as before, the one validation of the new combinations,
// the notes said before a launch, and the probe of the job's Python with real interpreters: Debian's python3
// (torch 1.13, no DTensor: xla proposed) and the PyTorch 2 root's (tests/support/torch2/python3: torch 2.6, native
// proposed). A Python that answers something else than the probe's JSON is refused with words.
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobspec.h"
#include "services/jobs/jobvalidate.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace ingot;

namespace {

const QString kTorch2Python = QStringLiteral(INGOT_SOURCE_DIR "/tests/support/torch2/python3");

QStringList fieldsOf(const QVector<JobProblem> &problems)
{
    QStringList out;
    for (const JobProblem &p : problems)
        out << p.field;
    return out;
}

QString messageOf(const QVector<JobProblem> &problems, const QString &field)
{
    for (const JobProblem &p : problems)
        if (p.field == field)
            return p.message;
    return {};
}

// The note on `field`, a copy (the notes are often a temporary); empty when there is none.
std::optional<JobNote> noteOf(const QVector<JobNote> &notes, const QString &field)
{
    for (const JobNote &n : notes)
        if (n.field == field)
            return n;
    return std::nullopt;
}

// A program named like a Python that prints `answer` whatever it is asked (a real process, not a stand-in object).
QString fakePython(const QTemporaryDir &dir, const QString &name, const QByteArray &answer)
{
    const QString path = dir.filePath(name);
    test::writeFile(path, "#!/bin/sh\ncat <<'EOF'\n" + answer + "\nEOF\n");
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

}  // namespace

class TestJobEngine : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;
    std::shared_ptr<JobRunner> runner;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp.isValid());
        runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
    }

    // The flags of the shared contract reach the argv; automatic is the backend's default and is not passed (the
    // argv of a job that does not choose is what it was before). The CLI's ARGS read back into the same settings.
    void argvHasTheContractsFlags()
    {
        JobSpec s;
        QVERIFY(!s.trainingArguments(QStringLiteral("/o")).contains(QStringLiteral("--engine")));
        s.engine = QStringLiteral("native");
        s.fsdp = true;
        s.torchCompile = true;
        const QStringList args = s.trainingArguments(QStringLiteral("/o"));
        const int at = int(args.indexOf(QStringLiteral("--engine")));
        QVERIFY(at >= 0);
        QCOMPARE(args.value(at + 1), QStringLiteral("native"));
        QVERIFY(args.contains(QStringLiteral("--fsdp")));
        QVERIFY(args.contains(QStringLiteral("--torch_compile")));

        JobSpec back;
        QString error;
        QVERIFY2(back.parseTrainingArguments(args, &error), qPrintable(error));
        QCOMPARE(back.engine, QStringLiteral("native"));
        QVERIFY(back.fsdp && back.torchCompile);
        QCOMPARE(back.trainingArguments(QStringLiteral("/o")), args);
        QVERIFY(!s.sameGraphSettings(JobSpec()));
    }

    // job.json and presets: the new settings round-trip; a preset saved before them (no engine, no fsdp) loads as
    // before: automatic, not sharded, not compiled.
    void oldPresetsLoadAsBefore()
    {
        JobSpec s;
        s.engine = QStringLiteral("xla");
        s.fsdp = true;
        QString error;
        const JobSpec back = JobSpec::fromJson(s.toJson(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(back.engine, QStringLiteral("xla"));
        QVERIFY(back.fsdp);

        QJsonObject old = JobSpec().toJson();
        QJsonObject settings = old.value(QLatin1String("settings")).toObject();
        for (const char *key : {"engine", "fsdp", "torch_compile"})
            settings.remove(QLatin1String(key));
        settings.insert(QStringLiteral("tensor_parallel_size"), 2);
        old.insert(QStringLiteral("settings"), settings);
        const JobSpec loaded = JobSpec::fromJson(old, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(loaded.engine, QStringLiteral("auto"));
        QVERIFY(!loaded.fsdp && !loaded.torchCompile);
        QCOMPARE(loaded.tensorParallel, 2);

        settings.insert(QStringLiteral("engine"), 3);
        old.insert(QStringLiteral("settings"), settings);
        JobSpec::fromJson(old, &error);
        QVERIFY(error.contains(QLatin1String("engine")));
    }

    // The one validation: what the backend would refuse is refused before anything starts, on the field it is about.
    void refusedCombinations()
    {
        JobSpec s;
        s.nprocPerNode = 2;
        JobFacts facts = gatherJobFacts(s);
        QVERIFY(validateJob(s, facts).isEmpty());

        s.engine = QStringLiteral("tpu");
        QVERIFY(fieldsOf(validateJob(s, facts)).contains(QStringLiteral("engine")));
        QCOMPARE(messageOf(validateJob(s, facts), QStringLiteral("engine")), QStringLiteral("one of auto, native, xla"));

        s.engine = QStringLiteral("native");
        s.fsdp = true;
        s.zero1 = true;
        QVERIFY2(messageOf(validateJob(s, facts), QStringLiteral("fsdp")).contains(QLatin1String("turn ZeRO-1 off")),
                 qPrintable(messageOf(validateJob(s, facts), QStringLiteral("fsdp"))));
        s.zero1 = false;
        QVERIFY(validateJob(s, facts).isEmpty());

        s.engine = QStringLiteral("xla");
        QVERIFY(messageOf(validateJob(s, facts), QStringLiteral("fsdp")).contains(QLatin1String("native engine only")));
        s.fsdp = false;
        s.torchCompile = true;
        QVERIFY(messageOf(validateJob(s, facts), QStringLiteral("torch_compile")).contains(QLatin1String("native engine only")));

        // Automatic refuses them too where the job's Python runs PyTorch/XLA (its probe says why).
        s.engine = QStringLiteral("auto");
        facts.pythonProbed = true;
        facts.python.torchVersion = QStringLiteral("1.13.1");
        facts.python.version = QStringLiteral("3.11.2");
        const QString m = messageOf(validateJob(s, facts), QStringLiteral("torch_compile"));
        QVERIFY2(m.contains(QLatin1String("automatic runs PyTorch/XLA here")) && m.contains(QLatin1String("torch 1.13.1")), qPrintable(m));
        facts.python.hasDTensor = true;
        QVERIFY(validateJob(s, facts).isEmpty());
    }

    // What is said without refusing: fully sharded over one data-parallel rank, which implementation runs, XLA on a
    // Python without torch_xla.
    void notesAndWarnings()
    {
        JobSpec s;
        s.engine = QStringLiteral("native");
        s.fsdp = true;
        s.nprocPerNode = 2;
        s.tensorParallel = 2;  // dp 1: nothing to shard over
        JobFacts facts;
        facts.pythonProbed = true;
        facts.python.version = QStringLiteral("3.13.5");
        facts.python.torchVersion = QStringLiteral("2.6.0");
        facts.python.hasDTensor = true;
        const std::optional<JobNote> dp1 = noteOf(jobNotes(s, facts), QStringLiteral("fsdp"));
        QVERIFY(dp1 && dp1->warning);
        QVERIFY2(dp1->message.contains(QLatin1String("shards nothing")), qPrintable(dp1->message));

        s.nprocPerNode = 4;  // dp 2 x tp 2 on a 2-D mesh
        s.pipelineParallel = 1;
        QVector<JobNote> notes = jobNotes(s, facts);
        const std::optional<JobNote> mesh = noteOf(notes, QStringLiteral("fsdp"));
        QVERIFY(mesh && !mesh->warning);
        QVERIFY2(mesh->message.contains(QLatin1String("2-D mesh")) && mesh->message.contains(QLatin1String("FSDP1")),
                 qPrintable(mesh->message));

        s.fsdp = false;
        s.tensorParallel = 1;
        s.pipelineParallel = 2;
        const std::optional<JobNote> pp = noteOf(jobNotes(s, facts), QStringLiteral("pipeline_parallel_size"));
        QVERIFY(pp && !pp->warning);
        QVERIFY2(pp->message.contains(QLatin1String("torch.distributed.pipelining"))
                     && pp->message.contains(QLatin1String("backend's own pipeline schedule")), qPrintable(pp->message));

        s.engine = QStringLiteral("xla");
        const std::optional<JobNote> xla = noteOf(jobNotes(s, facts), QStringLiteral("engine"));
        QVERIFY(xla && xla->warning);
        QVERIFY2(xla->message.contains(QLatin1String("has no torch_xla")), qPrintable(xla->message));
        QVERIFY(!noteOf(jobNotes(s, facts), QStringLiteral("pipeline_parallel_size")));  // XLA's pipeline is the backend's
        facts.python.hasTorchXla = true;
        QVERIFY(!noteOf(jobNotes(s, facts), QStringLiteral("engine")));
    }

    // A native (DCP) checkpoint resumes on any layout (DCP re-shards on load), never on the other engine; an XLA one
    // keeps its layout rule. Which engine wrote it: training_args.json's "engine", else a .metadata file (the
    // backend's checkpoint_engine).
    void nativeCheckpointsResumeOnAnyLayout()
    {
        QTemporaryDir ck;
        test::writeFile(ck.filePath(QStringLiteral("training_args.json")), "{\"tensor_parallel_size\": 2, \"engine\": \"native\"}");
        test::writeFile(ck.filePath(QStringLiteral("trainer_state.json")), "{\"global_step\": 3}");
        JobSpec s;
        s.engine = QStringLiteral("native");
        s.resumeFrom = ck.path();
        s.nprocPerNode = 2;
        s.fsdp = true;  // tp 2 -> fully sharded 2
        QVERIFY2(validateJob(s, gatherJobFacts(s)).isEmpty(), qPrintable(messageOf(validateJob(s, gatherJobFacts(s)), QStringLiteral("resume_from_checkpoint"))));
        s.fsdp = false;
        s.nprocPerNode = 1;  // -> one process
        QVERIFY(validateJob(s, gatherJobFacts(s)).isEmpty());
        s.engine = QStringLiteral("xla");
        QVERIFY2(messageOf(validateJob(s, gatherJobFacts(s)), QStringLiteral("resume_from_checkpoint"))
                     .startsWith(QStringLiteral("written by the native engine (a DCP checkpoint)")),
                 qPrintable(messageOf(validateJob(s, gatherJobFacts(s)), QStringLiteral("resume_from_checkpoint"))));

        // No engine named, but a .metadata file: native too. Without it: an XLA checkpoint, its layout kept.
        test::writeFile(ck.filePath(QStringLiteral("training_args.json")), "{\"tensor_parallel_size\": 2}");
        test::writeFile(ck.filePath(QStringLiteral(".metadata")), "x");
        s.engine = QStringLiteral("native");
        QVERIFY(gatherJobFacts(s).resume.dcpMetadata);
        QVERIFY(validateJob(s, gatherJobFacts(s)).isEmpty());
        QVERIFY(QFile::remove(ck.filePath(QStringLiteral(".metadata"))));
        QVERIFY(messageOf(validateJob(s, gatherJobFacts(s)), QStringLiteral("resume_from_checkpoint")).contains(QStringLiteral("PyTorch/XLA engine")));
        s.engine = QStringLiteral("xla");
        QVERIFY(messageOf(validateJob(s, gatherJobFacts(s)), QStringLiteral("tensor_parallel_size")).contains(QStringLiteral("--tensor_parallel_size 2")));
    }

    // Debian's python3 (torch 1.13: no torch.distributed.tensor) proposes PyTorch/XLA; the PyTorch 2 root's proposes
    // native. Real interpreters, asked through the shell where jobs run.
    void realPythonsProposeTheirEngine()
    {
        const PythonInfo debian = probeJobPython(*runner, QStringLiteral("/usr/bin/python3"));
        QVERIFY2(debian.usable(), qPrintable(debian.error));
        QVERIFY(debian.torchVersion.startsWith(QLatin1String("1.")));
        QVERIFY(!debian.hasDTensor && !debian.hasTorchXla && !debian.hasNeuronDevice);
        const EngineChoice old = jobEngineFor(debian);
        QCOMPARE(old.engine, QStringLiteral("xla"));
        QVERIFY2(old.reason.contains(QLatin1String("neither torch_xla nor torch.distributed.tensor")), qPrintable(old.reason));

        QVERIFY2(QFile::exists(QStringLiteral("/var/cache/ingot-tests/torch2-root")),
                 "the PyTorch 2 root is missing: packaging/install-deps.sh --test makes it");
        const PythonInfo torch2 = probeJobPython(*runner, kTorch2Python);
        QVERIFY2(torch2.usable(), qPrintable(torch2.error));
        QVERIFY(torch2.torchVersion.startsWith(QLatin1String("2.")));
        QVERIFY(torch2.hasDTensor && !torch2.hasTorchXla && !torch2.hasNeuronDevice);
        const EngineChoice native = jobEngineFor(torch2);
        QCOMPARE(native.engine, QStringLiteral("native"));
        QVERIFY2(native.reason.startsWith(QStringLiteral("torch %1 without torch_xla").arg(torch2.torchVersion)), qPrintable(native.reason));

        // The facts of a job that chooses an engine carry the probe; the same Python is asked once.
        JobSpec s;
        s.python = kTorch2Python;
        s.engine = QStringLiteral("xla");
        const JobFacts facts = gatherJobFacts(s, *runner);
        QVERIFY(facts.pythonProbed);
        QCOMPARE(facts.python.torchVersion, torch2.torchVersion);
        const std::optional<JobNote> warn = noteOf(jobNotes(s, facts), QStringLiteral("engine"));
        QVERIFY(warn && warn->warning);
    }

    // The Neuron SDK's tool beside a Python whose folder has a space: the path reaches the shell as it is (it was
    // encoded twice, and the tool beside such a Python was never found).
    void neuronParallelCompileBesideAnOddPath()
    {
        QTemporaryDir dir;
        const QString venv = dir.filePath(QStringLiteral("my venv/bin"));
        QVERIFY(QDir().mkpath(venv));
        const QString python = fakePython(dir, QStringLiteral("my venv/bin/python3"), "{}");
        const QString tool = fakePython(dir, QStringLiteral("my venv/bin/neuron_parallel_compile"), "");
        QCOMPARE(findNeuronParallelCompile(*runner, python), tool);
    }

    // The probe's answer is read with bounds; anything else is refused with words, and the Python is not offered.
    void hostileAnswersAreRefused_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<QString>("words");
        QTest::newRow("not json") << QByteArray("hello") << QStringLiteral("not a JSON object");
        QTest::newRow("array") << QByteArray("[1, 2]") << QStringLiteral("not a JSON object");
        QTest::newRow("escape in version") << QByteArray("{\"python\": \"3.11\", \"torch\": \"2.6\\u001b[31m\"}") << QStringLiteral("not a version");
        QTest::newRow("huge version") << ("{\"python\": \"3.11\", \"torch\": \"" + QByteArray(200, '9') + "\"}")
                                      << QStringLiteral("not a version");
        QTest::newRow("no python") << QByteArray("{\"torch\": \"2.6\"}") << QStringLiteral("not a version");
        QTest::newRow("flag of wrong type") << QByteArray("{\"python\": \"3.11\", \"torch\": \"2.6\", \"dtensor\": \"yes\"}")
                                            << QStringLiteral("not true or false");
        QTest::newRow("error not text") << QByteArray("{\"python\": \"3.11\", \"error\": {\"a\": 1}}") << QStringLiteral("not text");
        QTest::newRow("huge line") << ("{\"python\": \"3.11\", \"pad\": \"" + QByteArray(10000, 'x') + "\"}") << QStringLiteral("more than the probe prints");
    }
    void hostileAnswersAreRefused()
    {
        QFETCH(QByteArray, answer);
        QFETCH(QString, words);
        const PythonInfo parsed = parsePythonProbe(QStringLiteral("/x/python3"), answer);
        QVERIFY(!parsed.usable());
        QVERIFY2(parsed.error.contains(QLatin1String("refused")) && parsed.error.contains(words), qPrintable(parsed.error));
        // The same through a real process asked where jobs run.
        QTemporaryDir dir;
        const QString fake = fakePython(dir, QStringLiteral("python3"), answer);
        const PythonInfo probed = probeJobPython(*runner, fake);
        QVERIFY(!probed.usable());
        QVERIFY2(probed.error.contains(words), qPrintable(probed.error));
        QVERIFY(jobEngineFor(probed).engine.isEmpty());
        QVERIFY2(jobEngineFor(probed).reason.startsWith(QStringLiteral("the job's Python could not be asked (")),
                 qPrintable(jobEngineFor(probed).reason));
        QVERIFY(!jobEngineFor(probed).reason.contains(QChar(0x1b)));
    }

    void aValidAnswerIsRead()
    {
        const PythonInfo p = parsePythonProbe(QStringLiteral("/venv/bin/python3"),
                                              "noise from a sitecustomize\n"
                                              "{\"python\": \"3.11.9\", \"torch\": \"2.9.0+neuron\", \"dtensor\": true, \"neuron\": true, \"xla\": false, \"neuronx\": true}");
        QVERIFY2(p.usable(), qPrintable(p.error));
        QCOMPARE(p.torchVersion, QStringLiteral("2.9.0+neuron"));
        QVERIFY(p.hasDTensor && p.hasNeuronDevice && p.hasTorchNeuronx && !p.hasTorchXla);
        QVERIFY(jobEngineFor(p).reason.contains(QLatin1String("with the neuron device")));
    }
};

QTEST_GUILESS_MAIN(TestJobEngine)
#include "tst_jobengine.moc"
