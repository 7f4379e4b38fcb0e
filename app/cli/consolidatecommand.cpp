#include "app/cli/consolidatecommand.h"

#include "app/cli/clicommon.h"
#include "services/checkpoint/consolidationrequest.h"
#include "services/checkpoint/loramerge.h"
#include "services/checkpoint/reshard.h"
#include "services/util/shellquote.h"
#include "services/util/format.h"
#include "services/util/units.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <atomic>
#include <memory>
#include <csignal>
#include <cstdio>
#include <optional>

namespace ingot::cli {

namespace {
struct ConsolidateCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

}  // namespace

void addConsolidateOptions(QCommandLineParser &p)
{
    p.addOption({{QStringLiteral("f"), QStringLiteral("format")}, ConsolidateCliText::tr("safetensors (default) or pytorch."), QStringLiteral("FORMAT"), QStringLiteral("safetensors")});
    p.addOption({QStringLiteral("max-shard-size"), ConsolidateCliText::tr("Split the output above this size (default 5GB)."), QStringLiteral("SIZE"), QStringLiteral("5GB")});
    p.addOption({QStringLiteral("verify"), ConsolidateCliText::tr("Read the output back and check every tensor against its sources.")});
    p.addOption({QStringLiteral("overwrite"), ConsolidateCliText::tr("Replace an existing output folder.")});
    p.addOption({QStringLiteral("optimizer"), ConsolidateCliText::tr("A DCP checkpoint: also write its optimizer state (optimizer.safetensors, optimizer_param_groups.json).")});
    p.addOption({QStringLiteral("check-replicas"), ConsolidateCliText::tr("Check that replicated parameters are equal on every tp rank.")});
    p.addOption({QStringLiteral("checkpoint"), ConsolidateCliText::tr("Which checkpoint when there are several (final, or checkpoint-N); default: the newest complete one."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("merge-adapters"), ConsolidateCliText::tr("LoRA adapters: also write the base model with the default adapter merged, in OUTPUT_DIR/merged (needs --base-model).")});
    p.addOption({QStringLiteral("base-model"), ConsolidateCliText::tr("The base model's folder (Hugging Face safetensors), for --merge-adapters."), QStringLiteral("DIR")});
}

QStringList consolidateArguments(const Invocation &in)
{
    QStringList args;
    for (const char *name : {"format", "max-shard-size", "checkpoint", "base-model"})
        if (in.isSet(QLatin1String(name)))
            args << QStringLiteral("--%1=%2").arg(QLatin1String(name), in.value(QLatin1String(name)));
    for (const char *name : {"verify", "overwrite", "check-replicas", "merge-adapters", "optimizer"})
        if (in.isSet(QLatin1String(name)))
            args << QStringLiteral("--") + QLatin1String(name);
    if (in.json)
        args << QStringLiteral("--json");
    return args;
}

namespace {

// The options of `in` (the output folder left empty), or nothing (a usage error reported).
std::optional<ConsolidateOptions> optionsFrom(const Invocation &in)
{
    const QString format = in.value(QStringLiteral("format"));
    if (format != QLatin1String("safetensors") && format != QLatin1String("pytorch")) {
        err(ConsolidateCliText::tr("error: unknown format \"%1\" (safetensors or pytorch)").arg(format));
        return std::nullopt;
    }
    ConsolidateOptions o;
    o.maxShardBytes = parseBytes(in.value(QStringLiteral("max-shard-size")));
    if (o.maxShardBytes <= 0) {
        err(ConsolidateCliText::tr("error: --max-shard-size takes a size such as 5GB or 500MB"));
        return std::nullopt;
    }
    o.format = format == QLatin1String("pytorch") ? ConsolidateOptions::Format::PyTorch : ConsolidateOptions::Format::Safetensors;
    o.verify = in.isSet(QStringLiteral("verify"));
    // For the benchmark and the tests only (every way writes the same bytes): INGOT_CONSOLIDATE_IO=pread, buffered
    // or pagecache.
    const QByteArray io = qgetenv("INGOT_CONSOLIDATE_IO");
    o.io = io == "pread"       ? ConsolidateOptions::Io::Pread
           : io == "buffered"  ? ConsolidateOptions::Io::Buffered
           : io == "pagecache" ? ConsolidateOptions::Io::PageCache
                               : ConsolidateOptions::Io::Direct;
    o.overwrite = in.isSet(QStringLiteral("overwrite"));
    o.checkReplicas = in.isSet(QStringLiteral("check-replicas"));
    o.optimizer = in.isSet(QStringLiteral("optimizer"));
    return o;
}

// Finds the checkpoints of `folder` (or, re-sharding, a model folder) and chooses the one --checkpoint names, else
// the newest complete one, else the newest. The exit code when that fails (the words said), else Ok.
int findAndChoose(const Invocation &in, const QString &folder, ConsolidationRequest *req)
{
    QString error;
    if (!req->findIn(folder, &error)) {
        err(ConsolidateCliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    if (req->isModelFolder() || !in.isSet(QStringLiteral("checkpoint")))
        return Ok;
    if (!req->chooseNamed(in.value(QStringLiteral("checkpoint")), &error)) {
        err(ConsolidateCliText::tr("error: %1").arg(error));
        return Usage;
    }
    return Ok;
}

void printChoice(const QVector<CheckpointCandidate> &found, const CheckpointCandidate *c)
{
    err(ConsolidateCliText::tr("Checkpoint %1 in %2: %3, %4, %5").arg(c->label, c->root, layoutName(c->layout), rankText(*c),
                                                                    formatBytes(c->bytes)));
    if (found.size() > 1)
        for (const auto &x : found)
            err((x.complete ? QStringLiteral("  %1 %2") : ConsolidateCliText::tr("  %1 %2 (incomplete)"))
                    .arg(&x == c ? QStringLiteral("*") : QStringLiteral(" "), checkpointTitle(x)));
}

// What --optimizer adds to the output (planned here: the run uses the same plan).
void printOptimizerPlan(ConsolidationRequest &req)
{
    req.plan();
    for (const ConsolidationPlan &p : req.plans()) {
        if (!p.hasOptimizer() || p.checkpoint.layout != ShardLayout::Dcp)
            continue;  // the run says why
        err(ConsolidateCliText::tr("With the optimizer state: %n tensor(s) (%1) to optimizer.safetensors", nullptr, int(p.optimizerEntries.size()))
                .arg(formatBytes(p.optimizerBytes())) +
            (p.optimizerValues.isEmpty() ? QString()
                                         : ConsolidateCliText::tr(", %n value(s) to optimizer_param_groups.json", nullptr, int(p.optimizerValues.size()))));
    }
}

// Progress lines on stderr: rewritten in place on a terminal, a line a second at most in a log.
class ProgressPrinter final
{
    Q_DISABLE_COPY_MOVE(ProgressPrinter)

public:
    explicit ProgressPrinter(bool quiet) : m_quiet(quiet), m_tty(stdinIsTerminal()) { m_clock.start(); }
    ~ProgressPrinter()
    {
        if (m_tty && !m_quiet)
            std::fprintf(stderr, "\n");
    }
    void print(const ConsolidateProgress &pr)
    {
        if (m_quiet || (!m_tty && pr.tensorsDone != pr.tensorsTotal && m_clock.elapsed() - m_lastLine < 1000))
            return;
        m_lastLine = m_clock.elapsed();
        const double secs = double(m_clock.elapsed()) / 1000.0;
        const double rate = secs > 0 ? double(pr.bytesDone) / secs : 0;
        const double eta = rate > 0 ? double(pr.bytesTotal - pr.bytesDone) / rate : 0;
        const QString line = ConsolidateCliText::tr("[%1/%2] %3 of %4, ETA %5 s  %6").arg(pr.tensorsDone).arg(pr.tensorsTotal)
                                 .arg(formatBytes(pr.bytesDone), formatBytes(pr.bytesTotal)).arg(int(eta)).arg(pr.current);
        std::fprintf(stderr, m_tty ? "\r%s\033[K" : "%s\n", line.toUtf8().constData());
    }

private:
    bool m_quiet;
    bool m_tty;
    QElapsedTimer m_clock;
    qint64 m_lastLine = -1000;
};

nlohmann::json jsonReport(const CheckpointCandidate &c, const ConsolidateOptions &o, const ConsolidateReport &rep)
{
    nlohmann::json files = nlohmann::json::array(), problems = nlohmann::json::array(), warnings = nlohmann::json::array();
    for (const QString &w : rep.warnings)
        warnings.push_back(u8(w));
    for (const QString &f : rep.files)
        files.push_back(u8(f));
    for (const QString &pr : rep.problems + rep.verifyProblems)
        problems.push_back(u8(pr));
    return {{"checkpoint", u8(c.label)}, {"layout", layoutNameSource(c.layout)}, {"tp", c.tpSize}, {"pp", c.ppSize},
            {"ep", std::max(c.epSize, 1)}, {"adapter", c.adapter.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(u8(c.adapter))},
            {"output", u8(o.output)}, {"files", files}, {"tensors", rep.tensors}, {"bytes", rep.bytes},
            {"verified", rep.verified}, {"optimizer", o.optimizer}, {"problems", problems}, {"cancelled", rep.cancelled}, {"warnings", warnings},
            {"error", rep.error.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(u8(rep.error))}};
}

// Ctrl-C or a TERM signal asks the run to stop between tensors, which removes its staging folder; a second
// signal kills at once (what such a kill leaves is removed by the next run). StopOnSignals: clicommon.h.

// What went wrong (on stderr) or what was written (on stdout); the exit code.
int reportOutcome(const ConsolidateOptions &o, const ConsolidateReport &rep, bool asJson)
{
    for (const QString &w : rep.warnings)
        err(ConsolidateCliText::tr("warning: %1").arg(w));
    if (rep.cancelled) {
        err(ConsolidateCliText::tr("Stopped; nothing was left behind in %1.").arg(o.output));
        return PartialFailure;
    }
    if (!rep.problems.isEmpty()) {
        err(ConsolidateCliText::tr("Nothing was written:"));
        for (const QString &pr : rep.problems)
            err(QStringLiteral("  - ") + pr);
        return PartialFailure;
    }
    if (!rep.error.isEmpty() || !rep.verifyProblems.isEmpty()) {
        err(ConsolidateCliText::tr("error: %1").arg(rep.error.isEmpty() ? rep.verifyProblems.join(QStringLiteral("; ")) : rep.error));
        err(ConsolidateCliText::tr("Nothing was left behind in %1.").arg(o.output));
        return PartialFailure;
    }
    if (!asJson)
        out((o.verify ? ConsolidateCliText::tr("Wrote %1 tensors (%2) to %3: %4 — verified against the shards")
                      : ConsolidateCliText::tr("Wrote %1 tensors (%2) to %3: %4"))
                .arg(rep.tensors)
                .arg(formatBytes(rep.bytes), o.output, rep.files.join(QStringLiteral(", "))));
    return Ok;
}
}  // namespace

int consolidateHere(const Invocation &in, const QString &checkpointDir, const QString &outputDir)
{
    const std::optional<ConsolidateOptions> options = optionsFrom(in);
    if (!options)
        return Usage;
    ConsolidationRequest req;
    req.options = *options;
    if (const int rc = findAndChoose(in, checkpointDir, &req); rc != Ok)
        return rc;
    const CheckpointCandidate *c = req.checkpoint();
    const bool merge = in.isSet(QStringLiteral("merge-adapters"));
    if (merge && (!in.isSet(QStringLiteral("base-model")) || c->adapter.isEmpty())) {
        err(c->adapter.isEmpty() ? ConsolidateCliText::tr("error: --merge-adapters: this checkpoint holds a model, not LoRA adapters")
                                 : ConsolidateCliText::tr("error: --merge-adapters needs --base-model DIR (the base model's folder)"));
        return Usage;
    }
    if (merge)
        req.baseModel = in.value(QStringLiteral("base-model"));
    req.options.output = outputDir.isEmpty() ? req.defaultOutput() : outputDir;
    if (!in.json)
        printChoice(req.found(), c);
    if (req.options.optimizer && !in.json)
        printOptimizerPlan(req);
    // A checkpoint of LoRA adapters (and no model): each adapter in turn, the default one at the output folder and
    // the others in a folder of their name below it, as optimum-neuron writes them. One JSON object per adapter.
    ConsolidationResult done;
    {
        StopOnSignals stopOnSignals;
        std::unique_ptr<ProgressPrinter> progress = std::make_unique<ProgressPrinter>(in.json);
        const auto starting = [&](const ConsolidatedOutput &x) {
            progress.reset();  // ends the last one's line
            if (!x.checkpoint->adapter.isEmpty() && !in.json)
                err(ConsolidateCliText::tr("Adapter %1 -> %2").arg(x.checkpoint->adapter, x.options.output));
            progress = std::make_unique<ProgressPrinter>(in.json);
        };
        done = req.run([&progress](const ConsolidateProgress &pr) { progress->print(pr); }, &stopRequested(), starting);
    }
    nlohmann::json reports = nlohmann::json::array();
    int rc = Ok;
    if (done.outputs.isEmpty()) {  // refused before anything was written: the plan's problems, or the output's
        reports.push_back(jsonReport(*c, req.options, done.report));
        rc = reportOutcome(req.options, done.report, in.json);
    }
    for (const ConsolidatedOutput &x : std::as_const(done.outputs)) {
        reports.push_back(jsonReport(*x.checkpoint, x.options, x.report));
        rc = reportOutcome(x.options, x.report, in.json);
    }
    // --merge-adapters: the default adapter (or the only one), just written, merged into the base model.
    if (!done.mergedOutput.isEmpty()) {
        ConsolidateOptions m = req.options;
        m.output = done.mergedOutput;
        if (!in.json)
            err(ConsolidateCliText::tr("Merged adapter %1 into %2 -> %3").arg(c->adapter, req.baseModel, m.output));
        reports.push_back(jsonReport(*c, m, done.merged));
        rc = reportOutcome(m, done.merged, in.json);
    }
    if (in.json)
        printJson(reports.size() == 1 ? reports.front() : reports);
    return rc;
}

// merge-adapter ADAPTER_DIR BASE_MODEL_DIR [OUTPUT_DIR]: a PEFT LoRA adapter merged into its base model, written as
// a consolidation is (staging folder, fsync, --verify).
static int mergeAdapterHere(const Invocation &in, const QString &adapterDir, const QString &baseDir, const QString &outputDir)
{
    std::optional<ConsolidateOptions> o = optionsFrom(in);
    if (!o)
        return Usage;
    o->output = outputDir.isEmpty() ? mergedModelFolder(QFileInfo(adapterDir).absoluteFilePath()) : outputDir;
    const ConsolidationPlan plan = planAdapterMerge(baseDir, adapterDir);
    ConsolidateReport rep;
    {
        StopOnSignals stopOnSignals;
        ProgressPrinter progress(in.json);
        rep = consolidate(plan, *o, [&progress](const ConsolidateProgress &pr) { progress.print(pr); }, &stopRequested());
    }
    if (in.json)
        printJson(jsonReport(plan.checkpoint, *o, rep));
    return reportOutcome(*o, rep, in.json);
}

// The sizes of reshard's options, false when one is not a whole number of at least 1 (the words said).
static bool reshardSizesFrom(const Invocation &in, ConsolidationRequest *req)
{
    bool ok = true;
    const auto positive = [&](const char *name, int fallback) {
        if (!in.isSet(QLatin1String(name)))
            return fallback;
        bool good = false;
        const int v = in.value(QLatin1String(name)).toInt(&good);
        if (!good || v < 1) {
            err(ConsolidateCliText::tr("error: --%1 takes a whole number of at least 1").arg(QLatin1String(name)));
            ok = false;
        }
        return v;
    };
    req->reshardTp = positive("tensor-parallel-size", 1);
    req->reshardPp = positive("pipeline-parallel-size", 1);
    req->reshardKvMultiplier = positive("kv-size-multiplier", 1);
    req->reshardWeightsOnly = in.isSet(QStringLiteral("weights-only"));
    req->reshardDisableVocabParallel = in.isSet(QStringLiteral("disable-embedding-parallelization"));
    req->options.overwrite = in.isSet(QStringLiteral("overwrite"));
    req->options.verify = in.isSet(QStringLiteral("verify"));
    return ok;
}

// reshard CHECKPOINT OUTPUT_DIR --tensor-parallel-size T --pipeline-parallel-size P: the checkpoint (or a model
// folder) written for another layout of the bundled backend, as a consolidation is (staging folder, fsync, --verify).
static int reshardHere(const Invocation &in, const QString &source, const QString &outputDir)
{
    ConsolidationRequest req;
    req.mode = ConsolidationRequest::Mode::Reshard;
    req.options.output = outputDir;
    if (!reshardSizesFrom(in, &req))
        return Usage;
    if (const int rc = findAndChoose(in, source, &req); rc != Ok)
        return rc;
    if (!in.json && req.checkpoint())
        printChoice(req.found(), req.checkpoint());
    req.plan();
    const ReshardPlan &plan = req.reshardPlan();
    if (!in.json) {
        err(ConsolidateCliText::tr("Re-sharding to tp=%1 pp=%2").arg(req.reshardTp).arg(req.reshardPp));
        for (const QString &n : std::as_const(plan.notes))
            err(ConsolidateCliText::tr("note: %1").arg(n));
    }
    ConsolidationResult done;
    {
        StopOnSignals stopOnSignals;
        ProgressPrinter progress(in.json);
        done = req.run([&progress](const ConsolidateProgress &pr) { progress.print(pr); }, &stopRequested());
    }
    const ConsolidateReport &rep = done.report;
    if (in.json) {
        nlohmann::json j = jsonReport(plan.source.checkpoint, req.options, rep);
        nlohmann::json notes = nlohmann::json::array();
        for (const QString &n : std::as_const(plan.notes))
            notes.push_back(u8(n));
        j["tensor_parallel_size"] = req.reshardTp;
        j["pipeline_parallel_size"] = req.reshardPp;
        j["optimizer_state"] = plan.optimizer;
        j["notes"] = notes;
        printJson(j);
    }
    if (rep.ok() && !in.json)
        err(ConsolidateCliText::tr("Resume the backend with --tensor_parallel_size %1 --pipeline_parallel_size %2%3 --resume_from_checkpoint %4 "
                                   "(and the same global batch)")
                .arg(req.reshardTp).arg(req.reshardPp)
                .arg(plan.vocabParallel ? QString() : QStringLiteral(" --disable_embedding_parallelization"), shellWord(outputDir)));
    return reportOutcome(ConsolidateOptions{req.options.output}, rep, in.json);
}

QVector<Command> consolidateCommands()
{
    return {{QString(), QStringLiteral("consolidate"),
             ConsolidateCliText::tr("CHECKPOINT_DIR [OUTPUT_DIR]   Sharded checkpoint -> safetensors"), JsonOption,
             [](QCommandLineParser &p) {
                 p.setApplicationDescription(ConsolidateCliText::tr("Consolidate a sharded (tensor/pipeline parallel) checkpoint into safetensors that transformers loads."));
                 p.addPositionalArgument(QStringLiteral("checkpoint_dir"), ConsolidateCliText::tr("The training output folder, a checkpoint-N folder, or the shards folder."));
                 p.addPositionalArgument(QStringLiteral("output_dir"), ConsolidateCliText::tr("Where to write (default: CHECKPOINT_DIR/consolidated)."), QStringLiteral("[OUTPUT_DIR]"));
                 addConsolidateOptions(p);
             },
             [](const Invocation &in) {
                 const QStringList pos = in.positional();
                 if (pos.isEmpty() || pos.size() > 2) {
                     err(ConsolidateCliText::tr("error: usage: ingot-cli consolidate CHECKPOINT_DIR [OUTPUT_DIR]"));
                     return int(Usage);
                 }
                 return consolidateHere(in, pos.at(0), pos.value(1));
             }},
            {QString(), QStringLiteral("merge-adapter"),
             ConsolidateCliText::tr("ADAPTER_DIR BASE_MODEL_DIR [OUTPUT_DIR]   LoRA adapter merged into its base model"), JsonOption,
             [](QCommandLineParser &p) {
                 p.setApplicationDescription(ConsolidateCliText::tr("Merge a PEFT LoRA adapter (adapter_model.safetensors, adapter_config.json) into its "
                                                                    "base model (a Hugging Face safetensors folder): W + lora_alpha/r · B·A."));
                 p.addPositionalArgument(QStringLiteral("adapter_dir"), ConsolidateCliText::tr("The adapter folder (as consolidate writes it)."));
                 p.addPositionalArgument(QStringLiteral("base_model_dir"), ConsolidateCliText::tr("The base model's folder."));
                 p.addPositionalArgument(QStringLiteral("output_dir"), ConsolidateCliText::tr("Where to write (default: ADAPTER_DIR/merged)."), QStringLiteral("[OUTPUT_DIR]"));
                 addConsolidateOptions(p);
             },
             [](const Invocation &in) {
                 const QStringList pos = in.positional();
                 if (pos.size() < 2 || pos.size() > 3) {
                     err(ConsolidateCliText::tr("error: usage: ingot-cli merge-adapter ADAPTER_DIR BASE_MODEL_DIR [OUTPUT_DIR]"));
                     return int(Usage);
                 }
                 return mergeAdapterHere(in, pos.at(0), pos.at(1), pos.value(2));
             }},
            {QString(), QStringLiteral("reshard"),
             ConsolidateCliText::tr("CHECKPOINT OUTPUT_DIR --tensor-parallel-size T --pipeline-parallel-size P   Checkpoint for another layout"),
             JsonOption,
             [](QCommandLineParser &p) {
                 p.setApplicationDescription(ConsolidateCliText::tr("Write a sharded checkpoint (or a Hugging Face model folder) as the checkpoint of "
                                                                    "another tensor/pipeline-parallel layout, which the bundled training backend "
                                                                    "resumes from with --resume_from_checkpoint. The backend's optimizer state is "
                                                                    "carried over."));
                 p.addPositionalArgument(QStringLiteral("checkpoint"), ConsolidateCliText::tr("The training output folder, a checkpoint-N folder, the shards folder, or a model folder."));
                 p.addPositionalArgument(QStringLiteral("output_dir"), ConsolidateCliText::tr("Where to write the new checkpoint."));
                 p.addOption({QStringLiteral("tensor-parallel-size"), ConsolidateCliText::tr("The new tensor parallel size (default 1)."), QStringLiteral("T")});
                 p.addOption({QStringLiteral("pipeline-parallel-size"), ConsolidateCliText::tr("The new pipeline parallel size (default 1)."), QStringLiteral("P")});
                 p.addOption({QStringLiteral("kv-size-multiplier"), ConsolidateCliText::tr("Key/value head replication (the bundled backend takes 1)."), QStringLiteral("K")});
                 p.addOption({QStringLiteral("disable-embedding-parallelization"), ConsolidateCliText::tr("Keep embed_tokens and lm_head whole on every tp rank.")});
                 p.addOption({QStringLiteral("weights-only"), ConsolidateCliText::tr("Leave the optimizer state out (the resumed run starts AdamW afresh).")});
                 p.addOption({QStringLiteral("checkpoint"), ConsolidateCliText::tr("Which checkpoint when there are several (final, or checkpoint-N); default: the newest complete one."), QStringLiteral("NAME")});
                 p.addOption({QStringLiteral("verify"), ConsolidateCliText::tr("Read the new shards back and check them against the source.")});
                 p.addOption({QStringLiteral("overwrite"), ConsolidateCliText::tr("Replace an existing output folder.")});
             },
             [](const Invocation &in) {
                 const QStringList pos = in.positional();
                 if (pos.size() != 2) {
                     err(ConsolidateCliText::tr("error: usage: ingot-cli reshard CHECKPOINT OUTPUT_DIR --tensor-parallel-size T --pipeline-parallel-size P"));
                     return int(Usage);
                 }
                 return reshardHere(in, pos.at(0), pos.at(1));
             }}};
}

}  // namespace ingot::cli
