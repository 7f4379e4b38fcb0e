#include "app/cli/jobcomparecommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/explaincommands.h"
#include "app/cli/jobcontext.h"
#include "services/cache/explain.h"
#include "services/neuron/runcompare.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>

#include <cmath>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct CliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

QString numberText(double v)
{
    return std::isfinite(v) ? formatMetric(v) : QStringLiteral("-");
}

json stringList(const QStringList &l)
{
    json a = json::array();
    for (const QString &s : l)
        a.push_back(u8(displayName(s)));
    return a;
}

json runJson(const ComparedRun &r)
{
    json j = {{"id", u8(r.id)}, {"name", u8(displayName(r.name))}, {"where", u8(displayName(r.where))}};
    if (!r.error.isEmpty()) {
        j["error"] = u8(displayName(r.error));
        return j;
    }
    j["state"] = u8(jobStateName(r.status.state));
    j["steps"] = r.steps();
    j["points"] = r.metrics.size();
    j["last_loss"] = number(r.lastLoss());
    j["min_loss"] = number(r.minLoss());
    j["mean_tokens_per_second"] = number(r.meanThroughput());
    j["compile_cache"] = r.cache.isEmpty() ? json(nullptr) : json(u8(displayName(r.cache)));
    if (!r.graphsError.isEmpty())
        j["graphs_error"] = u8(displayName(r.graphsError));
    else
        j["graphs_summary"] = u8(displayName(r.graphs.summary()));
    return j;
}

json comparisonJson(const RunComparison &c)
{
    json runs = json::array();
    for (const ComparedRun &r : c.runs)
        runs.push_back(runJson(r));
    json settings = json::array();
    for (const ComparedSetting &s : c.settings) {
        json values = json::array();
        for (const QString &v : s.values)
            values.push_back(v.isEmpty() ? json(nullptr) : json(u8(displayName(v))));
        settings.push_back({{"key", u8(s.key)}, {"label", u8(s.label)}, {"values", values}, {"differs", s.differs}});
    }
    json graphs = json::array();
    for (const GraphMatch &m : c.graphs) {
        json per = json::array();
        for (int i = 0; i < m.graph.size(); ++i) {
            if (m.graph[i] < 0) {
                per.push_back(nullptr);
                continue;
            }
            const JobGraph &g = c.runs[i].graphs.graphs[m.graph[i]];
            json e = explanationJson(g.explanation);
            e["entry_state"] = u8(stateName(g.entryState));
            per.push_back(e);
        }
        graphs.push_back({{"key", u8(displayName(m.key))}, {"runs", per}});
    }
    json differences = json::array();
    for (const GraphDifference &d : c.differences)
        differences.push_back({{"run", d.run}, {"against", 0}, {"text", u8(displayName(d.text))}, {"compiled", d.compiled},
                               {"other_flags", d.otherFlags}, {"other_compiler", d.otherCompiler}, {"new_graph", d.newGraphs},
                               {"other_cache", d.otherCache}, {"blocked", d.blocked}, {"only_here", d.onlyHere},
                               {"hits", d.hits}, {"flag_changes", stringList(d.flagChanges)},
                               {"compiler_changes", stringList(d.compilerChanges)}, {"shape_changes", stringList(d.shapeChanges)}});
    return {{"runs", runs}, {"settings", settings}, {"graphs", graphs}, {"differences", differences},
            {"any_difference", c.anyDifference()}};
}

// A run's column header: its letter and id ("A 20261128-101502-3fa9").
QString runHeader(int i, const ComparedRun &r)
{
    return QStringLiteral("%1 %2").arg(runLetter(i), r.id);
}

