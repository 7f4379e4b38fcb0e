#include "app/cli/jobmonitorcommands.h"

#include "app/cli/clicommon.h"
#include "app/cli/explaincommands.h"
#include "app/cli/jobcontext.h"
#include "services/cache/explain.h"
#include "services/jobs/jobresume.h"
#include "services/jobs/jobtext.h"
#include "services/jobs/neuronmonitor.h"
#include "services/jobs/remotejobindex.h"
#include "services/neuron/jobgraphs.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct CliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

json removeJson(const QString &id, const RemovePreview &job, const RemovePreview &outputs, bool withOutputs, bool removed)
{
    const char *fate = !outputs.outputFolder.isEmpty() ? (withOutputs ? "removed" : "kept")
                       : outputs.refusal.isEmpty()    ? "inside"
                                                      : "kept";
    json j = {{"id", u8(id)}, {"job_dir", u8(displayName(job.jobFolder))}, {"job_dir_bytes", job.jobFolderBytes},
              {"outputs", fate}, {"removed", removed}};
    if (!outputs.outputFolder.isEmpty()) {
        j["output_dir"] = u8(displayName(outputs.outputFolder));
        j["output_bytes"] = outputs.outputBytes;
    } else if (!outputs.refusal.isEmpty()) {
        j["outputs_kept_because"] = u8(outputs.refusal);
    }
    return j;
}

// The removal as the Jobs page's dialog previews it: the job's folder (refused while the job runs), then its outputs
// (kept unless --outputs; never a folder that holds more than them).
int cmdRemove(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    if (const int rc = openJob(in, &id, &found); rc != Ok)
        return rc;
    JobManager &jobs = *found;
    const bool withOutputs = in.isSet(QStringLiteral("outputs"));
    const RemovePreview job = jobs.previewRemove(id, false);
    if (!job.refusal.isEmpty()) {
        err(CliText::tr("refused: %1").arg(job.refusal));
        return Refused;
    }
    const RemovePreview outputs = jobs.previewRemove(id, true);
    if (withOutputs && !outputs.refusal.isEmpty()) {
        err(CliText::tr("refused: %1 (without --outputs, the job's folder alone is removed)").arg(outputs.refusal));
        return Refused;
    }
    QStringList lines{removeJobFolderText(job)};
    if (!outputs.outputFolder.isEmpty())
        lines << (withOutputs ? CliText::tr("Also removes the outputs %1 (%2).")
                              : CliText::tr("Keeps the outputs %1 (%2); --outputs removes them too."))
                     .arg(displayName(outputs.outputFolder), formatBytes(outputs.outputBytes));
    else if (!outputs.refusal.isEmpty())
        lines << CliText::tr("The outputs are kept: %1").arg(outputs.refusal);
    else
        lines << CliText::tr("The outputs are inside the job's folder and go with it.");
    const bool dryRun = in.isSet(QStringLiteral("dry-run"));
    if (!in.json)
        out(lines.join(QLatin1Char('\n')));
    if (dryRun) {
        if (in.json)
            printJson(removeJson(id, job, outputs, withOutputs, false));
        return Ok;
    }
    if (!in.isSet(QStringLiteral("yes"))) {
        if (!stdinIsTerminal()) {
            if (in.json)
                printJson(removeJson(id, job, outputs, withOutputs, false));
            err(CliText::tr("refused: not a terminal, so nothing is removed without --yes (or use --dry-run)."));
            return Refused;
        }
        if (!confirm(CliText::tr("Remove job %1?").arg(id))) {
            err(CliText::tr("Nothing was changed."));
            return Ok;
        }
    }
    QString error;
    if (!removeRecorded(jobs, id, withOutputs, isRemote(jobs), RemoteJobIndex(), &error)) {
        err(CliText::tr("error: job %1 was not removed: %2").arg(id, displayText(error)));
        return PartialFailure;
    }
    if (in.json)
        printJson(removeJson(id, job, outputs, withOutputs, true));
    else
        out(CliText::tr("Removed job %1.").arg(id));
    return Ok;
}

