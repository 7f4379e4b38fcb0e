#include "services/jobs/jobvalidate.h"

#include "services/jobs/jobmanager.h"
#include "services/jobs/jobrunner.h"
#include "services/util/names.h"
#include "services/util/remoteshell.h"
#include "services/util/shellquote.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <QJsonDocument>
#include <QMutex>
#include <QRegularExpression>
#include <QStandardPaths>

namespace ingot {

namespace {

struct JobValidateText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobValidate)
};

bool parseJsonObject(const QString &path, const QByteArray &data, QJsonObject *out, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = JobValidateText::tr("%1 is not a JSON object").arg(QFileInfo(path).fileName());
        return false;
    }
    *out = doc.object();
    return true;
}

bool readJsonObject(const QString &path, QJsonObject *out, QString *error)
{
    const FileChunk c = readLocalFile(path, 0, 16 << 20, true);  // never waits on a FIFO
    if (!c.exists || !c.error.isEmpty()) {
        *error = JobValidateText::tr("%1 cannot be read").arg(QFileInfo(path).fileName());
        return false;
    }
    return parseJsonObject(path, c.data, out, error);
}

bool readJsonObject(JobRunner &runner, const QString &path, QJsonObject *out, QString *error)
{
    const FileChunk c = runner.readFile(path, 0, 16 << 20);
    if (!c.exists || !c.error.isEmpty()) {
        *error = JobValidateText::tr("%1 cannot be read").arg(QFileInfo(path).fileName());
        return false;
    }
    return parseJsonObject(path, c.data, out, error);
}

// The layout keys a checkpoint must be resumed on (ingot_train/args.py LAYOUT_KEYS).
QJsonValue specValue(const JobSpec &s, const QString &key)
{
    if (key == QLatin1String("tensor_parallel_size"))
        return s.tensorParallel;
    if (key == QLatin1String("pipeline_parallel_size"))
        return s.pipelineParallel;
    if (key == QLatin1String("zero_1"))
        return s.zero1;
    return s.disableEmbeddingParallel;
}

}  // namespace

bool isEnvName(const QString &key)
{
    // Anchored whole (a "$" would also match before a final newline).
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*")));
    return re.match(key).hasMatch();
}

JobFacts gatherJobFacts(const JobSpec &spec)
{
    JobFacts f;
    if (!spec.modelPath.isEmpty()) {
        f.modelFolderExists = QFileInfo(spec.modelPath).isDir();
        f.model = readModelFolder(spec.modelPath);
    } else if (!spec.configName.isEmpty()) {
        f.model = builtinModel(spec.configName);
    }
    f.trainFileExists = spec.trainFile.isEmpty() || QFileInfo::exists(spec.trainFile);
    f.scriptExists = spec.program != JobProgram::Script || QFileInfo(spec.script).isFile();
    f.pythonExists = spec.python.isEmpty() || QFileInfo(spec.python).isExecutable();
    const QString beside = QFileInfo(spec.python).path() + QStringLiteral("/neuron_parallel_compile");
    f.neuronParallelCompile = !spec.python.isEmpty() && QFileInfo(beside).isExecutable()
                                  ? beside
                                  : QStandardPaths::findExecutable(QStringLiteral("neuron_parallel_compile"));
    if (!spec.resumeFrom.isEmpty()) {
        QJsonObject state;
        QString error;
        if (readJsonObject(spec.resumeFrom + QStringLiteral("/training_args.json"), &f.resume.savedArgs, &error)
            && readJsonObject(spec.resumeFrom + QStringLiteral("/trainer_state.json"), &state, &error))
            f.resume.complete = true;
        else
            f.resume.error = error;
        for (const QString &file : legacyOptimizerFiles(spec.resumeFrom))
            f.resume.legacyOptimizer = f.resume.legacyOptimizer || QFileInfo::exists(file);
        f.resume.dcpMetadata = QFileInfo(spec.resumeFrom + QStringLiteral("/.metadata")).isFile();
    }
    return f;
}

