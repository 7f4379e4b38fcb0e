// What a job's output says about its graphs (docs/formats.md, "The compiler's log lines"): the Neuron compiler
// wrapper logs a cache hit ("Using a cached neff at <cache>/neuronxcc-<ver>/MODULE_…/model.neff"), a cached failure
// ("Got a cached failed neff at …"), each compile ("Call compiler with cmd: [… model.MODULE_<hlo>+<flags>.hlo_module.pb
// …]") and the cache it uses ("Compile cache path: <path>"). From those lines and the entries the job wrote, every
// graph of a job gets a verdict (explain.h), and the job a one-line summary.
#pragma once

#include "services/cache/explain.h"

#include "services/util/linesplitter.h"

#include <QByteArray>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

class CompileLogScanner
{
public:
    static constexpr int maxLineBytes = 64 * 1024;
    static constexpr int maxGraphs = 100000;

    // Bytes of the job's output, in order; lines end at '\n' or '\r'. Longer lines are dropped.
    void feed(const QByteArray &bytes);
    void finish();
    // Adds what another scanner (another stream of the same job) saw.
    void merge(const CompileLogScanner &other);

    QStringList hits() const { return m_hits; }           // keys, in order of first sight
    QStringList failed() const { return m_failed; }       // keys with a cached failure
    QStringList compiled() const { return m_compiled; }   // module names (MODULE_…) the compiler was called for
    QString cachePath() const { return m_cachePath; }     // the last "Compile cache path" seen

private:
    void line(const QByteArray &l);
    void add(QStringList *list, QSet<QString> *seen, const QString &v);
    LineSplitter m_lines{maxLineBytes};
    QStringList m_hits, m_failed, m_compiled;
    QSet<QString> m_seenHits, m_seenFailed, m_seenCompiled;
    QString m_cachePath;
};

struct JobGraph {
    enum class Seen { LogHit, LogFailed, Written };  // how the graph is known: the log, or an entry the job wrote
    Seen seen = Seen::Written;
    Explanation explanation;
    ModuleState entryState = ModuleState::Empty;  // the entry as explained (a change asks again)
    qint64 entryChangedMs = 0;
    qint64 size = 0;
};

struct JobGraphs {
    QVector<JobGraph> graphs;
    int count(Verdict v) const;
    // "38 graphs: 31 hits, 4 new, 2 other flags, 1 blocked" (verdicts with none left out).
    QString summary() const;
};

// Every graph of a job, as its log names them: the hits and cached failures, and the entries of the target cache
// the compiler was called for ("Call compiler with cmd: ... model.MODULE_….hlo"), written since startedMs (the job
// compiled them: explained with compiledByJob). An entry its log does not name is not credited to it, whenever it
// appeared. Hits from the log need no lookup; the rest are explained against the target and the other caches.
// `previous`: graphs explained before, by key; one whose entry has not changed since (same state, same folder
// times) is taken over instead of asked again.
JobGraphs explainJobGraphs(const CompileLogScanner &log, const ExplainTarget &target, const QVector<OtherCache> &others,
                           qint64 startedMs, const QHash<QString, JobGraph> &previous = {});

}  // namespace ingot
