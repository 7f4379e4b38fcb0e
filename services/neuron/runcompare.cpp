#include "services/neuron/runcompare.h"

#include "services/jobs/jobmanager.h"
#include "services/jobs/jobservice.h"
#include "services/neuron/jobgraphs.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QHash>

#include <cmath>

namespace ingot {

namespace {

struct RunCompareText {
    Q_DECLARE_TR_FUNCTIONS(ingot::RunCompare)
};

constexpr qint64 maxTrainingArgsBytes = 1 << 20;

// training_args.json as the backend writes it (resources/backend/ingot_train/checkpoint.py: the run's flags, its
// engine and world size), in the output folder or its newest checkpoint; empty when there is none or it does not parse.
QJsonObject readTrainingArgs(JobManager &jobs, const JobRecordFile &r)
{
    QStringList places;
    if (!r.outputDir.isEmpty())
        places << r.outputDir + QStringLiteral("/training_args.json");
    const QString checkpoint = jobs.latestCheckpoint(r);
    if (!checkpoint.isEmpty())
        places << checkpoint + QStringLiteral("/training_args.json");
    for (const QString &p : std::as_const(places)) {
        const FileChunk c = jobs.runner().readFile(p, 0, maxTrainingArgsBytes);
        if (!c.exists || !c.error.isEmpty() || c.size > maxTrainingArgsBytes)
            continue;
        const QJsonDocument d = QJsonDocument::fromJson(c.data);
        if (d.isObject())
            return d.object();
    }
    return {};
}

QString yesNo(bool b)
{
    return b ? RunCompareText::tr("yes") : RunCompareText::tr("no");
}

QString jsonText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Bool: return yesNo(v.toBool());
    case QJsonValue::Double: {
        const double d = v.toDouble();
        return std::floor(d) == d && std::abs(d) < 1e15 ? QString::number(qint64(d)) : formatMetric(d);
    }
    case QJsonValue::String: return v.toString();
    default: return {};
    }
}

QString programText(const JobSpec &s)
{
    switch (s.program) {
    case JobProgram::Backend: return QStringLiteral("ingot_train");
    case JobProgram::Module: return QStringLiteral("-m ") + s.module;
    case JobProgram::Script: return s.script;
    }
    return {};
}

// A backend setting as the run recorded it: training_args.json first (what the run itself used), then the settings
// Ingot passed as flags; "" when neither says (a script run without the form's settings).
struct SettingReader {
    const ComparedRun &run;
    // Whether the job's own settings are the run's: Ingot passed them (its backend, or settings passed to a script).
    // An imported run's spec holds Ingot's defaults, never what the run used: only its files say (trainingArgs).
    bool passed() const
    {
        return !run.record.imported() && (run.record.spec.program == JobProgram::Backend || run.record.spec.passSettings);
    }
    QString value(const char *flag, const std::function<QString(const JobSpec &)> &fromSpec) const
    {
        const QJsonValue v = run.trainingArgs.value(QLatin1String(flag));
        if (!v.isUndefined() && !v.isNull() && !(v.isString() && v.toString().isEmpty()))
            return jsonText(v);
        return passed() ? fromSpec(run.record.spec) : QString();
    }
};

QString envValue(const JobSpec &s, const QString &name)
{
    QString value;
    for (const auto &kv : s.exportedVariables())
        if (kv.first == name)
            value = kv.second;  // a name set again later wins, as the wrapper exports it
    return value;
}

QString compilerVersions(const ComparedRun &r)
{
    QStringList versions;
    for (const JobGraph &g : r.graphs.graphs)
        if (!versions.contains(g.explanation.key.version))
            versions << g.explanation.key.version;
    return versions.join(QStringLiteral(", "));
}

QString whereText(const ComparedRun &r)
{
    QString where = r.where == QLatin1String("local") ? RunCompareText::tr("this machine") : r.where;
    if (r.record.nodes.size() > 1)  // a multi-node job: every node, node 0 first
        where = r.record.nodes.join(QStringLiteral(", "));
    if (r.record.spec.slurm.enabled)
        where = RunCompareText::tr("%1 (Slurm, partition %2)")
                    .arg(where, r.record.spec.slurm.partition.isEmpty() ? RunCompareText::tr("default")
                                                                         : r.record.spec.slurm.partition);
    return where;
}

