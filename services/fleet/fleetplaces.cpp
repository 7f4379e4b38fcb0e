#include "services/fleet/fleetplaces.h"

#include "services/cache/cachelocation.h"
#include "services/cache/torchneuron.h"
#include "services/hub/cacherepo.h"
#include "services/hub/hubenv.h"
#include "services/hub/repoid.h"
#include "services/remote/remotehosts.h"
#include "services/s3/hosts3access.h"
#include "services/s3/s3cachestore.h"
#include "services/util/appsettings.h"
#include "services/util/remoteshell.h"

#include <QCoreApplication>
#include <QDir>

namespace ingot {

namespace {

struct FleetPlacesText {
    Q_DECLARE_TR_FUNCTIONS(ingot::FleetPlaces)
};

const QString kTorchNeuron = QStringLiteral("torchneuron:");
const QString kHost = QStringLiteral("host:");
const QString kHub = QStringLiteral("hub:");

FleetPlace localPlace(const QString &path, const QString &origin)
{
    FleetPlace p;
    p.kind = FleetPlace::Kind::Local;
    p.store = StoreLocation::local(QDir::cleanPath(path));
    p.id = p.store.path;
    p.origin = origin;
    return p;
}

FleetPlace s3Place(const QString &url, const QString &origin)
{
    FleetPlace p;
    p.kind = FleetPlace::Kind::S3;
    p.store = {s3::s3StoreKind(), QString(), url};
    p.id = url;
    p.origin = origin;
    return p;
}

FleetPlace torchNeuronPlace(const QString &path, const QString &origin)
{
    FleetPlace p;
    p.kind = FleetPlace::Kind::TorchNeuron;
    p.store = StoreLocation::local(QDir::cleanPath(path));
    p.id = kTorchNeuron + p.store.path;
    p.origin = origin;
    return p;
}

FleetPlace hostPlace(const QString &name)
{
    FleetPlace p;
    p.kind = FleetPlace::Kind::Host;
    p.host = name;
    p.id = kHost + name;
    p.origin = QStringLiteral("in the host list");
    return p;
}

FleetPlace hubPlace(const QString &repo, const QString &origin)
{
    FleetPlace p;
    p.kind = FleetPlace::Kind::Hub;
    p.repo = repo;
    p.id = kHub + repo;
    p.origin = origin;
    return p;
}

}  // namespace

QString FleetPlace::shown() const
{
    switch (kind) {
    case Kind::Host:
        return store.isValid() ? store.display() : FleetPlacesText::tr("host %1").arg(host);
    case Kind::Hub:
        return id;
    case Kind::TorchNeuron:
        return FleetPlacesText::tr("%1 (TorchNeuron)").arg(store.path);
    case Kind::Local:
    case Kind::S3:
        break;
    }
    return store.display();
}

bool FleetPlace::takesPolicies(QString *why) const
{
    QString reason;
    if (kind == Kind::Hub)
        reason = FleetPlacesText::tr("a Hub repo changes by commits: remove its entries on the Hub page");
    else if (kind == Kind::TorchNeuron)
        reason = FleetPlacesText::tr("TorchNeuron's cache format: see ingot-cli torchneuron");
    if (why)
        *why = reason;
    return reason.isEmpty();
}

const char *fleetKindName(FleetPlace::Kind kind)
{
    switch (kind) {
    case FleetPlace::Kind::Local: return "local";
    case FleetPlace::Kind::TorchNeuron: return "torchneuron";
    case FleetPlace::Kind::Host: return "host";
    case FleetPlace::Kind::S3: return "s3";
    case FleetPlace::Kind::Hub: return "hub";
    }
    return "local";
}

QVector<FleetPlace> knownFleetPlaces()
{
    QVector<FleetPlace> out;
    QStringList seen;
    auto add = [&](const FleetPlace &p) {
        if (p.id.isEmpty() || seen.contains(p.id))
            return;
        seen << p.id;
        out << p;
    };
    const CacheLocation here = CacheLocation::resolve();
    if (!here.cachingDisabled) {
        if (here.kind == CacheLocation::Kind::S3)
            add(s3Place(here.path, QStringLiteral("the Neuron default here")));
        else
            add(localPlace(here.path, QStringLiteral("the Neuron default here")));
    }
    for (const QString &r : AppSettings::cacheRoots())
        add(r.startsWith(QLatin1String("s3://")) ? s3Place(r, QStringLiteral("opened before"))
                                                 : localPlace(r, QStringLiteral("added on the Local cache page")));
    const TorchNeuronLocations tn = resolveTorchNeuronLocations();
    if (!tn.disabled) {
        if (!tn.local.isEmpty() && QFileInfo(tn.local).isDir())  // never used here: not a place yet
            add(torchNeuronPlace(tn.local, QStringLiteral("TorchNeuron's local tier here")));
        if (!tn.remote.isEmpty())
            add(torchNeuronPlace(tn.remote, QStringLiteral("TorchNeuron's remote tier (NEURON_LIBTORCH_REMOTE_CACHE)")));
    }
    for (const RemoteHostEntry &h : RemoteHosts::instance().hosts())
        add(hostPlace(h.name));
    for (const QString &url : AppSettings::s3Caches())
        add(s3Place(url, QStringLiteral("opened before")));
    const QString inUse = resolveCacheRepo(HubConfig::fromEnvironment()).repo;
    if (isValidRepoId(inUse))
        add(hubPlace(inUse, QStringLiteral("the Hub cache repo in use")));
    for (const QString &r : AppSettings::hubRepos())
        if (isValidRepoId(r))
            add(hubPlace(r, QStringLiteral("added on the Hub page")));
    return out;
}

std::optional<FleetPlace> fleetPlaceFor(const QString &spec, QString *error)
{
    const QVector<FleetPlace> known = knownFleetPlaces();
    for (const FleetPlace &p : known)
        if (p.id == spec)
            return p;
    if (spec.startsWith(kHost)) {
        *error = FleetPlacesText::tr("%1 is not in the host list (ingot-cli remote add)").arg(spec.mid(kHost.size()));
        return std::nullopt;
    }
    if (spec.startsWith(kHub)) {
        if (!isValidRepoId(spec.mid(kHub.size()))) {
            *error = FleetPlacesText::tr("not a Hub repo id: %1").arg(spec.mid(kHub.size()));
            return std::nullopt;
        }
        return hubPlace(spec.mid(kHub.size()), QStringLiteral("named"));
    }
    if (spec.startsWith(QLatin1String("s3://")))
        return s3Place(spec, QStringLiteral("named"));
    if (spec.startsWith(kTorchNeuron))
        return torchNeuronPlace(spec.mid(kTorchNeuron.size()), QStringLiteral("named"));
    if (spec.isEmpty() || spec.contains(QLatin1String("://"))) {
        *error = FleetPlacesText::tr("not a place: \"%1\" (a folder, host:NAME, s3://bucket/prefix or hub:org/name)").arg(spec);
        return std::nullopt;
    }
    return localPlace(QDir::current().absoluteFilePath(spec), QStringLiteral("named"));
}

bool resolvePlace(FleetPlace *place, QString *error)
{
    if (place->kind == FleetPlace::Kind::Hub) {
        *error = FleetPlacesText::tr("a Hub repo has no cache store; it is read through the Hub's API");
        return false;
    }
    if (place->kind != FleetPlace::Kind::Host || place->store.isValid())
        return true;
    std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(place->host, error);
    if (!shell)
        return false;
    CacheLocation where;
    if (!CacheLocation::resolveOn(*shell, &where, error))
        return false;
    if (where.cachingDisabled) {
        *error = FleetPlacesText::tr("the Neuron tools on %1 do not cache (--no_cache in NEURON_CC_FLAGS)").arg(place->host);
        return false;
    }
    place->store = where.kind == CacheLocation::Kind::S3 ? StoreLocation{s3::hostS3StoreKind(), place->host, where.path}
                                                          : sshStoreLocation(place->host, where.path);
    return true;
}

}  // namespace ingot
