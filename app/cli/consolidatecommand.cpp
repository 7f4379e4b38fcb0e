#include "app/cli/consolidatecommand.h"

#include "app/cli/clicommon.h"
#include "services/checkpoint/consolidate.h"
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

// What the command line asks for.
struct ConsolidateRequest {
    QString checkpointDir;
    std::optional<QString> checkpointName;  // --checkpoint; none: the newest complete one
    ConsolidateOptions options;
    bool outputGiven = false;
    bool asJson = false;
};

}  // namespace

void addConsolidateOptions(QCommandLineParser &p)
{
    p.addOption({{QStringLiteral("f"), QStringLiteral("format")}, ConsolidateCliText::tr("safetensors (default) or pytorch."), QStringLiteral("FORMAT"), QStringLiteral("safetensors")});
    p.addOption({QStringLiteral("max-shard-size"), ConsolidateCliText::tr("Split the output above this size (default 5GB)."), QStringLiteral("SIZE"), QStringLiteral("5GB")});
    p.addOption({QStringLiteral("verify"), ConsolidateCliText::tr("Read the output back and check every tensor against its sources.")});
    p.addOption({QStringLiteral("overwrite"), ConsolidateCliText::tr("Replace an existing output folder.")});
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
    for (const char *name : {"verify", "overwrite", "check-replicas", "merge-adapters"})
        if (in.isSet(QLatin1String(name)))
            args << QStringLiteral("--") + QLatin1String(name);
    if (in.json)
        args << QStringLiteral("--json");
    return args;
}

