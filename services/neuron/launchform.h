// The launch form: a job being prepared (a JobSpec and where it runs), its choices (the Python interpreters there,
// the presets), the one check of it (validateJob, plus what only a form has: a choice whose value is not typed yet, a
// number that does not read), the figures, the preview, and the compile cache's health and the last run's graphs
// before the launch. The facts are gathered off the UI thread (runTask); results arrive as signals. The launcher page
// only shows it; `ingot-cli job launch` takes its presets, its check and its warnings from here too.
#pragma once

#include "services/cache/cachehealth.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/jobvalidate.h"
#include "services/neuron/launchseed.h"
#include "services/neuron/priorgraphs.h"
#include "services/util/task.h"

#include <QObject>

#include <optional>

namespace ingot {

class JobService;

// What a form holds: the job, where it runs, and what a JobSpec cannot say.
struct LaunchInput {
    JobSpec spec;
    QString where = QStringLiteral("local");  // "local" or the host the job runs on
    QStringList nodes;  // the hosts it runs on (where first); empty on this machine
    bool modelFolderChosen = false;  // a model folder chosen (spec.modelPath may be empty yet)
    bool dataChosen = false;         // a file or a folder of training data chosen (spec.trainFile may be empty yet)
    bool dataFolder = false;         // ... a folder
    QStringList unreadNumbers;       // the flags whose typed text is no number ("learning_rate")
    bool argsUnclosed = false;       // the script arguments end inside a quote
    bool seed = false;               // *Bring compiled graphs first* (launchseed.h)
    QStringList seedPlaces;          // ... from these places (ids, fleetplaces.h); empty: where the last run's graphs are
};

// What the check found.
struct LaunchCheck {
    QVector<JobProblem> problems;  // empty: the job may launch
    JobFacts facts;
    JobFigures figures;
    bool trainIsDir = false;  // the training data named is a folder
    QVector<JobNote> notes;   // said, never refused for (jobNotes: the engine's warnings, which implementation runs)
};

// The engine that fits the job's Python where it runs, as the launcher proposes it.
struct EngineProposal {
    bool known = false;  // the Python answered (or could not be asked: choice.reason says why)
    QString where, python;  // what was asked ("" python: the default one)
    QString slurm;          // a Slurm job's settings that choose the node it is asked on ("": not a Slurm job)
    bool onNode = false;    // a compute node was asked for (askComputeNode)
    PythonInfo info;
    EngineChoice choice;
    // One line for people: "Proposed: torch 2.6 without torch_xla: native PyTorch", or why there is no proposal;
    // `chosen`: the engine the form has (a different one chosen by hand is said).
    QString text(const QString &chosen) const;
};

// The compile cache a job uses, as the launcher says it (and ingot-cli warns).
struct CacheNote {
    QString root;         // the cache, as resolved ("" while unknown); what Clean… opens
    QString location;     // "This job compiles into …", caching off, or why it cannot be said
    QString explanation;  // how it was resolved
    QString health;       // what it holds, or why it is not checked
    bool warning = false;        // health warns (failed entries, stale locks, unreadable)
    bool needsCleaning = false;  // worth cleaning before the job starts
};

class LaunchForm final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LaunchForm)

