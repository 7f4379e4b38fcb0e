#include "app/cli/consolidatecommand.h"

#include "app/cli/clicommon.h"
#include "services/checkpoint/consolidate.h"
#include "services/util/units.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

namespace ingot::cli {

namespace {
struct ConsolidateCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};
using T = ConsolidateCliText;
}  // namespace

int runConsolidate(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(T::tr("Consolidate a sharded (tensor/pipeline parallel) checkpoint into safetensors that transformers loads."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("checkpoint_dir"), T::tr("The training output folder, a checkpoint-N folder, or the shards folder."));
    p.addPositionalArgument(QStringLiteral("output_dir"), T::tr("Where to write (default: CHECKPOINT_DIR/consolidated)."), QStringLiteral("[OUTPUT_DIR]"));
    p.addOption({{QStringLiteral("f"), QStringLiteral("format")}, T::tr("safetensors (default) or pytorch."), QStringLiteral("FORMAT"), QStringLiteral("safetensors")});
    p.addOption({QStringLiteral("max-shard-size"), T::tr("Split the output above this size (default 5GB)."), QStringLiteral("SIZE"), QStringLiteral("5GB")});
    p.addOption({QStringLiteral("verify"), T::tr("Read the output back and check every tensor against its sources.")});
    p.addOption({QStringLiteral("overwrite"), T::tr("Replace an existing output folder.")});
    p.addOption({QStringLiteral("check-replicas"), T::tr("Check that replicated parameters are equal on every tp rank.")});
    p.addOption({QStringLiteral("checkpoint"), T::tr("Which checkpoint when there are several (final, or checkpoint-N); default: the newest complete one."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("json"), T::tr("Print the result as JSON.")});
    if (!p.parse(QStringList{QStringLiteral("ingot-cli consolidate")} + args)) {
        err(T::tr("error: %1").arg(p.errorText()));
        return Usage;
    }
    if (p.isSet(QStringLiteral("help"))) {
        out(p.helpText());
        return Ok;
    }
    const QStringList pos = p.positionalArguments();
    if (pos.isEmpty() || pos.size() > 2) {
        err(T::tr("error: usage: ingot-cli consolidate CHECKPOINT_DIR [OUTPUT_DIR]"));
        return Usage;
    }
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("safetensors") && format != QLatin1String("pytorch")) {
        err(T::tr("error: unknown format \"%1\" (safetensors or pytorch)").arg(format));
        return Usage;
    }
    ConsolidateOptions o;
    o.maxShardBytes = parseBytes(p.value(QStringLiteral("max-shard-size")));
    if (o.maxShardBytes <= 0) {
        err(T::tr("error: --max-shard-size takes a size such as 5GB or 500MB"));
        return Usage;
    }
    o.format = format == QLatin1String("pytorch") ? ConsolidateOptions::Format::PyTorch : ConsolidateOptions::Format::Safetensors;
    o.verify = p.isSet(QStringLiteral("verify"));
    o.overwrite = p.isSet(QStringLiteral("overwrite"));
    o.checkReplicas = p.isSet(QStringLiteral("check-replicas"));
    o.output = pos.size() == 2 ? pos[1] : pos[0] + QStringLiteral("/consolidated");
    const bool asJson = p.isSet(QStringLiteral("json"));

    QString error;
    const QVector<CheckpointCandidate> found = findCheckpoints(pos[0], &error);
    if (found.isEmpty()) {
        err(T::tr("error: %1").arg(error));
        return CacheUnavailable;
    }
    const CheckpointCandidate *c = nullptr;
    if (p.isSet(QStringLiteral("checkpoint"))) {
        for (const auto &x : found)
            if (x.label == p.value(QStringLiteral("checkpoint")))
                c = &x;
        if (!c) {
            err(T::tr("error: no checkpoint named %1").arg(p.value(QStringLiteral("checkpoint"))));
            return Usage;
        }
    } else {
        c = pickDefault(found);
        if (!c)
            c = &found.first();
    }
    if (!asJson) {
        err(T::tr("Checkpoint %1 in %2: %3, tp=%4 pp=%5, %6").arg(c->label, c->root, layoutName(c->layout))
                .arg(c->tpSize).arg(c->ppSize).arg(formatBytes(c->bytes)));
        if (found.size() > 1)
            for (const auto &x : found)
                err(QStringLiteral("  %1 %2%3").arg(&x == c ? QStringLiteral("*") : QStringLiteral(" "), x.label,
                                                    x.complete ? QString() : T::tr(" (incomplete)")));
    }
    QElapsedTimer t;
    t.start();
    const bool tty = stdinIsTerminal();
    qint64 lastLine = -1000;
    const ConsolidationPlan plan = planConsolidation(*c);
    const ConsolidateReport rep = consolidate(plan, o, [&](const ConsolidateProgress &pr) {
        // A line a second at most when stderr is a log, not a terminal.
        if (asJson || (!tty && pr.tensorsDone != pr.tensorsTotal && t.elapsed() - lastLine < 1000))
            return;
        lastLine = t.elapsed();
        const double secs = double(t.elapsed()) / 1000.0;
        const double rate = secs > 0 ? double(pr.bytesDone) / secs : 0;
        const double eta = rate > 0 ? double(pr.bytesTotal - pr.bytesDone) / rate : 0;
        const QString line = T::tr("[%1/%2] %3 of %4, ETA %5 s  %6").arg(pr.tensorsDone).arg(pr.tensorsTotal)
                                 .arg(formatBytes(pr.bytesDone), formatBytes(pr.bytesTotal)).arg(int(eta)).arg(pr.current);
        std::fprintf(stderr, tty ? "\r%s\033[K" : "%s\n", line.toUtf8().constData());
    });
    if (tty && !asJson)
        std::fprintf(stderr, "\n");
    if (asJson) {
        nlohmann::json files = nlohmann::json::array(), problems = nlohmann::json::array();
        for (const QString &f : rep.files)
            files.push_back(u8(f));
        for (const QString &pr : rep.problems + rep.verifyProblems)
            problems.push_back(u8(pr));
        printJson({{"checkpoint", u8(c->label)}, {"layout", u8(layoutName(c->layout))}, {"tp", c->tpSize}, {"pp", c->ppSize},
                   {"output", u8(o.output)}, {"files", files}, {"tensors", rep.tensors}, {"bytes", rep.bytes},
                   {"verified", rep.verified}, {"problems", problems},
                   {"error", rep.error.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(u8(rep.error))}});
    }
    if (!rep.problems.isEmpty()) {
        err(T::tr("Nothing was written; the checkpoint has problems:"));
        for (const QString &pr : rep.problems)
            err(QStringLiteral("  - ") + pr);
        return PartialFailure;
    }
    if (!rep.error.isEmpty() || !rep.verifyProblems.isEmpty()) {
        err(T::tr("error: %1").arg(rep.error.isEmpty() ? rep.verifyProblems.join(QStringLiteral("; ")) : rep.error));
        err(T::tr("Nothing was left behind in %1.").arg(o.output));
        return PartialFailure;
    }
    if (!asJson)
        out(T::tr("Wrote %1 tensors (%2) to %3: %4%5").arg(rep.tensors).arg(formatBytes(rep.bytes), o.output,
                                                          rep.files.join(QStringLiteral(", ")),
                                                          o.verify ? T::tr(" — verified against the shards") : QString()));
    return Ok;
}

}  // namespace ingot::cli