// The monitor's Resume, launched at once: the same settings from the job's newest checkpoint, where it ran.
int cmdResume(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    if (const int rc = openJob(in, &id, &found); rc != Ok)
        return rc;
    JobManager &jobs = *found;
    LaunchPlan plan;
    QVector<JobProblem> problems;
    QString error;
    if (!planResume(jobs, id, &plan, &problems, &error)) {
        for (const JobProblem &p : problems)
            err(CliText::tr("error: --%1: %2").arg(p.field, p.message));
        if (problems.isEmpty())
            err(CliText::tr("refused: %1").arg(displayText(error)));
        return Refused;
    }
    const json planned = {{"id", u8(plan.record.id)}, {"resumed_from", u8(id)},
                          {"checkpoint", u8(displayName(plan.record.spec.resumeFrom))}, {"command", u8(plan.commandLine)}};
    if (in.isSet(QStringLiteral("dry-run"))) {
        if (in.json)
            printJson(planned);
        else
            out(plan.commandLine);
        return Ok;
    }
    if (!launchRecorded(jobs, plan, isRemote(jobs), RemoteJobIndex(), &error)) {
        err(CliText::tr("error: %1").arg(displayText(error)));
        return PartialFailure;
    }
    if (in.json) {
        json j = planned;
        j["job_dir"] = u8(displayName(plan.paths.root));
        j["output_dir"] = u8(displayName(plan.record.outputDir));
        printJson(j);
    } else {
        out(plan.record.id);
    }
    return Ok;
}

// The monitor's compile activity: every graph of the job with why it compiled, read now where the job runs.
int cmdGraphs(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    JobRecordFile r;
    if (const int rc = openJob(in, &id, &found, 0, &r); rc != Ok)
        return rc;
    JobCompileActivity a;
    QString error;
    if (!readJobCompileActivity(*found, r, &a, &error)) {
        err(CliText::tr("error: %1").arg(displayText(error)));
        return a.cache.cachingDisabled || !a.cache.isSupported() ? int(Unsupported) : int(CacheUnavailable);
    }
    if (in.json) {
        json graphs = json::array();
        for (const JobGraph &g : a.graphs.graphs) {
            json j = explanationJson(g.explanation);
            j["entry_state"] = u8(stateName(g.entryState));
            j["size"] = g.size;
            j["changed"] = g.entryChangedMs > 0 ? json(u8(isoDateTime(g.entryChangedMs))) : json(nullptr);
            graphs.push_back(j);
        }
        json counts = json::object();
        for (const Verdict v : {Verdict::Hit, Verdict::Blocked, Verdict::OtherCache, Verdict::OtherFlags,
                                Verdict::OtherCompiler, Verdict::NewGraph})
            counts[u8(verdictName(v))] = a.graphs.count(v);
        printJson({{"id", u8(id)}, {"compile_cache", cacheLocationJson(a.cache, a.store.display())},
                   {"summary", u8(a.graphs.summary())}, {"counts", counts}, {"graphs", graphs}});
        return Ok;
    }
    if (a.graphs.graphs.isEmpty()) {
        out(CliText::tr("No graph of this job in %1 yet.").arg(displayName(a.store.display())));
        return Ok;
    }
    out(CliText::tr("%1 — in %2").arg(a.graphs.summary(), displayName(a.store.display())));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Table t({CliText::tr("ENTRY"), CliText::tr("WHY"), CliText::tr("STATE"), CliText::tr("SIZE"), CliText::tr("CHANGED")},
            {false, false, false, true, false});
    for (const JobGraph &g : a.graphs.graphs)
        t.add({displayName(g.explanation.key.key()), verdictLabel(g.explanation.verdict), stateName(g.entryState),
               formatBytes(g.size), g.entryChangedMs > 0 ? formatAge(g.entryChangedMs, now) : QString()});
    out(t.render());
    if (in.isSet(QStringLiteral("why")))
        for (const JobGraph &g : a.graphs.graphs) {
            out(QString());
            out(displayName(g.explanation.headline()));
            for (const QString &l : g.explanation.evidence())
                out(QStringLiteral("  ") + displayName(l));
            if (!g.explanation.fix().isEmpty())
                out(CliText::tr("What to do: %1").arg(displayName(g.explanation.fix())));
        }
    return Ok;
}

