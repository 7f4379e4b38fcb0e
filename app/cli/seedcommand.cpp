#include "app/cli/seedcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/transferterminal.h"
#include "services/fleet/cacheseed.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>

#include <mutex>

namespace ingot::cli {

namespace {
struct SeedCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli::Seed)
};

constexpr qint64 maxKeysFileBytes = 64 << 20;

void seedOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("from"), SeedCliText::tr("A place to look in (a folder, host:NAME, s3://bucket/prefix, hub:org/name; "
                                                         "repeatable, in order)."), QStringLiteral("PLACE")});
    p.addOption({QStringLiteral("keys-file"), SeedCliText::tr("The graphs, one a line (as KEY), from this file."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("dry-run"), SeedCliText::tr("Only say what the cache has and where the rest is.")});
    p.addPositionalArgument(QStringLiteral("KEY"), SeedCliText::tr("A graph: neuronxcc-<ver>/MODULE_…, or MODULE_… (the newest "
                                                                   "entry of that name)."), QStringLiteral("KEY..."));
}

int cmdSeed(const Invocation &in)
{
    SeedRequest req;
    req.keys = in.positional();
    if (in.isSet(QStringLiteral("keys-file"))) {
        QFile f(in.value(QStringLiteral("keys-file")));
        if (!f.open(QIODevice::ReadOnly) || f.size() > maxKeysFileBytes) {
            err(SeedCliText::tr("error: --keys-file: %1 cannot be read (or is over 64 MiB)").arg(f.fileName()));
            return Usage;
        }
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.trimmed().isEmpty())
                req.keys << QString::fromUtf8(line.trimmed());
    }
    if (req.keys.isEmpty() || !in.isSet(QStringLiteral("from"))) {
        err(SeedCliText::tr("error: name the graphs (KEY… or --keys-file) and at least one --from PLACE"));
        return Usage;
    }
    for (const QString &spec : in.values(QStringLiteral("from"))) {
        QString error;
        const std::optional<FleetPlace> p = fleetPlaceFor(spec, &error);
        if (!p) {
            err(SeedCliText::tr("error: --from: %1").arg(error));
            return Usage;
        }
        req.places << *p;
    }
    req.dryRun = in.isSet(QStringLiteral("dry-run"));
    QString root;  // a fresh node's cache folder is made (a dry run only looks)
    if (const int e = localCacheRoot(in.cacheDir, !req.dryRun, &root))
        return e;
    req.into = StoreLocation::local(root);
    StopOnSignals stopOnSignals;
    std::mutex mutex;
    const SeedResult r = seedCache(req, [&mutex](int copied, int toCopy, const QString &place) {
        const std::lock_guard<std::mutex> lock(mutex);
        err(seedProgressText(copied, toCopy, place));
    }, &stopRequested());
    if (in.json)
        printJson(nlohmann::json::parse(QJsonDocument(r.toJson()).toJson().toStdString()));
    else
        out(r.text());
    if (!r.error.isEmpty())
        return CacheUnavailable;
    return r.stopped || r.failed > 0 ? PartialFailure : Ok;
}
}  // namespace

QVector<Command> seedCommands()
{
    return {
        {QStringLiteral("cache"), QStringLiteral("seed"),
         SeedCliText::tr("Bring compiled graphs this cache lacks from other places (what job launch --seed-cache does first)"),
         JsonOption | CacheDirOption, seedOptions, cmdSeed},
    };
}

}  // namespace ingot::cli