JobFacts gatherJobFacts(const JobSpec &spec, JobRunner &runner)
{
    JobFacts f;
    if (!spec.modelPath.isEmpty()) {
        f.modelFolderExists = runner.pathInfo(spec.modelPath).isDir;
        const FileChunk c = runner.readFile(spec.modelPath + QStringLiteral("/config.json"), 0, (1 << 20) + 1);
        if (!c.exists || !c.error.isEmpty())
            f.model.error = QCoreApplication::translate("ingot::ModelInfo", "%1 has no readable config.json").arg(spec.modelPath);
        else if (c.size > (1 << 20))
            f.model.error = QCoreApplication::translate("ingot::ModelInfo", "config.json is larger than 1 MiB");
        else
            f.model = parseModelConfig(c.data);
    } else if (!spec.configName.isEmpty()) {
        f.model = builtinModel(spec.configName);
    }
    f.trainFileExists = spec.trainFile.isEmpty() || runner.pathInfo(spec.trainFile).exists;
    f.scriptExists = spec.program != JobProgram::Script
        || (spec.script.startsWith(QLatin1Char('/')) && runner.pathInfo(spec.script).isFile);
    f.pythonExists = spec.python.isEmpty() || runner.pathInfo(spec.python).isExecutable;
    f.neuronParallelCompile = findNeuronParallelCompile(runner, spec.python);
    if (!spec.resumeFrom.isEmpty()) {
        QJsonObject state;
        QString error;
        if (readJsonObject(runner, spec.resumeFrom + QStringLiteral("/training_args.json"), &f.resume.savedArgs, &error)
            && readJsonObject(runner, spec.resumeFrom + QStringLiteral("/trainer_state.json"), &state, &error))
            f.resume.complete = true;
        else
            f.resume.error = error;
        for (const QString &file : legacyOptimizerFiles(spec.resumeFrom))
            f.resume.legacyOptimizer = f.resume.legacyOptimizer || runner.pathInfo(file).exists;
        f.resume.dcpMetadata = runner.pathInfo(spec.resumeFrom + QStringLiteral("/.metadata")).isFile;
    }
    // The job's Python is asked only when the engine's rules need it: an engine, fully sharded or torch.compile
    // chosen, or a native checkpoint resumed by automatic (which must then run native).
    const bool backendFlags = spec.program == JobProgram::Backend || spec.passSettings;
    const bool nativeResume = f.resume.complete && f.resume.writtenBy() == QLatin1String("native");
    if (backendFlags && f.pythonExists
        && (spec.engine != QLatin1String("auto") || spec.fsdp || spec.torchCompile || nativeResume)) {
        f.python = probeJobPython(runner, spec.python, spec.slurm);
        f.pythonProbed = true;
    }
    return f;
}

QString ResumeInfo::writtenBy() const
{
    const QString engine = savedArgs.value(QLatin1String("engine")).toString();
    if (engine == QLatin1String("native") || engine == QLatin1String("xla"))
        return engine;
    return dcpMetadata ? QStringLiteral("native") : QStringLiteral("xla");
}

QStringList legacyOptimizerFiles(const QString &checkpoint)
{
    const QString first = checkpoint + QStringLiteral("/tensor_parallel_shards/tp_rank_00_pp_rank_00/");
    return {first + QStringLiteral("optimizer.pt"), first + QStringLiteral("optimizer_dp_rank_00.pt")};
}

QString precompileUnavailableReason(const JobFacts &facts)
{
    return facts.neuronParallelCompile.isEmpty()
               ? JobValidateText::tr("Precompile first needs the Neuron SDK's neuron_parallel_compile: it is neither beside "
                                     "the job's Python nor on the PATH where the job runs")
               : QString();
}

