#include "services/jobs/jobspec.h"

#include "services/util/format.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <QRegularExpression>

#include <cmath>

namespace ingot {

namespace {

// One row per backend flag: the member it lives in (one of the four pointers is set).
struct Field {
    const char *flag;
    SettingGroup group;
    int JobSpec::*i = nullptr;
    double JobSpec::*d = nullptr;
    bool JobSpec::*b = nullptr;
    QString JobSpec::*s = nullptr;
};

Field intField(const char *flag, SettingGroup g, int JobSpec::*m) { Field f{flag, g}; f.i = m; return f; }
Field doubleField(const char *flag, SettingGroup g, double JobSpec::*m) { Field f{flag, g}; f.d = m; return f; }
Field boolField(const char *flag, SettingGroup g, bool JobSpec::*m) { Field f{flag, g}; f.b = m; return f; }
Field stringField(const char *flag, SettingGroup g, QString JobSpec::*m) { Field f{flag, g}; f.s = m; return f; }

// In the order of ingot_train/args.py (its --help), which is also the order of the command line.
const QVector<Field> &fields()
{
    using G = SettingGroup;
    static const QVector<Field> all = {
        stringField("model_name_or_path", G::Model, &JobSpec::modelPath),
        stringField("config_name", G::Model, &JobSpec::configName),
        stringField("train_file", G::Model, &JobSpec::trainFile),
        intField("per_device_train_batch_size", G::Batch, &JobSpec::perDeviceBatch),
        intField("gradient_accumulation_steps", G::Batch, &JobSpec::gradientAccumulation),
        intField("block_size", G::Batch, &JobSpec::blockSize),
        doubleField("learning_rate", G::Optimisation, &JobSpec::learningRate),
        doubleField("weight_decay", G::Optimisation, &JobSpec::weightDecay),
        intField("warmup_steps", G::Optimisation, &JobSpec::warmupSteps),
        intField("max_steps", G::Optimisation, &JobSpec::maxSteps),
        doubleField("num_train_epochs", G::Optimisation, &JobSpec::epochs),
        doubleField("max_grad_norm", G::Optimisation, &JobSpec::maxGradNorm),
        boolField("bf16", G::Optimisation, &JobSpec::bf16),
        boolField("zero_1", G::Parallelism, &JobSpec::zero1),
        intField("tensor_parallel_size", G::Parallelism, &JobSpec::tensorParallel),
        intField("pipeline_parallel_size", G::Parallelism, &JobSpec::pipelineParallel),
        intField("num_microbatches", G::Parallelism, &JobSpec::microbatches),
        boolField("disable_sequence_parallel", G::Parallelism, &JobSpec::disableSequenceParallel),
        boolField("disable_embedding_parallelization", G::Parallelism, &JobSpec::disableEmbeddingParallel),
        intField("logging_steps", G::Saving, &JobSpec::loggingSteps),
        intField("save_steps", G::Saving, &JobSpec::saveSteps),
        intField("save_total_limit", G::Saving, &JobSpec::saveTotalLimit),
        stringField("output_dir", G::Saving, &JobSpec::outputDir),
        stringField("resume_from_checkpoint", G::Saving, &JobSpec::resumeFrom),
        intField("seed", G::Other, &JobSpec::seed),
        stringField("device", G::Other, &JobSpec::device),
        stringField("engine", G::Other, &JobSpec::engine),
        boolField("fsdp", G::Parallelism, &JobSpec::fsdp),
        boolField("torch_compile", G::Optimisation, &JobSpec::torchCompile),
    };
    return all;
}

const Field *findField(const QString &flag)
{
    for (const Field &f : fields())
        if (flag == QLatin1String(f.flag))
            return &f;
    return nullptr;
}

// Python's repr of a float as argparse would read it back: shortest round-trip text.
QString number(double v)
{
    QString s = QString::number(v, 'g', 17);
    for (int prec = 1; prec <= 17; ++prec) {
        const QString t = QString::number(v, 'g', prec);
        if (t.toDouble() == v) {
            s = t;
            break;
        }
    }
    return s;
}

QString programName(JobProgram p)
{
    switch (p) {
    case JobProgram::Backend: return QStringLiteral("backend");
    case JobProgram::Script: return QStringLiteral("script");
    case JobProgram::Module: return QStringLiteral("module");
    }
    return {};
}

struct JobSpecText {
    Q_DECLARE_TR_FUNCTIONS(ingot::JobSpec)
};

}  // namespace

const QVector<SettingInfo> &jobSettings()
{
    static const QVector<SettingInfo> infos = [] {
        QVector<SettingInfo> v;
        for (const Field &f : fields())
            v.append({QLatin1String(f.flag), f.group});
        return v;
    }();
    return infos;
}

QVector<QPair<QString, QString>> JobSpec::exportedVariables() const
{
    QVector<QPair<QString, QString>> out;
    if (!neuronCcFlags.isEmpty())
        out.append({QStringLiteral("NEURON_CC_FLAGS"), neuronCcFlags});
    if (!compileCacheUrl.isEmpty())
        out.append({QStringLiteral("NEURON_COMPILE_CACHE_URL"), compileCacheUrl});
    return out + env;
}

QProcessEnvironment JobSpec::jobEnvironment(const QProcessEnvironment &inherited) const
{
    QProcessEnvironment e = inherited;
    for (const auto &kv : exportedVariables())
        e.insert(kv.first, kv.second);
    return e;
}

CacheLocation JobSpec::compileCacheLocation(const QProcessEnvironment &inherited, const QString &home) const
{
    return CacheLocation::resolve(jobEnvironment(inherited), home);
}

int JobSpec::dataParallel() const
{
    const int tpp = tensorParallel * pipelineParallel;
    return tpp > 0 && worldSize() % tpp == 0 ? worldSize() / tpp : 0;
}

QString JobSpec::modelLabel() const
{
    if (!modelPath.isEmpty())
        return QFileInfo(modelPath).fileName().isEmpty() ? modelPath : QFileInfo(modelPath).fileName();
    return configName;
}

QString JobSpec::displayName() const
{
    if (!name.trimmed().isEmpty())
        return name.trimmed();
    QString what = modelLabel();
    if (program == JobProgram::Script)
        what = QFileInfo(script).fileName();
    else if (program == JobProgram::Module)
        what = module;
    return what + QLatin1Char(' ') + formatLayout(dataParallel(), tensorParallel, pipelineParallel);
}

QString JobSpec::displayName(const QString &jobId, qint64 createdMs) const
{
    if (!name.trimmed().isEmpty() || jobId.isEmpty())
        return displayName();
    // newJobId(): yyyyMMdd-HHmmss-rrrr, the time its plan was made; another id is shown whole.
    static const QRegularExpression idTime(QStringLiteral("^\\d{8}-(\\d\\d)(\\d\\d)(\\d\\d)-[0-9a-f]+$"));
    const QRegularExpressionMatch m = idTime.match(jobId);
    const QString when = createdMs > 0 ? QDateTime::fromMSecsSinceEpoch(createdMs).toString(QStringLiteral("HH:mm:ss"))
                         : m.hasMatch() ? QStringLiteral("%1:%2:%3").arg(m.captured(1), m.captured(2), m.captured(3))
                                        : jobId;
    return QStringLiteral("%1 · %2").arg(displayName(), when);
}

bool JobSpec::sameGraphSettings(const JobSpec &o) const
{
    return program == o.program && script == o.script && module == o.module && extraArgs == o.extraArgs &&
           passSettings == o.passSettings && nprocPerNode == o.nprocPerNode && nnodes == o.nnodes &&
           modelPath == o.modelPath && configName == o.configName && perDeviceBatch == o.perDeviceBatch &&
           gradientAccumulation == o.gradientAccumulation && blockSize == o.blockSize &&
           tensorParallel == o.tensorParallel && pipelineParallel == o.pipelineParallel && microbatches == o.microbatches &&
           disableSequenceParallel == o.disableSequenceParallel && disableEmbeddingParallel == o.disableEmbeddingParallel &&
           device == o.device && engine == o.engine && fsdp == o.fsdp &&
           torchCompile == o.torchCompile && python == o.python && neuronCcFlags.simplified() == o.neuronCcFlags.simplified();
}

QJsonObject JobSpec::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("name"), name);
    o.insert(QStringLiteral("program"), programName(program));
    o.insert(QStringLiteral("script"), script);
    o.insert(QStringLiteral("module"), module);
    o.insert(QStringLiteral("extra_args"), QJsonArray::fromStringList(extraArgs));
    o.insert(QStringLiteral("pass_settings"), passSettings);
    o.insert(QStringLiteral("nproc_per_node"), nprocPerNode);
    o.insert(QStringLiteral("nnodes"), nnodes);
    QJsonObject settings;
    for (const Field &f : fields()) {
        const QString key = QLatin1String(f.flag);
        if (f.i)
            settings.insert(key, this->*f.i);
        else if (f.d)
            settings.insert(key, this->*f.d);
        else if (f.b)
            settings.insert(key, this->*f.b);
        else
            settings.insert(key, this->*f.s);
    }
    o.insert(QStringLiteral("settings"), settings);
    if (!resumedFromJob.isEmpty())
        o.insert(QStringLiteral("resumed_from_job"), resumedFromJob);
    o.insert(QStringLiteral("python"), python);
    o.insert(QStringLiteral("neuron_cc_flags"), neuronCcFlags);
    o.insert(QStringLiteral("compile_cache_url"), compileCacheUrl);
    QJsonArray envArray;
    for (const auto &kv : env)
        envArray.append(QJsonArray{kv.first, kv.second});
    o.insert(QStringLiteral("env"), envArray);
    if (stallAfterSeconds > 0)
        o.insert(QStringLiteral("stall_after_seconds"), stallAfterSeconds);
    if (precompile) {
        o.insert(QStringLiteral("precompile"), true);
        o.insert(QStringLiteral("precompile_parallel"), precompileParallel);
    }
    if (slurm.enabled) {
        o.insert(QStringLiteral("slurm"), QJsonObject{{QStringLiteral("partition"), slurm.partition},
                                                      {QStringLiteral("time_limit"), slurm.timeLimit},
                                                      {QStringLiteral("account"), slurm.account},
                                                      {QStringLiteral("qos"), slurm.qos},
                                                      {QStringLiteral("exclusive"), slurm.exclusive},
                                                      {QStringLiteral("extra_sbatch"), QJsonArray::fromStringList(slurm.extraSbatch)},
                                                      {QStringLiteral("slurm_conf"), slurm.slurmConf},
                                                      {QStringLiteral("precompile"), slurm.precompile}});
    }
    return o;
}