using RunValue = std::function<QString(const ComparedRun &)>;
struct SettingRow {
    QString key, label;
    RunValue value;
};

// The rows every comparison has, in the order the launcher's form shows them.
QVector<SettingRow> settingRows()
{
    auto flag = [](const char *f, std::function<QString(const JobSpec &)> spec) -> RunValue {
        return [f, spec](const ComparedRun &r) { return SettingReader{r}.value(f, spec); };
    };
    auto layout = [](const char *f, int JobStatus::*fromStatus, std::function<int(const JobSpec &)> spec) -> RunValue {
        return [f, fromStatus, spec](const ComparedRun &r) {
            if (r.status.*fromStatus > 0)  // what the run itself reported (its "started" event)
                return QString::number(r.status.*fromStatus);
            return SettingReader{r}.value(f, [spec](const JobSpec &s) { return QString::number(spec(s)); });
        };
    };
    return {
        {QStringLiteral("where"), RunCompareText::tr("Where it ran"), whereText},
        {QStringLiteral("program"), RunCompareText::tr("Program"), [](const ComparedRun &r) { return programText(r.record.spec); }},
        {QStringLiteral("engine"), RunCompareText::tr("Engine"),
         flag("engine", [](const JobSpec &s) { return s.engine == QLatin1String("auto") ? QString() : s.engine; })},
        {QStringLiteral("model"), RunCompareText::tr("Model"), flag("model_name_or_path", [](const JobSpec &s) { return s.modelLabel(); })},
        {QStringLiteral("config"), RunCompareText::tr("Model config"), flag("config_name", [](const JobSpec &s) { return s.modelPath.isEmpty() ? s.configName : QString(); })},
        {QStringLiteral("world_size"), RunCompareText::tr("Processes"), layout("world_size", &JobStatus::worldSize, [](const JobSpec &s) { return s.worldSize(); })},
        {QStringLiteral("tensor_parallel"), RunCompareText::tr("Tensor parallel"),
         layout("tensor_parallel_size", &JobStatus::tensorParallel, [](const JobSpec &s) { return s.tensorParallel; })},
        {QStringLiteral("pipeline_parallel"), RunCompareText::tr("Pipeline parallel"),
         layout("pipeline_parallel_size", &JobStatus::pipelineParallel, [](const JobSpec &s) { return s.pipelineParallel; })},
        {QStringLiteral("data_parallel"), RunCompareText::tr("Data parallel"),
         layout("data_parallel_size", &JobStatus::dataParallel, [](const JobSpec &s) { return s.dataParallel(); })},
        {QStringLiteral("zero_1"), RunCompareText::tr("ZeRO-1"), flag("zero_1", [](const JobSpec &s) { return yesNo(s.zero1); })},
        {QStringLiteral("fsdp"), RunCompareText::tr("FSDP"), flag("fsdp", [](const JobSpec &s) { return yesNo(s.fsdp); })},
        {QStringLiteral("batch"), RunCompareText::tr("Batch per device"),
         flag("per_device_train_batch_size", [](const JobSpec &s) { return QString::number(s.perDeviceBatch); })},
        {QStringLiteral("gradient_accumulation"), RunCompareText::tr("Gradient accumulation"),
         flag("gradient_accumulation_steps", [](const JobSpec &s) { return QString::number(s.gradientAccumulation); })},
        {QStringLiteral("sequence_length"), RunCompareText::tr("Sequence length"),
         flag("block_size", [](const JobSpec &s) { return QString::number(s.blockSize); })},
        {QStringLiteral("precision"), RunCompareText::tr("Precision"), [](const ComparedRun &r) {
             const QJsonValue v = r.trainingArgs.value(QLatin1String("bf16"));
             if (v.isBool())
                 return v.toBool() ? QStringLiteral("bf16") : QStringLiteral("fp32");
             if (!SettingReader{r}.passed())
                 return QString();
             return r.record.spec.bf16 ? QStringLiteral("bf16") : QStringLiteral("fp32");
         }},
        {QStringLiteral("learning_rate"), RunCompareText::tr("Learning rate"),
         flag("learning_rate", [](const JobSpec &s) { return formatMetric(s.learningRate); })},
        {QStringLiteral("max_steps"), RunCompareText::tr("Steps asked"), flag("max_steps", [](const JobSpec &s) { return QString::number(s.maxSteps); })},
        {QStringLiteral("seed"), RunCompareText::tr("Seed"), flag("seed", [](const JobSpec &s) { return QString::number(s.seed); })},
        {QStringLiteral("device"), RunCompareText::tr("Device"), [](const ComparedRun &r) { return r.status.device; }},
        {QStringLiteral("python"), RunCompareText::tr("Python"), [](const ComparedRun &r) { return r.record.argv.value(0); }},
        {QStringLiteral("compiler"), RunCompareText::tr("Compiler"), compilerVersions},
        {QStringLiteral("compile_cache"), RunCompareText::tr("Compile cache"), [](const ComparedRun &r) { return r.cache; }},
    };
}