namespace {

using Problems = QVector<JobProblem>;

void add(Problems *p, const char *field, const QString &message)
{
    p->append({QLatin1String(field), message});
}

// What runs and where: the program, the Python, precompiling, the nodes, the output folder, the environment.
void checkWhatRuns(const JobSpec &s, const JobFacts &facts, int maxNodes, Problems *p)
{
    if (s.program == JobProgram::Script && s.script.isEmpty())
        add(p, "script", JobValidateText::tr("choose a training script (.py)"));
    else if (s.program == JobProgram::Script && !facts.scriptExists)
        add(p, "script", JobValidateText::tr("%1 is not a file").arg(s.script));
    if (s.program == JobProgram::Module && s.module.trimmed().isEmpty())
        add(p, "module", JobValidateText::tr("name the module to run (python -m MODULE)"));
    if (!facts.pythonExists)
        add(p, "python", JobValidateText::tr("%1 is not an executable").arg(s.python));
    const bool precompile = s.slurm.enabled ? s.slurm.precompile : s.precompile;
    if (precompile && !precompileUnavailableReason(facts).isEmpty())
        add(p, "precompile", precompileUnavailableReason(facts));
    if (s.precompile && !s.slurm.enabled && precompileUnavailableReason(facts).isEmpty()) {
        if (s.nnodes > 1)
            add(p, "precompile", JobValidateText::tr("Precompile first on several hosts runs as a Slurm job: use Slurm, or "
                                                     "precompile on one node"));
    }
    if (s.nprocPerNode < 1)
        add(p, "nproc_per_node", JobValidateText::tr("at least 1 process per node"));
    if (s.nnodes < 1)
        add(p, "nnodes", JobValidateText::tr("at least 1 node"));
    else if (s.nnodes > maxNodes)
        add(p, "nnodes", maxNodes == 1 ? JobValidateText::tr("a job on this machine runs on 1 node; several nodes need remote hosts")
                                       : JobValidateText::tr("at most %1 nodes here").arg(maxNodes));

    // A Slurm job on several nodes: every node writes its checkpoint shards into the output folder, so it must be one
    // folder they all see (a node-local /tmp would scatter them over the nodes and leave nothing to consolidate).
    if (s.slurm.enabled && s.nnodes > 1 && !s.outputDir.isEmpty()) {
        const QString out = QDir::cleanPath(s.outputDir);
        for (const char *local : {"/tmp", "/var/tmp", "/dev/shm", "/run", "/scratch"}) {
            const QString l = QLatin1String(local);
            if (out == l || out.startsWith(l + QLatin1Char('/'))) {
                add(p, "output_dir", JobValidateText::tr("%1 is on each node's own disk: with %2 nodes the output folder must "
                                                         "be on a filesystem every node shares (the cluster's shared home, "
                                                         "/fsx)").arg(s.outputDir).arg(s.nnodes));
                break;
            }
        }
    }

    for (const auto &kv : s.env)
        if (!isEnvName(kv.first))
            add(p, "env", JobValidateText::tr("\"%1\" is not a variable name (letters, digits and _, not starting with a digit)")
                              .arg(displayName(kv.first)));
}

// The backend's settings, each on its own: the model, the data, the counts and rates.
void checkSettings(const JobSpec &s, const JobFacts &facts, Problems *p)
{
    if (s.modelPath.isEmpty() && s.configName.isEmpty())
        add(p, "model_name_or_path", JobValidateText::tr("name a model: a model folder or a built-in config"));
    if (!s.modelPath.isEmpty() && !facts.modelFolderExists)
        add(p, "model_name_or_path", JobValidateText::tr("%1 is not a folder").arg(s.modelPath));
    else if (!s.modelPath.isEmpty() && !facts.model.known)
        add(p, "model_name_or_path", facts.model.error);
    if (s.modelPath.isEmpty() && !s.configName.isEmpty() && !facts.model.known)
        add(p, "config_name", facts.model.error);
    if (!s.trainFile.isEmpty() && !facts.trainFileExists)
        add(p, "train_file", JobValidateText::tr("%1 does not exist").arg(s.trainFile));
    if (s.perDeviceBatch < 1)
        add(p, "per_device_train_batch_size", JobValidateText::tr("must be at least 1"));
    if (s.gradientAccumulation < 1)
        add(p, "gradient_accumulation_steps", JobValidateText::tr("must be at least 1"));
    if (s.blockSize < 1)
        add(p, "block_size", JobValidateText::tr("must be at least 1"));
    if (s.microbatches < 1)
        add(p, "num_microbatches", JobValidateText::tr("must be at least 1"));
    if (s.maxSteps == 0 || s.maxSteps < -1)
        add(p, "max_steps", JobValidateText::tr("must be positive (or -1 to train for the given epochs)"));
    if (s.maxSteps == -1 && !(s.epochs > 0))
        add(p, "num_train_epochs", JobValidateText::tr("must be positive"));
    if (!(s.learningRate >= 0))
        add(p, "learning_rate", JobValidateText::tr("must not be negative"));
    if (s.warmupSteps < 0)
        add(p, "warmup_steps", JobValidateText::tr("must not be negative"));
    if (!(s.maxGradNorm >= 0))
        add(p, "max_grad_norm", JobValidateText::tr("must not be negative (0: no clipping)"));
    if (s.loggingSteps < 1)
        add(p, "logging_steps", JobValidateText::tr("must be at least 1"));
    if (s.saveSteps < 0)
        add(p, "save_steps", JobValidateText::tr("must not be negative (0: only at the end)"));
    if (s.saveTotalLimit < 0)
        add(p, "save_total_limit", JobValidateText::tr("must not be negative (0: keep every checkpoint)"));
    static const QStringList devices = {QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("cuda"),
                                        QStringLiteral("xla"), QStringLiteral("neuron")};
    if (!devices.contains(s.device))
        add(p, "device", JobValidateText::tr("one of auto, cpu, cuda, xla, neuron"));
}

// The parallel layout against the world size, the batch and the model (tp and pp at least 1).
void checkLayout(const JobSpec &s, const ModelInfo &m, Problems *p)
{
    const int tp = s.tensorParallel, pp = s.pipelineParallel;
    const int world = s.worldSize();
    if (world > 0 && world % (tp * pp))
        add(p, "tensor_parallel_size", JobValidateText::tr("tp (%1) x pp (%2) = %3 does not divide the world size %4 (%5 processes x %6 "
                                          "nodes)")
                                           .arg(tp).arg(pp).arg(tp * pp).arg(world).arg(s.nprocPerNode).arg(s.nnodes));
    if (s.microbatches >= 1 && s.perDeviceBatch >= 1 && s.perDeviceBatch % s.microbatches)
        add(p, "num_microbatches", JobValidateText::tr("%1 sequences per device do not split into %2 micro-batches")
                                       .arg(s.perDeviceBatch).arg(s.microbatches));
    if (m.known && tp > 1) {
        if (m.numHeads % tp)
            add(p, "tensor_parallel_size", JobValidateText::tr("the model's %1 attention heads are not divisible by tp %2").arg(m.numHeads).arg(tp));
        if (m.numKvHeads % tp)
            add(p, "tensor_parallel_size", JobValidateText::tr("the model's %1 key-value heads are not divisible by tp %2").arg(m.numKvHeads).arg(tp));
        if (m.intermediateSize % tp)
            add(p, "tensor_parallel_size", JobValidateText::tr("the model's intermediate size %1 is not divisible by tp %2")
                                               .arg(m.intermediateSize).arg(tp));
        if (!s.disableEmbeddingParallel && m.vocabSize % tp)
            add(p, "disable_embedding_parallelization",
                JobValidateText::tr("the vocabulary of %1 is not divisible by tp %2: turn embedding parallelism off").arg(m.vocabSize).arg(tp));
        if (!s.disableSequenceParallel && s.blockSize >= 1 && s.blockSize % tp)
            add(p, "block_size", JobValidateText::tr("%1 tokens are not divisible by tp %2, which sequence parallelism needs")
                                     .arg(s.blockSize).arg(tp));
    }
    if (m.known && m.numLayers < pp)
        add(p, "pipeline_parallel_size", JobValidateText::tr("the model has %1 layers, fewer than %2 stages").arg(m.numLayers).arg(pp));
}

// The checkpoint resumed from: complete, and saved on this layout (the backend's own rule, args.py check_resume: the
// weights' split must match; the optimizer state is kept by name, except in earlier versions' pickles).
void checkResume(const JobSpec &s, const JobFacts &facts, Problems *p)
{
    const ResumeInfo &resume = facts.resume;
    if (!resume.complete) {
        add(p, "resume_from_checkpoint", JobValidateText::tr("not a complete checkpoint (%1)").arg(resume.error));
        return;
    }
    // An engine never resumes the other's checkpoint; a native (DCP) one resumes on any layout (DCP re-shards).
    const QString engine = s.engine != QLatin1String("auto") ? s.engine
                           : facts.pythonProbed && facts.python.usable() ? jobEngineFor(facts.python).engine
                                                                         : QString();  // not known: the backend checks
    const QString writtenBy = resume.writtenBy();
    if (!engine.isEmpty() && engine != writtenBy) {
        add(p, "resume_from_checkpoint",
            writtenBy == QLatin1String("native")
                ? JobValidateText::tr("written by the native engine (a DCP checkpoint), this job uses PyTorch/XLA: resume it "
                                      "with the native engine, or consolidate it and start from the model folder")
                : JobValidateText::tr("written by the PyTorch/XLA engine (per-rank safetensors shards), this job uses the "
                                      "native engine: resume it with PyTorch/XLA, or consolidate it and start from the model "
                                      "folder"));
        return;
    }
    if (writtenBy == QLatin1String("native"))
        return;
    QStringList keys{QStringLiteral("tensor_parallel_size"), QStringLiteral("pipeline_parallel_size"),
                     QStringLiteral("disable_embedding_parallelization")};
    if (resume.legacyOptimizer)
        keys << QStringLiteral("zero_1");
    for (const QString &key : std::as_const(keys)) {
        QJsonValue saved = resume.savedArgs.value(key);
        if (saved.isUndefined())  // as the backend reads a missing key
            saved = key.endsWith(QLatin1String("_size")) ? QJsonValue(1) : QJsonValue(false);
        const QJsonValue now = specValue(s, key);
        if (saved != now && !(saved.isDouble() && now.isDouble() && saved.toDouble() == now.toDouble()))
            p->append({key, (key.endsWith(QLatin1String("_size"))
                                 ? JobValidateText::tr("the checkpoint was saved with --%1 %2: resume on the same layout, or "
                                                       "write it for this one with ingot-cli reshard")
                                 : JobValidateText::tr("the checkpoint was saved with --%1 %2: resume on the same layout"))
                                .arg(key, saved.isBool() ? QString::fromLatin1(saved.toBool() ? "True" : "False")
                                                         : QString::number(saved.toDouble()))});
    }
    const int world = s.worldSize();
    const QJsonValue savedWorld = resume.savedArgs.value(QLatin1String("world_size"));
    if (resume.legacyOptimizer && savedWorld.isDouble() && savedWorld.toInt() != world)
        add(p, "nproc_per_node", JobValidateText::tr("the checkpoint was saved by %n process(es), this job has %1", nullptr,
                                                     savedWorld.toInt()).arg(world));
}

// The engine and what only the native engine has: the backend's own rules (args.py validate()), with automatic
// resolved by what the job's Python has when it was asked.
void checkEngine(const JobSpec &s, const JobFacts &facts, Problems *p)
{
    static const QStringList engines = {QStringLiteral("auto"), QStringLiteral("native"), QStringLiteral("xla")};
    if (!engines.contains(s.engine)) {
        add(p, "engine", JobValidateText::tr("one of auto, native, xla"));
        return;
    }
    if (s.fsdp && s.zero1)
        add(p, "fsdp", JobValidateText::tr("fully sharded (ZeRO-3) shards the optimizer state already: turn ZeRO-1 off"));
    const bool usable = facts.pythonProbed && facts.python.usable();
    const EngineChoice automatic = usable ? jobEngineFor(facts.python) : EngineChoice{};
    const QString engine = s.engine == QLatin1String("auto") ? automatic.engine : s.engine;  // "": not known yet
    if (s.engine == QLatin1String("native") && usable && !facts.python.hasDTensor)
        add(p, "engine", JobValidateText::tr("the native engine needs torch 2.4 or later (torch.distributed.tensor); the "
                                             "job's Python has torch %1").arg(facts.python.torchVersion));
    if (engine == QLatin1String("xla")) {
        const QString why = s.engine == QLatin1String("xla")
                                ? JobValidateText::tr("the engine chosen is PyTorch/XLA: choose native PyTorch (Neuron 2.30 and later)")
                                : JobValidateText::tr("automatic runs PyTorch/XLA here (%1): choose native PyTorch").arg(automatic.reason);
        if (s.fsdp)
            add(p, "fsdp", JobValidateText::tr("fully sharded runs on the native engine only; %1").arg(why));
        if (s.torchCompile)
            add(p, "torch_compile", JobValidateText::tr("torch.compile runs on the native engine only; %1").arg(why));
        if (s.device == QLatin1String("neuron"))
            add(p, "device", JobValidateText::tr("the neuron device is TorchNeuron's, on the native engine only; %1").arg(why));
    }
    if (engine == QLatin1String("native")) {
        if (s.device == QLatin1String("xla"))
            add(p, "device", JobValidateText::tr("the xla device needs the PyTorch/XLA engine"));
        if (s.zero1 && s.tensorParallel > 1)
            add(p, "zero_1", JobValidateText::tr("ZeRO-1 with tensor parallelism is not available on the native engine "
                                                 "(ZeroRedundancyOptimizer takes no DTensor parameters): use fully sharded"));
        if (s.tensorParallel > 1 && facts.model.known && facts.model.tiedEmbeddings)
            add(p, "tensor_parallel_size", JobValidateText::tr("a model with tied word embeddings cannot be tensor parallel on "
                                                               "the native engine yet"));
    }
}

}  // namespace

