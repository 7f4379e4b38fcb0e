// Job settings against the backend itself: defaults, built-in configs, the command line its parser reads, the
// validation rules (the same verdicts as ingot_train/args.py validate()), parameter counts, and the shell quoting
// of previews and scripts.
#include "services/jobs/jobfolder.h"
#include "services/jobs/jobspec.h"
#include "services/jobs/jobvalidate.h"
#include "services/jobs/modelinfo.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

const QString backendDir = QStringLiteral(INGOT_SOURCE_DIR "/resources/backend");

// Runs Python code with the backend importable; returns its stdout parsed as JSON.
QJsonValue python(const QString &code, const QStringList &args = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PYTHONPATH"), backendDir);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{QStringLiteral("-c"), code} + args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) {
        qWarning().noquote() << p.readAllStandardError();
        return {};
    }
    const QJsonDocument d = QJsonDocument::fromJson(p.readAllStandardOutput());
    return d.isArray() ? QJsonValue(d.array()) : QJsonValue(d.object());
}

// The backend's verdict on ARGS for WORLD processes: its list of problems.
QJsonArray backendProblems(const QStringList &args, int world)
{
    const QString code = QStringLiteral(
        "import json, sys\n"
        "from ingot_train.args import build_parser, validate\n"
        "a = build_parser().parse_args(sys.argv[2:])\n"
        "print(json.dumps(validate(a, int(sys.argv[1]))))\n");
    return python(code, QStringList{QString::number(world)} + args).toArray();
}

// Ingot's validation of a job given as backend arguments and the backend's own: both refuse it or neither does, and
// ours names `field` first (when given).
void agreeWithTheBackend(const QStringList &args, int world, const QString &field)
{
    const QJsonArray theirs = backendProblems(args + QStringList{QStringLiteral("--output_dir=/tmp/x")}, world);
    JobSpec s;
    QString error;
    QVERIFY(s.parseTrainingArguments(args, &error));
    s.nprocPerNode = world;
    const QVector<JobProblem> ours = validateJob(s, gatherJobFacts(s));
    QCOMPARE(ours.isEmpty(), theirs.isEmpty());
    if (!field.isEmpty()) {
        QVERIFY(!ours.isEmpty());
        QCOMPARE(ours.first().field, field);
    }
}

}  // namespace

class TestJobSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultsAreTheBackendsDefaults()
    {
        const QJsonObject defaults = python(QStringLiteral(
            "import json\nfrom ingot_train.args import build_parser\n"
            "print(json.dumps(vars(build_parser().parse_args(['--output_dir', 'x']))))\n")).toObject();
        QVERIFY(!defaults.isEmpty());
        const QJsonObject ours = JobSpec().toJson().value(QLatin1String("settings")).toObject();
        for (const SettingInfo &s : jobSettings()) {
            QVERIFY2(defaults.contains(s.flag), qPrintable(s.flag));
            if (s.flag == QLatin1String("output_dir") || s.flag == QLatin1String("config_name"))
                continue;  // required / Ingot picks "tiny" so a new form is valid
            QJsonValue theirs = defaults.value(s.flag);
            if (theirs.isNull())
                theirs = QString();
            QVERIFY2(theirs == ours.value(s.flag) || (theirs.isDouble() && theirs.toDouble() == ours.value(s.flag).toDouble()),
                     qPrintable(s.flag));
        }
        // Every backend flag is a setting of the form.
        QCOMPARE(defaults.size(), jobSettings().size());
    }

    void builtinConfigsAreTheBackends()
    {
        const QJsonObject builtin = python(QStringLiteral(
            "import json\nfrom dataclasses import asdict\nfrom ingot_train.model import BUILTIN\n"
            "print(json.dumps({k: asdict(v) for k, v in BUILTIN.items()}))\n")).toObject();
        QCOMPARE(QStringList(builtin.keys()).size(), builtinModelNames().size());
        for (const QString &name : builtinModelNames()) {
            const QJsonObject c = builtin.value(name).toObject();
            const ModelInfo m = builtinModel(name);
            QVERIFY(m.known);
            QCOMPARE(m.vocabSize, c.value(QLatin1String("vocab_size")).toInteger());
            QCOMPARE(m.hiddenSize, c.value(QLatin1String("hidden_size")).toInteger());
            QCOMPARE(m.intermediateSize, c.value(QLatin1String("intermediate_size")).toInteger());
            QCOMPARE(m.numLayers, c.value(QLatin1String("num_hidden_layers")).toInteger());
            QCOMPARE(m.numHeads, c.value(QLatin1String("num_attention_heads")).toInteger());
            QCOMPARE(m.numKvHeads, c.value(QLatin1String("num_key_value_heads")).toInteger());
        }
    }

    void parameterCountsMatchTheBackendsModel()
    {
        // The backend's model built on one process: its parameter count, tied and untied.
        const QJsonObject counts = python(QStringLiteral(
            "import json, dataclasses\nfrom ingot_train.model import BUILTIN, LlamaForCausalLM\n"
            "r = {}\n"
            "for k, c in BUILTIN.items():\n"
            "    if k == 'medium': continue\n"
            "    r[k] = sum(p.numel() for p in LlamaForCausalLM(c).parameters())\n"
            "    t = dataclasses.replace(c, tie_word_embeddings=True)\n"
            "    r[k + '-tied'] = sum(p.numel() for p in LlamaForCausalLM(t).parameters())\n"
            "print(json.dumps(r))\n")).toObject();
        QVERIFY(!counts.isEmpty());
        for (const QString &name : {QStringLiteral("tiny"), QStringLiteral("small")}) {
            ModelInfo m = builtinModel(name);
            QCOMPARE(countParameters(m, 1, 1, false).total, counts.value(name).toInteger());
            QCOMPARE(countParameters(m, 1, 1, false).maxPerRank, counts.value(name).toInteger());
            m.tiedEmbeddings = true;
            QCOMPARE(countParameters(m, 1, 1, false).total, counts.value(name + QStringLiteral("-tied")).toInteger());
        }
        // Splitting: tp halves the split weights, pp hands layers to stages (earlier stages take one more).
        const ModelInfo small = builtinModel(QStringLiteral("small"));
        const ParameterCounts one = countParameters(small, 1, 1, false);
        const ParameterCounts tp2 = countParameters(small, 2, 1, true);
        QVERIFY(tp2.maxPerRank < one.maxPerRank * 0.6);
        QCOMPARE(tp2.total, one.total);
        const ParameterCounts pp3 = countParameters(small, 1, 3, false);
        QCOMPARE(pp3.perStage.size(), 3);
        qint64 sum = 0;
        for (qint64 s : pp3.perStage)
            sum += s;
        QCOMPARE(sum, one.total);  // untied: every parameter on exactly one stage
    }

    void theBackendReadsOurCommandLine()
    {
        JobSpec s;
        s.configName = QStringLiteral("small");
        s.tensorParallel = 2;
        s.pipelineParallel = 2;
        s.zero1 = true;
        s.bf16 = true;
        s.learningRate = 3e-4;
        s.epochs = 2.5;
        s.disableSequenceParallel = true;
        s.trainFile = QStringLiteral("/data/it's here.txt");
        const QStringList args = s.trainingArguments(QStringLiteral("/tmp/out dir"));
        const QJsonObject parsed = python(QStringLiteral(
            "import json, sys\nfrom ingot_train.args import build_parser\n"
            "print(json.dumps(vars(build_parser().parse_args(sys.argv[1:]))))\n"), args).toObject();
        QCOMPARE(parsed.value(QLatin1String("config_name")).toString(), QStringLiteral("small"));
        QCOMPARE(parsed.value(QLatin1String("tensor_parallel_size")).toInt(), 2);
        QCOMPARE(parsed.value(QLatin1String("pipeline_parallel_size")).toInt(), 2);
        QCOMPARE(parsed.value(QLatin1String("zero_1")).toBool(), true);
        QCOMPARE(parsed.value(QLatin1String("bf16")).toBool(), true);
        QCOMPARE(parsed.value(QLatin1String("disable_sequence_parallel")).toBool(), true);
        QCOMPARE(parsed.value(QLatin1String("disable_embedding_parallelization")).toBool(), false);
        QCOMPARE(parsed.value(QLatin1String("learning_rate")).toDouble(), 3e-4);
        QCOMPARE(parsed.value(QLatin1String("num_train_epochs")).toDouble(), 2.5);
        QCOMPARE(parsed.value(QLatin1String("output_dir")).toString(), QStringLiteral("/tmp/out dir"));
        QCOMPARE(parsed.value(QLatin1String("train_file")).toString(), s.trainFile);

        // And back: the CLI's ARGS parsed into a spec give the same command line.
        JobSpec back;
        QString error;
        QVERIFY2(back.parseTrainingArguments(args, &error), qPrintable(error));
        QCOMPARE(back.trainingArguments(QStringLiteral("/tmp/out dir")), args);
        QVERIFY(!JobSpec().parseTrainingArguments({QStringLiteral("--no_such_flag")}, &error));
        QVERIFY(error.contains(QLatin1String("--no_such_flag")));
        QVERIFY(!JobSpec().parseTrainingArguments({QStringLiteral("--max_steps"), QStringLiteral("ten")}, &error));
        JobSpec script;
        script.program = JobProgram::Script;
        QVERIFY(script.parseTrainingArguments({QStringLiteral("--foo"), QStringLiteral("--max_steps=7")}, &error));
        QCOMPARE(script.maxSteps, 7);
        QCOMPARE(script.extraArgs, QStringList{QStringLiteral("--foo")});
    }

    void validationAgreesWithTheBackend_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("world");
        QTest::addColumn<QString>("field");  // where our message goes ("" : valid)
        auto row = [](const char *name, QStringList args, int world, const char *field) {
            QTest::newRow(name) << args << world << QString::fromLatin1(field);
        };
        const QString tiny = QStringLiteral("--config_name=tiny");
        row("valid tp2", {tiny, QStringLiteral("--tensor_parallel_size=2")}, 2, "");
        row("valid dp2 tp2 pp1", {tiny, QStringLiteral("--tensor_parallel_size=2")}, 4, "");
        row("world not divisible", {tiny, QStringLiteral("--tensor_parallel_size=3")}, 2, "tensor_parallel_size");
        row("kv heads vs tp4", {tiny, QStringLiteral("--tensor_parallel_size=4")}, 4, "tensor_parallel_size");
        row("layers vs stages", {tiny, QStringLiteral("--pipeline_parallel_size=3")}, 3, "pipeline_parallel_size");
        row("microbatches", {tiny, QStringLiteral("--num_microbatches=3")}, 1, "num_microbatches");
        row("block vs tp with SP", {tiny, QStringLiteral("--tensor_parallel_size=2"), QStringLiteral("--block_size=63")}, 2, "block_size");
        row("block vs tp without SP", {tiny, QStringLiteral("--tensor_parallel_size=2"), QStringLiteral("--block_size=63"),
                                       QStringLiteral("--disable_sequence_parallel")}, 2, "");
        row("max steps 0", {tiny, QStringLiteral("--max_steps=0")}, 1, "max_steps");
        row("batch 0", {tiny, QStringLiteral("--per_device_train_batch_size=0")}, 1, "per_device_train_batch_size");
        row("unknown config", {QStringLiteral("--config_name=huge")}, 1, "config_name");
        // The engine's rules (issue 37), as the backend's args.py has them.
        row("automatic", {tiny, QStringLiteral("--engine=auto")}, 2, "");
        row("fsdp with zero1", {tiny, QStringLiteral("--engine=native"), QStringLiteral("--fsdp"), QStringLiteral("--zero_1")}, 2, "fsdp");
        row("fsdp on xla", {tiny, QStringLiteral("--engine=xla"), QStringLiteral("--fsdp")}, 2, "fsdp");
        row("compile on xla", {tiny, QStringLiteral("--engine=xla"), QStringLiteral("--torch_compile")}, 1, "torch_compile");
        row("neuron device on xla", {tiny, QStringLiteral("--engine=xla"), QStringLiteral("--device=neuron")}, 1, "device");
        row("xla device on native", {tiny, QStringLiteral("--engine=native"), QStringLiteral("--device=xla")}, 1, "device");
        row("zero1 with tp on native", {tiny, QStringLiteral("--engine=native"), QStringLiteral("--zero_1"),
                                        QStringLiteral("--tensor_parallel_size=2")}, 2, "zero_1");
    }

    void validationAgreesWithTheBackend()
    {
        QFETCH(QStringList, args);
        QFETCH(int, world);
        QFETCH(QString, field);
        agreeWithTheBackend(args, world, field);
    }

    // Resuming: Ingot's launcher and the backend agree on which layouts a checkpoint resumes on. Optimizer state by
    // name (optimizer.safetensors): any data-parallel size and ZeRO-1, the same tp/pp; earlier versions' pickles
    // (optimizer.pt): the very same layout.
    void resumeRuleAgreesWithTheBackend_data()
    {
        QTest::addColumn<QString>("optimizerFile");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("world");
        QTest::addColumn<QString>("field");
        const QStringList tp2{QStringLiteral("--config_name=tiny"), QStringLiteral("--tensor_parallel_size=2")};
        QTest::newRow("by name, other dp, no ZeRO") << "optimizer.safetensors" << tp2 << 2 << "";
        QTest::newRow("by name, other tp") << "optimizer.safetensors" << QStringList{QStringLiteral("--config_name=tiny")} << 2
                                           << "tensor_parallel_size";
        QTest::newRow("pickles, other dp") << "optimizer_dp_rank_00.pt" << (tp2 + QStringList{QStringLiteral("--zero_1")}) << 2 << "nproc_per_node";
        QTest::newRow("pickles, no ZeRO") << "optimizer_dp_rank_00.pt" << tp2 << 4 << "zero_1";
        QTest::newRow("pickles, same layout") << "optimizer_dp_rank_00.pt" << (tp2 + QStringList{QStringLiteral("--zero_1")}) << 4 << "";
    }
    void resumeRuleAgreesWithTheBackend()
    {
        QFETCH(QString, optimizerFile);
        QFETCH(QStringList, args);
        QFETCH(int, world);
        QFETCH(QString, field);
        QTemporaryDir dir;
        test::writeFile(dir.filePath(QStringLiteral("training_args.json")),
                        R"({"tensor_parallel_size": 2, "pipeline_parallel_size": 1, "zero_1": true, "world_size": 4,
                            "disable_embedding_parallelization": false})");
        test::writeFile(dir.filePath(QStringLiteral("trainer_state.json")), R"({"global_step": 3})");
        test::writeFile(dir.filePath(QStringLiteral("tensor_parallel_shards/tp_rank_00_pp_rank_00/") + optimizerFile), "x");
        args << QStringLiteral("--resume_from_checkpoint=") + dir.path();
        agreeWithTheBackend(args, world, field);
    }

    void modelFolderRules()
    {
        QTemporaryDir dir;
        test::writeFile(dir.filePath(QStringLiteral("config.json")),
                        R"({"model_type": "llama", "vocab_size": 32000, "hidden_size": 96, "intermediate_size": 251,
                            "num_hidden_layers": 3, "num_attention_heads": 6, "num_key_value_heads": 3})");
        JobSpec s;
        s.modelPath = dir.path();
        s.configName.clear();
        s.nprocPerNode = 2;
        s.tensorParallel = 2;
        const JobFacts facts = gatherJobFacts(s);
        QVERIFY(facts.model.known);
        const QVector<JobProblem> p = validateJob(s, facts);
        QStringList fields;
        for (const JobProblem &x : p)
            fields << x.field;
        // 3 kv heads and 251 intermediate do not split in two; 32000 and 64 tokens do.
        QCOMPARE(fields.count(QStringLiteral("tensor_parallel_size")), 2);
        QVERIFY(!fields.contains(QStringLiteral("block_size")));
        // The backend agrees that this is invalid.
        QVERIFY(!backendProblems({QStringLiteral("--model_name_or_path"), dir.path(), QStringLiteral("--tensor_parallel_size=2"),
                                  QStringLiteral("--output_dir=/tmp/x")}, 2).isEmpty());
        // A config.json that is not a model's: a clear error, no crash.
        for (const QByteArray &bad : {QByteArray("[1,2]"), QByteArray("{\"vocab_size\": \"many\"}"), QByteArray("\xff\xfe"),
                                      QByteArray(R"({"vocab_size":1,"hidden_size":10,"intermediate_size":1,"num_hidden_layers":1,"num_attention_heads":3})")}) {
            const ModelInfo m = parseModelConfig(bad);
            QVERIFY(!m.known);
            QVERIFY(!m.error.isEmpty());
        }
        const JobFigures f = jobFigures(s, facts.model);
        QCOMPARE(f.dataParallel, 1);
        QCOMPARE(f.globalBatch, 2);
        QCOMPARE(f.tokensPerStep, 128);
    }

    // A Slurm job on several nodes writes every node's shards into its output folder: a node-local folder is refused
    // (the shards would be scattered over the nodes); one node, or a shared folder, is fine. The Slurm settings
    // survive job.json.
    void slurmJobsNeedASharedOutputFolder()
    {
        JobSpec s;
        s.python = QStringLiteral("/usr/bin/python3");
        s.slurm.enabled = true;
        s.nnodes = 2;
        s.outputDir = QStringLiteral("/tmp/run1");
        JobFacts facts;
        facts.pythonExists = true;
        const auto fields = [&] {
            QStringList f;
            for (const JobProblem &x : validateJob(s, facts, 4096))
                f << x.field;
            return f;
        };
        QVERIFY(fields().contains(QStringLiteral("output_dir")));
        s.outputDir = QStringLiteral("/fsx/runs/run1");
        QVERIFY(!fields().contains(QStringLiteral("output_dir")));
        s.outputDir = QStringLiteral("/tmp/run1");
        s.nnodes = 1;
        QVERIFY(!fields().contains(QStringLiteral("output_dir")));
        s.slurm.enabled = false;
        s.nnodes = 2;
        QVERIFY(!fields().contains(QStringLiteral("output_dir")));  // hosts without a scheduler: the backend checks it

        s.slurm = {true, QStringLiteral("compute"), QStringLiteral("2:00:00"), QStringLiteral("ml"), QStringLiteral("high"),
                   false, {QStringLiteral("#SBATCH --mem=0")}, QStringLiteral("/opt/slurm/etc/slurm.conf")};
        QString error;
        const JobSpec back = JobSpec::fromJson(s.toJson(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(back.slurm.enabled);
        QCOMPARE(back.slurm.partition, s.slurm.partition);
        QCOMPARE(back.slurm.timeLimit, s.slurm.timeLimit);
        QCOMPARE(back.slurm.account, s.slurm.account);
        QCOMPARE(back.slurm.qos, s.slurm.qos);
        QCOMPARE(back.slurm.exclusive, false);
        QCOMPARE(back.slurm.extraSbatch, s.slurm.extraSbatch);
        QCOMPARE(back.slurm.slurmConf, s.slurm.slurmConf);
        QVERIFY(!JobSpec::fromJson(JobSpec().toJson(), &error).slurm.enabled);
        QJsonObject wrong = s.toJson();
        wrong.insert(QStringLiteral("slurm"), QStringLiteral("yes"));
        error.clear();
        JobSpec::fromJson(wrong, &error);
        QVERIFY(!error.isEmpty());
    }

    void jsonRoundTripAndWrongTypes()
    {
        JobSpec s;
        s.name = QStringLiteral("run «α»");
        s.program = JobProgram::Module;
        s.module = QStringLiteral("my.train");
        s.extraArgs = {QStringLiteral("--a"), QStringLiteral("b c")};
        s.env = {{QStringLiteral("FOO"), QStringLiteral("1")}};
        s.tensorParallel = 4;
        s.learningRate = 1.5e-5;
        QString error;
        const JobSpec back = JobSpec::fromJson(s.toJson(), &error);
        QVERIFY(error.isEmpty());
        QCOMPARE(back.toJson(), s.toJson());
        QJsonObject bad = s.toJson();
        QJsonObject settings = bad.value(QLatin1String("settings")).toObject();
        settings.insert(QStringLiteral("tensor_parallel_size"), QStringLiteral("four"));
        bad.insert(QStringLiteral("settings"), settings);
        JobSpec::fromJson(bad, &error);
        QVERIFY(error.contains(QLatin1String("tensor_parallel_size")));
        // A job's own stall threshold (issue 38): kept with the job; a negative or wrong-typed one is an error.
        s.stallAfterSeconds = 90;
        error.clear();
        QCOMPARE(JobSpec::fromJson(s.toJson(), &error).stallAfterSeconds, 90.0);
        QVERIFY(error.isEmpty());
        QVERIFY(!JobSpec().toJson().contains(QLatin1String("stall_after_seconds")));
        for (const QJsonValue &v : {QJsonValue(-1), QJsonValue(QStringLiteral("10m"))}) {
            QJsonObject o = s.toJson();
            o.insert(QStringLiteral("stall_after_seconds"), v);
            error.clear();
            JobSpec::fromJson(o, &error);
            QVERIFY(error.contains(QLatin1String("stall_after_seconds")));
        }
    }

    void shellQuotingRoundTrips()
    {
        const QStringList argv = {QStringLiteral("printf"), QStringLiteral("%s|"), QStringLiteral("plain"),
                                  QStringLiteral("it's"), QStringLiteral("a b"), QStringLiteral("$HOME"),
                                  QStringLiteral("`id`"), QStringLiteral("\\n"), QStringLiteral("ü")};
        QProcess p;
        p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), commandLine({QStringLiteral("X=1 2")}, argv)});
        QVERIFY(p.waitForFinished());
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()), argv.mid(2).join(QLatin1Char('|')) + QLatin1Char('|'));
    }

    void procStatParsing()
    {
        ProcessIdentity id;
        char state = 0;
        const QByteArray line = "4242 (a) (b c)) S 1 4240 4240 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1 2 3\n";
        QVERIFY(parseProcStat(line, &id, &state));
        QCOMPARE(id.pid, 4242);
        QCOMPARE(id.pgid, 4240);
        QCOMPARE(id.sid, 4240);
        QCOMPARE(id.startTime, quint64(987654));
        QCOMPARE(state, 'S');
        QVERIFY(!parseProcStat("garbage", &id));
        QVERIFY(!parseProcStat("12 (x) S 1 2", &id));
        QVERIFY(!isJobId(QStringLiteral("../etc")));
        QVERIFY(!isJobId(QString()));
        QVERIFY(isJobId(newJobId()));
    }
};

QTEST_GUILESS_MAIN(TestJobSpec)
#include "tst_jobspec.moc"
