#include "app/cli/seedlaunch.h"

#include "app/cli/clicommon.h"
#include "services/neuron/launchseed.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <mutex>

namespace ingot::cli {

namespace {
struct SeedLaunchText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli::SeedLaunch)
};

const QString kOption = QStringLiteral("seed-cache");
}  // namespace

void seedLaunchOption(QCommandLineParser &p)
{
    p.addOption({kOption, SeedLaunchText::tr("Bring compiled graphs first: before training, copy the graphs of the last run "
                                             "with these settings that the job's cache lacks from PLACE (a folder, host:NAME, "
                                             "s3://bucket/prefix, hub:org/name; repeatable, looked in in order)."),
                 QStringLiteral("PLACE")});
    p.addOption({QStringLiteral("seed-per-node"), SeedLaunchText::tr("With --slurm and --seed-cache: the nodes each keep their own "
                                                                     "cache: bring the graphs on each node of the allocation before "
                                                                     "training (srun; ingot-cli on the nodes' PATH), not from here.")});
}

int seedBeforeLaunch(const Invocation &in, const JobManager &jobs, LaunchPlan *plan, bool dryRun,
                     std::optional<SeedResult> *result, nlohmann::json *json)
{
    const bool perNode = in.isSet(QStringLiteral("seed-per-node"));
    if (perNode && (!in.isSet(kOption) || !plan->record.spec.slurm.enabled)) {
        err(SeedLaunchText::tr("error: --seed-per-node goes with --slurm and --seed-cache"));
        return Usage;
    }
    if (!in.isSet(kOption))
        return Ok;
    QVector<FleetPlace> places;
    for (const QString &spec : in.values(kOption)) {
        QString error;
        const std::optional<FleetPlace> p = fleetPlaceFor(spec, &error);
        if (!p) {
            err(SeedLaunchText::tr("error: --seed-cache: %1").arg(error));
            return Usage;
        }
        places << *p;
    }
    JobManager manager(jobs.sharedRunner(), jobs.lookup());
    const LaunchSeed seed = planLaunchSeed(manager, manager.list(), plan->record.spec, places);
    (*json)["seed_cache"] = {{"ready", seed.ready()}, {"preview", u8(seed.previewText())}};
    if (!seed.ready()) {
        err(SeedLaunchText::tr("warning: --seed-cache: %1").arg(seed.why));
        return Ok;
    }
    if (perNode) {  // a step of the batch script on each node: nothing is copied from here
        QString error;
        plan->record.nodeSetupArgv = nodeSeedCommand(seed);
        if (!manager.replanSlurm(plan, &error)) {
            err(SeedLaunchText::tr("error: --seed-per-node: %1").arg(error));
            return Usage;
        }
        err(SeedLaunchText::tr("note: --seed-cache: the %n graph(s) of %1 are brought on each node before the training, into "
                               "its own %2 (ingot-cli cache seed, through srun)", nullptr, seed.prior.graphs)
                .arg(seed.prior.jobId, displayName(seed.request.into.path)));
        return Ok;
    }
    err(SeedLaunchText::tr("note: --seed-cache: %1").arg(seed.previewText()));
    if (dryRun)
        return Ok;
    StopOnSignals stopOnSignals;
    std::mutex mutex;
    const SeedResult r = runLaunchSeed(seed, [&mutex](int copied, int toCopy, const QString &place) {
        const std::lock_guard<std::mutex> lock(mutex);
        err(seedProgressText(copied, toCopy, place));
    }, &stopRequested());
    (*json)["seed_cache"]["result"] = nlohmann::json::parse(QJsonDocument(r.toJson()).toJson().toStdString());
    if (r.stopped) {
        err(SeedLaunchText::tr("error: --seed-cache: stopped; the job was not launched (%1)").arg(r.text()));
        return PartialFailure;
    }
    err(SeedLaunchText::tr("note: --seed-cache: %1").arg(r.text()));
    *result = r;
    return Ok;
}

void keepSeedAfterLaunch(const JobManager &jobs, const LaunchPlan &plan, const std::optional<SeedResult> &result)
{
    QString error;
    if (result && !keepSeedResult(jobs.runner(), plan.paths, *result, &error))
        err(SeedLaunchText::tr("warning: --seed-cache: the result could not be kept in the job's folder: %1").arg(error));
}

QString seedStatusText(const JobManager &jobs, const QString &id)
{
    return seedStatusLine(jobs.runner(), jobs.paths(id));
}

}  // namespace ingot::cli
