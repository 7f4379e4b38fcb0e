// One consolidation, from the folder a person names to the report of what was written: the use case that the
// consolidation wizard's pages show step by step and that `ingot-cli consolidate` and `ingot-cli reshard` run in one
// go. It holds the inputs (the folder and the checkpoints found there, the one chosen, consolidate or re-shard, the
// options, the base model a LoRA adapter is merged into) and gives each step: the checkpoint's plan (every member of
// its consolidation set, or the re-shard plan), the default output folder (the one rule), the output check (refused
// folders, an existing output, the free space on its file system against the bytes the plan writes), the run
// (progress, cancel) and its report. Steps that read the disk say so: run them off the UI thread.
#pragma once

#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/reshard.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>

namespace ingot {

// What the disk says about an output folder: the space free on the file system it would be made on, whether it
// already exists and holds files, and why it can never be used for the checkpoint (outputRefusal()), if it cannot;
// when an adapter is also merged into its base model, the merged model's bytes (the base model's tensors, written
// again into the output's merged/) or why the base model cannot be merged into.
struct OutputSpace {
    qint64 bytesFree = 0;
    bool existsNonEmpty = false;
    QString refusal;
    qint64 mergedBytes = 0;
    QString mergeProblem;
};

// What a run hands back: the report of the whole output (a checkpoint's adapters as one, files relative to the
// output folder), each member's own, the size of each file written, and the adapter merged into its base model.
struct ConsolidationResult {
    ConsolidateReport report;
    QVector<ConsolidatedOutput> outputs;  // one per member written (a re-shard: none); checkpoint points into the request
    QVector<qint64> fileSizes;            // of report.files, read after the run
    ConsolidateReport merged;             // when a base model was given and the adapters were written
    QString mergedOutput;
    bool resharded = false;
};

class ConsolidationRequest final
{
public:
    enum class Mode { Consolidate, Reshard };
    // Asks the disk about an output folder (for the tests: a stand-in that answers with small numbers).
    using OutputProbe = std::function<OutputSpace(const QString &output)>;

    // The folder as it was given, and what findCheckpoints() found in it; the default choice (pickDefault(), else the
    // first) is made.
    void setSource(const QString &folder, const QVector<CheckpointCandidate> &found);
    // Reads `folder` (I/O): its checkpoints, or when re-sharding a Hugging Face model folder (isModelFolder(), which
    // holds no checkpoint and can only be re-sharded). False with words when it holds neither.
    bool findIn(const QString &folder, QString *error);
    const QString &folder() const { return m_folder; }
    const QVector<CheckpointCandidate> &found() const { return m_found; }
    bool isModelFolder() const { return m_modelFolder; }
    // The candidates a person chooses from: a checkpoint's adapters are one choice (the first of its set).
    QVector<int> choices() const;
    // The default choice's index in found() (the first of its set), -1 when nothing was found.
    int defaultChoice() const;
    // Chooses found()[index] (-1: none); by its label ("final", "checkpoint-N"), false with words when none has it.
    void choose(int index);
    bool chooseNamed(const QString &label, QString *error);
    const CheckpointCandidate *checkpoint() const;
    int chosenIndex() const { return m_chosen; }
    // What is written for the choice: the model, or each of its LoRA adapters (consolidationSet()).
    QVector<const CheckpointCandidate *> members() const;
    bool isAdapter() const;

    // The settings. options().output is the output folder; its verify and overwrite count for a re-shard too.
    Mode mode = Mode::Consolidate;
    ConsolidateOptions options;
    int reshardTp = 1, reshardPp = 1, reshardKvMultiplier = 1;
    bool reshardWeightsOnly = false;
    bool reshardDisableVocabParallel = false;
    QString baseModel;  // a LoRA adapter: also merged into this base model, written to mergedModelFolder(output)
    // Whether the run also merges the adapter into baseModel (a LoRA adapter consolidated, a base model named).
    bool merges() const;
    ReshardOptions reshardOptions() const;

    // The one rule for where the output goes when none is given: beside what was chosen, never inside the shards
    // ("<folder>/consolidated", or "<checkpoint root>/consolidated" when the folder is the shards folder or lies in
    // it), named for a re-shard's layout ("resharded-tp2-pp1"). Absolute.
    QString defaultOutput() const;
    // The name of the output folder the rule makes in a folder a person picked: "consolidated", "resharded-tp2-pp1".
    QString defaultOutputName() const;

    // Plans every member (reads every shard: I/O), and the re-shard from those plans when re-sharding. A model
    // folder is planned for re-sharding only. The same in two halves, for a copy planned off the UI thread:
    // makePlans() (const, the I/O) and setPlans().
    void plan();
    QVector<ConsolidationPlan> makePlans() const;
    void setPlans(const QVector<ConsolidationPlan> &plans);
    // The re-shard plan for the layout settings now, from the member plans already made (reads only config.json,
    // training_args.json and the optimizer state's headers; a model folder is read whole): made (const, I/O) and set.
    ReshardPlan makeReshardPlan() const;
    void setReshardPlan(const ReshardPlan &plan) { m_reshardPlan = plan; }
    bool isPlanned() const { return m_planned; }
    const QVector<ConsolidationPlan> &plans() const { return m_plans; }
    const ReshardPlan &reshardPlan() const { return m_reshardPlan; }
    // Every member's problems (an adapter's named when there are several): nothing can be written while there are any.
    QStringList planProblems() const;
    // What stops the run in the chosen mode: planProblems() and, with options.optimizer, a checkpoint whose optimizer
    // state cannot be written (optimizerProblem()); or the re-shard plan's (which include them).
    QStringList problems() const;
    // What the plan writes, the optimizer state with options.optimizer (the merged model, planned only after the
    // adapters are written, is not counted).
    qint64 bytesToWrite() const;
    // What the run writes with what the output check found: the plan's bytes and the merged model's.
    qint64 bytesNeeded(const OutputSpace &s) const { return bytesToWrite() + s.mergedBytes; }

    // The output check: asks the disk (I/O) about options.output, and about the base model when merging.
    OutputSpace inspectOutput() const;
    static OutputSpace probeOutput(const QString &output);  // the disk itself (the nearest folder of the path that exists)
    void setOutputProbe(OutputProbe probe) { m_probe = std::move(probe); }
    // Why the output cannot be written now, in words that say what to do; empty when it can. Checked again by run().
    QString outputProblem(const OutputSpace &s) const;
    // For the Options page: what it needs and what is free, then what stands in the way (not enough space, an existing
    // folder), or the refusal alone.
    QString outputText(const OutputSpace &s) const;

    // Writes what was planned (planned first when it was not): the output check first, then every member into its
    // folder (stopping at the first that fails), then the merge into the base model. `starting` is called before
    // each member; `progress` after every tensor, on the calling thread; `cancel` is polled between tensors.
    ConsolidationResult run(const ConsolidateProgressFn &progress = {}, const std::atomic_bool *cancel = nullptr,
                            const std::function<void(const ConsolidatedOutput &)> &starting = {});

private:
    QString m_folder;
    QString m_absoluteFolder;  // made absolute when given: the rule does not depend on the working folder later
    QVector<CheckpointCandidate> m_found;
    bool m_modelFolder = false;
    int m_chosen = -1;
    bool m_planned = false;
    QVector<ConsolidationPlan> m_plans;
    ReshardPlan m_reshardPlan;
    OutputProbe m_probe = &ConsolidationRequest::probeOutput;
};

}  // namespace ingot