QVector<JobProblem> validateJob(const JobSpec &s, const JobFacts &facts, int maxNodes)
{
    Problems p;
    checkWhatRuns(s, facts, maxNodes, &p);
    if (s.program != JobProgram::Backend && !s.passSettings)
        return p;  // the backend's rules apply to the backend and to the settings passed as its flags
    checkSettings(s, facts, &p);
    checkEngine(s, facts, &p);
    if (s.tensorParallel < 1)
        add(&p, "tensor_parallel_size", JobValidateText::tr("must be at least 1"));
    if (s.pipelineParallel < 1)
        add(&p, "pipeline_parallel_size", JobValidateText::tr("must be at least 1"));
    if (s.tensorParallel < 1 || s.pipelineParallel < 1)
        return p;
    checkLayout(s, facts.model, &p);
    if (!s.resumeFrom.isEmpty())
        checkResume(s, facts, &p);
    return p;
}

JobFigures jobFigures(const JobSpec &s, const ModelInfo &model)
{
    JobFigures f;
    f.worldSize = s.worldSize();
    f.dataParallel = s.dataParallel();
    f.globalBatch = qint64(s.perDeviceBatch) * f.dataParallel * s.gradientAccumulation;
    f.tokensPerStep = f.globalBatch * s.blockSize;
    if (s.tensorParallel >= 1 && s.pipelineParallel >= 1)
        f.parameters = countParameters(model, s.tensorParallel, s.pipelineParallel,
                                       !s.disableEmbeddingParallel && s.tensorParallel > 1);
    return f;
}

