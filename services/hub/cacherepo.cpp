#include "services/hub/cacherepo.h"

#include "services/util/atomicfile.h"
#include "services/util/names.h"

#include "services/hub/repoid.h"

#include <QCoreApplication>
#include <QFile>

namespace ingot {

namespace {
struct CacheRepoText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubConfig)
};

// Makes `outcome.repo` the repo in use; a failure is a Storage error.
void writeChoice(const HubConfig &config, CacheRepoOutcome &outcome)
{
    QString error;
    if (!writeCustomCacheRepo(config, outcome.repo, &error))
        outcome.error = {HubError::Kind::Storage, 0, error};
}
}  // namespace

QString defaultCacheRepo()
{
    return QStringLiteral("aws-neuron/optimum-neuron-cache");
}

QString CacheRepoChoice::describe() const
{
    switch (source) {
    case Source::Env: return CacheRepoText::tr("from CUSTOM_CACHE_REPO");
    case Source::File: return CacheRepoText::tr("set with `cache set` (the file optimum-cli reads too)");
    case Source::Default: return CacheRepoText::tr("the public default");
    }
    return {};
}

CacheRepoChoice resolveCacheRepo(const HubConfig &config, const QProcessEnvironment &env)
{
    CacheRepoChoice c;
    if (const QString v = env.value(QStringLiteral("CUSTOM_CACHE_REPO")).trimmed(); !v.isEmpty()) {
        c.repo = v;
        c.source = CacheRepoChoice::Source::Env;
        return c;
    }
    QFile f(config.customCacheRepoFile());
    if (f.open(QIODevice::ReadOnly)) {
        const QString v = QString::fromUtf8(f.read(1024)).trimmed();
        if (!v.isEmpty()) {
            c.repo = v;
            c.source = CacheRepoChoice::Source::File;
            return c;
        }
    }
    c.repo = defaultCacheRepo();
    return c;
}

bool writeCustomCacheRepo(const HubConfig &config, const QString &repo, QString *error)
{
    if (!isValidRepoId(repo)) {
        *error = CacheRepoText::tr("\"%1\" is not a repo id of the form org/name.").arg(displayName(repo));
        return false;
    }
    return writeFileAtomically(config.customCacheRepoFile(), repo.toUtf8(), error);
}

CacheRepoOutcome createCacheRepo(const HubClient &hub, const HubConfig &config, const QString &name, bool isPublic,
                                 const std::atomic_bool *cancel)
{
    CacheRepoOutcome outcome;
    outcome.repo = name;
    if (!name.contains(QLatin1Char('/'))) {
        const WhoAmI me = hub.whoami(&outcome.error, cancel);
        if (!outcome.error.ok())
            return outcome;
        outcome.repo = me.name + QLatin1Char('/') + name;
    }
    hub.createRepo(outcome.repo, isPublic, &outcome.error, cancel);
    if (outcome.error.kind == HubError::Kind::Conflict) {
        outcome.existed = true;  // optimum-cli creates with exist_ok: an existing repo is simply used
        outcome.error = HubError();
    }
    if (outcome.error.ok())
        writeChoice(config, outcome);
    return outcome;
}

CacheRepoOutcome setCacheRepo(const HubClient &hub, const HubConfig &config, const QString &repo,
                              const std::atomic_bool *cancel)
{
    CacheRepoOutcome outcome;
    outcome.repo = repo;
    hub.repoInfo(repo, QString(), &outcome.error, cancel);  // it must exist (and be readable) before it is set
    if (outcome.error.ok())
        writeChoice(config, outcome);
    return outcome;
}

}  // namespace ingot
