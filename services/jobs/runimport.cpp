#include "services/jobs/runimport.h"

#include "services/jobs/jobfolder.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/tfevents.h"
#include "services/jobs/trainerlog.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>

#include <cmath>
#include <functional>

namespace ingot {

namespace {

struct RunImportText {
    Q_DECLARE_TR_FUNCTIONS(ingot::RunImport)
};

constexpr qint64 chunkBytes = 4 << 20;
constexpr qint64 maxTrainerStateBytes = 256 << 20;
// Files two folders deep: runs/<date>/events…, tb/<time>/events…, checkpoint/step-N/.metadata, logs/<a>/<b>.log. Not
// deeper: a checkpoint's shards are never walked (the runner's listing stops at 100,000 files besides).
constexpr int listDepth = 2;

// Feeds a file's bytes (at most runImportMaxFileBytes) to `fn` chunk by chunk; false with a note when it cannot be read.
bool forEachChunk(JobRunner &runner, const QString &folder, const QString &rel, RunFolder *run,
                  const std::function<void(const QByteArray &)> &fn)
{
    for (qint64 offset = 0; offset < runImportMaxFileBytes;) {
        const FileChunk c = runner.readFile(folder + QLatin1Char('/') + rel, offset, chunkBytes);
        if (!c.exists || !c.error.isEmpty()) {
            run->notes << RunImportText::tr("%1 could not be read: %2")
                              .arg(displayName(rel), c.exists ? c.error : RunImportText::tr("it is gone"));
            return false;
        }
        if (c.data.isEmpty())
            return true;
        fn(c.data);
        offset += c.data.size();
    }
    run->notes << RunImportText::tr("%1 is over %2 bytes: only its start was read.").arg(displayName(rel)).arg(runImportMaxFileBytes);
    return true;
}

qint64 stepOf(const QString &name, const QRegularExpression &re)
{
    const QRegularExpressionMatch m = re.match(name);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

// checkpoint-N folders with files in them (Trainer), checkpoint/step-N with a .metadata (TorchTitan's DCP), by step.
QStringList findCheckpoints(const QString &folder, const QStringList &files, bool *dcp)
{
    static const QRegularExpression trainer(QStringLiteral("^checkpoint-(\\d{1,15})/[^/]+"));
    static const QRegularExpression titan(QStringLiteral("^checkpoint/step-(\\d{1,15})/\\.metadata$"));
    QMap<qint64, QString> trainerSteps, titanSteps;
    for (const QString &f : files) {
        if (const qint64 n = stepOf(f, trainer); n >= 0)
            trainerSteps.insert(n, folder + QStringLiteral("/checkpoint-") + QString::number(n));
        if (const qint64 n = stepOf(f, titan); n >= 0)
            titanSteps.insert(n, folder + QStringLiteral("/checkpoint/step-") + QString::number(n));
    }
    *dcp = trainerSteps.isEmpty() && !titanSteps.isEmpty();
    return *dcp ? titanSteps.values() : trainerSteps.values();
}

// Points of several files merged by step (the later file's point wins), thinned evenly to runImportMaxPoints.
QVector<MetricPoint> byStep(const QVector<MetricPoint> &points)
{
    QMap<qint64, MetricPoint> m;
    for (const MetricPoint &p : points)
        m.insert(p.step, p);
    QVector<MetricPoint> out = m.values().toVector();
    int stride = 1;
    while (out.size() / stride > runImportMaxPoints)
        stride *= 2;
    if (stride == 1)
        return out;
    QVector<MetricPoint> thinned;
    for (qsizetype i = 0; i < out.size(); i += stride)
        thinned << out.at(i);
    if (thinned.last().step != out.last().step)
        thinned << out.last();  // the last step stays: where the run is
    return thinned;
}

bool readTrainerState(JobRunner &runner, const QString &folder, const QStringList &files, RunFolder *run)
{
    QString rel;
    // Asked directly, not looked up in the listing (which may have stopped before it in a folder of many files).
    const PathInfo top = runner.pathInfo(folder + QStringLiteral("/trainer_state.json"));
    if (top.isLink)  // never followed: said
        run->notes << RunImportText::tr("%1 could not be read: %2")
                          .arg(QStringLiteral("trainer_state.json"), RunImportText::tr("it is a link, not followed"));
    if (top.exists && !top.isLink) {
        rel = QStringLiteral("trainer_state.json");
    } else {  // a run still going: its newest checkpoint's state
        static const QRegularExpression re(QStringLiteral("^checkpoint-(\\d{1,15})/trainer_state\\.json$"));
        qint64 best = -1;
        for (const QString &f : files)
            if (const qint64 n = stepOf(f, re); n > best) {
                best = n;
                rel = f;
            }
    }
    if (rel.isEmpty())
        return false;
    const FileChunk c = runner.readFile(folder + QLatin1Char('/') + rel, 0, maxTrainerStateBytes + 1);
    QString why = c.exists ? c.error : RunImportText::tr("it is gone");
    std::optional<TrainerState> state;
    if (why.isEmpty() && !(state = parseTrainerState(c.data, &why)))
        why = why.isEmpty() ? RunImportText::tr("not a trainer state") : why;
    if (!state) {
        run->notes << RunImportText::tr("%1 could not be read: %2").arg(displayName(rel), why);
        return false;
    }
    run->kind = RunFolderKind::Trainer;
    run->points = byStep(state->points);
    run->maxSteps = state->maxSteps;
    run->sources << rel;
    if (state->skippedEntries > 0)
        run->notes << RunImportText::tr("%1: %n log_history entries without a step were skipped.", nullptr,
                                        state->skippedEntries).arg(displayName(rel));
    return true;
}

bool isLogName(const QString &rel)
{
    static const QRegularExpression re(QStringLiteral("\\.(log|txt|out|err)$"));
    return re.match(rel).hasMatch() && !rel.startsWith(QLatin1String("checkpoint"));
}

// Console logs through the Trainer's parser (which reads TorchTitan's step lines too).
bool readLogs(JobRunner &runner, const QString &folder, const QStringList &files, RunFolder *run, bool *titan)
{
    QVector<MetricPoint> points;
    for (const QString &rel : files) {
        if (!isLogName(rel))
            continue;
        TrainerLogParser parser;
        bool titanLines = false;
        forEachChunk(runner, folder, rel, run, [&](const QByteArray &bytes) {
            titanLines = titanLines || bytes.contains("[titan]");
            parser.feed(bytes);
        });
        parser.finish();
        const QVector<MetricPoint> read = parser.takeMetrics();
        if (read.isEmpty())
            continue;
        *titan = *titan || titanLines;
        points += read;
        run->sources << rel;
        if (parser.total() > run->maxSteps)
            run->maxSteps = parser.total();
        if (parser.droppedLines() > 0)
            run->notes << RunImportText::tr("%1: %n over-long line(s) skipped.", nullptr, int(std::min<qint64>(parser.droppedLines(), 1 << 30)))
                              .arg(displayName(rel));
    }
    run->points = byStep(points);
    return !run->points.isEmpty();
}

}  // namespace

QString runFolderKindName(RunFolderKind kind)
{
    switch (kind) {
    case RunFolderKind::Trainer: return QStringLiteral("trainer");
    case RunFolderKind::TorchTitan: return QStringLiteral("torchtitan");
    case RunFolderKind::Logs: return QStringLiteral("logs");
    case RunFolderKind::TensorBoard: return QStringLiteral("tensorboard");
    }
    return {};
}

QString runFolderKindTitle(RunFolderKind kind)
{
    switch (kind) {
    case RunFolderKind::Trainer: return RunImportText::tr("Hugging Face / NeuronTrainer output");
    case RunFolderKind::TorchTitan: return RunImportText::tr("TorchTitan output");
    case RunFolderKind::Logs: return RunImportText::tr("Training logs");
    case RunFolderKind::TensorBoard: return RunImportText::tr("TensorBoard event files");
    }
    return {};
}

namespace {

// Which quantity a scalar's tag is: HF's TensorBoardCallback writes train/loss, train/learning_rate, train/grad_norm,
// train/epoch; TorchTitan's TensorBoard logger (torchtitan/components/metrics.py) loss_metrics/global_avg_loss (not
// global_max_loss), grad_norm, throughput(tps), lr; people write Loss/train, lr.
// An evaluation's tags (eval/…, val…, test…) are not the training's.
enum class TagKind { None, Loss, LearningRate, GradNorm, Throughput, Epoch };
TagKind tagKind(const QByteArray &tag)
{
    const QList<QByteArray> parts = tag.toLower().split('/');
    for (const QByteArray &p : parts)
        if (p.startsWith("eval") || p.startsWith("val") || p.startsWith("test"))
            return TagKind::None;
    for (const QByteArray &p : parts) {
        if (p == "loss" || p == "train_loss" || p == "global_avg_loss")
            return TagKind::Loss;
        if (p == "learning_rate" || p == "lr")
            return TagKind::LearningRate;
        if (p == "grad_norm" || p == "gradient_norm")
            return TagKind::GradNorm;
        if (p == "tps" || p == "throughput(tps)" || p == "tokens_per_second")
            return TagKind::Throughput;
        if (p == "epoch")
            return TagKind::Epoch;
    }
    return TagKind::None;
}

bool readEventFiles(JobRunner &runner, const QString &folder, const QStringList &files, RunFolder *run)
{
    QMap<qint64, MetricPoint> byStepMap;
    for (const QString &rel : files) {
        if (!QFileInfo(rel).fileName().startsWith(QLatin1String("events.out.tfevents.")))
            continue;
        TfEventReader reader;
        forEachChunk(runner, folder, rel, run, [&](const QByteArray &bytes) { reader.feed(bytes); });
        reader.finish();
        if (!reader.error().isEmpty())
            run->notes << displayName(rel) + QStringLiteral(": ") + reader.error();
        if (reader.badRecords() > 0)
            run->notes << RunImportText::tr("%1: %n record(s) with a wrong CRC or not an event were skipped.", nullptr,
                                            int(std::min<qint64>(reader.badRecords(), 1 << 30))).arg(displayName(rel));
        if (reader.skippedLarge() > 0)
            run->notes << RunImportText::tr("%1: %n record(s) over %2 bytes were skipped.", nullptr,
                                            int(std::min<qint64>(reader.skippedLarge(), 1 << 30)))
                              .arg(displayName(rel)).arg(TfEventReader::maxRecordBytes);
        bool used = false;
        for (auto it = reader.scalars().cbegin(); it != reader.scalars().cend(); ++it) {
            const TagKind kind = tagKind(it.key());
            if (kind == TagKind::None)
                continue;
            used = true;
            for (const TfScalar &s : it->points) {
                auto at = byStepMap.find(s.step);
                if (at == byStepMap.end()) {
                    if (byStepMap.size() >= 4 * runImportMaxPoints)
                        continue;  // bounded: the reader's thinning keeps each tag's points well below this
                    at = byStepMap.insert(s.step, MetricPoint{});
                    at->step = s.step;
                }
                at->time = s.wallTime > 0 ? s.wallTime : at->time;
                switch (kind) {
                case TagKind::Loss: at->loss = s.value; break;
                case TagKind::LearningRate: at->learningRate = s.value; break;
                case TagKind::GradNorm: at->gradNorm = s.value; break;
                case TagKind::Throughput: at->tokensPerSecond = s.value; break;
                case TagKind::Epoch: at->epoch = s.value; break;
                case TagKind::None: break;
                }
            }
        }
        if (reader.firstWallTime() > 0 && (run->startedAt <= 0 || reader.firstWallTime() < run->startedAt))
            run->startedAt = reader.firstWallTime();
        if (used)
            run->sources << rel;
    }
    run->points = byStep(byStepMap.values().toVector());
    if (!run->points.isEmpty())
        run->kind = RunFolderKind::TensorBoard;
    return !run->points.isEmpty();
}

}  // namespace

std::optional<RunFolder> readRunFolder(JobRunner &runner, const QString &folderIn, QString *error)
{
    RunFolder run;
    run.folder = QDir::cleanPath(QFileInfo(folderIn).absoluteFilePath());
    const PathInfo info = runner.pathInfo(run.folder);
    if (!info.exists || !info.isDir) {
        *error = info.error.isEmpty() ? RunImportText::tr("%1 is not a folder.").arg(displayName(run.folder)) : info.error;
        return std::nullopt;
    }
    const QStringList files = runner.listFiles(run.folder, listDepth);
    bool dcp = false;
    run.checkpoints = findCheckpoints(run.folder, files, &dcp);
    bool titan = false;
    const bool trainer = readTrainerState(runner, run.folder, files, &run);  // first: the Trainer's own record
    if (!trainer && readLogs(runner, run.folder, files, &run, &titan)) {
        run.kind = titan || dcp ? RunFolderKind::TorchTitan : RunFolderKind::Logs;
    } else if (!trainer && !readEventFiles(runner, run.folder, files, &run)) {
        if (!dcp && run.checkpoints.isEmpty()) {
            *error = RunImportText::tr("%1 holds no training run Ingot knows: no trainer_state.json, no training log "
                                       "lines, no TensorBoard scalars, no checkpoints.").arg(displayName(run.folder));
            if (!run.notes.isEmpty())
                *error += QLatin1Char(' ') + run.notes.join(QLatin1Char(' '));
            return std::nullopt;
        }
        run.kind = dcp ? RunFolderKind::TorchTitan : RunFolderKind::Trainer;  // checkpoints only: no curve
    }
    if (run.kind == RunFolderKind::TensorBoard && dcp)
        run.kind = RunFolderKind::TorchTitan;  // TorchTitan's tb/ folder and its checkpoints
    if (run.startedAt <= 0) {
        for (const MetricPoint &p : std::as_const(run.points))
            if (std::isfinite(p.time) && p.time > 0 && (run.startedAt <= 0 || p.time < run.startedAt))
                run.startedAt = p.time;
    }
    return run;
}

QByteArray metricLines(const QVector<MetricPoint> &points)
{
    QByteArray out;
    for (const MetricPoint &p : points) {
        QJsonObject o{{QStringLiteral("step"), double(p.step)}};
        const auto put = [&o](const char *key, double v) {
            if (std::isfinite(v))
                o.insert(QLatin1String(key), v);
        };
        put("time", p.time);
        put("loss", p.loss);
        put("learning_rate", p.learningRate);
        put("grad_norm", p.gradNorm);
        put("tokens_per_second", p.tokensPerSecond);
        put("step_time", p.stepTime);
        put("epoch", p.epoch);
        if (p.peakMemory >= 0)
            put("peak_memory", double(p.peakMemory));
        out += "INGOT_METRIC " + QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
    }
    return out;
}

namespace {

// The job of the history imported from `folder` ("" when none).
QString importedJobOf(JobRunner &runner, const QString &folder)
{
    const QStringList files = runner.listFiles(runner.jobsRoot(), 1);
    for (const QString &f : files) {
        const QString id = f.section(QLatin1Char('/'), 0, 0);
        if (!f.endsWith(QLatin1String("/job.json")) || !isJobId(id))
            continue;
        const FileChunk c = runner.readFile(runner.jobsRoot() + QLatin1Char('/') + f, 0, 4 << 20);
        JobRecordFile r;
        QString ignored;
        if (c.exists && c.error.isEmpty() && JobRecordFile::fromJson(c.data, &r, &ignored) && r.importedFrom == folder)
            return id;
    }
    return {};
}

JobRecordFile importedRecord(const RunFolder &run, const QString &id, qint64 createdMs, const QString &jobFolder)
{
    JobRecordFile r;
    r.id = id;
    r.where = QStringLiteral("local");
    r.createdMs = createdMs;
    r.outputDir = run.folder;  // where its checkpoints are looked for (the settings name none: Launch again writes elsewhere)
    r.cwd = jobFolder;  // Ingot's folder of the job, as for any job (the run's is imported_from)
    r.importedFrom = run.folder;
    r.spec.name = QFileInfo(run.folder).fileName();
    r.spec.maxSteps = run.maxSteps > 0 ? int(std::min<qint64>(run.maxSteps, 1 << 30)) : -1;
    if (run.kind == RunFolderKind::TorchTitan) {
        // As a TorchTitan job's settings say where its checkpoints are (torchtitanjob.h): {dump_folder}/checkpoint.
        r.spec.program = JobProgram::Module;
        r.spec.module = QStringLiteral("torchtitan.train");
        r.spec.extraArgs = QStringList{QStringLiteral("--job.dump_folder"), run.folder};
    } else {
        r.spec.program = JobProgram::Script;
    }
    return r;
}

}  // namespace

bool importRunFolder(const std::shared_ptr<JobRunner> &shared, const QString &folder, ImportedRun *out, QString *error)
{
    JobRunner &runner = *shared;
    const std::optional<RunFolder> run = readRunFolder(runner, folder, error);
    if (!run)
        return false;
    ImportedRun result;
    result.run = *run;
    result.id = importedJobOf(runner, run->folder);
    result.existed = !result.id.isEmpty();
    JobManager manager(shared);
    qint64 createdMs = run->startedAt > 0 ? qint64(run->startedAt * 1000) : QDateTime::currentMSecsSinceEpoch();
    if (result.existed) {
        JobRecordFile earlier;
        if (manager.load(result.id, &earlier, error))
            createdMs = earlier.createdMs;  // the id and its time stay
    } else {
        result.id = newJobId();
    }
    const JobPaths paths = manager.paths(result.id);
    const JobRecordFile record = importedRecord(*run, result.id, createdMs, paths.root);
    const QString rankDir = paths.logsDir() + QStringLiteral("/imported/attempt_0/0");
    // What Ingot records of a job that has ended: its launchers as ended ones (start time 0: never taken for a live
    // process), exit status 0; rank 0's stdout holds the points.
    const QByteArray pids = endedProcessStat(1) + '\n' + endedProcessStat(1) + '\n' + runner.bootId().toLatin1() + '\n';
    // job.json last: the history lists a folder once it is there, so a write that fails leaves no half job listed.
    if (!runner.makeFolder(rankDir, error) || !runner.writeFile(paths.pidFile(), pids, false, error)
        || !runner.writeFile(paths.exitFile(), "0\n", false, error)
        || !runner.writeFile(rankDir + QStringLiteral("/stdout.log"), metricLines(run->points), false, error)
        || !runner.writeFile(rankDir + QStringLiteral("/stderr.log"), QByteArray(), false, error)
        || !runner.writeFile(paths.jobJson(), record.toJson(), false, error))
        return false;
    // Refreshed: its status is computed again from the points now recorded.
    QFile::remove(paths.file("summary.json"));
    QFile::remove(followerStateFile(record.where, paths.root));
    manager.summary(result.id, false, error);
    error->clear();
    *out = result;
    return true;
}

}  // namespace ingot