// The Neuron SDK's neuron_parallel_compile where the job runs: beside the job's Python (the SDK's virtual
// environment), else on the PATH there; "" when there is none.
QString findNeuronParallelCompile(JobRunner &runner, const QString &python)
{
    static const char *script = R"SH(p=$(printf '%bX' "$1"); p=${p%X}
if [ -n "$p" ] && [ -x "${p%/*}/neuron_parallel_compile" ]; then printf '%s\n' "${p%/*}/neuron_parallel_compile"; exit 0; fi
command -v neuron_parallel_compile
)SH";
    const ShellResult r = runner.shell()->run(script, {nameToBytes(python)}, {}, 1 << 16, 30000);  // the shell encodes it
    const QByteArray path = r.out.trimmed();
    if (!r.ran() || r.exitCode != 0 || !path.startsWith('/') || path.contains('\n'))
        return {};
    return nameFromBytes(path);
}

// ---- the training engine ----

namespace {

// What torch and torch_xla say, before where it was asked.
EngineChoice engineByTorch(const PythonInfo &py)
{
    if (py.version.isEmpty())  // it did not answer: not there, not Python, or the host could not be reached
        return {QString(), JobValidateText::tr("the job's Python could not be asked (%1)").arg(displayText(py.error))};
    if (!py.usable())
        return {QString(), py.error.isEmpty() ? JobValidateText::tr("the job's Python does not import torch")
                                              : JobValidateText::tr("the job's Python does not import torch (%1)").arg(displayText(py.error))};
    if (py.hasTorchXla)
        return {QStringLiteral("xla"), JobValidateText::tr("torch %1 with torch_xla: PyTorch/XLA").arg(py.torchVersion)};
    if (py.hasDTensor)
        return {QStringLiteral("native"), py.hasNeuronDevice
                                              ? JobValidateText::tr("torch %1 without torch_xla, with the neuron device: native PyTorch").arg(py.torchVersion)
                                              : JobValidateText::tr("torch %1 without torch_xla: native PyTorch (no neuron device: CPU with gloo)").arg(py.torchVersion)};
    return {QStringLiteral("xla"), JobValidateText::tr("torch %1 has neither torch_xla nor torch.distributed.tensor (torch 2.4 and "
                                                       "later): the PyTorch/XLA engine, on CPU").arg(py.torchVersion)};
}

}  // namespace

