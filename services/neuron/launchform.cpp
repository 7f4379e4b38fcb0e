#include "services/neuron/launchform.h"

#include "services/cache/cachelocation.h"
#include "services/cache/cachescanner.h"
#include "services/jobs/jobservice.h"
#include "services/stores/storefactory.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"

#include <QLocale>
#include <QSet>

#include <cmath>

namespace ingot {

LaunchForm::LaunchForm(JobService *service, QObject *parent)
    : QObject(parent)
    , m_service(service)
{
    connect(m_service, &JobService::launched, this, [this](const QString &id) {
        if (!m_launching || id != m_launchingId)
            return;
        m_launching = false;
        if (m_seedResult)  // kept in the job's folder for its status and the monitor
            runTask(this, [runner = m_service->sharedRunner(), paths = m_plan.paths, r = *m_seedResult](TaskControl &) {
                QString ignored;  // the job runs either way; its status then just does not say what was brought
                keepSeedResult(*runner, paths, r, &ignored);
            }, [] {});
        m_seedResult.reset();
        invalidate();  // a new id and port for the next launch
        Q_EMIT launched(id);
    });
    connect(m_service, &JobService::launchFailed, this, [this](const QString &error) {
        if (!m_launching)
            return;
        m_launching = false;
        invalidate();
        Q_EMIT launchFailed(error);
    });
}

LaunchForm::~LaunchForm()
{
    for (Task *t : {&m_factsTask, &m_planTask, &m_cacheTask, &m_priorTask, &m_pythonTask, &m_engineTask, &m_seedTask})
        t->discard();
}

// ---- choices ----

QStringList LaunchForm::presetNames()
{
    return AppSettings::jobPresets().keys();
}

bool LaunchForm::loadPreset(const QString &name, JobSpec *spec, QString *error)
{
    const QMap<QString, QJsonObject> presets = AppSettings::jobPresets();
    if (!presets.contains(name)) {
        *error = tr("there is no preset named %1").arg(displayName(name));
        return false;
    }
    QString why;
    const JobSpec s = JobSpec::fromJson(presets.value(name), &why);
    if (!why.isEmpty()) {
        *error = tr("the preset %1 cannot be used: %2").arg(displayName(name), why);
        return false;
    }
    *spec = s;
    return true;
}

void LaunchForm::savePreset(const QString &name, const JobSpec &spec)
{
    QMap<QString, QJsonObject> presets = AppSettings::jobPresets();
    presets.insert(name, spec.toJson());
    AppSettings::setJobPresets(presets);
}

void LaunchForm::deletePreset(const QString &name)
{
    QMap<QString, QJsonObject> presets = AppSettings::jobPresets();
    presets.remove(name);
    AppSettings::setJobPresets(presets);
}

void LaunchForm::detectPythons(const QString &where)
{
    m_pythonsKnown = false;
    m_pythonsAsked = where;
    m_pythonTask.discard();
    m_pythonTask = m_service->detectPythonsOn(where, [this, where](const QVector<PythonInfo> &pythons, const QString &error) {
        if (where != m_pythonsAsked)
            return;
        m_pythonsKnown = error.isEmpty();
        m_pythons = pythons;
        Q_EMIT pythonsFound(error);
    });
}

void LaunchForm::proposeEngine(const LaunchInput &in)
{
    askEngine(in, false);
}

void LaunchForm::askComputeNode(const LaunchInput &in)
{
    if (in.spec.slurm.enabled)
        askEngine(in, true);
}

void LaunchForm::askEngine(const LaunchInput &in, bool onNode)
{
    const SlurmSettings slurm = in.spec.slurm;
    const QString slurmKey = slurm.enabled ? QStringList{slurm.slurmConf, slurm.partition, slurm.account, slurm.qos}.join(QChar(0))
                                           : QString();
    const bool same = m_engine.where == in.where && m_engine.python == in.spec.python && m_engine.slurm == slurmKey;
    // Asked already (one that did not answer, a host out of reach, is asked again with the next check); a node's
    // answer stands until the job's place, Python or Slurm settings change.
    if (same && (m_engine.onNode || !onNode)
        && ((m_engine.known && !m_engine.info.version.isEmpty()) || m_engineTask.isRunning()))
        return;
    m_engine = EngineProposal();
    m_engine.where = in.where;
    m_engine.python = in.spec.python;
    m_engine.slurm = slurmKey;
    m_engine.onNode = onNode;
    m_engineTask.discard();
    const RunnerLookup lookup = m_service->lookup();
    m_engineTask = runTask(
        this,
        [where = in.where, python = in.spec.python, slurm, lookup, onNode](TaskControl &) {
            QString error;
            const std::shared_ptr<JobRunner> runner = lookup(where, &error);
            PythonInfo info;
            if (runner)
                info = probeJobPython(*runner, python, slurm, onNode);
            else
                info.error = error;
            return info;
        },
        [this](const PythonInfo &info) {
            m_engine.known = true;
            m_engine.info = info;
            m_engine.choice = jobEngineFor(info);
            Q_EMIT engineProposed();
        });
}

QString EngineProposal::text(const QString &chosen) const
{
    if (!known)
        return LaunchForm::tr("Asking the job's Python which engine fits…");
    if (choice.engine.isEmpty())
        return LaunchForm::tr("No engine proposed: %1").arg(choice.reason);
    if (chosen == QLatin1String("auto") || chosen == choice.engine)
        return LaunchForm::tr("Proposed: %1.").arg(choice.reason);
    return LaunchForm::tr("Proposed: %1; %2 is chosen.").arg(choice.reason, engineLabel(chosen));
}

// ---- the one check ----

double LaunchForm::readNumber(const QString &text, bool *ok)
{
    const double v = QLocale::c().toDouble(text.trimmed(), ok);
    if (!*ok || !std::isfinite(v)) {
        *ok = false;
        return std::nan("");
    }
    return v;
}

QVector<JobProblem> LaunchForm::inputProblems(const LaunchInput &in)
{
    QVector<JobProblem> p;
    const JobSpec &s = in.spec;
    if (s.program != JobProgram::Backend && in.argsUnclosed)
        p.append({QStringLiteral("extra_args"), tr("a quote is not closed (or the line ends in a backslash)")});
    if (in.modelFolderChosen && s.modelPath.isEmpty())
        p.append({QStringLiteral("model_name_or_path"), tr("choose a Hugging Face model folder (with config.json)")});
    if (in.dataChosen && s.trainFile.isEmpty())
        p.append({QStringLiteral("train_file"), in.dataFolder ? tr("choose a folder of text files") : tr("choose a text file")});
    for (const QString &flag : in.unreadNumbers)
        if (flag != QLatin1String("num_train_epochs") || s.maxSteps == -1)  // epochs count only when training by them
            p.append({flag, tr("not a number (write 0.001 or 1e-3)")});
    QSet<QString> keys;
    for (const auto &kv : s.env) {
        if (keys.contains(kv.first))
            p.append({QStringLiteral("env"), tr("%1 is set twice").arg(displayName(kv.first))});
        keys.insert(kv.first);
    }
    return p;
}

LaunchCheck LaunchForm::checkNow(const LaunchInput &in, JobRunner *runner, const QString &whereError)
{
    LaunchCheck c;
    const JobSpec &s = in.spec;
    // A Slurm job's nodes are the scheduler's to allocate; other multi-node jobs need a host per node.
    int maxNodes = s.slurm.enabled ? JobManager::maxSlurmNodes : 1;
    if (runner) {
        c.facts = gatherJobFacts(s, *runner);
        if (!s.slurm.enabled)
            maxNodes = runner->maxNodes();
        c.trainIsDir = !s.trainFile.isEmpty() && runner->pathInfo(s.trainFile).isDir;
    } else {
        c.facts = gatherJobFacts(s);
    }
    c.figures = jobFigures(s, c.facts.model);
    c.notes = jobNotes(s, c.facts);
    c.problems = inputProblems(in);
    QSet<QString> named;
    for (const JobProblem &p : std::as_const(c.problems))
        named.insert(p.field);
    for (const JobProblem &p : validateJob(s, c.facts, maxNodes))
        if (!named.contains(p.field))
            c.problems.append(p);
    if (!whereError.isEmpty())
        c.problems.append({QStringLiteral("host"), displayText(whereError)});
    else if (s.nnodes > 1 && !s.slurm.enabled && in.nodes.size() != s.nnodes)
        c.problems.append({QStringLiteral("nnodes"), tr("a job on %1 nodes runs on %1 hosts: name the other %2 (comma-separated)")
                                                         .arg(s.nnodes)
                                                         .arg(s.nnodes - 1)});
    return c;
}

QString LaunchForm::pythonProblem(const LaunchInput &in, const QVector<PythonInfo> &found, const QString &local)
{
    if (!in.spec.python.isEmpty())
        return {};
    for (const PythonInfo &py : found)
        if (py.usable())
            return {};
    return tr("no Python with torch was found on %1: choose one")
        .arg(in.where == QLatin1String("local") ? local : displayName(in.where));
}

QString LaunchForm::detectedPythonProblem(const LaunchInput &in) const
{
    return m_pythonsKnown ? pythonProblem(in, m_pythons, m_service->runner().describe()) : QString();
}

void LaunchForm::invalidate()
{
    ++m_generation;
    m_factsTask.discard();
    m_planTask.discard();
    m_hasPlan = false;
}

void LaunchForm::check(const LaunchInput &in)
{
    const quint64 generation = m_generation;
    m_factsTask.discard();
    const RunnerLookup lookup = m_service->lookup();
    m_factsTask = runTask(
        this,
        [in, lookup](TaskControl &) {
            // Looked up where the job runs: a host's files for a host.
            QString whereError;
            const std::shared_ptr<JobRunner> runner = lookup(in.where, &whereError);
            return checkNow(in, runner.get(), whereError);
        },
        [this, generation, in](LaunchCheck c) {
            if (generation != m_generation)
                return;
            if (const QString why = detectedPythonProblem(in); !why.isEmpty()) {
                bool named = false;
                for (const JobProblem &p : std::as_const(c.problems))
                    named = named || p.field == QLatin1String("python");
                if (!named)
                    c.problems.append({QStringLiteral("python"), why});
            }
            m_check = c;
            m_problems = c.problems;
            m_planError.clear();
            Q_EMIT checked();
            if (m_problems.isEmpty())
                requestPlan(in.spec, in.nodes);
            else
                Q_EMIT previewChanged();
        });
}

void LaunchForm::requestPlan(const JobSpec &spec, const QStringList &nodes)
{
    const quint64 generation = m_generation;
    m_planTask.discard();
    m_planTask = m_service->plan(spec, [this, generation](const LaunchPlan &plan, const QVector<JobProblem> &problems,
                                                          const QString &error) {
        if (generation != m_generation)
            return;
        m_planError = error;
        if (!problems.isEmpty()) {
            m_problems = problems;  // the disk changed since the check
        } else if (error.isEmpty()) {
            m_plan = plan;
            m_hasPlan = true;
        }
        Q_EMIT previewChanged();
    }, nodes);
}

QString LaunchForm::previewText(const LaunchPlan &plan)
{
    if (!plan.record.spec.slurm.enabled)
        return plan.commandLine;
    // A Slurm job: the command, then the whole batch script exactly as it is submitted (with a precompile phase,
    // both scripts, each under its own heading).
    return plan.commandLine
           + (plan.precompileScript.isEmpty() ? QStringLiteral("\n\n# %1\n").arg(plan.paths.slurmScript())
                                              : QStringLiteral("\n\n"))
           + plan.script;
}

QString LaunchForm::previewText() const
{
    if (m_hasPlan)
        return previewText(m_plan);
    if (!m_planError.isEmpty())
        return tr("No command: %1").arg(m_planError);
    QStringList lines{tr("Fix these before launching:")};
    for (const JobProblem &p : m_problems)
        lines << QStringLiteral("\u2022 --%1: %2").arg(p.field, p.message);
    return lines.join(QLatin1Char('\n'));
}

// ---- the compile cache ----

void LaunchForm::describeHealth(const CacheHealth &c, CacheNote *note)
{
    QStringList warnings;
    if (!c.exists) {
        note->health = tr("The folder does not exist yet: the first compile creates it.");
    } else if (!c.error.isEmpty()) {
        warnings << tr("The cache could not be read: %1").arg(c.error);
    } else {
        if (c.failed > 0)
            warnings << tr("%n failed entry(s): the compiler reuses a failure instead of compiling that graph again, "
                           "so a job that needs one fails at once.", nullptr, c.failed);
        if (c.locked > 0 && c.compilersRunning == 0)
            warnings << tr("%n locked entry(s) and no compiler running: stale locks from a killed compile; a job that "
                           "needs one waits for the lock.", nullptr, c.locked);
        else if (c.locked > 0)
            note->health = tr("%n entry(s) locked by a compile that is running now.", nullptr, c.locked);
        if (warnings.isEmpty() && c.locked == 0)
            note->health = tr("%n compiled entry(s), none failed or locked.", nullptr, c.entries);
    }
    note->warning = !warnings.isEmpty();
    if (note->warning)
        note->health = warnings.join(QLatin1Char('\n'));
    note->needsCleaning = c.needsCleaning();
}

void LaunchForm::checkCache(const LaunchInput &in, bool again)
{
    if (again)
        m_cacheScanned.clear();
    if (in.where != QLatin1String("local")) {
        // On a host: its cache as the job will see it there (resolved on the host); its entries are checked on the
        // Remote hosts page.
        JobRecordFile r;
        r.where = in.where;
        r.spec = in.spec;
        m_cache.warning = m_cache.needsCleaning = false;
        m_cacheTask.discard();
        m_cacheTask = m_service->compileCacheOf(r, [this](const CacheLocation &loc, const StoreLocation &store,
                                                          const QString &error) {
            CacheNote n;
            n.root = error.isEmpty() ? store.display() : QString();
            n.explanation = loc.explanation;
            n.location = !error.isEmpty() ? displayText(error)
                         : loc.cachingDisabled ? tr("Compile caching is off for this job (--no_cache in NEURON_CC_FLAGS): every graph compiles afresh.")
                                               : tr("This job compiles into %1").arg(displayName(n.root));
            n.health = tr("A host's cache is checked on the Remote hosts page.");
            m_cache = n;
            m_cacheScanned = n.root;
            Q_EMIT cacheChecked();
        });
        return;
    }
    // The runtime's rule, as the monitor and the CLI resolve it (JobManager::compileCache).
    const CacheLocation loc = JobManager(m_service->sharedRunner()).compileCache(in.spec);
    CacheNote n;
    n.root = loc.path;
    n.explanation = loc.explanation;
    n.location = loc.cachingDisabled ? tr("Compile caching is off for this job (--no_cache in NEURON_CC_FLAGS): every "
                                          "graph compiles afresh.")
                                     : tr("This job compiles into %1").arg(loc.path);
    if (!loc.isSupported()) {
        m_cacheTask.discard();
        m_cacheScanned = loc.path;
        n.health = tr("Ingot checks only local caches.");
        m_cache = n;
        Q_EMIT cacheChecked();
        return;
    }
    if (loc.path == m_cacheScanned) {
        m_cache.location = n.location;
        m_cache.explanation = n.explanation;
        return;
    }
    m_cacheScanned = loc.path;
    n.health = tr("Checking the cache…");
    m_cache = n;
    m_cacheTask.discard();
    m_cacheTask = runTask(
        this, [root = loc.path](TaskControl &control) { return checkCacheHealth(StoreLocation::local(root), control.stopFlag()); },
        [this](CacheHealth c) {
            if (c.root != m_cacheScanned)
                return;
            describeHealth(c, &m_cache);
            Q_EMIT cacheChecked();
        });
}

PriorGraphs LaunchForm::priorGraphsNow(const QVector<JobSummary> &history, const JobSpec &spec, const JobManager &manager,
                                       const QString &cacheRoot)
{
    CacheSnapshot snap;
    QString error;
    const std::unique_ptr<CacheStore> store = makeStore(StoreLocation::local(cacheRoot), &error);
    if (store && store->open(&error)) {
        CacheScanner scanner(*store);
        snap = scanner.scan(nullptr);
        snap.reindex();
    }
    return ingot::priorGraphs(history, spec, QStringLiteral("local"), [&manager](const QString &id) { return manager.paths(id).root; },
                       snap, cacheRoot);
}

void LaunchForm::checkPriorGraphs(const LaunchInput &in)
{
    m_prior = PriorGraphs();
    m_priorTask.discard();
    const JobManager manager(m_service->sharedRunner());
    const CacheLocation cache = manager.compileCache(in.spec);
    if (in.where != QLatin1String("local") || !cache.isSupported() || cache.cachingDisabled)
        return;
    const QVector<JobSummary> history = m_service->history();
    m_priorTask = runTask(
        this, [history, spec = in.spec, manager, root = cache.path](TaskControl &) {
            return priorGraphsNow(history, spec, manager, root);
        },
        [this](const PriorGraphs &p) {
            m_prior = p;
            Q_EMIT priorGraphsChecked();
        });
}

QStringList LaunchForm::launchWarnings(JobManager &manager, const JobSpec &spec)
{
    QStringList lines;
    if (manager.runner().where() != QLatin1String("local"))
        return lines;  // a host's cache is checked there (ingot-cli remote)
    const CacheLocation cache = manager.compileCache(spec);
    if (!cache.isSupported() || cache.cachingDisabled)
        return lines;
    CacheNote note;
    describeHealth(checkCacheHealth(StoreLocation::local(cache.path)), &note);
    if (note.warning)
        for (const QString &line : note.health.split(QLatin1Char('\n')))
            lines << tr("the compile cache %1: %2").arg(displayName(cache.path), line);
    const PriorGraphs prior = priorGraphsNow(manager.list(), spec, manager, cache.path);
    if (prior.found && prior.blocked > 0)
        lines << displayName(prior.text());
    return lines;
}

// ---- launching ----

void LaunchForm::checkSeed(const LaunchInput &in)
{
    m_seedTask.discard();
    m_seed = LaunchSeed();
    m_seedText.clear();
    if (!in.seed) {
        Q_EMIT seedChecked();
        return;
    }
    if (in.where != QLatin1String("local")) {  // the launcher reads the last runs of this machine only
        m_seedText = tr("Bring compiled graphs first: for a job on a host, ingot-cli job launch --seed-cache does it.");
        Q_EMIT seedChecked();
        return;
    }
    m_seedText = tr("Looking for the last run's graphs…");
    const JobManager manager(m_service->sharedRunner());
    m_seedTask = runTask(
        this, [history = m_service->history(), in, manager](TaskControl &control) {
            QVector<FleetPlace> places;
            for (const QString &id : in.seedPlaces) {
                QString error;  // a name that is no place: said, and nothing is brought (as --seed-cache refuses it)
                const std::optional<FleetPlace> p = fleetPlaceFor(id, &error);
                if (!p) {
                    LaunchSeed refused;
                    refused.why = error;
                    return std::make_pair(refused, refused.previewText());
                }
                places << *p;
            }
            const bool chosen = !places.isEmpty();
            if (!chosen)
                places = seedPlaceChoices(manager.compileCacheStore(manager.compileCache(in.spec)));
            LaunchSeed seed = planLaunchSeed(manager, history, in.spec, places);
            if (!seed.ready())
                return std::make_pair(seed, seed.previewText());
            SeedRequest look = seed.request;
            look.dryRun = true;
            const SeedResult found = seedCache(look, {}, control.stopFlag());
            QStringList where;
            seed.request.places.clear();
            for (const SeedPlaceResult &r : found.places) {
                for (const FleetPlace &p : std::as_const(places))
                    if (p.id == r.place && (chosen || r.found > 0))
                        seed.request.places << p;
                if (r.found > 0)
                    where << tr("%1 in %2").arg(r.found).arg(displayName(r.place));
            }
            if (seed.request.places.isEmpty())
                seed.why = tr("none of the places Ingot knows holds the last run's graphs");
            QString text = seed.previewText();
            if (seed.ready())
                text += QLatin1Char(' ') + tr("Already in the cache: %1; found: %2; nowhere: %3.")
                                               .arg(found.present)
                                               .arg(where.isEmpty() ? tr("none") : where.join(QStringLiteral(", ")))
                                               .arg(found.notFound);
            return std::make_pair(seed, text);
        },
        [this](const std::pair<LaunchSeed, QString> &r) {
            m_seed = r.first;
            m_seedText = r.second;
            Q_EMIT seedChecked();
        });
}

void LaunchForm::launch()
{
    if (!m_hasPlan || m_launching || isCheckingSeed())
        return;
    m_launching = true;
    m_launchingId = m_plan.record.id;
    m_seedResult.reset();
    m_seedStopRequested = false;
    if (!m_seed.ready() || m_seed.request.places.isEmpty()) {
        startLaunch();
        return;
    }
    m_seedTask = runTask(
        this, [seed = m_seed](TaskControl &control) {
            return runLaunchSeed(seed, [&control](int copied, int toCopy, const QString &place) {
                control.setProgress(copied, toCopy, seedProgressText(copied, toCopy, place));
            }, control.stopFlag());
        },
        [this](const SeedResult &r) {
            Q_EMIT seedProgress(r.text());
            if (r.stopped || m_seedStopRequested) {  // a Stop that came as the last copy ended still stops the launch
                m_launching = false;
                Q_EMIT launchFailed(tr("Stopped while bringing compiled graphs: the job was not started."));
                return;
            }
            m_seedResult = r;
            startLaunch();
        },
        [this](const TaskProgress &p) { Q_EMIT seedProgress(p.text); });
}

void LaunchForm::stopSeeding()
{
    if (!isSeeding())
        return;
    m_seedStopRequested = true;
    m_seedTask.stop();
}

void LaunchForm::startLaunch()
{
    m_service->launch(m_plan);  // exactly the plan shown
}

bool LaunchForm::isBusy() const
{
    return m_factsTask.isRunning() || m_planTask.isRunning() || m_cacheTask.isRunning() || m_pythonTask.isRunning()
           || m_engineTask.isRunning() || m_seedTask.isRunning() || m_launching;
}

}  // namespace ingot
