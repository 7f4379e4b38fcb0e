#include "services/neuron/priorgraphs.h"

#include "services/cache/compilelog.h"
#include "services/jobs/jobfolder.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QFile>

#include <algorithm>

namespace ingot {

namespace {
struct PriorGraphsText {
    Q_DECLARE_TR_FUNCTIONS(ingot::PriorGraphs)
};

constexpr qint64 maxLogBytes = 256LL << 20;  // read of one run's logs, in all

// Feeds a file into its own scanner, in blocks, up to what is left of the budget.
void scanFile(const QString &path, CompileLogScanner *into, qint64 *budget)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return;
    CompileLogScanner s;
    while (*budget > 0) {
        const QByteArray block = f.read(std::min<qint64>(1 << 20, *budget));
        if (block.isEmpty())
            break;
        *budget -= block.size();
        s.feed(block);
    }
    s.finish();
    into->merge(s);
}

// The same through a job runner (a host's files, read there by offset).
void scanRemoteFile(JobRunner &runner, const QString &path, CompileLogScanner *into, qint64 *budget)
{
    CompileLogScanner s;
    for (qint64 at = 0; *budget > 0;) {
        const FileChunk c = runner.readFile(path, at, std::min<qint64>(1 << 20, *budget));
        if (!c.exists || !c.error.isEmpty() || c.data.isEmpty())
            break;
        *budget -= c.data.size();
        at += c.data.size();
        s.feed(c.data);
    }
    s.finish();
    into->merge(s);
}

// Every graph the run's logs name: its launcher's log and each rank's stdout and stderr.
void scanRunLogs(const QString &folder, JobRunner *runner, CompileLogScanner *log)
{
    qint64 budget = maxLogBytes;
    const JobPaths paths{folder};
    if (runner) {
        scanRemoteFile(*runner, paths.launcherLog(), log, &budget);
        for (const QString &rel : runner->listFiles(paths.logsDir(), 4))
            if (budget > 0 && (rel.endsWith(QLatin1String("/stdout.log")) || rel.endsWith(QLatin1String("/stderr.log"))))
                scanRemoteFile(*runner, paths.logsDir() + QLatin1Char('/') + rel, log, &budget);
        return;
    }
    scanFile(paths.launcherLog(), log, &budget);
    QDirIterator it(paths.logsDir(), {QStringLiteral("stdout.log"), QStringLiteral("stderr.log")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext() && budget > 0)
        scanFile(it.next(), log, &budget);
}
}  // namespace

QString PriorGraphs::text() const
{
    if (!found)
        return {};
    QString t = PriorGraphsText::tr("The last run with these settings (%1) used %n graph(s): %2 compiled in %3 now, %4 to "
                                    "compile again.", nullptr, graphs)
                    .arg(jobId).arg(compiled).arg(cache).arg(missing);
    if (blocked > 0)
        t += QLatin1Char(' ') + PriorGraphsText::tr("%n blocked (FAILED or LOCKED): %1", nullptr, blocked)
                                    .arg(blockedKeys.mid(0, 3).join(QStringLiteral(", ")));
    return t;
}

PriorGraphs priorGraphs(const QVector<JobSummary> &history, const JobSpec &spec, const QString &where,
                        const std::function<QString(const QString &id)> &folderOf, const CacheSnapshot &cache,
                        const QString &cacheShown, JobRunner *runner)
{
    QVector<const JobSummary *> runs;
    for (const JobSummary &s : history)
        if (s.record.where == where && s.record.spec.sameGraphSettings(spec))
            runs << &s;
    std::sort(runs.begin(), runs.end(), [](const JobSummary *a, const JobSummary *b) {
        return a->record.createdMs > b->record.createdMs;
    });
    PriorGraphs out;
    out.cache = cacheShown;
    for (const JobSummary *run : std::as_const(runs)) {
        const QString folder = folderOf(run->record.id);
        if (folder.isEmpty())
            continue;
        CompileLogScanner log;
        scanRunLogs(folder, runner, &log);
        // Graphs by key: the hits and cached failures name theirs; a compile names its module, found in the cache.
        QStringList keys = log.hits() + log.failed();
        for (const QString &name : log.compiled()) {
            const CacheModule *newest = nullptr;
            for (const CacheModule &m : cache.modules)
                if (m.name == name && (!newest || m.lastUsedMs > newest->lastUsedMs))
                    newest = &m;
            keys << (newest ? newest->key() : name);
        }
        keys.removeDuplicates();
        if (keys.isEmpty())
            continue;
        out.found = true;
        out.jobId = run->record.id;
        out.jobCreatedMs = run->record.createdMs;
        out.graphs = int(keys.size());
        out.keys = keys;
        for (const QString &k : std::as_const(keys)) {
            const CacheModule *m = cache.find(k);
            if (m && m->state == ModuleState::Success) {
                ++out.compiled;
            } else if (m && (m->state == ModuleState::Failed || m->state == ModuleState::Locked)) {
                ++out.blocked;
                out.blockedKeys << k;
            } else {
                ++out.missing;
            }
        }
        break;
    }
    return out;
}

}  // namespace ingot