namespace {

// The request for CHECKPOINT_DIR [OUTPUT_DIR] with the options of `in`, or nothing (a usage error reported).
std::optional<ConsolidateRequest> requestFrom(const Invocation &in, const QString &checkpointDir, const QString &outputDir)
{
    const QString format = in.value(QStringLiteral("format"));
    if (format != QLatin1String("safetensors") && format != QLatin1String("pytorch")) {
        err(ConsolidateCliText::tr("error: unknown format \"%1\" (safetensors or pytorch)").arg(format));
        return std::nullopt;
    }
    ConsolidateRequest r;
    ConsolidateOptions &o = r.options;
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
    o.output = outputDir.isEmpty() ? checkpointDir + QStringLiteral("/consolidated") : outputDir;
    r.outputGiven = !outputDir.isEmpty();
    r.checkpointDir = checkpointDir;
    if (in.isSet(QStringLiteral("checkpoint")))
        r.checkpointName = in.value(QStringLiteral("checkpoint"));
    r.asJson = in.json;
    return r;
}

// The checkpoint named on the command line, else the newest complete one, else the newest.
const CheckpointCandidate *chooseCheckpoint(const QVector<CheckpointCandidate> &found, const std::optional<QString> &name)
{
    if (name) {
        const CheckpointCandidate *c = nullptr;
        for (const auto &x : found)
            if (x.label == *name)
                c = &x;
        if (!c)
            err(ConsolidateCliText::tr("error: no checkpoint named %1").arg(*name));
        return c;
    }
    const CheckpointCandidate *c = pickDefault(found);
    return c ? c : &found.first();
}

void printChoice(const QVector<CheckpointCandidate> &found, const CheckpointCandidate *c)
{
    err(ConsolidateCliText::tr("Checkpoint %1 in %2: %3, tp=%4 pp=%5, %6").arg(c->label, c->root, layoutName(c->layout))
            .arg(c->tpSize).arg(c->ppSize).arg(formatBytes(c->bytes)));
    if (found.size() > 1)
        for (const auto &x : found)
            err((x.complete ? QStringLiteral("  %1 %2") : ConsolidateCliText::tr("  %1 %2 (incomplete)"))
                    .arg(&x == c ? QStringLiteral("*") : QStringLiteral(" "), checkpointTitle(x)));
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
            {"verified", rep.verified}, {"problems", problems}, {"cancelled", rep.cancelled}, {"warnings", warnings},
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
        err(ConsolidateCliText::tr("Nothing was written; the checkpoint has problems:"));
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
    const std::optional<ConsolidateRequest> r = requestFrom(in, checkpointDir, outputDir);
    if (!r)
        return Usage;
    QString error;
    const QVector<CheckpointCandidate> found = findCheckpoints(r->checkpointDir, &error);
    if (found.isEmpty()) {
        err(ConsolidateCliText::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    const CheckpointCandidate *c = chooseCheckpoint(found, r->checkpointName);
    if (!c)
        return Usage;
    if (in.isSet(QStringLiteral("merge-adapters")) && (!in.isSet(QStringLiteral("base-model")) || c->adapter.isEmpty())) {
        err(c->adapter.isEmpty() ? ConsolidateCliText::tr("error: --merge-adapters: this checkpoint holds a model, not LoRA adapters")
                                 : ConsolidateCliText::tr("error: --merge-adapters needs --base-model DIR (the base model's folder)"));
        return Usage;
    }
    ConsolidateOptions options = r->options;
    // The default output goes beside the shards, never inside them (when CHECKPOINT_DIR is the shards folder).
    const QString defaultBase = QFileInfo(r->checkpointDir).absoluteFilePath();
    if (!r->outputGiven && (defaultBase == c->shardsDir || defaultBase.startsWith(c->shardsDir + QLatin1Char('/'))))
        options.output = c->root + QStringLiteral("/consolidated");
    if (!r->asJson)
        printChoice(found, c);
    // A checkpoint of LoRA adapters (and no model): each adapter in turn, the default one at the output folder and
    // the others in a folder of their name below it, as optimum-neuron writes them. One JSON object per adapter.
    QVector<ConsolidatedOutput> done;
    {
        StopOnSignals stopOnSignals;
        std::unique_ptr<ProgressPrinter> progress;
        const auto starting = [&](const ConsolidatedOutput &x) {
            progress.reset();  // ends the last one's line
            if (!x.checkpoint->adapter.isEmpty() && !r->asJson)
                err(ConsolidateCliText::tr("Adapter %1 -> %2").arg(x.checkpoint->adapter, x.options.output));
            progress = std::make_unique<ProgressPrinter>(r->asJson);
        };
        done = consolidateCheckpoint(found, c, options, starting, [&progress](const ConsolidateProgress &pr) { progress->print(pr); },
                                     &stopRequested());
    }
    nlohmann::json reports = nlohmann::json::array();
    int rc = Ok;
    for (const ConsolidatedOutput &x : std::as_const(done)) {
        reports.push_back(jsonReport(*x.checkpoint, x.options, x.report));
        rc = reportOutcome(x.options, x.report, r->asJson);
    }
    // --merge-adapters: the default adapter (or the only one), just written, merged into the base model.
    if (rc == Ok && in.isSet(QStringLiteral("merge-adapters")) && !done.isEmpty() && !done.first().checkpoint->adapter.isEmpty()) {
        ConsolidateOptions m = options;
        m.output = mergedModelFolder(options.output);
        if (!r->asJson)
            err(ConsolidateCliText::tr("Merging adapter %1 into %2 -> %3").arg(done.first().checkpoint->adapter, in.value(QStringLiteral("base-model")), m.output));
        const ConsolidationPlan plan = planAdapterMerge(in.value(QStringLiteral("base-model")), done.first().options.output);
        ConsolidateReport rep;
        {
            StopOnSignals stopOnSignals;
            ProgressPrinter progress(r->asJson);
            rep = consolidate(plan, m, [&progress](const ConsolidateProgress &pr) { progress.print(pr); }, &stopRequested());
        }
        reports.push_back(jsonReport(plan.checkpoint, m, rep));
        rc = reportOutcome(m, rep, r->asJson);
    }
    if (r->asJson)
        printJson(reports.size() == 1 ? reports.front() : reports);
    return rc;
}

// merge-adapter ADAPTER_DIR BASE_MODEL_DIR [OUTPUT_DIR]: a PEFT LoRA adapter merged into its base model, written as
// a consolidation is (staging folder, fsync, --verify).
static int mergeAdapterHere(const Invocation &in, const QString &adapterDir, const QString &baseDir, const QString &outputDir)
{
    std::optional<ConsolidateRequest> r = requestFrom(in, adapterDir, outputDir);
    if (!r)
        return Usage;
    if (!r->outputGiven)
        r->options.output = mergedModelFolder(QFileInfo(adapterDir).absoluteFilePath());
    const ConsolidationPlan plan = planAdapterMerge(baseDir, adapterDir);
    ConsolidateReport rep;
    {
        StopOnSignals stopOnSignals;
        ProgressPrinter progress(r->asJson);
        rep = consolidate(plan, r->options, [&progress](const ConsolidateProgress &pr) { progress.print(pr); }, &stopRequested());
    }
    if (r->asJson)
        printJson(jsonReport(plan.checkpoint, r->options, rep));
    return reportOutcome(r->options, rep, r->asJson);
}

// reshard CHECKPOINT OUTPUT_DIR --tensor-parallel-size T --pipeline-parallel-size P: the checkpoint (or a model
// folder) written for another layout of the bundled backend, as a consolidation is (staging folder, fsync, --verify).
static int reshardHere(const Invocation &in, const QString &source, const QString &outputDir)
{
    ReshardOptions o;
    o.output = outputDir;
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
    o.tpSize = positive("tensor-parallel-size", 1);
    o.ppSize = positive("pipeline-parallel-size", 1);
    o.kvMultiplier = positive("kv-size-multiplier", 1);
    if (!ok)
        return Usage;
    o.weightsOnly = in.isSet(QStringLiteral("weights-only"));
    o.disableVocabParallel = in.isSet(QStringLiteral("disable-embedding-parallelization"));
    o.overwrite = in.isSet(QStringLiteral("overwrite"));
    o.verify = in.isSet(QStringLiteral("verify"));
    ReshardPlan plan;
    if (isModelFolder(source)) {
        plan = planReshardFromModel(source, o);
    } else {
        QString error;
        const QVector<CheckpointCandidate> found = findCheckpoints(source, &error);
        if (found.isEmpty()) {
            err(ConsolidateCliText::tr("error: %1").arg(error));
            return CacheUnavailable;
        }
        std::optional<QString> name;
        if (in.isSet(QStringLiteral("checkpoint")))
            name = in.value(QStringLiteral("checkpoint"));
        const CheckpointCandidate *c = chooseCheckpoint(found, name);
        if (!c)
            return Usage;
        if (!in.json)
            printChoice(found, c);
        plan = planReshard(*c, o);
    }
    if (!in.json) {
        err(ConsolidateCliText::tr("Re-sharding to tp=%1 pp=%2").arg(o.tpSize).arg(o.ppSize));
        for (const QString &n : std::as_const(plan.notes))
            err(ConsolidateCliText::tr("note: %1").arg(n));
    }
    ConsolidateReport rep;
    {
        StopOnSignals stopOnSignals;
        ProgressPrinter progress(in.json);
        rep = reshard(plan, o, [&progress](const ConsolidateProgress &pr) { progress.print(pr); }, &stopRequested());
    }
    if (in.json) {
        nlohmann::json j = jsonReport(plan.source.checkpoint, ConsolidateOptions{o.output}, rep);
        nlohmann::json notes = nlohmann::json::array();
        for (const QString &n : std::as_const(plan.notes))
            notes.push_back(u8(n));
        j["tensor_parallel_size"] = o.tpSize;
        j["pipeline_parallel_size"] = o.ppSize;
        j["optimizer_state"] = plan.optimizer;
        j["notes"] = notes;
        printJson(j);
    }
    if (rep.ok() && !in.json)
        err(ConsolidateCliText::tr("Resume the backend with --tensor_parallel_size %1 --pipeline_parallel_size %2%3 --resume_from_checkpoint %4 "
                                   "(and the same global batch)")
                .arg(o.tpSize).arg(o.ppSize)
                .arg(plan.vocabParallel ? QString() : QStringLiteral(" --disable_embedding_parallelization"), shellWord(o.output)));
    return reportOutcome(ConsolidateOptions{o.output}, rep, in.json);
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
