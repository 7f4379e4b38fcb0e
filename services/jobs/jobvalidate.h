// The one check of a job's settings, shared by the launcher form (as you type) and `ingot-cli job launch`: the
// backend's own rules (ingot_train/args.py validate()), each problem tied to the flag it is about. Gathering what
// the rules need from disk (the model's config, whether files exist, a checkpoint's layout) is separate I/O.
#pragma once

#include "services/jobs/jobrunner.h"
#include "services/jobs/jobspec.h"
#include "services/jobs/modelinfo.h"

namespace ingot {

struct ResumeInfo {
    bool complete = false;  // training_args.json and trainer_state.json readable
    QString error;
    QJsonObject savedArgs;  // training_args.json
    // The optimizer state is torch.save pickles (the backend before optimizer.safetensors): indexed by this layout's
    // parameter order, so the world size and ZeRO-1 must match too. Otherwise it is kept by name, and only the
    // tensor/pipeline sizes and the vocabulary split must (ingot-cli reshard writes a checkpoint for others).
    bool legacyOptimizer = false;
    bool dcpMetadata = false;  // a .metadata file: a DCP checkpoint (the native engine's)
    // The engine that wrote it, as the backend's args.py checkpoint_engine() says: training_args.json's "engine",
    // else native when it is a DCP checkpoint, else xla (earlier versions name none).
    QString writtenBy() const;
};
// Where a checkpoint's first rank keeps earlier versions' optimizer pickles (ResumeInfo::legacyOptimizer).
QStringList legacyOptimizerFiles(const QString &checkpoint);

// What validation needs to know from disk (I/O: off the UI thread).
struct JobFacts {
    // The job's Python as probed where it runs (probeJobPython): asked only when the engine's rules need it (an engine
    // chosen, fully sharded or torch.compile asked for); pythonProbed false otherwise.
    PythonInfo python;
    bool pythonProbed = false;
    ModelInfo model;
    QString neuronParallelCompile;  // the Neuron SDK's tool where the job runs ("": none; looked for when precompiling)
    bool modelFolderExists = false;
    bool trainFileExists = false;
    bool scriptExists = false;
    bool pythonExists = false;
    ResumeInfo resume;
};
JobFacts gatherJobFacts(const JobSpec &spec);
class JobRunner;
// The same, looked up where `runner` runs jobs (a host's files for a remote runner; a script's path must be absolute
// there).
JobFacts gatherJobFacts(const JobSpec &spec, JobRunner &runner);
// The Neuron SDK's neuron_parallel_compile where `runner` runs jobs: beside the job's Python (the SDK's virtual
// environment), else on the PATH there; "" when there is none.
QString findNeuronParallelCompile(JobRunner &runner, const QString &python);

struct JobProblem {
    QString field;  // the flag ("tensor_parallel_size"), or "nproc_per_node", "nnodes", "script", "module", "python"
    QString message;
};
// Whether `key` may name an environment variable in a job's scripts: [A-Za-z_][A-Za-z0-9_]* (anything else could
// run commands where the scripts export it).
bool isEnvName(const QString &key);

// "Precompile first", one rule for a job torchrun starts and a Slurm job: offered only where the Neuron SDK's
// neuron_parallel_compile is; otherwise why not (the launcher shows it beside both options, and validateJob refuses
// a job that asks for it anyway). Empty when it is there.
QString precompileUnavailableReason(const JobFacts &facts);

// Empty when the job may launch. maxNodes: how many nodes this runner can start (1 on this machine).
QVector<JobProblem> validateJob(const JobSpec &spec, const JobFacts &facts, int maxNodes = 1);

// ---- the training engine (--engine) ----
// The engine `--engine auto` runs on `python`, and why in words: the backend's own rule (xla where torch_xla imports,
// else native where torch has torch.distributed.tensor, else xla, which runs on CPU). engine is "" when the Python
// does not import torch.
struct EngineChoice {
    QString engine;  // "native", "xla" or ""
    QString reason;  // "torch 2.6 without torch_xla: native PyTorch"
};
EngineChoice jobEngineFor(const PythonInfo &python);
// An engine as the launcher and ingot-cli name it ("auto", "native", "xla").
QString engineLabel(const QString &engine);
// The job's Python as probed where `runner` runs jobs (`python` empty: the first detected one with torch), asked
// once per place and Python and remembered (a probe imports torch: seconds); blocking. One that cannot be asked now
// (the host is unreachable) is not remembered: `error` says why. A Slurm job's (`slurm.enabled`) is asked on the
// login node the runner reaches, and `askedOn` says so; with `onNode`, on a compute node of its partition through
// srun, never waiting in the queue (srun --immediate: 60 s at most for a node), else on the login node, said so.
// The launcher and job launch ask the login node: an srun per form change put Ingot's allocations in the user's
// queue and held a node's CPUs while the job to launch waited (tst_slurmgui saw its queue count and job start move).
// A compute node is asked when the user asks (the launcher's "Ask a compute node", `job launch --ask-node`); its
// answer, remembered, is then what the login-node calls return for the same job settings.
PythonInfo probeJobPython(JobRunner &runner, const QString &python, const SlurmSettings &slurm = {}, bool onNode = false);

// What is said before a launch without refusing it, the same in the launcher and ingot-cli: warnings (a setting that
// will not do what it seems to here) and notes (which implementation of a setting runs).
struct JobNote {
    QString field;  // the flag it is about, as JobProblem's
    QString message;
    bool warning = false;
};
QVector<JobNote> jobNotes(const JobSpec &spec, const JobFacts &facts);
// What automatic runs on `python` as a note ("automatic: torch 2.6 without torch_xla: native PyTorch"), a warning when
// it cannot be said.
JobNote engineNote(const PythonInfo &python);

// Figures the launcher shows live.
struct JobFigures {
    int worldSize = 0;
    int dataParallel = 0;  // 0: the layout does not divide
    qint64 globalBatch = 0;     // sequences per optimizer step
    qint64 tokensPerStep = 0;
    ParameterCounts parameters;  // zeroes when the model is unknown
};
JobFigures jobFigures(const JobSpec &spec, const ModelInfo &model);

}  // namespace ingot