EngineChoice jobEngineFor(const PythonInfo &py)
{
    EngineChoice c = engineByTorch(py);
    if (!py.askedOn.isEmpty())
        c.reason += QStringLiteral(" (%1)").arg(py.askedOn);
    return c;
}

QString engineLabel(const QString &engine)
{
    if (engine == QLatin1String("native"))
        return JobValidateText::tr("Native PyTorch (TorchNeuron, Neuron 2.30 and later)");
    if (engine == QLatin1String("xla"))
        return JobValidateText::tr("PyTorch/XLA (Neuron 2.29 and earlier)");
    return JobValidateText::tr("Automatic (what the job's Python has)");
}

namespace {

// $1 the Python, $2 the probe (as RemoteShell passes them): runs it for at most 60 s where the shell is. Exit 3: not an executable.
const char *const probeOneScript = R"SH(p=$(printf '%bX' "$1"); p=${p%X}
probe=$(printf '%bX' "$2"); probe=${probe%X}
[ -f "$p" ] && [ -x "$p" ] || exit 3
to=
command -v timeout >/dev/null 2>&1 && to="timeout 60"
exec $to "$p" -c "$probe" </dev/null 2>/dev/null
)SH";

// $1 the Python, $2 the probe, $3 SLURM_CONF ("": the clients' own), $4 partition, $5 account, $6 qos: the probe on one
// compute node through srun, never queued (--immediate). Exit 3: not an executable there; 5: no srun here.
const char *const probeOnNodeScript = R"SH(p=$(printf '%bX' "$1"); p=${p%X}
probe=$(printf '%bX' "$2"); probe=${probe%X}
conf=$(printf '%bX' "$3"); conf=${conf%X}
part=$(printf '%bX' "$4"); part=${part%X}
acct=$(printf '%bX' "$5"); acct=${acct%X}
qos=$(printf '%bX' "$6"); qos=${qos%X}
[ -n "$conf" ] && SLURM_CONF=$conf && export SLURM_CONF
command -v srun >/dev/null 2>&1 || exit 5
set -- --nodes=1 --ntasks=1 --quiet --immediate=60 --time=5 --job-name=ingot-python-probe
[ -n "$part" ] && set -- "$@" --partition="$part"
[ -n "$acct" ] && set -- "$@" --account="$acct"
[ -n "$qos" ] && set -- "$@" --qos="$qos"
exec srun "$@" /bin/sh -c '[ -f "$1" ] && [ -x "$1" ] || exit 3; exec "$1" -c "$2" </dev/null 2>/dev/null' sh "$p" "$probe"
)SH";