public:
    explicit LaunchForm(JobService *service, QObject *parent = nullptr);
    ~LaunchForm() override;

    // ---- choices ----
    // The presets (AppSettings): a name and a job's settings.
    static QStringList presetNames();
    // The preset's job; false with words when there is none of that name or it cannot be read.
    static bool loadPreset(const QString &name, JobSpec *spec, QString *error);
    static void savePreset(const QString &name, const JobSpec &spec);
    static void deletePreset(const QString &name);
    // The interpreters on `where` (pythonsFound when found; a later call replaces an earlier one).
    void detectPythons(const QString &where);
    const QVector<PythonInfo> &pythons() const { return m_pythons; }
    bool pythonsKnown() const { return m_pythonsKnown; }
    bool isDetectingPythons() const { return m_pythonTask.isRunning(); }
    // Asks the job's Python of `in` (where it runs) which engine fits, off the UI thread (engineProposed); not again
    // for the same place and Python (probeJobPython remembers the answer).
    void proposeEngine(const LaunchInput &in);
    // A Slurm job's Python asked on a compute node of its partition (srun --immediate: a node free now, 60 s at
    // most; else the login node answers and says why), when the user asks: the answer is then the proposal, and the
    // checks that follow take it (probeJobPython remembers it).
    void askComputeNode(const LaunchInput &in);
    bool isAskingEngine() const { return m_engineTask.isRunning(); }
    const EngineProposal &engineProposal() const { return m_engine; }

    // ---- the one check ----
    // A number as typed in a form (C locale, finite); NaN and *ok false otherwise.
    static double readNumber(const QString &text, bool *ok);
    // What only a form can get wrong (a choice without its value, a number that does not read, a variable twice).
    static QVector<JobProblem> inputProblems(const LaunchInput &in);
    // The whole check, blocking: inputProblems, then validateJob's (a field already named keeps the first), the
    // nodes (a Slurm job's are the scheduler's). `runner`: where the job runs (nullptr: it cannot be used now,
    // `whereError` says why). The launcher and `ingot-cli job launch` refuse by it, in its words.
    static LaunchCheck checkNow(const LaunchInput &in, JobRunner *runner, const QString &whereError);
    // Why no Python can run the job: none is chosen and none of `found` (the interpreters where it runs) imports
    // torch; empty otherwise. `local`: how this machine is named.
    static QString pythonProblem(const LaunchInput &in, const QVector<PythonInfo> &found, const QString &local);

    // The form changed: the plan shown is no longer it (hasPlan() false until the next check plans).
    void invalidate();
    // Checks `in` off the UI thread (checked), then plans it when nothing is wrong (previewChanged).
    void check(const LaunchInput &in);
    const LaunchCheck &lastCheck() const { return m_check; }
    QVector<JobProblem> problems() const { return m_problems; }
    bool hasPlan() const { return m_hasPlan; }
    const LaunchPlan &plan() const { return m_plan; }
    // What the command box shows: the command (a Slurm job's batch script after it), or why there is none.
    QString previewText() const;
    static QString previewText(const LaunchPlan &plan);

    // ---- the compile cache ----
    // The cache `in` compiles into and its health (cacheChecked; not again for the cache last checked unless
    // `again`); on a host, where it is there.
    void checkCache(const LaunchInput &in, bool again = false);
    const CacheNote &cacheNote() const { return m_cache; }
    // What a cache's health says, in the launcher's words.
    static void describeHealth(const CacheHealth &c, CacheNote *note);
    // The last run on this machine with the same graph settings, and what `cacheRoot` holds of its graphs now
    // (blocking; the cache is read through StoreFactory).
    static PriorGraphs priorGraphsNow(const QVector<JobSummary> &history, const JobSpec &spec,
                                      const JobManager &manager, const QString &cacheRoot);
    // The same for `in` (priorGraphsChecked); nothing found for a job on a host or without a local cache.
    void checkPriorGraphs(const LaunchInput &in);
    const PriorGraphs &priorGraphs() const { return m_prior; }
    // What the launcher warns of before a job on this machine starts, as lines (the cache's health, the last run's
    // blocked graphs): ingot-cli prints them. Blocking.
    static QStringList launchWarnings(JobManager &manager, const JobSpec &spec);

    // ---- bringing compiled graphs first ----
    // What *Bring compiled graphs first* would do for `in` (seedChecked): the graphs of the last run with these
    // settings, the places (those named, else the places Ingot knows that hold some of them) and how many each has.
    void checkSeed(const LaunchInput &in);
    const LaunchSeed &seed() const { return m_seed; }
    // While that is looked for, Launch waits (the step it would run is not known yet).
    bool isCheckingSeed() const { return !m_launching && m_seedTask.isRunning(); }
    // Whether *Bring compiled graphs first* is copying for the launch under way; stopSeeding() ends it (nothing more is
    // copied, and the job is not started: launchFailed says so).
    bool isSeeding() const { return m_launching && m_seedTask.isRunning(); }
    void stopSeeding();
    // For the launcher: what will be brought and from where, or why nothing will ("" while off).
    QString seedText() const { return m_seedText; }

    // ---- launching ----
    // Launches the plan shown (launched or launchFailed), after bringing the compiled graphs first when chosen
    // (seedProgress while it copies; its result is kept in the job's folder).
    void launch();
    bool isLaunching() const { return m_launching; }
    // True while a check, a plan, a cache scan, a Python search or a launch is pending or running.
    bool isBusy() const;

Q_SIGNALS:
    void pythonsFound(const QString &error);
    void checked();         // problems(), lastCheck() are the form's
    void previewChanged();  // previewText() shows the current plan, or why there is none
    void cacheChecked();
    void priorGraphsChecked();
    void engineProposed();
    void seedChecked();
    void seedProgress(const QString &text);
    void launched(const QString &id);
    void launchFailed(const QString &error);

private:
    void requestPlan(const JobSpec &spec, const QStringList &nodes);
    QString detectedPythonProblem(const LaunchInput &in) const;

    JobService *m_service;
    quint64 m_generation = 0;
    void askEngine(const LaunchInput &in, bool onNode);

    void startLaunch();
    Task m_factsTask, m_planTask, m_cacheTask, m_priorTask, m_pythonTask, m_engineTask, m_seedTask;
    LaunchSeed m_seed;
    QString m_seedText;
    bool m_seedStopRequested = false;
    std::optional<SeedResult> m_seedResult;  // what the step did for the launch under way
    EngineProposal m_engine;
    LaunchCheck m_check;
    QVector<JobProblem> m_problems;
    bool m_hasPlan = false;
    LaunchPlan m_plan;
    QString m_planError;
    CacheNote m_cache;
    QString m_cacheScanned;  // the cache the health is about
    PriorGraphs m_prior;
    QVector<PythonInfo> m_pythons;
    QString m_pythonsAsked;  // where the last search looks
    bool m_pythonsKnown = false;
    bool m_launching = false;
    QString m_launchingId;
};

}  // namespace ingot