ComparedSetting settingOf(const QVector<ComparedRun> &runs, const QString &key, const QString &label, const RunValue &value)
{
    ComparedSetting s{key, label, {}, false};
    for (const ComparedRun &r : runs)
        s.values << (r.error.isEmpty() ? value(r) : QString());
    for (const QString &v : std::as_const(s.values))
        s.differs = s.differs || v != s.values.first();
    return s;
}

QVector<ComparedSetting> compareSettings(const QVector<ComparedRun> &runs)
{
    QVector<ComparedSetting> out;
    for (const SettingRow &row : settingRows())
        out << settingOf(runs, row.key, row.label, row.value);
    // The environment each run exported (NEURON_CC_FLAGS first): one row per variable any run set.
    QStringList names{QStringLiteral("NEURON_CC_FLAGS")};
    for (const ComparedRun &r : runs)
        for (const auto &kv : r.record.spec.exportedVariables())
            if (!names.contains(kv.first) && kv.first != QLatin1String("NEURON_COMPILE_CACHE_URL"))
                names << kv.first;
    for (const QString &name : std::as_const(names))
        out << settingOf(runs, QStringLiteral("env.") + name, name, [name](const ComparedRun &r) {
            if (r.record.imported())
                return QString();  // what its environment held was not recorded
            const QString v = envValue(r.record.spec, name);
            return v.isEmpty() ? RunCompareText::tr("(not set)") : v;
        });
    return out;
}

// Graphs of two runs are the same graph when their keys are, or when the rule compared one with the other (one's
// Explanation::otherKey is the other's key). Rows are found through an index of every placed graph's key and
// otherKey, so matching costs a lookup per graph, not a pass over the rows (runs of thousands of graphs).
QVector<GraphMatch> matchGraphs(const QVector<ComparedRun> &runs)
{
    QVector<GraphMatch> rows;
    QHash<QString, QVector<int>> rowsByKey;
    for (int r = 0; r < runs.size(); ++r) {
        const QVector<JobGraph> &graphs = runs[r].graphs.graphs;
        for (int g = 0; g < graphs.size(); ++g) {
            const Explanation &e = graphs[g].explanation;
            int found = -1;
            for (const QString &k : {e.key.key(), e.otherKey}) {
                if (k.isEmpty() || found >= 0)
                    continue;
                for (const int row : rowsByKey.value(k))
                    if (rows[row].graph[r] < 0) {
                        found = row;
                        break;
                    }
            }
            if (found < 0) {
                rows.append(GraphMatch{QVector<int>(runs.size(), -1), e.key.key()});
                found = int(rows.size()) - 1;
            }
            rows[found].graph[r] = g;
            for (const QString &k : {e.key.key(), e.otherKey})
                if (!k.isEmpty() && !rowsByKey.value(k).contains(found))
                    rowsByKey[k].append(found);
        }
    }
    return rows;
}