void printComparison(const RunComparison &c)
{
    QStringList lines;
    for (int i = 0; i < c.runs.size(); ++i) {
        const ComparedRun &r = c.runs[i];
        lines << (r.error.isEmpty() ? CliText::tr("%1: %2, %3").arg(runHeader(i, r), displayName(r.name), jobStateTitle(r.status.state))
                                    : CliText::tr("%1: %2").arg(runHeader(i, r), displayName(r.error)));
    }
    out(lines.join(QLatin1Char('\n')));

    QStringList headers{QString(), CliText::tr("SETTING")};
    for (int i = 0; i < c.runs.size(); ++i)
        headers << runLetter(i);
    Table settings(headers);
    for (const ComparedSetting &s : c.settings) {
        QStringList row{s.differs ? QStringLiteral("*") : QString(), s.label};
        for (const QString &v : s.values)
            row << (v.isEmpty() ? notRecordedText() : displayName(v));
        settings.add(row);
    }
    out(QString());
    out(CliText::tr("Settings (* differs):"));
    out(settings.render());

    Table curves({CliText::tr("RUN"), CliText::tr("STEPS"), CliText::tr("LAST LOSS"), CliText::tr("MIN LOSS"), CliText::tr("MEAN TOKENS/S")},
                 {false, true, true, true, true});
    for (int i = 0; i < c.runs.size(); ++i) {
        const ComparedRun &r = c.runs[i];
        curves.add({runLetter(i), QString::number(r.steps()), numberText(r.lastLoss()),
                    numberText(r.minLoss()), numberText(r.meanThroughput())});
    }
    out(QString());
    out(CliText::tr("Curves:"));
    out(curves.render());

    out(QString());
    out(CliText::tr("Graphs:"));
    for (int i = 0; i < c.runs.size(); ++i) {
        const ComparedRun &r = c.runs[i];
        if (r.error.isEmpty())
            out(QStringLiteral("  %1: %2").arg(runLetter(i))
                    .arg(displayName(r.graphsError.isEmpty() ? r.graphs.summary() : r.graphsError)));
    }
    for (const GraphDifference &d : c.differences)
        out(QStringLiteral("  ") + displayName(d.text));
    if (c.graphs.isEmpty())
        return;
    QStringList graphHeaders{CliText::tr("GRAPH")};
    for (int i = 0; i < c.runs.size(); ++i)
        graphHeaders << runLetter(i);
    Table graphs(graphHeaders);
    for (const GraphMatch &m : c.graphs) {
        QStringList row{displayName(m.key)};
        for (int i = 0; i < m.graph.size(); ++i)
            row << (m.graph[i] < 0 ? QStringLiteral("-") : verdictLabel(c.runs[i].graphs.graphs[m.graph[i]].explanation.verdict));
        graphs.add(row);
    }
    out(graphs.render());
}

int cmdCompare(const Invocation &in)
{
    const QStringList ids = in.positional();
    if (ids.size() < 2) {
        err(CliText::tr("error: name two or more job ids (ingot-cli job list)"));
        return Usage;
    }
    QVector<RunSource> sources;
    for (const QString &id : ids) {
        std::unique_ptr<JobManager> jobs;
        if (const int rc = jobManagerFor(id, &jobs); rc != Ok)
            return rc;
        sources << RunSource{jobs->sharedRunner(), jobs->lookup(), id, {}};
    }
    StopOnSignals stopOnSignals;
    const RunComparison c = compareRuns(sources, &stopRequested());
    if (in.json)
        printJson(comparisonJson(c));
    else
        printComparison(c);
    bool failed = c.runs.size() < sources.size();
    for (const ComparedRun &r : c.runs) {
        if (!r.error.isEmpty() && !in.json)
            err(CliText::tr("error: job %1: %2").arg(r.id, displayText(r.error)));
        failed = failed || !r.error.isEmpty();
    }
    return failed ? PartialFailure : Ok;
}

}  // namespace

QVector<Command> jobCompareCommands()
{
    return {
        {QStringLiteral("job"), QStringLiteral("compare"),
         CliText::tr("Runs side by side: their settings (differences marked), curves and graphs with why each compiled"),
         JsonOption,
         [](QCommandLineParser &p) {
             p.addPositionalArgument(QStringLiteral("ID"), CliText::tr("Two or more job ids (ingot-cli job list); the first is the one the others are compared with."),
                                     QStringLiteral("ID ID [ID...]"));
         },
         cmdCompare},
    };
}

}  // namespace ingot::cli