JobSpec JobSpec::fromJson(const QJsonObject &o, QString *error)
{
    JobSpec s;
    auto fail = [&](const QString &key) {
        if (error && error->isEmpty())
            *error = JobSpecText::tr("job settings: \"%1\" has a value of the wrong type").arg(key);
    };
    auto str = [&](const char *key, QString *out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isString())
            *out = v.toString();
        else if (!v.isUndefined() && !v.isNull())
            fail(QLatin1String(key));
    };
    auto integer = [&](const QJsonValue &v, const QString &key, int *out) {
        if (v.isUndefined() || v.isNull())
            return;
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || d != std::floor(d) || std::fabs(d) > 1e9)
            fail(key);
        else
            *out = int(d);
    };
    str("name", &s.name);
    const QString program = o.value(QLatin1String("program")).toString(QStringLiteral("backend"));
    if (program == QLatin1String("script"))
        s.program = JobProgram::Script;
    else if (program == QLatin1String("module"))
        s.program = JobProgram::Module;
    else if (program != QLatin1String("backend"))
        fail(QStringLiteral("program"));
    str("script", &s.script);
    str("module", &s.module);
    const QJsonValue extra = o.value(QLatin1String("extra_args"));
    if (extra.isArray()) {
        for (const QJsonValue &a : extra.toArray()) {
            if (!a.isString())
                fail(QStringLiteral("extra_args"));
            s.extraArgs << a.toString();
        }
    } else if (!extra.isUndefined()) {
        fail(QStringLiteral("extra_args"));
    }
    s.passSettings = o.value(QLatin1String("pass_settings")).toBool(true);
    s.precompile = o.value(QLatin1String("precompile")).toBool(false);
    const QJsonValue stallAfter = o.value(QLatin1String("stall_after_seconds"));
    if (stallAfter.isDouble() && std::isfinite(stallAfter.toDouble()) && stallAfter.toDouble() >= 0)
        s.stallAfterSeconds = stallAfter.toDouble();
    else if (!stallAfter.isUndefined())
        fail(QStringLiteral("stall_after_seconds"));
    s.precompileParallel = std::clamp(o.value(QLatin1String("precompile_parallel")).toInt(0), 0, 4096);
    integer(o.value(QLatin1String("nproc_per_node")), QStringLiteral("nproc_per_node"), &s.nprocPerNode);
    integer(o.value(QLatin1String("nnodes")), QStringLiteral("nnodes"), &s.nnodes);
    const QJsonObject settings = o.value(QLatin1String("settings")).toObject();
    for (const Field &f : fields()) {
        const QString key = QLatin1String(f.flag);
        const QJsonValue v = settings.value(key);
        if (v.isUndefined() || v.isNull())
            continue;
        if (f.i) {
            integer(v, key, &(s.*f.i));
        } else if (f.d) {
            if (v.isDouble())
                s.*f.d = v.toDouble();
            else
                fail(key);
        } else if (f.b) {
            if (v.isBool())
                s.*f.b = v.toBool();
            else
                fail(key);
        } else if (v.isString()) {
            s.*f.s = v.toString();
        } else {
            fail(key);
        }
    }
    str("resumed_from_job", &s.resumedFromJob);
    str("python", &s.python);
    str("neuron_cc_flags", &s.neuronCcFlags);
    str("compile_cache_url", &s.compileCacheUrl);
    for (const QJsonValue &kv : o.value(QLatin1String("env")).toArray()) {
        const QJsonArray pair = kv.toArray();
        if (pair.size() != 2 || !pair.at(0).isString() || !pair.at(1).isString()) {
            fail(QStringLiteral("env"));
            continue;
        }
        s.env.append({pair.at(0).toString(), pair.at(1).toString()});
    }
    const QJsonValue slurm = o.value(QLatin1String("slurm"));
    if (slurm.isObject()) {
        const QJsonObject so = slurm.toObject();
        s.slurm.enabled = true;
        s.slurm.partition = so.value(QLatin1String("partition")).toString();
        s.slurm.timeLimit = so.value(QLatin1String("time_limit")).toString();
        s.slurm.account = so.value(QLatin1String("account")).toString();
        s.slurm.qos = so.value(QLatin1String("qos")).toString();
        s.slurm.exclusive = so.value(QLatin1String("exclusive")).toBool(true);
        for (const QJsonValue &l : so.value(QLatin1String("extra_sbatch")).toArray())
            s.slurm.extraSbatch << l.toString();
        s.slurm.slurmConf = so.value(QLatin1String("slurm_conf")).toString();
        s.slurm.precompile = so.value(QLatin1String("precompile")).toBool(false);
    } else if (!slurm.isUndefined() && !slurm.isNull()) {
        fail(QStringLiteral("slurm"));
    }
    return s;
}