json neuronJson(const QString &id, const NeuronSample &s)
{
    json j = {{"id", u8(id)}, {"available", s.available}};
    if (!s.error.isEmpty())
        j["error"] = u8(displayName(s.error));
    if (s.report) {
        const NeuronMonitorReport &r = *s.report;
        json cores = json::object();
        for (auto it = r.utilization.cbegin(); it != r.utilization.cend(); ++it)
            cores[std::to_string(it.key())] = it.value();
        json kinds = json::object();
        for (auto it = r.errorKinds.cbegin(); it != r.errorKinds.cend(); ++it)
            kinds[u8(displayName(it.key()))] = it.value();
        json errors = json::array();
        for (const QString &e : r.errors)
            errors.push_back(u8(displayName(e)));
        j["report"] = {{"instance_type", u8(displayName(r.instanceType))}, {"runtimes", r.runtimes},
                       {"utilization", cores}, {"host_bytes", r.hostBytes}, {"device_bytes", r.deviceBytes},
                       {"executions", r.executions}, {"execution_errors", r.executionErrors}, {"error_kinds", kinds},
                       {"ecc_corrected", r.eccCorrected}, {"ecc_uncorrected", r.eccUncorrected}, {"errors", errors}};
    }
    if (s.devices) {
        json devices = json::array();
        for (const NeuronDevice &d : *s.devices) {
            json processes = json::array();
            for (const QString &p : d.processes)
                processes.push_back(u8(displayName(p)));
            devices.push_back({{"index", d.index}, {"cores", d.cores}, {"memory_bytes", d.memoryBytes},
                               {"processes", processes}});
        }
        j["devices"] = devices;
    }
    return j;
}

// The monitor's NeuronCores tab, one sample: neuron-monitor (and neuron-ls) asked where the running job is.
int cmdNeuronCores(const Invocation &in)
{
    QString id;
    std::unique_ptr<JobManager> found;
    if (const int rc = openJob(in, &id, &found); rc != Ok)
        return rc;
    JobManager &jobs = *found;
    QString error;
    const JobSummary s = jobs.summary(id, false, &error);
    if (!error.isEmpty()) {
        err(CliText::tr("error: %1").arg(error));
        return PartialFailure;
    }
    if (!s.status.alive) {
        err(CliText::tr("no neuron-monitor data: job %1 is not running (NeuronCores are read while it runs)").arg(id));
        return Refused;
    }
    const NeuronSample sample = sampleJobNeuronCores(jobs.runner(), s.record, s.status, true);
    if (in.json)
        printJson(neuronJson(id, sample));
    if (!sample.available || !sample.report) {
        if (!in.json)
            err(CliText::tr("no neuron-monitor data: %1").arg(displayName(sample.error)));
        return sample.notYet ? int(Refused) : int(Unsupported);
    }
    if (in.json)
        return Ok;
    QStringList lines;
    if (sample.devices)
        lines << neuronDevicesLines(*sample.devices);
    lines << neuronReportText(*sample.report);
    for (auto it = sample.report->utilization.cbegin(); it != sample.report->utilization.cend(); ++it)
        lines << CliText::tr("  NeuronCore %1: %2 %").arg(it.key()).arg(it.value(), 0, 'f', 1);
    for (const QString &a : neuronAlerts(*sample.report))
        lines << CliText::tr("warning: %1").arg(a);
    out(lines.join(QLatin1Char('\n')));
    return Ok;
}

}  // namespace

QVector<Command> jobMonitorCommands()
{
    const QString g = QStringLiteral("job");
    return {
        {g, QStringLiteral("remove"), CliText::tr("Remove an ended job's folder (previewed; --outputs: its outputs too)"),
         JsonOption,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addOption({QStringLiteral("outputs"), CliText::tr("Also remove the job's output folder (never one that holds more).")});
             p.addOption({QStringLiteral("dry-run"), CliText::tr("Only say what would be removed.")});
             p.addOption({{QStringLiteral("y"), QStringLiteral("yes")}, CliText::tr("Do not ask for confirmation.")});
         },
         cmdRemove},
        {g, QStringLiteral("resume"), CliText::tr("Launch an ended job's settings again from its newest checkpoint; prints the new id"),
         JsonOption,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addOption({QStringLiteral("dry-run"), CliText::tr("Validate and print the command; start nothing.")});
         },
         cmdResume},
        {g, QStringLiteral("graphs"), CliText::tr("A job's compile activity: each graph, why it compiled (hit, new, other flags, ...)"),
         JsonOption,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addOption({QStringLiteral("why"), CliText::tr("Also each graph's evidence and what to do.")});
         },
         cmdGraphs},
        {g, QStringLiteral("neuroncores"), CliText::tr("A running job's NeuronCores now: utilization, memory, errors (neuron-monitor)"),
         JsonOption, idArgument, cmdNeuronCores},
    };
}

}  // namespace ingot::cli
