// The precedence of a job's states and reasons (services/jobs/jobstaterule), without processes: every combination of
// what the follower can read (how the job was started and where Slurm has it, whether it runs, what it wrote, a Stop,
// its exit status, the words in its logs, what an earlier poll decided) against the rule as docs/formats.md says it
// ("States", the Slurm section's reasons, "Precompile first"), written below as a first-match table; and rows written
// out by hand with their whole verdict.
#include "services/jobs/jobstaterule.h"

#include <QTest>

#include <functional>

using namespace ingot;

Q_DECLARE_METATYPE(ingot::JobStateFacts)
Q_DECLARE_METATYPE(ingot::JobState)

namespace {

const QString checkpoint = QStringLiteral("/out/checkpoint-40");
const QString timeLimit = QStringLiteral("00:10:00");
const QString nodeList = QStringLiteral("trn1-[1-2]");
const QByteArray precompileLog = "extracting\n\ncompiling 3 graphs\nERROR: 1 graph failed\n";
const QString precompileLogLocal = QStringLiteral("extracting\ncompiling 3 graphs\nERROR: 1 graph failed");  // empty lines left out
const QString precompileLogSlurm = QStringLiteral("extracting\n\ncompiling 3 graphs\nERROR: 1 graph failed");
const FailureWords logWords{QStringLiteral("RuntimeError: boom"), QStringLiteral("Traceback ...\nRuntimeError: boom"), 1};

SchedulerStatus scheduler(const char *id, const char *state, bool known = true)
{
    SchedulerStatus s;
    s.jobId = QLatin1String(id);
    s.state = QLatin1String(state);
    s.known = known;
    s.forgotten = !known && s.jobId.size() > 0;
    s.timeLimit = timeLimit;
    s.nodeList = nodeList;
    return s;
}

// What the facts mean, by the documents: each value of a dimension below says it for its part.
struct Meaning {
    bool grace = false;           // not started yet, within its moment to write launcher.pid
    bool notStarted = false;      // no launcher.pid and no Slurm id
    bool notSubmitted = false;    // a Slurm job without a slurm_job_id
    bool schedulerWaits = false;  // Slurm has the training job waiting (or does not know it): pending
    bool trainingWaits = true;    // the training job has not started (for "compiling while the precompile runs")
    bool precompileRuns = false;  // the precompile phase runs or waits
    bool precompileWaits = false;  // ... waits for nodes: pending
    int localPrecompileFailed = 0;  // its precompile phase's status when it failed (this machine, a host)
    QStringList slurmPrecompileFailed;  // the reason's arguments when Slurm's precompile job failed
    const char *slurmEnd = nullptr;     // Slurm ended it: the code
    QStringList slurmEndArgs;
    JobState slurmEndState = JobState::Failed;
};

struct Value {
    QString name;
    std::function<void(JobStateFacts &, Meaning &)> set;
};
using Dimension = QVector<Value>;

// How the job was started: on this machine (or a host) with or without launcher.pid and a precompile phase, or on
// Slurm with its training job's and its precompile job's states.
Dimension kinds()
{
    Dimension out;
    for (const bool pids : {true, false})
        for (const double since : {5.0, 600.0})
            for (const int pre : {-2, -1, 0, 3})
                out << Value{QStringLiteral("local(pids=%1,since=%2,precompile=%3)").arg(pids).arg(since).arg(pre),
                             [=](JobStateFacts &f, Meaning &m) {
                                 f.pidsKnown = pids;
                                 f.sinceCreated = since;
                                 f.precompileExit = pre;
                                 m.grace = !pids && since < 15;
                                 m.notStarted = !pids;
                                 m.precompileRuns = pre == -1;
                                 m.localPrecompileFailed = pre > 0 ? pre : 0;
                             }};
    struct Job {
        const char *name;
        SchedulerStatus s;
        bool waits;
        bool started;
        const char *end;
        QStringList args;
        JobState endState = JobState::Failed;
    };
    const QVector<Job> jobs = {
        {"unsubmitted", scheduler("", ""), false, false, nullptr, {}},
        {"PENDING", scheduler("71", "PENDING"), true, false, nullptr, {}},
        {"CONFIGURING", scheduler("71", "CONFIGURING"), true, false, nullptr, {}},
        {"RUNNING", scheduler("71", "RUNNING"), false, true, nullptr, {}},
        {"COMPLETING", scheduler("71", "COMPLETING"), false, true, nullptr, {}},
        {"COMPLETED", scheduler("71", "COMPLETED"), false, true, nullptr, {}},
        {"FAILED", scheduler("71", "FAILED"), false, true, nullptr, {}},
        {"DEADLINE", scheduler("71", "DEADLINE"), false, true, nullptr, {}},
        {"CANCELLED", scheduler("71", "CANCELLED"), false, true, "slurm_cancelled", {}, JobState::Stopped},
        {"TIMEOUT", scheduler("71", "TIMEOUT"), false, true, "slurm_timeout", {timeLimit, checkpoint}},
        {"NODE_FAIL", scheduler("71", "NODE_FAIL"), false, true, "slurm_node_fail", {nodeList}},
        {"BOOT_FAIL", scheduler("71", "BOOT_FAIL"), false, true, "slurm_node_fail", {nodeList}},
        {"OUT_OF_MEMORY", scheduler("71", "OUT_OF_MEMORY"), false, true, "slurm_out_of_memory", {}},
        {"PREEMPTED", scheduler("71", "PREEMPTED"), false, true, "slurm_preempted", {}},
        {"forgotten", scheduler("71", "RUNNING", false), true, false, nullptr, {}},
    };
    struct Pre {
        const char *name;
        SchedulerStatus s;
        bool runs;
        bool waits;
        QStringList failed;
    };
    auto batch = [](SchedulerStatus s, int status) {
        s.batchExitStatus = status;
        return s;
    };
    const QVector<Pre> pres = {
        {"none", SchedulerStatus{}, false, false, {}},
        {"running", scheduler("70", "RUNNING"), true, false, {}},
        {"pending", scheduler("70", "PENDING"), true, true, {}},
        {"ok", batch(scheduler("70", "COMPLETED"), 0), false, false, {}},
        {"ok-no-status", scheduler("70", "COMPLETED"), false, false, {}},
        {"ok-forgotten", batch(scheduler("70", "", false), 0), false, false, {}},
        {"failed", batch(scheduler("70", "FAILED"), 1), false, false, {QStringLiteral("70"), QStringLiteral("exit status 1")}},
        {"failed-running", batch(scheduler("70", "RUNNING"), 2), false, false, {QStringLiteral("70"), QStringLiteral("exit status 2")}},
        {"killed", scheduler("70", "TIMEOUT"), false, false, {QStringLiteral("70"), QStringLiteral("TIMEOUT")}},
        {"forgotten", scheduler("70", "", false), false, false, {QStringLiteral("70"), QStringLiteral("ended without an exit status")}},
    };
    for (const Job &j : jobs)
        for (const Pre &p : pres)
            out << Value{QStringLiteral("slurm(job=%1,precompile=%2)").arg(QLatin1String(j.name), QLatin1String(p.name)),
                         [=](JobStateFacts &f, Meaning &m) {
                             f.slurm = true;
                             f.sinceCreated = 600;
                             f.slurmJob = j.s;
                             f.precompileJob = p.s;
                             m.notSubmitted = j.s.jobId.isEmpty();
                             m.notStarted = j.s.jobId.isEmpty();
                             m.schedulerWaits = !j.s.jobId.isEmpty() && j.waits;
                             m.trainingWaits = !j.started;
                             m.precompileRuns = p.runs;
                             m.precompileWaits = p.waits;
                             m.slurmPrecompileFailed = p.failed;
                             m.slurmEnd = j.end;
                             m.slurmEndArgs = j.args;
                             m.slurmEndState = j.endState;
                         }};
    return out;
}

Dimension flag(const char *name, bool JobStateFacts::*member)
{
    return {{QStringLiteral("!%1").arg(QLatin1String(name)), [=](JobStateFacts &f, Meaning &) { f.*member = false; }},
            {QLatin1String(name), [=](JobStateFacts &f, Meaning &) { f.*member = true; }}};
}

// What rank 0 wrote while it ran.
Dimension progress()
{
    auto wrote = [](const char *name, bool metrics, const char *event, bool sinceSave, bool stepped) {
        return Value{QLatin1String(name), [=](JobStateFacts &f, Meaning &) {
                         f.wroteMetrics = metrics;
                         f.lastEvent = QLatin1String(event);
                         f.metricSinceSave = sinceSave;
                         f.trainerStepped = stepped;
                     }};
    };
    return {wrote("nothing", false, "", true, false),       wrote("started", false, "started", true, false),
            wrote("first_step", false, "first_step", true, false), wrote("metrics", true, "metric", true, false),
            wrote("saving", true, "saving", false, false),   wrote("saving-first", false, "saving", false, false),
            wrote("trainer-bar", false, "", true, true),      wrote("trainer-points", true, "", true, true)};
}

// The events that end a run (the last event then).
Dimension endEvents()
{
    return {{QStringLiteral("no-end-event"), [](JobStateFacts &, Meaning &) {}},
            {QStringLiteral("finished"), [](JobStateFacts &f, Meaning &) {
                 f.finishedEvent = true;
                 f.lastEvent = QStringLiteral("finished");
             }},
            {QStringLiteral("stopped"), [](JobStateFacts &f, Meaning &) {
                 f.stoppedSignal = QStringLiteral("SIGTERM");
                 f.lastEvent = QStringLiteral("stopped");
             }},
            {QStringLiteral("failed"), [](JobStateFacts &f, Meaning &) {
                 f.failedWords = QStringLiteral("bad data");
                 f.lastEvent = QStringLiteral("failed");
             }}};
}

Dimension exitStatuses()
{
    Dimension out;
    for (const int status : {-1, 0, 1, 143})
        out << Value{QStringLiteral("exit=%1").arg(status), [=](JobStateFacts &f, Meaning &) { f.exitStatus = status; }};
    return out;
}

Dimension logs()
{
    return {{QStringLiteral("no-words"), [](JobStateFacts &, Meaning &) {}},
            {QStringLiteral("words"), [](JobStateFacts &f, Meaning &) { f.logs = logWords; }}};
}

Dimension previous()
{
    return {{QStringLiteral("fresh"), [](JobStateFacts &, Meaning &) {}},
            {QStringLiteral("judged-before"), [](JobStateFacts &f, Meaning &) {
                 f.previous = JobState::Failed;
                 f.previousEnded = true;
             }}};
}

struct Expected {
    JobState state = JobState::Starting;
    bool judged = false;
    QString code;
    QStringList args;
    QString reason;
    QString detail;
    int rank = -1;
};

Expected liveAs(JobState s)
{
    Expected e;
    e.state = s;
    return e;
}

Expected endsAs(JobState s, const char *code = nullptr, const QStringList &args = {})
{
    Expected e;
    e.state = s;
    e.judged = true;
    e.code = QLatin1String(code);
    e.args = args;
    return e;
}

// The rule as the documents say it: the first row that matches decides.
struct DocumentedRule {
    const char *says;
    std::function<bool(const JobStateFacts &, const Meaning &)> when;
    std::function<Expected(const JobStateFacts &, const Meaning &)> then;
};

bool wroteNothing(const JobStateFacts &f)
{
    return !f.wroteMetrics && f.lastEvent.isEmpty();
}

const QVector<DocumentedRule> &documentedRules()
{
    using F = const JobStateFacts &;
    using M = const Meaning &;
    static const QVector<DocumentedRule> rules = {
        // While it runs.
        {"runs, wrote nothing, its precompile runs: compiling (pending while the precompile job waits for nodes)",
         [](F f, M m) { return f.alive && wroteNothing(f) && m.precompileRuns && m.trainingWaits; },
         [](F, M m) { return liveAs(m.precompileWaits ? JobState::Pending : JobState::Compiling); }},
        {"runs, wrote nothing, Slurm has it waiting or does not know it: pending",
         [](F f, M m) { return f.alive && wroteNothing(f) && m.schedulerWaits; },
         [](F, M) { return liveAs(JobState::Pending); }},
        {"runs, stop_request exists: stopping", [](F f, M) { return f.alive && f.stopRequested; },
         [](F, M) { return liveAs(JobState::Stopping); }},
        {"runs, a saving event and no metric since: saving",
         [](F f, M) { return f.alive && (f.lastEvent == QLatin1String("saving") || !f.metricSinceSave); },
         [](F, M) { return liveAs(JobState::Saving); }},
        {"runs, a metric or a Trainer point or step arrived: running",
         [](F f, M) { return f.alive && (f.wroteMetrics || f.trainerStepped); },
         [](F, M) { return liveAs(JobState::Running); }},
        {"runs, after started (or first_step): compiling / first step",
         [](F f, M) { return f.alive && (f.lastEvent == QLatin1String("started") || f.lastEvent == QLatin1String("first_step")); },
         [](F, M) { return liveAs(JobState::Compiling); }},
        {"runs, else: starting", [](F f, M) { return f.alive; }, [](F, M) { return liveAs(JobState::Starting); }},
        // Not running.
        {"no launcher.pid yet, within its moment to write one: starting", [](F, M m) { return m.grace; },
         [](F, M) { return liveAs(JobState::Starting); }},
        {"its end was judged before: kept", [](F f, M) { return f.previousEnded && isFinal(f.previous); },
         [](F f, M) { return liveAs(f.previous); }},
        {"a finished event: finished", [](F f, M) { return f.finishedEvent; },
         [](F, M) { return endsAs(JobState::Finished); }},
        {"Slurm's precompile job failed (no Stop, no exit status): failed, slurm_precompile_failed",
         [](F f, M m) { return !m.slurmPrecompileFailed.isEmpty() && !f.stopRequested && f.exitStatus < 0; },
         [](F, M m) {
             Expected e = endsAs(JobState::Failed, "slurm_precompile_failed", m.slurmPrecompileFailed);
             e.detail = precompileLogSlurm;
             return e;
         }},
        {"Slurm ended it (a CANCELLED nobody asked Ingot for): Slurm's word",
         [](F f, M m) { return m.slurmEnd && (m.slurmEndState != JobState::Stopped || !f.stopRequested); },
         [](F, M m) { return endsAs(m.slurmEndState, m.slurmEnd, m.slurmEndArgs); }},
        {"a stopped event: stopped, stopped_at_step", [](F f, M) { return !f.stoppedSignal.isEmpty(); },
         [](F f, M) {
             return endsAs(JobState::Stopped, "stopped_at_step", {QString::number(f.step), f.stoppedSignal, f.lastCheckpoint});
         }},
        {"a failed event: failed, its words (the logs' detail, rank 0)", [](F f, M) { return !f.failedWords.isEmpty(); },
         [](F f, M) {
             Expected e = endsAs(JobState::Failed);
             e.reason = f.failedWords;
             e.detail = f.logs.detail;
             e.rank = 0;
             return e;
         }},
        {"its precompile phase failed (no Stop): failed, precompile_failed",
         [](F f, M m) { return m.localPrecompileFailed > 0 && !f.stopRequested; },
         [](F, M m) {
             Expected e = endsAs(JobState::Failed, "precompile_failed", {QString::number(m.localPrecompileFailed)});
             e.detail = precompileLogLocal;
             return e;
         }},
        {"exit status 0: finished", [](F f, M) { return f.exitStatus == 0; }, [](F, M) { return endsAs(JobState::Finished); }},
        {"a Stop and no exit status: stopped, killed_after_stop",
         [](F f, M) { return f.stopRequested && f.exitStatus < 0; },
         [](F, M) { return endsAs(JobState::Stopped, "killed_after_stop"); }},
        {"a Stop and a non-zero status: stopped, stopped_exit_status", [](F f, M) { return f.stopRequested; },
         [](F f, M) { return endsAs(JobState::Stopped, "stopped_exit_status", {QString::number(f.exitStatus)}); }},
        {"failed, the logs' words", [](F f, M) { return !f.logs.reason.isEmpty(); },
         [](F f, M) {
             Expected e = endsAs(JobState::Failed);
             e.reason = f.logs.reason;
             e.detail = f.logs.detail;
             e.rank = f.logs.rank;
             return e;
         }},
        {"failed, a Slurm job never submitted: slurm_not_submitted", [](F, M m) { return m.notSubmitted; },
         [](F, M) { return endsAs(JobState::Failed, "slurm_not_submitted"); }},
        {"failed, never started: not_started", [](F, M m) { return m.notStarted; },
         [](F, M) { return endsAs(JobState::Failed, "not_started"); }},
        {"failed, no exit status: ended_without_result", [](F f, M) { return f.exitStatus < 0; },
         [](F, M) { return endsAs(JobState::Failed, "ended_without_result"); }},
        {"failed: launcher_exit_status", [](F, M) { return true; },
         [](F f, M) { return endsAs(JobState::Failed, "launcher_exit_status", {QString::number(f.exitStatus)}); }},
    };
    return rules;
}

QString describe(const JobVerdict &v)
{
    return QStringLiteral("%1 judged=%2 code=%3 args=[%4] reason=\"%5\" rank=%6")
        .arg(jobStateName(v.state))
        .arg(v.judged)
        .arg(QLatin1String(v.reasonCode ? v.reasonCode : ""), v.reasonArgs.join(QLatin1Char(',')), v.reason)
        .arg(v.reasonRank);
}

QString describe(const Expected &e)
{
    return QStringLiteral("%1 judged=%2 code=%3 args=[%4] reason=\"%5\" rank=%6")
        .arg(jobStateName(e.state))
        .arg(e.judged)
        .arg(e.code, e.args.join(QLatin1Char(',')), e.reason)
        .arg(e.rank);
}

bool same(const JobVerdict &v, const Expected &e)
{
    return v.state == e.state && v.judged == e.judged && QLatin1String(v.reasonCode ? v.reasonCode : "") == e.code
        && v.reasonArgs == e.args && v.reason == e.reason && v.reasonDetail == e.detail && v.reasonRank == e.rank;
}

}  // namespace