// What one run of a probe script says about `python`.
PythonInfo readProbe(const QString &python, const ShellResult &r)
{
    PythonInfo info;
    info.path = python;
    if (r.exitCode == 3)
        info.error = JobValidateText::tr("%1 is not an executable").arg(displayName(python));
    else if (r.exitCode == 124)
        info.error = JobValidateText::tr("%1 did not answer within 60 s").arg(displayName(python));
    else if (r.out.trimmed().isEmpty())
        info.error = JobValidateText::tr("%1 does not run Python 3").arg(displayName(python));
    else
        info = parsePythonProbe(python, r.out);
    return info;
}

// A Slurm job's Python on a compute node; false when srun gave no node (then *why says so).
bool probeOnNode(JobRunner &runner, const QString &python, const SlurmSettings &slurm, PythonInfo *info, QString *why)
{
    const ShellResult r = runner.shell()->run(probeOnNodeScript,
                                              {nameToBytes(python), QByteArray(pythonProbeScript), nameToBytes(slurm.slurmConf),
                                               slurm.partition.toUtf8(), slurm.account.toUtf8(), slurm.qos.toUtf8()},
                                              {}, 1 << 16, 150000);
    if (r.ran() && (r.exitCode == 0 || r.exitCode == 3)) {
        *info = readProbe(python, r);
        return true;
    }
    const QByteArray said = r.err.trimmed().left(300);
    *why = !r.ran() ? displayText(r.error)
           : r.exitCode == 5 ? JobValidateText::tr("there is no srun on the login node")
                             : JobValidateText::tr("srun gave no compute node at once (%1)")
                                   .arg(said.isEmpty() ? JobValidateText::tr("exit %1").arg(r.exitCode) : displayText(QString::fromUtf8(said)));
    return false;
}

}  // namespace

PythonInfo probeJobPython(JobRunner &runner, const QString &python, const SlurmSettings &slurm, bool onNode)
{
    static QMutex mutex;
    static QHash<QString, PythonInfo> asked;  // where NUL python (NUL the Slurm settings that choose the node)
    QString key = runner.where() + QChar(0) + python;
    if (slurm.enabled)
        key += QStringList{QString(), slurm.slurmConf, slurm.partition, slurm.account, slurm.qos,
                           onNode ? QStringLiteral("node") : QStringLiteral("login")}.join(QChar(0));
    {
        QMutexLocker lock(&mutex);
        // A compute node's answer, once asked for (the launcher's "Ask a compute node", job launch --ask-node), is
        // the one every later check of that job takes, before the login node's: it is where the job runs.
        if (slurm.enabled && !onNode) {
            QString nodeKey = key;
            nodeKey.chop(5);  // "login"
            if (const auto it = asked.constFind(nodeKey + QStringLiteral("node")); it != asked.cend() && it->askedOn.isEmpty())
                return *it;
        }
        if (const auto it = asked.constFind(key); it != asked.cend())
            return *it;
    }
    PythonInfo info;
    info.path = python;
    QString whyNotOnANode;
    if (slurm.enabled && !onNode)
        whyNotOnANode = JobValidateText::tr("Ingot does not take a compute node to ask");
    if (slurm.enabled && onNode && !python.isEmpty() && probeOnNode(runner, python, slurm, &info, &whyNotOnANode)) {
        // asked on a compute node
    } else if (python.isEmpty()) {
        // The Python a plan takes when none is chosen (JobManager::plan): the first detected one with torch.
        const QVector<PythonInfo> found = detectedPythons(runner);
        const auto usable = std::find_if(found.begin(), found.end(), [](const PythonInfo &p) { return p.usable(); });
        if (usable == found.end()) {
            info.error = JobValidateText::tr("no Python with torch was found on %1").arg(displayName(runner.describe()));
            return info;
        }
        info = *usable;
    } else {
        const ShellResult r = runner.shell()->run(probeOneScript, {nameToBytes(python), QByteArray(pythonProbeScript)},
                                                  {}, 1 << 16, 90000);
        if (!r.ran()) {
            info.error = displayText(r.error);  // not remembered: the next check asks again
            return info;
        }
        info = readProbe(python, r);
    }
    if (slurm.enabled && !whyNotOnANode.isEmpty())
        info.askedOn = JobValidateText::tr("asked on the login node: %1").arg(whyNotOnANode);
    else if (slurm.enabled && python.isEmpty())
        info.askedOn = JobValidateText::tr("asked on the login node: no Python is chosen");
    QMutexLocker lock(&mutex);
    if (asked.size() > 256)  // bounded: a long session of many Pythons asks again
        asked.clear();
    asked.insert(key, info);
    return info;
}

