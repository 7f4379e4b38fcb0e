#include "services/hub/hubenv.h"

#include <QDir>

namespace ingot {

namespace {
bool truthy(const QString &v)
{
    const QString s = v.trimmed().toLower();
    return s == QLatin1String("1") || s == QLatin1String("true") || s == QLatin1String("yes") || s == QLatin1String("on");
}

QString endpointFrom(const QProcessEnvironment &env)
{
    QString endpoint = env.value(QStringLiteral("HF_ENDPOINT"), QStringLiteral("https://huggingface.co")).trimmed();
    while (endpoint.endsWith(QLatin1Char('/')))
        endpoint.chop(1);
    return endpoint.isEmpty() ? QStringLiteral("https://huggingface.co") : endpoint;
}
}  // namespace

HubConfig HubConfig::fromEnvironment(const QProcessEnvironment &env)
{
    HubConfig c;
    c.endpoint = endpointFrom(env);
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

}  // namespace ingot