class TestJobStateRule final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Every combination of the dimensions' values: the verdict is the documented rule's, and the end's files are
    // asked for exactly when the end is judged.
    void everyCombinationFollowsTheDocumentedRule()
    {
        const QVector<Dimension> dims = {kinds(),       flag("alive", &JobStateFacts::alive),
                                         progress(),    endEvents(),
                                         flag("stop_request", &JobStateFacts::stopRequested),
                                         exitStatuses(), logs(),
                                         previous()};
        QVector<int> at(dims.size(), 0);
        qint64 rows = 0, mismatches = 0;
        QStringList shown;
        QHash<QString, qint64> used;  // how many rows each documented rule decided
        for (;;) {
            JobStateFacts f;
            f.step = 40;
            f.lastCheckpoint = checkpoint;
            f.precompileLog = precompileLog;
            Meaning m;
            QStringList name;
            for (int d = 0; d < dims.size(); ++d) {
                const Value &v = dims.at(d).at(at.at(d));
                v.set(f, m);
                name << v.name;
            }
            const DocumentedRule *rule = nullptr;
            for (const DocumentedRule &r : documentedRules())
                if (!rule && r.when(f, m))
                    rule = &r;
            const Expected e = rule->then(f, m);
            used[QLatin1String(rule->says)] += 1;
            const JobVerdict v = jobStateRule(f);
            ++rows;
            if (!same(v, e) || endToJudge(f) != e.judged) {
                if (++mismatches <= 10)
                    shown << QStringLiteral("%1\n    rule: %2\n    want: %3\n    got:  %4 (endToJudge %5)")
                                 .arg(name.join(QLatin1Char(' ')), QLatin1String(rule->says), describe(e), describe(v))
                                 .arg(endToJudge(f));
            }
            int d = dims.size() - 1;
            while (d >= 0 && ++at[d] == dims.at(d).size())
                at[d--] = 0;
            if (d < 0)
                break;
        }
        QVERIFY2(mismatches == 0, qPrintable(QStringLiteral("%1 of %2 combinations differ:\n").arg(mismatches).arg(rows)
                                             + shown.join(QLatin1Char('\n'))));
        qint64 all = 1;
        for (const Dimension &d : dims)
            all *= d.size();
        QCOMPARE(rows, all);
        // Each documented rule decides some combination: none is dead, the enumeration reaches every branch.
        for (const DocumentedRule &r : documentedRules())
            QVERIFY2(used.value(QLatin1String(r.says)) > 0, r.says);
    }

    // Rows written out whole: the verdict's every field.
    void rows_data()
    {
        QTest::addColumn<JobStateFacts>("facts");
        QTest::addColumn<JobState>("state");
        QTest::addColumn<bool>("judged");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("detail");
        QTest::addColumn<int>("rank");

        auto local = [] {
            JobStateFacts f;
            f.pidsKnown = true;
            f.sinceCreated = 600;
            f.step = 40;
            f.lastCheckpoint = checkpoint;
            return f;
        };
        auto slurm = [&](const char *state, const char *precompileState = "", int batch = -1) {
            JobStateFacts f = local();
            f.pidsKnown = false;
            f.slurm = true;
            f.slurmJob = scheduler("71", state);
            if (*precompileState) {
                f.precompileJob = scheduler("70", precompileState);
                f.precompileJob.batchExitStatus = batch;
            }
            return f;
        };
        const QString none;
        const QStringList noArgs;
        JobStateFacts f = local();
        f.alive = true;
        QTest::newRow("just started") << f << JobState::Starting << false << none << noArgs << none << none << -1;
        f.lastEvent = QStringLiteral("first_step");
        QTest::newRow("first step") << f << JobState::Compiling << false << none << noArgs << none << none << -1;
        f.wroteMetrics = true;
        f.lastEvent = QStringLiteral("metric");
        QTest::newRow("a metric") << f << JobState::Running << false << none << noArgs << none << none << -1;
        f.lastEvent = QStringLiteral("saving");
        f.metricSinceSave = false;
        QTest::newRow("saving") << f << JobState::Saving << false << none << noArgs << none << none << -1;
        f.stopRequested = true;
        QTest::newRow("a Stop while saving") << f << JobState::Stopping << false << none << noArgs << none << none << -1;

        f = local();
        f.pidsKnown = false;
        f.sinceCreated = 14.9;
        QTest::newRow("no pid yet") << f << JobState::Starting << false << none << noArgs << none << none << -1;
        f.sinceCreated = 15;
        QTest::newRow("no pid after 15 s")
            << f << JobState::Failed << true << QStringLiteral("not_started") << noArgs << none << none << -1;

        f = local();
        f.exitStatus = 0;
        QTest::newRow("exit 0") << f << JobState::Finished << true << none << noArgs << none << none << -1;
        f.exitStatus = 1;
        QTest::newRow("exit 1")
            << f << JobState::Failed << true << QStringLiteral("launcher_exit_status") << QStringList{QStringLiteral("1")}
            << none << none << -1;
        f.logs = logWords;
        QTest::newRow("exit 1, a traceback")
            << f << JobState::Failed << true << none << noArgs << logWords.reason << logWords.detail << 1;
        f.failedWords = QStringLiteral("the dataset has no rows");
        QTest::newRow("a failed event")
            << f << JobState::Failed << true << none << noArgs << f.failedWords << logWords.detail << 0;
        f.stoppedSignal = QStringLiteral("SIGTERM");
        QTest::newRow("stopped beats failed")
            << f << JobState::Stopped << true << QStringLiteral("stopped_at_step")
            << QStringList{QStringLiteral("40"), QStringLiteral("SIGTERM"), checkpoint} << none << none << -1;
        f.finishedEvent = true;
        QTest::newRow("finished beats all") << f << JobState::Finished << true << none << noArgs << none << none << -1;

        f = local();
        f.stopRequested = true;
        QTest::newRow("killed after a Stop")
            << f << JobState::Stopped << true << QStringLiteral("killed_after_stop") << noArgs << none << none << -1;
        f.exitStatus = 143;
        QTest::newRow("a Stop, exit 143")
            << f << JobState::Stopped << true << QStringLiteral("stopped_exit_status") << QStringList{QStringLiteral("143")}
            << none << none << -1;
        f.exitStatus = 0;
        QTest::newRow("a Stop, exit 0") << f << JobState::Finished << true << none << noArgs << none << none << -1;

        f = local();
        f.precompileExit = -1;
        f.alive = true;
        QTest::newRow("precompiling here") << f << JobState::Compiling << false << none << noArgs << none << none << -1;
        f.alive = false;
        f.precompileExit = 3;
        f.precompileLog = precompileLog;
        QTest::newRow("precompile failed here")
            << f << JobState::Failed << true << QStringLiteral("precompile_failed") << QStringList{QStringLiteral("3")}
            << none << precompileLogLocal << -1;
        f.stopRequested = true;
        QTest::newRow("precompile stopped here")
            << f << JobState::Stopped << true << QStringLiteral("killed_after_stop") << noArgs << none << none << -1;

        f = slurm("PENDING");
        f.alive = true;
        QTest::newRow("Slurm pending") << f << JobState::Pending << false << none << noArgs << none << none << -1;
        f.lastEvent = QStringLiteral("started");
        QTest::newRow("pending, yet it wrote") << f << JobState::Compiling << false << none << noArgs << none << none << -1;
        f = slurm("PENDING", "RUNNING");
        f.alive = true;
        QTest::newRow("Slurm precompiling") << f << JobState::Compiling << false << none << noArgs << none << none << -1;
        f = slurm("PENDING", "PENDING");
        f.alive = true;
        QTest::newRow("Slurm precompile pending") << f << JobState::Pending << false << none << noArgs << none << none << -1;
        f = slurm("CANCELLED", "FAILED", 1);
        f.precompileLog = precompileLog;
        QTest::newRow("Slurm precompile failed")
            << f << JobState::Failed << true << QStringLiteral("slurm_precompile_failed")
            << QStringList{QStringLiteral("70"), QStringLiteral("exit status 1")} << none << precompileLogSlurm << -1;
        f.stopRequested = true;
        QTest::newRow("Slurm precompile stopped")
            << f << JobState::Stopped << true << QStringLiteral("killed_after_stop") << noArgs << none << none << -1;

        f = slurm("TIMEOUT");
        f.stoppedSignal = QStringLiteral("SIGTERM");
        QTest::newRow("time limit beats stopped")
            << f << JobState::Failed << true << QStringLiteral("slurm_timeout") << QStringList{timeLimit, checkpoint}
            << none << none << -1;
        f.lastCheckpoint.clear();
        QTest::newRow("time limit, no checkpoint")
            << f << JobState::Failed << true << QStringLiteral("slurm_timeout") << QStringList{timeLimit, QStringLiteral("-")}
            << none << none << -1;
        f = slurm("CANCELLED");
        QTest::newRow("scancel by someone")
            << f << JobState::Stopped << true << QStringLiteral("slurm_cancelled") << noArgs << none << none << -1;
        f.stopRequested = true;
        QTest::newRow("scancel by Ingot's Stop")
            << f << JobState::Stopped << true << QStringLiteral("killed_after_stop") << noArgs << none << none << -1;
        // A Stop asked for ends the batch script with 0: Slurm says COMPLETED, exit_status keeps the agents' status.
        f = slurm("COMPLETED");
        f.stopRequested = true;
        f.exitStatus = 143;
        QTest::newRow("Ingot's Stop on Slurm")
            << f << JobState::Stopped << true << QStringLiteral("stopped_exit_status") << QStringList{QStringLiteral("143")}
            << none << none << -1;
        f = slurm("COMPLETED");
        f.exitStatus = 0;
        QTest::newRow("Slurm completed") << f << JobState::Finished << true << none << noArgs << none << none << -1;
        f = slurm("");
        f.slurmJob = SchedulerStatus{};
        QTest::newRow("never submitted")
            << f << JobState::Failed << true << QStringLiteral("slurm_not_submitted") << noArgs << none << none << -1;

        f = local();
        f.previous = JobState::Stopped;
        f.previousEnded = true;
        f.exitStatus = 0;
        QTest::newRow("judged once") << f << JobState::Stopped << false << none << noArgs << none << none << -1;
        f.alive = true;
        f.wroteMetrics = true;
        QTest::newRow("runs again") << f << JobState::Running << false << none << noArgs << none << none << -1;
    }

    void rows()
    {
        QFETCH(JobStateFacts, facts);
        QFETCH(JobState, state);
        QFETCH(bool, judged);
        QFETCH(QString, code);
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        QFETCH(QString, detail);
        QFETCH(int, rank);
        const JobVerdict v = jobStateRule(facts);
        QCOMPARE(jobStateName(v.state), jobStateName(state));
        QCOMPARE(v.judged, judged);
        QCOMPARE(endToJudge(facts), judged);
        QCOMPARE(QLatin1String(v.reasonCode ? v.reasonCode : ""), code);
        QCOMPARE(v.reasonArgs, args);
        QCOMPARE(v.reason, reason);
        QCOMPARE(v.reasonDetail, detail);
        QCOMPARE(v.reasonRank, rank);
    }
};

QTEST_GUILESS_MAIN(TestJobStateRule)
#include "tst_jobstaterule.moc"
