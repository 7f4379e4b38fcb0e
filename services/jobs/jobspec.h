// What a training job runs: the program (Ingot's backend, a user's script or module), the torchrun layout, every
// backend setting under the flag name the backend (and optimum-neuron's example scripts) use, and the
// environment. Saved in the job's folder as job.json; the launcher form, presets and `ingot-cli job launch` all
// make one of these (docs/formats.md#training-jobs).
#pragma once

#include "services/cache/cachelocation.h"

#include <QJsonObject>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

enum class JobProgram { Backend, Script, Module };

// A job submitted to a Slurm cluster (AWS ParallelCluster, HyperPod): sbatch on the login node the job's runner
// reaches (this machine or a host), one torchrun agent per allocated node (docs/formats.md "Slurm jobs").
struct SlurmSettings {
    bool enabled = false;
    QString partition;         // "": the cluster's default
    QString timeLimit;         // minutes, [D-]H:MM:SS, UNLIMITED; "": the partition's default
    QString account, qos;      // optional
    bool exclusive = true;     // whole nodes, as the Neuron tutorials
    QStringList extraSbatch;   // whole "#SBATCH ..." lines
    QString slurmConf;         // SLURM_CONF there; "": the clients' own
    // A first Slurm job runs the same command under the Neuron SDK's neuron_parallel_compile (every graph compiled
    // into the cache, in parallel); the training job is submitted with --dependency=afterok on it.
    bool precompile = false;
};

struct JobSpec {
    QString name;  // shown in the history; empty: derived from the model
    JobProgram program = JobProgram::Backend;
    QString script;            // Script: a .py file
    QString module;            // Module: python -m MODULE
    QStringList extraArgs;     // appended after the settings (a script's own arguments)
    bool passSettings = true;  // Script/Module: pass the form's settings as flags (optimum-neuron's names)

    // torchrun
    int nprocPerNode = 1;
    int nnodes = 1;

    // Backend settings, defaults as ingot_train/args.py has them.
    QString modelPath;          // --model_name_or_path
    QString configName = QStringLiteral("tiny");  // --config_name (used when modelPath is empty)
    QString trainFile;          // --train_file (empty: the bundled sample)
    int perDeviceBatch = 2;     // --per_device_train_batch_size
    int gradientAccumulation = 1;
    int blockSize = 64;
    double learningRate = 1e-3;
    double weightDecay = 0.0;
    int warmupSteps = 0;
    int maxSteps = -1;  // -1: use epochs
    double epochs = 1.0;
    double maxGradNorm = 1.0;
    bool bf16 = false;
    bool zero1 = false;
    bool fsdp = false;          // --fsdp: fully sharded data parallel over the data-parallel ranks (ZeRO-3; native only)
    bool torchCompile = false;  // --torch_compile (native only)
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int microbatches = 1;
    bool disableSequenceParallel = false;
    bool disableEmbeddingParallel = false;
    int loggingSteps = 1;
    int saveSteps = 0;
    int saveTotalLimit = 0;  // --save_total_limit: keep the newest N checkpoint-N folders (0: all)
    QString outputDir;  // empty: a fresh folder in the job's folder
    QString resumeFrom;  // --resume_from_checkpoint
    QString resumedFromJob;  // the id of the job whose checkpoint resumeFrom is ("": none or not known)
    int seed = 42;
    QString device = QStringLiteral("auto");  // auto, cpu, cuda, xla, neuron (TorchNeuron: the native engine)
    // --engine: "native" (PyTorch on TorchNeuron, Neuron 2.30 and later), "xla" (PyTorch/XLA, Neuron 2.29 and
    // earlier) or "auto" (the backend's default, not passed: what the job's Python has, jobEngineFor()).
    QString engine = QStringLiteral("auto");

    // Environment
    QString python;             // empty: the first detected interpreter with torch
    QString neuronCcFlags;      // NEURON_CC_FLAGS ("" : not set)
    QString compileCacheUrl;    // NEURON_COMPILE_CACHE_URL ("" : not set)
    // Precompile first, on this machine or a host (Slurm jobs: slurm.precompile): the same command runs under the
    // Neuron SDK's neuron_parallel_compile in JOB/precompile, then the training, as one job with two phases.
    bool precompile = false;
    int precompileParallel = 0;  // neuron_parallel_compile --num_parallel (0: the tool's default)
    QVector<QPair<QString, QString>> env;  // extra variables

    // A stall (stallrule.h): the step has not advanced for this many seconds while the processes live; 0: the default
    // rule (10 x the median step time, at least 5 minutes). `job launch --stall-after DURATION`.
    double stallAfterSeconds = 0;

    SlurmSettings slurm;  // enabled: submitted through Slurm (nnodes: how many nodes it allocates)

    // What the job's wrapper exports, in order (a name set again later wins): the NEURON_CC_FLAGS and
    // NEURON_COMPILE_CACHE_URL fields, then the table.
    QVector<QPair<QString, QString>> exportedVariables() const;
    // Those over what the job inherits (`inherited`: the environment of the host it runs on).
    QProcessEnvironment jobEnvironment(const QProcessEnvironment &inherited) const;
    // The compile cache the job uses, as the Neuron runtime resolves it from jobEnvironment(); `home` expands ~.
    CacheLocation compileCacheLocation(const QProcessEnvironment &inherited, const QString &home) const;

    int worldSize() const { return nprocPerNode * nnodes; }
    int dataParallel() const;  // world / (tp * pp), 0 when it does not divide
    QString modelLabel() const;  // the folder's name or the built-in config's
    QString displayName() const;  // name, or derived from the model and layout
    // name, or derived from the model and layout and the time the job was launched ("tiny 1x2x1 · 10:16:25"), so
    // that runs of the same settings can be told apart: its record's createdMs (taken when Launch was pressed), else
    // (0) the time in the job's id.
    QString displayName(const QString &jobId, qint64 createdMs = 0) const;

    QJsonObject toJson() const;
    // Whether a run of `other` traces the same XLA graphs as one of this: the program, the model and data shapes,
    // the parallel layout, the device, the Python and the compiler flags agree (the output folder, the number of
    // steps, logging and the cache folder do not change a graph).
    bool sameGraphSettings(const JobSpec &other) const;
    // Reads what toJson() wrote; unknown keys are ignored, a value of the wrong type is an error.
    static JobSpec fromJson(const QJsonObject &o, QString *error);

    // The settings as command-line flags (every setting, in the backend's --help order), then extraArgs.
    QStringList trainingArguments(const QString &resolvedOutputDir) const;
    // Reads backend flags from ARGS (as `ingot-cli job launch -- ARGS` gets them) into this spec. For the
    // backend, an unknown flag is an error; for scripts unknown flags stay in extraArgs, in order.
    bool parseTrainingArguments(const QStringList &args, QString *error);
};

// The settings the form shows and the flags they map to, for field-level messages ("tensor_parallel_size").
enum class SettingGroup { Parallelism, Batch, Optimisation, Saving, Model, Other };
struct SettingInfo {
    QString flag;  // without the leading "--"
    SettingGroup group;
};
const QVector<SettingInfo> &jobSettings();

}  // namespace ingot
