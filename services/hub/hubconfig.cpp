#include "services/hub/hubconfig.h"

#include "services/util/atomicfile.h"

#include "services/hub/secretstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

namespace ingot {

namespace {
struct HubConfigText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubConfig)
};
const QString kKeychainKey = QStringLiteral("huggingface-token");

QString readTokenFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.read(4096)).trimmed();
}

bool truthy(const QString &v)
{
    const QString s = v.trimmed().toLower();
    return s == QLatin1String("1") || s == QLatin1String("true") || s == QLatin1String("yes") || s == QLatin1String("on");
}
}  // namespace

HubConfig HubConfig::fromEnvironment(const QProcessEnvironment &env)
{
    HubConfig c;
    c.endpoint = env.value(QStringLiteral("HF_ENDPOINT"), QStringLiteral("https://huggingface.co")).trimmed();
    while (c.endpoint.endsWith(QLatin1Char('/')))
        c.endpoint.chop(1);
    if (c.endpoint.isEmpty())
        c.endpoint = QStringLiteral("https://huggingface.co");
    const QString home = env.value(QStringLiteral("HOME"), QDir::homePath());
    auto expand = [&home](QString p) {
        if (p == QLatin1String("~") || p.startsWith(QLatin1String("~/")))
            p = home + p.mid(1);
        return QDir::cleanPath(p);
    };
    if (env.contains(QStringLiteral("HF_HOME")))
        c.hfHome = expand(env.value(QStringLiteral("HF_HOME")));
    else if (env.contains(QStringLiteral("XDG_CACHE_HOME")))
        c.hfHome = expand(env.value(QStringLiteral("XDG_CACHE_HOME"))) + QStringLiteral("/huggingface");
    else
        c.hfHome = home + QStringLiteral("/.cache/huggingface");
    c.tokenPath = env.contains(QStringLiteral("HF_TOKEN_PATH")) ? expand(env.value(QStringLiteral("HF_TOKEN_PATH")))
                                                                  : c.hfHome + QStringLiteral("/token");
    c.offline = truthy(env.value(QStringLiteral("HF_HUB_OFFLINE")));
    return c;
}

QString ResolvedToken::describe() const
{
    switch (source) {
    case Source::None: return HubConfigText::tr("no token");
    case Source::HfTokenEnv: return QStringLiteral("HF_TOKEN");
    case Source::LegacyEnv: return QStringLiteral("HUGGING_FACE_HUB_TOKEN");
    case Source::Keychain: return HubConfigText::tr("the token saved in Ingot (system keychain)");
    case Source::TokenFile: return HubConfigText::tr("the token file %1").arg(location);
    }
    return {};
}

ResolvedToken resolveToken(const HubConfig &config, SecretStore *keychain, const QProcessEnvironment &env)
{
    ResolvedToken t;
    if (const QString v = env.value(QStringLiteral("HF_TOKEN")).trimmed(); !v.isEmpty()) {
        t.token = v;
        t.source = ResolvedToken::Source::HfTokenEnv;
        return t;
    }
    if (const QString v = env.value(QStringLiteral("HUGGING_FACE_HUB_TOKEN")).trimmed(); !v.isEmpty()) {
        t.token = v;
        t.source = ResolvedToken::Source::LegacyEnv;
        return t;
    }
    if (keychain) {
        QString v, error;
        if (keychain->read(kKeychainKey, &v, &error) && !v.trimmed().isEmpty()) {
            t.token = v.trimmed();
            t.source = ResolvedToken::Source::Keychain;
            return t;
        }
    }
    if (const QString v = readTokenFile(config.tokenPath); !v.isEmpty()) {
        t.token = v;
        t.source = ResolvedToken::Source::TokenFile;
        t.location = config.tokenPath;
    }
    return t;
}

bool saveToken(const HubConfig &config, SecretStore *keychain, const QString &token, QString *where, QString *error)
{
    const QString clean = token.trimmed();
    if (clean.isEmpty() || clean.contains(QRegularExpression(QStringLiteral("\\s")))) {
        *error = HubConfigText::tr("That is not a token: it is empty or contains spaces.");
        return false;
    }
    QString kerr;
    if (keychain && keychain->write(kKeychainKey, clean, &kerr)) {
        *where = keychain->name();
        return true;
    }
    // No keychain service: the token file huggingface_hub reads too, readable by you alone.
    if (!writeFileAtomically(config.tokenPath, clean.toUtf8(), error, true))
        return false;
    *where = config.tokenPath;
    return true;
}

bool forgetToken(const HubConfig &config, SecretStore *keychain, QString *error)
{
    QString kerr;
    if (keychain)
        keychain->remove(kKeychainKey, &kerr);
    if (QFile::exists(config.tokenPath) && !QFile::remove(config.tokenPath)) {
        *error = HubConfigText::tr("Could not remove %1.").arg(config.tokenPath);
        return false;
    }
    return true;
}

QString defaultCacheRepo()
{
    return QStringLiteral("aws-neuron/optimum-neuron-cache");
}

QString CacheRepoChoice::describe() const
{
    switch (source) {
    case Source::Env: return HubConfigText::tr("from CUSTOM_CACHE_REPO");
    case Source::File: return HubConfigText::tr("set with `cache set` (the file optimum-cli reads too)");
    case Source::Default: return HubConfigText::tr("the public default");
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
        *error = HubConfigText::tr("\"%1\" is not a repo id of the form org/name.").arg(repo);
        return false;
    }
    return writeFileAtomically(config.customCacheRepoFile(), repo.toUtf8(), error);
}

bool isValidRepoId(const QString &repo)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$"));
    return re.match(repo).hasMatch() && !repo.contains(QLatin1String("..")) && !repo.endsWith(QLatin1Char('.')) &&
           !repo.endsWith(QLatin1Char('-'));
}

}  // namespace ingot