QStringList JobSpec::trainingArguments(const QString &resolvedOutputDir) const
{
    QStringList args;
    if (program != JobProgram::Backend && !passSettings)
        return extraArgs;
    for (const Field &f : fields()) {
        const QString flag = QStringLiteral("--") + QLatin1String(f.flag);
        if (f.i) {
            args << flag << QString::number(this->*f.i);
        } else if (f.d) {
            args << flag << number(this->*f.d);
        } else if (f.b) {
            if (this->*f.b)
                args << flag;
        } else {
            QString v = this->*f.s;
            if (f.s == &JobSpec::outputDir)
                v = resolvedOutputDir;
            if (f.s == &JobSpec::configName && !modelPath.isEmpty())
                continue;  // a folder's own config wins
            if (f.s == &JobSpec::engine && v == QLatin1String("auto"))
                continue;  // the backend's default: it chooses by what the job's Python has (jobEngineFor)
            if (!v.isEmpty())
                args << flag << v;
        }
    }
    return args + extraArgs;
}

bool JobSpec::parseTrainingArguments(const QStringList &args, QString *error)
{
    QStringList rest;
    bool sawConfig = false, sawModel = false;
    for (int i = 0; i < args.size(); ++i) {
        QString arg = args.at(i);
        QString value;
        bool hasValue = false;
        const Field *f = nullptr;
        if (arg.startsWith(QLatin1String("--"))) {
            const int eq = arg.indexOf(QLatin1Char('='));
            const QString flag = arg.mid(2, eq < 0 ? -1 : eq - 2);
            f = findField(flag);
            if (f && eq >= 0) {
                value = arg.mid(eq + 1);
                hasValue = true;
            }
        }
        if (!f) {
            if (program == JobProgram::Backend) {
                *error = JobSpecText::tr("the backend has no option %1 (see python3 -m ingot_train --help)").arg(arg);
                return false;
            }
            rest << arg;
            continue;
        }
        if (f->b) {
            if (hasValue) {
                *error = JobSpecText::tr("--%1 takes no value").arg(QLatin1String(f->flag));
                return false;
            }
            this->*f->b = true;
            continue;
        }
        if (!hasValue) {
            if (i + 1 >= args.size()) {
                *error = JobSpecText::tr("--%1 needs a value").arg(QLatin1String(f->flag));
                return false;
            }
            value = args.at(++i);
        }
        bool ok = true;
        if (f->i) {
            this->*f->i = value.toInt(&ok);
        } else if (f->d) {
            this->*f->d = value.toDouble(&ok);
            ok = ok && std::isfinite(this->*f->d);
        } else {
            this->*f->s = value;
            sawConfig = sawConfig || f->s == &JobSpec::configName;
            sawModel = sawModel || f->s == &JobSpec::modelPath;
        }
        if (!ok) {
            *error = JobSpecText::tr("--%1: %2 is not a number").arg(QLatin1String(f->flag), value);
            return false;
        }
    }
    if (sawModel && !sawConfig)
        configName.clear();
    extraArgs = rest;
    return true;
}

}  // namespace ingot
