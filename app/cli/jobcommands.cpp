#include "app/cli/jobcommands.h"

#include "app/cli/clicommon.h"
#include "app/cli/consolidatecommand.h"
#include "app/cli/jobcontext.h"
#include "app/cli/remotecommands.h"
#include "app/cli/seedlaunch.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobresume.h"
#include "services/jobs/jobtext.h"
#include "services/jobs/stallrule.h"
#include "services/jobs/remotejobindex.h"
#include "services/neuron/launchform.h"
#include "services/remote/jobrunners.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSet>
#include <QDeadlineTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct CliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

QString when(double secs)
{
    return secs > 0 ? formatDateTime(qint64(secs * 1000)) : QString();
}

QString duration(double secs)
{
    const qint64 s = qint64(secs);
    if (s >= 3600)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// A state as the CLI shows it (the one function for it: the table, status, wait, stop), in the user's language.
QString stateText(const JobStatus &s)
{
    return s.unreachable.isEmpty() ? jobStateTitle(s.state) : CliText::tr("unknown (host unreachable)");
}

// The end of a job as `wait` and `stop --wait` print it: its state, and why (translated).
QString endText(const JobStatus &s)
{
    const QString reason = jobReasonText(s);
    return reason.isEmpty() ? jobStateTitle(s.state) : jobStateTitle(s.state) + QStringLiteral(": ") + reason;
}

QString layout(const JobStatus &s)
{
    return formatLayout(s.dataParallel, s.tensorParallel, s.pipelineParallel);
}

json statusJson(const JobSummary &s)
{
    const QJsonObject o = statusToJson(s.status);
    json j = json::parse(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
    j["id"] = u8(s.record.id);
    j["name"] = u8(displayName(s.record.spec.displayName(s.record.id, s.record.createdMs)));
    j["model"] = u8(displayName(s.record.spec.modelLabel()));
    j["output_dir"] = u8(displayName(s.record.outputDir));
    j["where"] = u8(displayName(s.record.where));
    if (!s.record.nodes.isEmpty()) {
        json nodes = json::array();
        for (const QString &n : s.record.nodes)
            nodes.push_back(u8(displayName(n)));
        j["nodes"] = nodes;
    }
    j["job_dir"] = u8(displayName(s.record.cwd));
    j["origin"] = s.record.imported() ? "imported" : "launched";  // imported: a run folder adopted read-only (job import)
    if (s.record.imported())
        j["imported_from"] = u8(displayName(s.record.importedFrom));
    if (!s.status.slurm.jobId.isEmpty()) {  // the Slurm job at the top level too (its whole state is in "slurm")
        j["slurm_job_id"] = u8(s.status.slurm.jobId);
        j["partition"] = u8(s.status.slurm.partition);
        j["node_list"] = u8(s.status.slurm.nodeList);
    }
    j["pids"] = {{"launcher", s.status.pids.launcher.pid}, {"wrapper", s.status.pids.wrapper.pid},
                 {"process_group", s.status.pids.launcher.pgid}};
    return j;
}

json jsonStrings(const QStringList &list)
{
    json arr = json::array();
    for (const QString &s : list)
        arr.push_back(u8(s));
    return arr;
}

void launchOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("preset"), CliText::tr("Start from the launcher's preset NAME (ingot-cli job presets); the options "
                                                       "and ARGS given change it."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("nproc-per-node"), CliText::tr("Processes per node (default 1)."), QStringLiteral("N")});
    p.addOption({QStringLiteral("nnodes"), CliText::tr("Nodes (default 1; several need remote hosts)."), QStringLiteral("N")});
    p.addOption({QStringLiteral("name"), CliText::tr("A name for the history."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("output-dir"), CliText::tr("Where the job writes (default: a fresh folder in the job's folder)."), QStringLiteral("DIR")});
    p.addOption({QStringLiteral("python"), CliText::tr("The Python to run (default: the first found that imports torch)."), QStringLiteral("PY")});
    p.addOption({QStringLiteral("script"), CliText::tr("Run a training script instead of Ingot's backend."), QStringLiteral("FILE")});
    p.addOption({{QStringLiteral("m"), QStringLiteral("module")}, CliText::tr("Run a module (python -m MODULE) instead of Ingot's backend."), QStringLiteral("MODULE")});
    p.addOption({QStringLiteral("no-settings"), CliText::tr("With --script/-m: pass only ARGS, not Ingot's settings flags.")});
    p.addOption({QStringLiteral("env"), CliText::tr("An extra environment variable (repeatable)."), QStringLiteral("KEY=VALUE")});
    p.addOption({QStringLiteral("host"), CliText::tr("Run on this SSH host instead of this machine."), QStringLiteral("HOST")});
    p.addOption({QStringLiteral("hosts"), CliText::tr("A multi-node job: one node per host, the first is the master (--nnodes follows)."),
                 QStringLiteral("H1,H2,...")});
    p.addOption({QStringLiteral("dry-run"), CliText::tr("Validate and print the command; start nothing.")});
    p.addOption({QStringLiteral("engine"), CliText::tr("The backend's training engine: native (PyTorch on TorchNeuron, Neuron 2.30 and "
                                                       "later), xla (PyTorch/XLA, Neuron 2.29 and earlier) or auto (default: what the "
                                                       "job's Python has)."), QStringLiteral("native|xla|auto")});
    p.addOption({QStringLiteral("fsdp"), CliText::tr("Fully sharded data parallel over the data-parallel ranks (ZeRO-3; native engine only).")});
    p.addOption({QStringLiteral("torch-compile"), CliText::tr("torch.compile the model (native engine only).")});
    p.addOption({QStringLiteral("ask-node"), CliText::tr("A Slurm job: ask its Python on a compute node of the partition (srun --immediate), "
                                                         "not on the login node, before the engine is chosen.")});
    p.addOption({QStringLiteral("slurm"), CliText::tr("Submit to the Slurm cluster of this login node (an SSH host, or local)."),
                 QStringLiteral("HOST|local")});
    p.addOption({QStringLiteral("nodes"), CliText::tr("With --slurm: nodes to allocate (as --nnodes)."), QStringLiteral("N")});
    p.addOption({QStringLiteral("partition"), CliText::tr("With --slurm: the partition (default: the cluster's)."), QStringLiteral("P")});
    p.addOption({QStringLiteral("time"), CliText::tr("With --slurm: the time limit (minutes, H:MM:SS, D-HH:MM:SS)."), QStringLiteral("T")});
    p.addOption({QStringLiteral("account"), CliText::tr("With --slurm: the account to charge."), QStringLiteral("A")});
    p.addOption({QStringLiteral("qos"), CliText::tr("With --slurm: the quality of service."), QStringLiteral("Q")});
    p.addOption({QStringLiteral("no-exclusive"), CliText::tr("With --slurm: share nodes (default: whole nodes, --exclusive).")});
    p.addOption({QStringLiteral("sbatch"), CliText::tr("With --slurm: an extra #SBATCH line (repeatable)."), QStringLiteral("LINE")});
    p.addOption({QStringLiteral("slurm-conf"), CliText::tr("With --slurm: the slurm.conf to use there (SLURM_CONF)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("precompile"), CliText::tr("First compile every graph with the Neuron SDK's neuron_parallel_compile (the "
                                                           "same command, in JOB/precompile; with --slurm a Slurm job of its own); the "
                                                           "training starts once it succeeded.")});
    p.addOption({QStringLiteral("precompile-parallel"), CliText::tr("With --precompile: neuron_parallel_compile --num_parallel N."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("stall-after"), CliText::tr("Report the job stalled when its step has not advanced for "
                 "DURATION (90s, 10m, 2h) while it runs (default: 10 x its median step time, at least 5 min)."),
                 QStringLiteral("DURATION")});
    seedLaunchOption(p);
    p.addPositionalArgument(QStringLiteral("ARGS"), CliText::tr("After --: flags for the backend or the script."), QStringLiteral("-- ARGS..."));
}

// --slurm and its options into `spec` (and the login node into `nodes`); the exit code (Ok to go on).
int slurmOptions(const Invocation &in, JobSpec *spec, QStringList *nodes)
{
    static const char *const only[] = {"nodes", "partition", "time", "account", "qos", "no-exclusive", "sbatch", "slurm-conf"};
    if (in.isSet(QStringLiteral("precompile-parallel")) && !in.isSet(QStringLiteral("precompile"))) {
        err(CliText::tr("error: --precompile-parallel goes with --precompile"));
        return Usage;
    }
    bool parallelOk = true;
    spec->precompileParallel = in.isSet(QStringLiteral("precompile-parallel"))
                                   ? in.value(QStringLiteral("precompile-parallel")).toInt(&parallelOk) : 0;
    if (!parallelOk || spec->precompileParallel < 0 || spec->precompileParallel > 4096) {
        err(CliText::tr("error: --precompile-parallel takes a number of parallel compiles (1 to 4096)"));
        return Usage;
    }
    if (!in.isSet(QStringLiteral("slurm"))) {
        spec->precompile = spec->precompile || in.isSet(QStringLiteral("precompile"));  // a preset's, or asked for
        for (const char *o : only) {
            if (in.isSet(QLatin1String(o))) {
                err(CliText::tr("error: --%1 goes with --slurm").arg(QLatin1String(o)));
                return Usage;
            }
        }
        return Ok;
    }
    if (in.isSet(QStringLiteral("host")) || in.isSet(QStringLiteral("hosts"))) {
        err(CliText::tr("error: --slurm names the login node; --host and --hosts are for jobs without a scheduler"));
        return Usage;
    }
    SlurmSettings &s = spec->slurm;
    s.enabled = true;
    const QString where = in.value(QStringLiteral("slurm"));
    if (where != QLatin1String("local"))
        *nodes << where;
    if (in.isSet(QStringLiteral("nodes"))) {
        bool ok = false;
        spec->nnodes = in.value(QStringLiteral("nodes")).toInt(&ok);
        if (!ok) {
            err(CliText::tr("error: --nodes takes a number"));
            return Usage;
        }
    }
    // Each option given replaces a preset's.
    const std::pair<const char *, QString *> texts[] = {
        {"partition", &s.partition}, {"time", &s.timeLimit}, {"account", &s.account}, {"qos", &s.qos}, {"slurm-conf", &s.slurmConf}};
    for (const auto &[option, field] : texts)
        if (in.isSet(QLatin1String(option)))
            *field = in.value(QLatin1String(option));
    if (in.isSet(QStringLiteral("no-exclusive")))
        s.exclusive = false;
    for (const QString &line : in.values(QStringLiteral("sbatch")))
        s.extraSbatch << (line.startsWith(QLatin1String("#SBATCH ")) ? line : QStringLiteral("#SBATCH ") + line);
    s.precompile = s.precompile || in.isSet(QStringLiteral("precompile"));
    return Ok;
}

// What runs, from --script, -m and --no-settings (a preset's when none is given); the exit code (Ok to go on).
int programOptions(const Invocation &in, JobSpec *spec)
{
    if (in.isSet(QStringLiteral("script")) && in.isSet(QStringLiteral("module"))) {
        err(CliText::tr("error: --script and -m are exclusive"));
        return Usage;
    }
    if (in.isSet(QStringLiteral("script"))) {
        spec->program = JobProgram::Script;
        spec->script = in.value(QStringLiteral("script"));
        spec->passSettings = true;
    } else if (in.isSet(QStringLiteral("module"))) {
        spec->program = JobProgram::Module;
        spec->module = in.value(QStringLiteral("module"));
        spec->passSettings = true;
    }
    if (in.isSet(QStringLiteral("no-settings")))
        spec->passSettings = false;
    for (const char *o : {"nproc-per-node", "nnodes"}) {
        if (!in.isSet(QLatin1String(o)))
            continue;
        bool ok = false;
        const int n = in.value(QLatin1String(o)).toInt(&ok);
        if (!ok) {
            err(CliText::tr("error: --nproc-per-node and --nnodes take a number"));
            return Usage;
        }
        (qstrcmp(o, "nnodes") == 0 ? spec->nnodes : spec->nprocPerNode) = n;
    }
    return Ok;
}

// The launcher's presets, by name (what job launch --preset takes).
int cmdPresets(const Invocation &in)
{
    const QStringList names = LaunchForm::presetNames();
    if (in.json) {
        json arr = json::array();
        for (const QString &name : names) {
            JobSpec spec;
            QString error;
            json j = {{"name", u8(displayName(name))}};
            if (LaunchForm::loadPreset(name, &spec, &error))
                j["spec"] = json::parse(QJsonDocument(spec.toJson()).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
            else
                j["error"] = u8(error);
            arr.push_back(j);
        }
        printJson(arr);
        return Ok;
    }
    if (names.isEmpty()) {
        out(CliText::tr("No presets yet (the launcher's Save as preset…)."));
        return Ok;
    }
    for (const QString &name : names)
        out(displayName(name));
    return Ok;
}

// The job as the launcher's form would hold it, refused by the form's check (LaunchForm::checkNow) with the launcher's
// words; a job without --python also needs one that imports torch there. The exit code (Ok to go on). With
// --ask-node, a Slurm job's compute node is asked first, and what it says is remembered (probeJobPython) for the check.
int checkLikeTheLauncher(const JobSpec &spec, const QStringList &nodes, JobRunner &runner, bool askNode)
{
    if (askNode) {
        if (!spec.slurm.enabled) {
            err(CliText::tr("error: --ask-node is for a Slurm job (--slurm)"));
            return Usage;
        }
        const PythonInfo onNode = probeJobPython(runner, spec.python, spec.slurm, true);
        if (!onNode.askedOn.isEmpty())
            err(CliText::tr("note: --ask-node: %1").arg(onNode.askedOn));
    }
    LaunchInput form;
    form.spec = spec;
    form.where = nodes.isEmpty() ? QStringLiteral("local") : nodes.first();
    form.nodes = nodes;
    QVector<JobProblem> problems = LaunchForm::checkNow(form, &runner, QString()).problems;
    if (problems.isEmpty() && spec.python.isEmpty())
        if (const QString why = LaunchForm::pythonProblem(form, detectedPythons(runner), runners().local()->describe()); !why.isEmpty())
            problems.append({QStringLiteral("python"), why});
    for (const JobProblem &p : std::as_const(problems))
        err(CliText::tr("error: --%1: %2").arg(p.field, p.message));
    return problems.isEmpty() ? Ok : Usage;
}

// The plan's notes (jobNotes: the engine's warnings, which implementation runs), and with --engine auto given what
// automatic runs there, on stderr as the launcher shows them; their JSON for --dry-run --json.
json printNotes(const Invocation &in, JobRunner &runner, const LaunchPlan &plan)
{
    QVector<JobNote> notes = plan.notes;
    const bool engineSaid = std::any_of(notes.cbegin(), notes.cend(), [](const JobNote &n) {
        return n.field == QLatin1String("engine") || n.field == QLatin1String("python");
    });
    if (in.isSet(QStringLiteral("engine")) && plan.record.spec.engine == QLatin1String("auto") && !engineSaid)
        notes.prepend(engineNote(probeJobPython(runner, plan.record.spec.python, plan.record.spec.slurm)));
    json notesJson = json::array();
    for (const JobNote &n : std::as_const(notes)) {
        err((n.warning ? CliText::tr("warning: --%1: %2") : CliText::tr("note: --%1: %2")).arg(n.field, n.message));
        notesJson.push_back({{"field", u8(n.field)}, {"message", u8(n.message)}, {"warning", n.warning}});
    }
    return notesJson;
}

int cmdLaunch(const Invocation &in)
{
    JobSpec spec;
    QString error;
    if (in.isSet(QStringLiteral("preset")) && !LaunchForm::loadPreset(in.value(QStringLiteral("preset")), &spec, &error)) {
        err(CliText::tr("error: --preset: %1").arg(error));
        return Usage;
    }
    if (const int rc = programOptions(in, &spec); rc != Ok)
        return rc;
    QStringList nodes;
    if (const int rc = slurmOptions(in, &spec, &nodes); rc != Ok)
        return rc;
    if (in.isSet(QStringLiteral("stall-after"))
        && !parseStallDuration(in.value(QStringLiteral("stall-after")), &spec.stallAfterSeconds)) {
        err(CliText::tr("error: --stall-after takes a duration: 90s, 10m, 2h"));
        return Usage;
    }
    if (in.isSet(QStringLiteral("host")) && in.isSet(QStringLiteral("hosts"))) {
        err(CliText::tr("error: --host and --hosts are exclusive"));
        return Usage;
    }
    if (in.isSet(QStringLiteral("host")))
        nodes << in.value(QStringLiteral("host"));
    if (in.isSet(QStringLiteral("hosts"))) {
        nodes = in.value(QStringLiteral("hosts")).split(QLatin1Char(','), Qt::SkipEmptyParts);
        if (nodes.size() < 2) {
            err(CliText::tr("error: --hosts takes two hosts or more (one node each); one host: --host"));
            return Usage;
        }
        if (in.isSet(QStringLiteral("nnodes")) && spec.nnodes != nodes.size()) {
            err(CliText::tr("error: --nnodes %1 but --hosts names %2 hosts").arg(spec.nnodes).arg(nodes.size()));
            return Usage;
        }
        spec.nnodes = int(nodes.size());
    }
    if (in.isSet(QStringLiteral("name")))
        spec.name = in.value(QStringLiteral("name"));
    if (in.isSet(QStringLiteral("python")))
        spec.python = in.value(QStringLiteral("python"));
    for (const QString &kv : in.values(QStringLiteral("env"))) {  // a name is checked with the job (validateJob)
        const int eq = kv.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            err(CliText::tr("error: --env takes KEY=VALUE, not %1").arg(displayName(kv)));
            return Usage;
        }
        spec.env.append({kv.left(eq), kv.mid(eq + 1)});
    }
    if (spec.program != JobProgram::Backend && !spec.passSettings) {
        spec.extraArgs = in.positional();
    } else if (!spec.parseTrainingArguments(in.positional(), &error)) {
        err(CliText::tr("error: %1").arg(error));
        return Usage;
    }
    if (in.isSet(QStringLiteral("output-dir")))
        spec.outputDir = in.value(QStringLiteral("output-dir"));
    if (in.isSet(QStringLiteral("engine")))
        spec.engine = in.value(QStringLiteral("engine"));  // checked with the job (validateJob)
    spec.fsdp = spec.fsdp || in.isSet(QStringLiteral("fsdp"));
    spec.torchCompile = spec.torchCompile || in.isSet(QStringLiteral("torch-compile"));
    // Every host first: a key that is not trusted, or a host that cannot be reached, stops before anything runs.
    std::shared_ptr<JobRunner> runner = runners().local();
    for (const QString &host : std::as_const(nodes)) {
        std::shared_ptr<JobRunner> r;
        if (const int rc = runnerFor(host, &r); rc != Ok)
            return rc;
        if (host == nodes.first())
            runner = r;
    }
    // The launcher's one check, in its words (a script named here is relative to this shell's folder).
    if (spec.program == JobProgram::Script && nodes.isEmpty() && !spec.script.isEmpty())
        spec.script = QFileInfo(spec.script).absoluteFilePath();
    if (const int rc = checkLikeTheLauncher(spec, nodes, *runner, in.isSet(QStringLiteral("ask-node"))); rc != Ok)
        return rc;
    JobManager jobs(runner, runners().lookup());
    LaunchPlan plan;
    QVector<JobProblem> problems;
    if (!jobs.plan(spec, &plan, &problems, &error, nodes.size() > 1 ? nodes : QStringList())) {
        for (const JobProblem &p : problems)
            err(CliText::tr("error: --%1: %2").arg(p.field, p.message));
        if (problems.isEmpty())
            err(CliText::tr("error: %1").arg(error));
        return Usage;
    }
    // What the launcher warns of before this job starts: the cache's failed entries and stale locks, the last run's
    // blocked graphs. Said, never refused for.
    for (const QString &w : LaunchForm::launchWarnings(jobs, plan.record.spec))
        err(CliText::tr("warning: %1").arg(w));
    const json notesJson = printNotes(in, *runner, plan);
    std::optional<SeedResult> seeded;  // --seed-cache: the graphs brought first, before the launch
    json seedJson = json::object();  // and what it did, for --json
    if (const int rc = seedBeforeLaunch(in, jobs, &plan, in.isSet(QStringLiteral("dry-run")), &seeded, &seedJson); rc != Ok)
        return rc;
    if (in.isSet(QStringLiteral("dry-run"))) {
        seedJson.update({{"id", u8(plan.record.id)}, {"command", u8(plan.commandLine)}, {"script", u8(plan.script)},
                         {"argv", jsonStrings(plan.record.argv)}, {"notes", notesJson},
                         {"compile_cache", cacheLocationJson(jobs.compileCache(plan.record.spec))}});
        if (in.json)
            printJson(seedJson);
        else
            out(plan.commandLine);
        return Ok;
    }
    // A remote job is recorded here first, so `job status ID` finds its host even if the launch is cut short (the
    // rule the launcher's JobService follows too).
    if (!launchRecorded(jobs, plan, runner != runners().local(), RemoteJobIndex(), &error)) {
        err(CliText::tr("error: %1").arg(displayText(error)));
        return PartialFailure;
    }
    keepSeedAfterLaunch(jobs, plan, seeded);
    seedJson.update({{"id", u8(plan.record.id)}, {"job_dir", u8(displayName(plan.paths.root))},
                     {"output_dir", u8(displayName(plan.record.outputDir))}, {"command", u8(plan.commandLine)}});
    if (in.json)
        printJson(seedJson);
    else
        out(plan.record.id);
    return Ok;
}

int cmdList(const Invocation &in)
{
    QStringList warnings;
    const QVector<JobSummary> all = listEveryJob(runners().local(), runners().lookup(), RemoteJobIndex(), {}, &warnings, false);
    for (const QString &w : warnings)
        err(CliText::tr("warning: %1").arg(w));
    for (const JobSummary &s : all)
        warnUnreadable(s.unreadable);
    if (in.json) {
        json arr = json::array();
        for (const JobSummary &s : all) {
            json j = statusJson(s);
            const QString from = resumedFromJob(s.record, all);  // as the history's tooltip says it
            j["resumed_from"] = from.isEmpty() ? json(nullptr) : json(u8(from));
            arr.push_back(j);
        }
        printJson(arr);
        return Ok;
    }
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
    Table t({CliText::tr("ID"), CliText::tr("WHERE"), CliText::tr("NAME"), CliText::tr("STATE"), CliText::tr("STEP"),
             CliText::tr("DP×TP×PP"), CliText::tr("STARTED"), CliText::tr("QUEUED"), CliText::tr("DURATION"),
             CliText::tr("LOSS"), CliText::tr("OUTPUT")},
            {false, false, false, false, true, false, false, true, true, true, false});
    for (const JobSummary &s : all) {
        const JobStatus &st = s.status;
        const qint64 queued = st.slurm.queueWaitSeconds;
        t.add({s.record.id, jobPlaceText(s.record, st), s.record.spec.displayName(s.record.id, s.record.createdMs),
               stateText(st),
               st.maxSteps > 0 ? QStringLiteral("%1/%2").arg(st.step).arg(st.maxSteps) : QString::number(st.step),
               layout(st), when(st.startedAt), queued >= 0 ? duration(double(queued)) : QString(),
               duration(st.runSeconds(now)),
               std::isnan(st.lastLoss) ? QString() : formatMetric(st.lastLoss), s.record.outputDir});
    }
    if (t.rows() == 0)
        out(CliText::tr("No jobs yet (ingot-cli job launch ...)."));
    else
        out(t.render());
    return Ok;
}

bool loadSummary(JobManager &jobs, const QString &id, JobSummary *s)
{
    QString error;
    *s = jobs.summary(id, false, &error);
    if (!error.isEmpty()) {
        err(CliText::tr("error: %1").arg(error));
        return false;
    }
    warnUnreadable(s->unreadable);
    return true;
}

int cmdStatus(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    if (const int rc = openJob(in, &id, &found); rc != Ok)
        return rc;
    JobManager &jobs = *found;
    JobSummary s;
    if (!loadSummary(jobs, id, &s))
        return PartialFailure;
    const CacheLocation cache = jobs.compileCache(s.record.spec);
    const QString resumedFrom = resumedFromJob(jobs, s.record);
    if (in.json) {
        json j = statusJson(s);
        j["compile_cache"] = cacheLocationJson(cache);
        j["resumed_from"] = resumedFrom.isEmpty() ? json(nullptr) : json(u8(resumedFrom));
        printJson(j);
        return Ok;
    }
    const JobStatus &st = s.status;
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
    QStringList lines;
    lines << CliText::tr("Job:        %1 (%2)").arg(s.record.id, s.record.spec.displayName(s.record.id, s.record.createdMs));
    if (s.record.where != QLatin1String("local"))
        lines << CliText::tr("Host:       %1").arg(s.record.nodes.size() > 1 ? s.record.nodes.join(QStringLiteral(", ")) : s.record.where);
    lines << CliText::tr("State:      %1").arg(st.unreachable.isEmpty() ? jobStateTitle(st.state)
                                                                      : CliText::tr("unknown (%1)").arg(st.unreachable));
    if (!st.reason.isEmpty())
        lines << CliText::tr("Reason:     %1").arg(jobReasonText(st));
    if (st.state == JobState::Stalled)
        lines << CliText::tr("Stalled:    %1").arg(jobStallText(st))
              << (st.stall.stacksReady ? CliText::tr("Stacks:     ingot-cli job stacks %1").arg(s.record.id)
                                       : CliText::tr("Stacks:     not available (the program did not register faulthandler)"));
    if (!resumedFrom.isEmpty()) {
        JobRecordFile from;
        QString ignored;  // a job removed since: its id alone
        lines << (jobs.load(resumedFrom, &from, &ignored)
                      ? CliText::tr("Resumed from: %1 (%2)").arg(resumedFrom, from.spec.displayName(from.id, from.createdMs))
                      : CliText::tr("Resumed from: %1 (no longer in the history)").arg(resumedFrom));
    }
    if (!st.slurm.jobId.isEmpty())
        lines << CliText::tr("Slurm:      %1").arg(slurmPhasesText(st));
    lines << CliText::tr("Step:       %1 of %2").arg(st.step).arg(st.maxSteps > 0 ? QString::number(st.maxSteps) : QStringLiteral("?"))
          << CliText::tr("Last loss:  %1").arg(std::isnan(st.lastLoss) ? QStringLiteral("-") : formatMetric(st.lastLoss))
          << CliText::tr("Layout:     %1 (dp×tp×pp), %n process(es)", nullptr, st.worldSize).arg(layout(st))
          << CliText::tr("Elapsed:    %1").arg(duration(st.elapsed(now)));
    if (!std::isnan(st.etaSeconds) && !isFinal(st.state))
        lines << CliText::tr("ETA:        %1").arg(duration(st.etaSeconds));
    lines << CliText::tr("Output:     %1").arg(s.record.outputDir)
          << CliText::tr("Job folder: %1").arg(s.record.cwd)
          << (cache.cachingDisabled ? CliText::tr("Compile cache: none (--no_cache)")
                                    : CliText::tr("Compile cache: %1").arg(jobs.compileCacheStore(cache).display()));
    if (st.alive && st.pids.launcher.isValid())  // a Slurm job has no process here: its Slurm line says where it is
        lines << CliText::tr("Processes:  torchrun pid %1, process group %2").arg(st.pids.launcher.pid).arg(st.pids.launcher.pgid);
    for (const QString &w : st.warnings)
        lines << CliText::tr("Warning:    %1").arg(jobWarningText(w));
    if (const QString seeded = seedStatusText(jobs, s.record.id); !seeded.isEmpty())
        lines << seeded;  // --seed-cache: the graphs brought before it started
    out(lines.join(QLatin1Char('\n')));
    return Ok;
}

void writeLog(const QByteArray &bytes)
{
    // Logs are the job's bytes: tqdm's carriage returns become line breaks, control characters are escaped.
    QByteArray b = bytes;
    b.replace('\r', '\n');
    const QString text = terminalSafe(nameFromBytes(b));
    const QByteArray o = text.toUtf8();
    std::fwrite(o.constData(), 1, size_t(o.size()), stdout);
    std::fflush(stdout);
}

int cmdLogs(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    JobRecordFile r;
    if (const int rc = openJob(in, &id, &found, 0, &r); rc != Ok)
        return rc;
    JobManager &jobs = *found;
    const bool launcher = in.isSet(QStringLiteral("launcher"));
    bool ok = false;
    const int rank = in.value(QStringLiteral("rank")).toInt(&ok);
    if (!ok || rank < 0) {
        err(CliText::tr("error: --rank takes a rank number"));
        return Usage;
    }
    const bool follow = in.isSet(QStringLiteral("follow"));
    JobFollower f(jobs.sharedRunner(), r, jobs.lookup());
    f.setKeepMetrics(false);
    JobFollower::Update u;
    pollOnEventLoop({[&] { u = f.poll(); },
                     [&] {
                         for (const LogChunk &c : u.logs)
                             if ((launcher && c.rank < 0) || (!launcher && c.rank == rank))
                                 writeLog(c.bytes);
                         if (!u.caughtUp)
                             return 0;
                         return !follow || isFinal(f.status().state) ? -1 : 300;
                     }});
    warnUnreadable(f.unreadable());
    const QString asked = launcher ? f.paths().launcherLog() : f.rankLog(rank, false);
    for (const QString &u : f.unreadable())
        if (!asked.isEmpty() && u.startsWith(asked + QStringLiteral(": ")))
            return PartialFailure;
    if (!launcher && !f.ranks().contains(rank) && !follow)
        err(CliText::tr("note: no log of rank %1 yet (ranks: %2)").arg(rank).arg(f.ranks().isEmpty() ? QStringLiteral("none")
            : [&] { QStringList l; for (int x : f.ranks()) l << QString::number(x); return l.join(QLatin1Char(',')); }()));
    return Ok;
}

int waitForEnd(JobManager &jobs, const QString &id, double timeout, JobStatus *st)
{
    JobRecordFile r;
    QString error;
    if (!jobs.load(id, &r, &error)) {
        err(CliText::tr("error: %1").arg(error));
        return PartialFailure;
    }
    JobStatus recorded;
    if (jobs.finalSummary(id, &recorded)) {  // ended and recorded: its record, not read again
        *st = recorded;
        return Ok;
    }
    JobFollower f(jobs.sharedRunner(), r, jobs.lookup());
    f.setKeepMetrics(false);  // bounded memory, however long the logs
    f.setKeepLogs(false);
    QDeadlineTimer deadline(timeout > 0 ? qint64(timeout * 1000) : -1);
    QString unreachable;
    JobFollower::Update u;
    int code = Ok;
    pollOnEventLoop({[&] { u = f.poll(4 << 20); },
                     [&] {
                         if (u.caughtUp && isFinal(f.status().state))
                             return -1;
                         if (f.status().unreachable != unreachable) {
                             unreachable = f.status().unreachable;
                             if (!unreachable.isEmpty())
                                 err(CliText::tr("note: %1; the job goes on there: waiting").arg(unreachable));
                         }
                         if (deadline.hasExpired()) {
                             err(CliText::tr("error: job %1 is still %2 after %3 s").arg(id, stateText(f.status())).arg(timeout));
                             code = Refused;
                             return -1;
                         }
                         return u.caughtUp ? 500 : 0;
                     }});
    if (code != Ok)
        return code;
    *st = f.status();
    jobs.saveSummary({r, *st, {}, {}});
    return Ok;
}

int exitFor(const JobStatus &st)
{
    if (st.reasonCode == QLatin1String("slurm_timeout"))
        return JobTimeout;
    if (st.reasonCode == QLatin1String("slurm_node_fail"))
        return JobNodeFailure;
    switch (st.state) {
    case JobState::Finished: return Ok;
    case JobState::Stopped: return JobStopped;
    default: return PartialFailure;
    }
}

int cmdWait(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    if (const int rc = openJob(in, &id, &found); rc != Ok)
        return rc;
    JobManager &jobs = *found;
    JobStatus st;
    const int rc = waitForEnd(jobs, id, in.value(QStringLiteral("timeout")).toDouble(), &st);
    if (rc != Ok)
        return rc;
    if (in.json)
        printJson({{"id", u8(id)}, {"state", u8(jobStateName(st.state))}, {"reason", u8(st.reason)}});
    else
        out(endText(st));
    return exitFor(st);
}

int cmdStop(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    if (const int rc = openJob(in, &id, &found); rc != Ok)
        return rc;
    JobManager &jobs = *found;
    QString message;
    const JobManager::StopResult r = jobs.stop(id, in.isSet(QStringLiteral("kill")), &message);
    if (r == JobManager::StopResult::Failed) {
        err(CliText::tr("error: %1").arg(message));
        return PartialFailure;
    }
    out(message);
    if (r == JobManager::StopResult::NotRunning || !in.isSet(QStringLiteral("wait")))
        return Ok;
    JobStatus st;
    const int rc = waitForEnd(jobs, id, 0, &st);
    if (rc != Ok)
        return rc;
    out(endText(st));
    return exitFor(st);
}

// Consolidates a job's newest complete checkpoint (or --checkpoint NAME) where the job ran: here in this process, on
// a host by Ingot's CLI there (its shards never cross the network; its output is printed as it said it).
int cmdConsolidate(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    JobRecordFile r;
    if (const int rc = openJob(in, &id, &found, 1, &r); rc != Ok)
        return rc;
    JobManager &jobs = *found;
    QString error;
    if (r.outputDir.isEmpty()) {
        err(CliText::tr("error: job %1 names no output folder (its script chose one: consolidate it with ingot-cli "
                        "consolidate DIR)").arg(id));
        return Usage;
    }
    const QString outputDir = in.positional().value(1);
    if (jobs.runner().where() == QLatin1String("local"))
        return consolidateHere(in, r.outputDir, outputDir);
    QStringList args = consolidateArguments(in);
    if (!outputDir.isEmpty())
        args << QStringLiteral("--") << outputDir;
    QByteArray output;
    int code;
    {
        StopOnSignals stopOnSignals;  // Ctrl-C stops it there too
        code = jobs.consolidateThere(r.outputDir, args, 24 * 3600 * 1000, &output, &error, &stopRequested());
    }
    if (code < 0) {
        err(CliText::tr("error: %1").arg(displayText(error)));
        return jobs.runner().unreachable().isEmpty() ? int(PartialFailure) : int(HostUnreachable);
    }
    writeLog(output);
    return code;
}

// Where the training backend is (what job launch runs on this machine): its folder, exit 0 when it holds the
// ingot_train package. An installed ingot-cli finds it in <bin>/../share/ingot/backend.
int cmdBackend(const Invocation &in)
{
    const QString dir = backendLocation();
    const bool found = QFileInfo::exists(dir + QStringLiteral("/ingot_train/__init__.py"));
    if (in.json)
        printJson({{"backend_dir", u8(displayName(dir))}, {"found", found}});
    else
        out(displayName(dir));
    if (found)
        return Ok;
    err(CliText::tr("error: the training backend is missing: %1 holds no ingot_train package (reinstall Ingot, or set "
                    "INGOT_BACKEND_DIR to a folder that holds it)")
            .arg(displayName(dir)));
    return PartialFailure;
}

}  // namespace

QVector<Command> jobCommands()
{
    const QString g = QStringLiteral("job");
    return {
        {g, QStringLiteral("launch"), CliText::tr("Start a training job detached (torchrun); prints its id"), JsonOption,
         launchOptions, cmdLaunch},
        {g, QStringLiteral("presets"), CliText::tr("The launcher's presets (job launch --preset NAME)"), JsonOption, {},
         cmdPresets},
        {g, QStringLiteral("list"), CliText::tr("Every job in the history: state, step, layout, duration, loss, output"),
         JsonOption, {}, cmdList},
        {g, QStringLiteral("status"), CliText::tr("A job's state, step of max, last loss, output folder, processes"),
         JsonOption, idArgument, cmdStatus},
        {g, QStringLiteral("logs"), CliText::tr("A rank's stdout and stderr (--follow: until the job ends)"), NoSharedOptions,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addOption({QStringLiteral("rank"), CliText::tr("The rank (default 0)."), QStringLiteral("R"), QStringLiteral("0")});
             p.addOption({QStringLiteral("launcher"), CliText::tr("torchrun's own output instead of a rank's.")});
             p.addOption({{QStringLiteral("f"), QStringLiteral("follow")}, CliText::tr("Keep printing until the job ends.")});
         },
         cmdLogs},
        {g, QStringLiteral("stop"), CliText::tr("SIGTERM to the launcher: checkpoint-N, then stopped (again after 10 s, or --kill: kill)"),
         NoSharedOptions,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addOption({QStringLiteral("wait"), CliText::tr("Wait until the job has ended.")});
             p.addOption({QStringLiteral("kill"), CliText::tr("Kill every process of the job now (no checkpoint).")});
         },
         cmdStop},
        {g, QStringLiteral("wait"), CliText::tr("Wait for the end: exit 0 finished, 1 failed, 9 stopped"), JsonOption,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addOption({QStringLiteral("timeout"), CliText::tr("Give up after S seconds (exit 4)."), QStringLiteral("S")});
         },
         cmdWait},
        {g, QStringLiteral("consolidate"), CliText::tr("A job's newest checkpoint -> safetensors, where the job ran"), JsonOption,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addPositionalArgument(QStringLiteral("output_dir"), CliText::tr("Where to write there (default: CHECKPOINT/consolidated)."),
                                     QStringLiteral("[OUTPUT_DIR]"));
             addConsolidateOptions(p);
         },
         cmdConsolidate},
        {g, QStringLiteral("backend"), CliText::tr("The training backend's folder (exit 1 when it is missing)"), JsonOption,
         {}, cmdBackend},
    };
}

}  // namespace ingot::cli