void addOnce(QStringList *list, const QString &s)
{
    if (!s.isEmpty() && !list->contains(s))
        list->append(s);
}

QString differenceText(const GraphDifference &d, const QString &a, const QString &b)
{
    QStringList parts;
    if (d.otherFlags)
        parts << RunCompareText::tr("%n other flags", nullptr, d.otherFlags)
                     + (d.flagChanges.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(d.flagChanges.join(QStringLiteral("; "))));
    if (d.otherCompiler)
        parts << RunCompareText::tr("%n other compiler", nullptr, d.otherCompiler)
                     + (d.compilerChanges.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(d.compilerChanges.join(QStringLiteral("; "))));
    if (d.newGraphs)
        parts << RunCompareText::tr("%n new", nullptr, d.newGraphs)
                     + (d.shapeChanges.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(d.shapeChanges.join(QStringLiteral("; "))));
    if (d.otherCache)
        parts << RunCompareText::tr("%n in another cache", nullptr, d.otherCache);
    if (d.blocked)
        parts << RunCompareText::tr("%n blocked", nullptr, d.blocked);
    QString text = d.compiled ? RunCompareText::tr("%1 compiled %n graph(s) %2 had: %3", nullptr, d.compiled).arg(b, a, parts.join(QStringLiteral(", ")))
                              : RunCompareText::tr("%1 compiled no graph that %2 had.").arg(b, a);
    if (d.onlyHere)
        text += QLatin1Char(' ') + RunCompareText::tr("%n graph(s) only %1 has.", nullptr, d.onlyHere).arg(b);
    if (d.hits)
        text += QLatin1Char(' ') + RunCompareText::tr("%n found compiled.", nullptr, d.hits);
    return text;
}

GraphDifference differenceOf(const QVector<ComparedRun> &runs, const QVector<GraphMatch> &rows, int run)
{
    GraphDifference d;
    d.run = run;
    for (const GraphMatch &row : rows) {
        if (row.graph[run] < 0)
            continue;
        const Explanation &e = runs[run].graphs.graphs[row.graph[run]].explanation;
        if (e.verdict == Verdict::Hit) {
            ++d.hits;
            continue;
        }
        if (row.graph[0] < 0) {
            ++d.onlyHere;
            continue;
        }
        ++d.compiled;
        switch (e.verdict) {
        case Verdict::OtherFlags:
            ++d.otherFlags;
            if (e.flagsKnown)
                addOnce(&d.flagChanges, QStringLiteral("%1 → %2").arg(e.flagsRemoved.join(QLatin1Char(' ')), e.flagsAdded.join(QLatin1Char(' '))));
            break;
        case Verdict::OtherCompiler:
            ++d.otherCompiler;
            addOnce(&d.compilerChanges, QStringLiteral("%1 → %2").arg(e.otherKey.section(QLatin1Char('/'), 0, 0), e.key.version));
            break;
        case Verdict::NewGraph:
            ++d.newGraphs;
            for (const QString &c : e.changes)
                addOnce(&d.shapeChanges, c);
            break;
        case Verdict::OtherCache: ++d.otherCache; break;
        case Verdict::Blocked: ++d.blocked; break;
        case Verdict::Hit: break;
        }
    }
    // The runs by their letters, as the CLI and the page head each run's line and column (A, B, ...).
    const QString a = runLetter(0), b = runLetter(run);
    if (!runs[0].graphsError.isEmpty() || !runs[run].graphsError.isEmpty() || !runs[0].error.isEmpty()
        || !runs[run].error.isEmpty())
        d.text = RunCompareText::tr("The graphs of %1 and %2 cannot be compared: the compile activity of both is needed.").arg(a, b);
    else
        d.text = differenceText(d, a, b);
    return d;
}

double mean(const QVector<MetricPoint> &points, MetricKind kind)
{
    double sum = 0;
    int n = 0;
    for (const MetricPoint &p : points)
        if (const double v = metricValue(p, kind); std::isfinite(v))
            sum += v, ++n;
    return n ? sum / n : MetricPoint::none;
}

}  // namespace

