#include "services/neuron/launchseed.h"

#include "services/cache/cachescanner.h"
#include "services/s3/s3cachestore.h"
#include "services/stores/storefactory.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

namespace ingot {

namespace {
struct LaunchSeedText {
    Q_DECLARE_TR_FUNCTIONS(ingot::LaunchSeed)
};

constexpr qint64 maxSeedJsonBytes = 4 << 20;  // seed.json: counts and at most the keys not found

// What the job's cache holds now, to say how many of the last run's graphs it has (priorgraphs.h).
CacheSnapshot snapshotOf(const StoreLocation &store)
{
    CacheSnapshot snap;
    QString error;
    const std::unique_ptr<CacheStore> s = makeStore(store, &error);
    if (s && s->open(&error)) {
        CacheScanner scanner(*s);
        snap = scanner.scan(nullptr);
        snap.reindex();
    }
    return snap;
}
}  // namespace

QString LaunchSeed::previewText() const
{
    if (!ready())
        return LaunchSeedText::tr("Bring compiled graphs first: %1").arg(why);
    QStringList ids;
    for (const FleetPlace &p : request.places)
        ids << displayName(p.id);
    QString t = LaunchSeedText::tr("Before training: the %n graph(s) of %1 the cache lacks are looked for in %2 and copied "
                                   "into %3.", nullptr, prior.graphs)
                    .arg(prior.jobId, ids.join(QStringLiteral(", ")), displayName(request.into.display()));
    if (slurm)
        t += QLatin1Char(' ') + LaunchSeedText::tr("A Slurm job: from this machine before sbatch, into the cache folder the "
                                                   "nodes share.");
    return t;
}

LaunchSeed planLaunchSeed(const JobManager &manager, const QVector<JobSummary> &history, const JobSpec &spec,
                          const QVector<FleetPlace> &places)
{
    LaunchSeed seed;
    seed.slurm = spec.slurm.enabled;
    seed.request.places = places;
    const CacheLocation cache = manager.compileCache(spec);
    if (cache.cachingDisabled) {
        seed.why = LaunchSeedText::tr("the job does not cache (--no_cache in NEURON_CC_FLAGS)");
        return seed;
    }
    seed.request.into = cache.kind == CacheLocation::Kind::S3 ? StoreLocation{s3::s3StoreKind(), QString(), cache.path}
                                                               : manager.compileCacheStore(cache);
    if (places.isEmpty()) {
        seed.why = LaunchSeedText::tr("no place to look in was chosen");
        return seed;
    }
    seed.prior = priorGraphs(history, spec, manager.runner().where(),
                             [&manager](const QString &id) { return manager.paths(id).root; },
                             snapshotOf(seed.request.into), displayName(seed.request.into.display()),
                             manager.runner().where() == QLatin1String("local") ? nullptr : &manager.runner());
    if (!seed.prior.found) {
        seed.why = LaunchSeedText::tr("no earlier run with these settings names its graphs");
        return seed;
    }
    seed.request.keys = seed.prior.keys;
    return seed;
}

QVector<FleetPlace> seedPlaceChoices(const StoreLocation &jobCache)
{
    QVector<FleetPlace> out;
    for (const FleetPlace &p : knownFleetPlaces())
        if (p.kind != FleetPlace::Kind::TorchNeuron && !(p.store.isValid() && p.store == jobCache))
            out << p;
    return out;
}

SeedResult runLaunchSeed(const LaunchSeed &seed, const SeedProgress &progress, const std::atomic_bool *stop)
{
    if (!seed.ready()) {
        SeedResult r;
        r.error = seed.why;
        return r;
    }
    return seedCache(seed.request, progress, stop);
}

QStringList nodeSeedCommand(const LaunchSeed &seed)
{
    QStringList argv{QStringLiteral("ingot-cli"), QStringLiteral("cache"), QStringLiteral("seed"), QStringLiteral("--cache-dir"),
                     seed.request.into.path};
    for (const FleetPlace &p : seed.request.places)
        argv << QStringLiteral("--from") << p.id;
    return argv << QStringLiteral("--") << seed.request.keys;
}

bool keepSeedResult(JobRunner &runner, const JobPaths &paths, const SeedResult &result, QString *error)
{
    QJsonObject o = result.toJson();
    o.insert(QStringLiteral("text"), result.text());
    return runner.writeFile(paths.file("seed.json"), QJsonDocument(o).toJson(QJsonDocument::Compact), false, error);
}

QString seedStatusLine(JobRunner &runner, const JobPaths &paths)
{
    const FileChunk c = runner.readFile(paths.file("seed.json"), 0, maxSeedJsonBytes);
    if (!c.exists || !c.error.isEmpty() || c.size > maxSeedJsonBytes)
        return {};
    const QJsonDocument d = QJsonDocument::fromJson(c.data);
    const QJsonValue text = d.object().value(QLatin1String("text"));
    if (!d.isObject() || !text.isString())
        return {};
    return LaunchSeedText::tr("Compiled graphs brought first: %1").arg(displayText(text.toString()));
}

}  // namespace ingot
