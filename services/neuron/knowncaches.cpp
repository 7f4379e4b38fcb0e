#include "services/neuron/knowncaches.h"

#include "services/cache/cachelocation.h"
#include "services/cache/cachescanner.h"
#include "services/hub/cacherepo.h"
#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"
#include "services/hub/repoid.h"
#include "services/hub/token.h"
#include "services/remote/remotehosts.h"
#include "services/s3/s3cachestore.h"
#include "services/s3/s3location.h"
#include "services/stores/cachestore.h"
#include "services/stores/storefactory.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ingot {

namespace {
struct KnownCachesText {
    Q_DECLARE_TR_FUNCTIONS(ingot::KnownCaches)
};

// The state of one entry of a local or host cache: its folder listed, nothing else read.
OtherCache storeCache(const StoreLocation &where)
{
    return {where.display(), [where](const ModuleKey &key, QString *error) -> std::optional<ModuleState> {
                QString why;
                std::unique_ptr<CacheStore> store = makeStore(where, &why);
                if (!store || !store->open(&why)) {
                    *error = why;
                    return std::nullopt;
                }
                CacheScanner scanner(*store);
                bool vanished = false;
                const CacheModule m = scanner.scanModule(key.version, key.name, &vanished, &why);
                if (vanished || (m.files.isEmpty() && !why.isEmpty()))
                    return std::nullopt;
                return m.state;
            }};
}

OtherCache hubCache(const QString &repo, std::shared_ptr<SecretStore> keychain)
{
    return {QStringLiteral("hub:") + repo, [repo, keychain](const ModuleKey &key, QString *error) -> std::optional<ModuleState> {
                const HubConfig config = HubConfig::fromEnvironment();
                const QString token = resolveToken(config, keychain.get()).token;
                const HubClient hub(config.endpoint, token, config.offline);
                HubError e;
                const QVector<TreeEntry> files = hub.listTree(repo, QStringLiteral("main"), key.key(), false, &e);
                if (e.kind == HubError::Kind::EntryNotFound)  // NotFound: the repo itself, or no access to it
                    return std::nullopt;
                if (!e.ok()) {
                    *error = e.message;
                    return std::nullopt;
                }
                bool neff = false, log = false;
                for (const TreeEntry &f : files) {
                    neff = neff || f.path.endsWith(QLatin1String("/model.neff"));
                    log = log || f.path.endsWith(QLatin1String("/model.log"));
                }
                if (files.isEmpty())
                    return std::nullopt;
                return neff ? ModuleState::Success : log ? ModuleState::Failed : ModuleState::Incomplete;
            }};
}
}  // namespace

std::optional<OtherCache> otherCacheFor(const QString &spec, std::shared_ptr<SecretStore> keychain, QString *error)
{
    if (spec.startsWith(QLatin1String("hub:"))) {
        const QString repo = spec.mid(4);
        if (!isValidRepoId(repo)) {
            *error = KnownCachesText::tr("%1 is not a Hub repo id (org/name)").arg(repo);
            return std::nullopt;
        }
        return hubCache(repo, std::move(keychain));
    }
    if (spec.startsWith(QLatin1String("s3://"))) {  // an S3 cache, read with this machine's AWS keys; never a host
        s3::S3Location where;
        if (!s3::S3Location::parse(spec, &where, error))
            return std::nullopt;
        return storeCache({s3::s3StoreKind(), QString(), where.url()});
    }
    const qsizetype colon = spec.indexOf(QLatin1Char(':'));
    if (colon > 0 && spec.mid(colon, 3) == QLatin1String("://")) {  // a URL Ingot has no store for (gs://, https://)
        *error = KnownCachesText::tr("%1 is a URL; another cache is a folder, host:/path, s3://bucket/prefix or hub:org/name")
                     .arg(displayName(spec));
        return std::nullopt;
    }
    if (colon > 0 && !spec.left(colon).contains(QLatin1Char('/'))) {
        const QString path = spec.mid(colon + 1);
        if (!path.startsWith(QLatin1Char('/'))) {
            *error = KnownCachesText::tr("%1: a host's cache is named host:/absolute/path").arg(spec);
            return std::nullopt;
        }
        return storeCache(sshStoreLocation(spec.left(colon), path));
    }
    if (spec.isEmpty()) {
        *error = KnownCachesText::tr("an empty cache name");
        return std::nullopt;
    }
    return storeCache(StoreLocation::local(QDir::cleanPath(QDir::current().absoluteFilePath(spec))));
}

QVector<OtherCache> knownOtherCaches(const StoreLocation &target, std::shared_ptr<SecretStore> keychain)
{
    QVector<OtherCache> out;
    QStringList seen{target.display()};
    auto local = [&](const QString &path) {
        const StoreLocation l = StoreLocation::local(QDir::cleanPath(path));
        if (path.isEmpty() || seen.contains(l.display()) || !QFileInfo(path).isDir())  // none there: nothing to ask
            return;
        seen << l.display();
        out << storeCache(l);
    };
    const CacheLocation here = CacheLocation::resolve();
    if (here.isSupported() && !here.cachingDisabled)
        local(here.path);
    for (const QString &r : AppSettings::cacheRoots())
        local(r);
    QStringList repos = AppSettings::hubRepos();
    const QString inUse = resolveCacheRepo(HubConfig::fromEnvironment()).repo;
    if (!repos.contains(inUse))
        repos.prepend(inUse);
    for (const QString &r : std::as_const(repos))
        if (isValidRepoId(r) && !seen.contains(QStringLiteral("hub:") + r)) {
            seen << QStringLiteral("hub:") + r;
            out << hubCache(r, keychain);
        }
    return out;
}

std::optional<Explanation> explainIn(const ModuleKey &key, const StoreLocation &where, const QString &rule,
                                     const QVector<OtherCache> &others, const ExplainOptions &options, QString *error)
{
    std::unique_ptr<CacheStore> store = makeStore(where, error);
    if (!store || !store->open(error))
        return std::nullopt;
    CacheScanner scanner(*store);
    CacheSnapshot snap = scanner.scan(nullptr);
    if (!snap.fatalError.isEmpty()) {
        *error = snap.fatalError;
        return std::nullopt;
    }
    snap.reindex();
    QString why;
    ExplainTarget t;
    t.shown = where.display();
    t.rule = rule;
    t.snapshot = &snap;
    t.store = store.get();
    t.compilerRunning = !store->runningCompilers(&why).isEmpty();
    t.compilersUnseen = !t.compilerRunning && !why.isEmpty();
    return explainModule(key, t, others, options);
}

}  // namespace ingot