QString runLetter(int index)
{
    return index < 26 ? QString(QChar(QLatin1Char('A' + index))) : QString::number(index + 1);
}

QString notRecordedText()
{
    return RunCompareText::tr("not recorded");
}

qint64 ComparedRun::steps() const
{
    return metrics.isEmpty() ? status.step : std::max(status.step, metrics.last().step);
}

double ComparedRun::lastLoss() const
{
    for (auto it = metrics.crbegin(); it != metrics.crend(); ++it)
        if (std::isfinite(it->loss))
            return it->loss;
    return MetricPoint::none;
}

double ComparedRun::minLoss() const
{
    double low = MetricPoint::none;
    for (const MetricPoint &p : metrics)
        if (std::isfinite(p.loss) && !(p.loss >= low))
            low = p.loss;
    return low;
}

double ComparedRun::meanThroughput() const
{
    return mean(metrics, MetricKind::Throughput);
}

bool RunComparison::anyDifference() const
{
    for (const ComparedSetting &s : settings)
        if (s.differs)
            return true;
    return false;
}

ComparedRun readComparedRun(JobManager &jobs, const QString &id)
{
    ComparedRun r;
    r.id = id;
    QString error;
    const JobSummary s = jobs.summary(id, true, &error);
    if (!error.isEmpty() || s.record.id.isEmpty()) {
        r.error = error.isEmpty() ? RunCompareText::tr("No job %1 in the history.").arg(id) : error;
        r.name = id;
        return r;
    }
    r.record = s.record;
    r.status = s.status;
    r.metrics = s.metrics;
    r.where = s.record.where;
    r.name = s.record.spec.displayName(id, s.record.createdMs);
    r.trainingArgs = readTrainingArgs(jobs, r.record);
    JobCompileActivity a;
    if (r.record.imported()) {
        r.graphsError = RunCompareText::tr("an imported run's compile activity is not known");
    } else if (readJobCompileActivity(jobs, r.record, &a, &r.graphsError)) {
        r.graphs = a.graphs;
        r.cache = displayName(a.store.display());
    } else if (!a.store.display().isEmpty()) {
        r.cache = displayName(a.store.display());
    }
    return r;
}

RunComparison compareReadRuns(QVector<ComparedRun> runs)
{
    RunComparison c;
    c.runs = std::move(runs);
    c.settings = compareSettings(c.runs);
    c.graphs = matchGraphs(c.runs);
    for (int i = 1; i < c.runs.size(); ++i)
        c.differences << differenceOf(c.runs, c.graphs, i);
    return c;
}

RunComparison compareRuns(const QVector<RunSource> &sources, const std::atomic_bool *stop)
{
    QVector<ComparedRun> runs;
    for (const RunSource &s : sources) {
        if (stop && stop->load())
            break;
        if (!s.runner) {
            ComparedRun r;
            r.id = r.name = s.id;
            r.error = RunCompareText::tr("Where job %1 ran cannot be reached: %2").arg(s.id, s.unreachable);
            runs << r;
            continue;
        }
        JobManager jobs(s.runner, s.lookup);
        runs << readComparedRun(jobs, s.id);
    }
    return compareReadRuns(std::move(runs));
}

Task compareRunsOf(JobService &service, const QStringList &ids, QObject *context,
                   std::function<void(const RunComparison &)> done)
{
    QVector<std::pair<QString, QString>> wheres;  // id, where
    for (const QString &id : ids)
        wheres.append({id, service.whereOf(id)});
    return runTask(
        context,
        [local = service.sharedRunner(), lookup = service.lookup(), wheres](TaskControl &control) {
            QVector<RunSource> sources;
            for (const auto &[id, where] : wheres) {
                RunSource s{local, lookup, id, {}};
                if (!where.isEmpty() && where != local->where()) {
                    s.runner = lookup ? lookup(where, &s.unreachable) : nullptr;
                    if (!lookup)
                        s.unreachable = RunCompareText::tr("Remote hosts are not available here.");
                }
                sources << s;
            }
            return compareRuns(sources, control.stopFlag());
        },
        std::move(done));
}

}  // namespace ingot
