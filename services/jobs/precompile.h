// A precompile phase as its tool reports it (docs/formats.md, "Precompile"): neuron_parallel_compile's log lines
// (||NEURON_PARALLEL_COMPILE||: the trial run, "Extracting graphs (<hlo path>)" per graph found, "Total graphs: N",
// "Total successful compilations: N", "Total failed compilations: N") and its results files
// (NEURON_PARALLEL_COMPILE_DUMP_RESULTS=1: neuron_parallel_compile_results_<time>.json with each graph's status,
// retries and compile time); each graph's state now is read from the cache itself, the more robust source.
#pragma once

#include "services/cache/cachetypes.h"
#include "services/jobs/jobfolder.h"

#include "services/util/linesplitter.h"

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace ingot {

class JobRunner;

struct PrecompileResult {
    bool ok = false;
    int retries = 0;
    double seconds = -1;
};

// One results file: {"compilation_report": {"<hlo path>": {"status": bool, "retry": int, "compile_time": s}}, ...}.
// nullopt, with words, for another shape; at most maxGraphs entries are kept.
std::optional<QHash<QString, PrecompileResult>> parsePrecompileResults(const QByteArray &json, QString *error,
                                                                       int maxGraphs = 100000);

class PrecompileLogScanner
{
public:
    static constexpr int maxLineBytes = 64 * 1024;
    static constexpr int maxGraphs = 100000;
    void feed(const QByteArray &bytes);
    void finish();

    QStringList extracted() const { return m_extracted; }  // hlo paths found by the trial run, in order
    bool trialRunStarted() const { return m_trial; }
    bool trialRunFailed() const { return m_trialFailed; }
    int totalGraphs() const { return m_total; }        // -1 until the summary line
    int totalSucceeded() const { return m_succeeded; }
    int totalFailed() const { return m_failed; }

private:
    void line(const QByteArray &l);
    LineSplitter m_lines{maxLineBytes};
    QStringList m_extracted;
    QSet<QString> m_seen;
    bool m_trial = false, m_trialFailed = false;
    int m_total = -1, m_succeeded = -1, m_failed = -1;
};

struct PrecompileGraph {
    QString key;       // neuronxcc-<ver>/MODULE_… when the path names one, else the path as the tool wrote it
    ModuleState state = ModuleState::Unknown;  // in the cache now (Unknown: not there, or the cache is not read)
    std::optional<PrecompileResult> result;   // from the results file, once written
};

struct PrecompileProgress {
    bool phase = false;  // the job has a precompile phase here
    int exitStatus = -1; // JOB/precompile/exit_status (-1: runs, or has not ended)
    bool trialRunFailed = false;
    int found = 0, done = 0, locked = 0, failed = 0, remaining = 0;
    QVector<PrecompileGraph> graphs;
    QString logTail;  // the tool's last lines

    // "Precompile: 12 graphs found: 7 done, 2 compiling, 1 failed, 2 remaining" (or how it ended).
    QString text() const;
};

// Reads the phase of job `paths` where `runner` runs it (its log, results files and exit status), each graph's
// state from `cache` (nullptr: not known).
PrecompileProgress readPrecompileProgress(JobRunner &runner, const JobPaths &paths, const CacheSnapshot *cache);

}  // namespace ingot