JobNote engineNote(const PythonInfo &python)
{
    if (!python.usable())
        return {QStringLiteral("python"), JobValidateText::tr("the job's Python could not be asked which engine it has: %1")
                                              .arg(python.error.isEmpty() ? JobValidateText::tr("it does not import torch")
                                                                          : displayText(python.error)), true};
    return {QStringLiteral("engine"), JobValidateText::tr("automatic: %1").arg(jobEngineFor(python).reason), false};
}

QVector<JobNote> jobNotes(const JobSpec &s, const JobFacts &facts)
{
    QVector<JobNote> notes;
    if (s.program != JobProgram::Backend && !s.passSettings)
        return notes;
    const auto note = [&notes](const char *field, const QString &message, bool warning) {
        notes.append({QLatin1String(field), message, warning});
    };
    const bool usable = facts.pythonProbed && facts.python.usable();
    const EngineChoice automatic = usable ? jobEngineFor(facts.python) : EngineChoice{};
    const QString engine = s.engine == QLatin1String("auto") ? automatic.engine : s.engine;
    if (facts.pythonProbed && (!usable || s.engine == QLatin1String("auto")))
        notes.append(engineNote(facts.python));
    if (s.engine == QLatin1String("xla") && usable && !facts.python.hasTorchXla)
        note("engine", JobValidateText::tr("the job's Python (torch %1) has no torch_xla: the PyTorch/XLA engine runs on CPU "
                                           "there, never on a NeuronCore (%2)").arg(facts.python.torchVersion, automatic.reason), true);
    const int dp = s.dataParallel();
    if (s.fsdp && dp == 1)
        note("fsdp", JobValidateText::tr("fully sharded over 1 data-parallel rank shards nothing: %1 processes = dp 1 x tp %2 x pp "
                                         "%3; give it 2 data-parallel ranks or more").arg(s.worldSize()).arg(s.tensorParallel)
                         .arg(s.pipelineParallel), true);
    if (s.fsdp && engine != QLatin1String("xla"))
        note("fsdp", s.tensorParallel > 1
                         ? JobValidateText::tr("fully sharded over dp %1 on a 2-D mesh with tp %2: FSDP2 (fully_shard) where the torch "
                                               "build supports the device, else FSDP1 (FullyShardedDataParallel), which is what "
                                               "runs on CPU").arg(dp).arg(s.tensorParallel)
                         : JobValidateText::tr("fully sharded over dp %1: FSDP2 (fully_shard) where the torch build supports the "
                                               "device, else FSDP1 (FullyShardedDataParallel), which is what runs on CPU").arg(dp),
             false);
    if (s.pipelineParallel > 1 && engine == QLatin1String("native"))
        note("pipeline_parallel_size", JobValidateText::tr("pipeline parallel on the native engine: torch.distributed.pipelining "
                                                           "where it runs, else the backend's own pipeline schedule; the job's "
                                                           "first log lines say which"), false);
    if (s.torchCompile && engine == QLatin1String("native"))
        note("torch_compile", facts.python.hasNeuronDevice
                                  ? JobValidateText::tr("torch.compile with the neuron backend")
                                  : JobValidateText::tr("torch.compile with a CPU backend (no neuron device here)"), false);
    return notes;
}

}  // namespace ingot
