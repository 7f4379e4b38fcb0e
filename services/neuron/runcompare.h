// Runs side by side (issue 38): two or more jobs of the history, wherever they ran (this machine, a host, Slurm),
// finished, failed or running, read as they recorded themselves: their metric series, their settings with the
// differences marked, and their graphs matched across runs, each with the verdict of the one explanation rule
// (services/cache/explain.h, through the job's compile activity: jobgraphs.h). The Jobs page's comparison and
// `ingot-cli job compare` both show this; neither decides anything of its own.
#pragma once

#include "services/cache/compilelog.h"
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobrunner.h"
#include "services/util/task.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>
#include <memory>

namespace ingot {

class JobManager;
class JobService;

// One run as it recorded itself.
struct ComparedRun {
    QString id;
    QString name;   // JobSpec::displayName(id, createdMs): the name the history shows
    QString where;  // "local" or the host
    JobRecordFile record;
    JobStatus status;
    QVector<MetricPoint> metrics;  // every point read (by step; MetricPoint::time: by wall time)
    QJsonObject trainingArgs;      // the backend's training_args.json (its output or newest checkpoint); empty: none
    QString error;                 // the run could not be read at all (nothing else is filled)
    QString graphsError;           // its compile activity could not be read (why); graphs empty then
    QString cache;                 // where it compiles, as shown
    JobGraphs graphs;

    // The curves in a line: how many points, the last and lowest loss, the mean throughput (NaN when none).
    qint64 steps() const;
    double lastLoss() const;
    double minLoss() const;
    double meanThroughput() const;
};

// One setting across the runs.
struct ComparedSetting {
    QString key;         // for machines: "engine", "sequence_length", "env.NEURON_CC_FLAGS", ...
    QString label;       // for people, translated
    QStringList values;  // one per run; "" when the run did not record it (notRecordedText())
    bool differs = false;
};
QString notRecordedText();
// How a run is named in a comparison: A, B, ... in the order given (then 27, 28, ...).
QString runLetter(int index);

// One graph across the runs: per run, the index in that run's graphs (-1: the run has no such graph). Graphs are the
// same when their module key is; otherwise when the explanation rule compared one with the other (a graph compiled
// again with other flags, under another compiler, or the nearest of a new graph: Explanation::otherKey).
struct GraphMatch {
    QVector<int> graph;
    QString key;  // the key of the first run that has it
};

// What a run compiled that the first run had, by the rule's verdicts: the summary line "B compiled 6 graphs A had:
// 4 other flags (-O1 → -O2), 2 new (parameter 0 (input_ids): s64[4,2048] → s64[4,4096])".
struct GraphDifference {
    int run = 0;               // against run 0
    int compiled = 0;          // graphs of this run, not hits, matched with one of run 0
    int otherFlags = 0, otherCompiler = 0, newGraphs = 0, otherCache = 0, blocked = 0;
    int onlyHere = 0;          // graphs of this run matched with none of run 0
    int hits = 0;              // graphs of this run found compiled
    QStringList flagChanges;   // "-O1 → -O2", each once
    QStringList compilerChanges;  // "neuronxcc-2.14… → neuronxcc-2.15…"
    QStringList shapeChanges;  // the rule's words (Explanation::changes), each once
    QString text;              // the line, translated
};

struct RunComparison {
    QVector<ComparedRun> runs;
    QVector<ComparedSetting> settings;
    QVector<GraphMatch> graphs;
    QVector<GraphDifference> differences;  // runs 1.. against run 0
    bool anyDifference() const;
};

// Where a run is: its runner (this machine's or a host's) and the lookup of a multi-node job's other nodes.
struct RunSource {
    std::shared_ptr<JobRunner> runner;
    RunnerLookup lookup;
    QString id;
    QString unreachable;  // why there is no runner (its host cannot be reached)
};

// Reads one run where it is: record, status and metrics, training_args.json, its compile activity explained.
// Blocking (files where the job ran, the compile cache): off the UI thread.
ComparedRun readComparedRun(JobManager &jobs, const QString &id);
// The comparison of runs read (pure: no I/O): the settings table, the graphs matched, each run against the first.
RunComparison compareReadRuns(QVector<ComparedRun> runs);
// Both: each source read in order (stopped early when *stop), then compared. Blocking.
RunComparison compareRuns(const QVector<RunSource> &sources, const std::atomic_bool *stop = nullptr);
// The runs of `service`'s history compared off the UI thread; `done` on `context`'s thread.
Task compareRunsOf(JobService &service, const QStringList &ids, QObject *context,
                   std::function<void(const RunComparison &)> done);

}  // namespace ingot
