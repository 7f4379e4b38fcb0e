#include "services/s3/awsconfig.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcessEnvironment>

namespace ingot::s3 {

namespace {

class AwsConfigText
{
    Q_DECLARE_TR_FUNCTIONS(ingot::AwsConfig)
};

constexpr qint64 kMaxIniBytes = 4 << 20;  // a shared file larger than this is not one a person wrote

QByteArray readSmallFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(kMaxIniBytes);
}

QString value(const Environment &env, const char *name)
{
    return env.value(QLatin1String(name));
}

QString homePath(const Environment &env, const char *variable, const char *fallback)
{
    QString p = value(env, variable);
    if (p.isEmpty())
        p = value(env, "HOME") + QLatin1Char('/') + QLatin1String(fallback);
    else if (p.startsWith(QLatin1String("~/")))
        p = value(env, "HOME") + p.mid(1);
    return p;
}

bool isTrue(const QString &v)
{
    return v.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
}

}  // namespace

Environment processEnvironment()
{
    Environment env;
    const QProcessEnvironment pe = QProcessEnvironment::systemEnvironment();
    for (const QString &k : pe.keys())
        env.insert(k, pe.value(k));
    return env;
}

IniSections parseAwsIni(const QByteArray &text)
{
    IniSections out;
    QString section;
    bool inSection = false;
    QString nestedKey;  // the key of an open nested block ("s3 =" followed by indented lines)
    for (const QByteArray &raw : text.split('\n')) {
        const QByteArray line = raw.endsWith('\r') ? raw.chopped(1) : raw;
        const QByteArray t = line.trimmed();
        if (t.isEmpty() || t.startsWith('#') || t.startsWith(';'))
            continue;
        const bool indented = line.startsWith(' ') || line.startsWith('\t');
        if (!indented && t.startsWith('[') && t.endsWith(']')) {
            section = QString::fromUtf8(t.mid(1, t.size() - 2)).simplified();
            inSection = true;
            nestedKey.clear();
            out[section];
            continue;
        }
        const int eq = t.indexOf('=');
        if (!inSection || eq <= 0)
            continue;  // outside any section, or not key = value: ignored, as botocore's parser would refuse it
        const QString key = QString::fromUtf8(t.left(eq).trimmed()).toLower();
        const QString val = QString::fromUtf8(t.mid(eq + 1).trimmed());
        if (indented && !nestedKey.isEmpty()) {
            out[section].insert(nestedKey + QLatin1Char('.') + key, val);
            continue;
        }
        nestedKey = val.isEmpty() ? key : QString();
        out[section].insert(key, val);
    }
    return out;
}

AwsSettings resolveAwsSettings(const QString &explicitProfile, const Environment &env)
{
    AwsSettings s;
    const bool isExplicit = !explicitProfile.isEmpty();
    // botocore reads AWS_DEFAULT_PROFILE (the older name) before AWS_PROFILE.
    s.profile = isExplicit ? explicitProfile : value(env, "AWS_DEFAULT_PROFILE");
    if (s.profile.isEmpty())
        s.profile = value(env, "AWS_PROFILE");
    if (s.profile.isEmpty())
        s.profile = QStringLiteral("default");
    const QString configPath = homePath(env, "AWS_CONFIG_FILE", ".aws/config");
    const QString credentialsPath = homePath(env, "AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials");
    const IniSections config = parseAwsIni(readSmallFile(configPath));
    const IniSections credentials = parseAwsIni(readSmallFile(credentialsPath));
    // The config file names a profile "[profile NAME]", the default one "[default]"; the credentials file "[NAME]".
    const QString configSection = s.profile == QLatin1String("default") && config.contains(QStringLiteral("default"))
                                      ? QStringLiteral("default")
                                      : QStringLiteral("profile ") + s.profile;
    const bool inConfig = config.contains(configSection);
    const bool inCredentials = credentials.contains(s.profile);
    if (s.profile != QLatin1String("default") && !inConfig && !inCredentials) {
        s.error = AwsConfigText::tr("The AWS profile \"%1\" is in neither %2 nor %3.")
                      .arg(displayName(s.profile), displayName(configPath), displayName(credentialsPath));
        return s;
    }
    const QHash<QString, QString> prof = config.value(configSection);
    const QHash<QString, QString> creds = credentials.value(s.profile);
    // Keys: the environment's unless a profile was named explicitly, then the profile's (credentials file first).
    const QString envKey = value(env, "AWS_ACCESS_KEY_ID"), envSecret = value(env, "AWS_SECRET_ACCESS_KEY");
    if (!isExplicit && envKey.isEmpty() != envSecret.isEmpty()) {  // botocore refuses half a pair too
        s.error = AwsConfigText::tr("%1 is set in the environment without %2.")
                      .arg(envKey.isEmpty() ? QStringLiteral("AWS_SECRET_ACCESS_KEY") : QStringLiteral("AWS_ACCESS_KEY_ID"),
                           envKey.isEmpty() ? QStringLiteral("AWS_ACCESS_KEY_ID") : QStringLiteral("AWS_SECRET_ACCESS_KEY"));
        return s;
    }
    if (!isExplicit && !envKey.isEmpty() && !envSecret.isEmpty()) {
        // The token: AWS_SECURITY_TOKEN (the older name) before AWS_SESSION_TOKEN, as botocore reads them.
        s.credentials = {envKey.toUtf8(), envSecret.toUtf8(),
                         (env.contains(QStringLiteral("AWS_SECURITY_TOKEN")) ? value(env, "AWS_SECURITY_TOKEN") : value(env, "AWS_SESSION_TOKEN")).toUtf8()};
        s.credentialSource = QStringLiteral("environment");
    } else {
        for (const char *unsupported : {"role_arn", "credential_process", "sso_start_url", "sso_session"}) {
            if (prof.contains(QLatin1String(unsupported)) || creds.contains(QLatin1String(unsupported))) {
                s.error = AwsConfigText::tr("The AWS profile \"%1\" uses %2, which Ingot does not support yet: give it "
                                            "keys in the environment, a profile with aws_access_key_id, or run on an "
                                            "instance with a role.")
                              .arg(displayName(s.profile), QLatin1String(unsupported));
                return s;
            }
        }
        auto fromSection = [&](const QHash<QString, QString> &sec, const QString &source) {
            if (!s.credentials.isValid() && !sec.value(QStringLiteral("aws_access_key_id")).isEmpty()
                && !sec.value(QStringLiteral("aws_secret_access_key")).isEmpty()) {
                s.credentials = {sec.value(QStringLiteral("aws_access_key_id")).toUtf8(),
                                 sec.value(QStringLiteral("aws_secret_access_key")).toUtf8(),
                                 sec.value(QStringLiteral("aws_security_token"), sec.value(QStringLiteral("aws_session_token"))).toUtf8()};
                s.credentialSource = source;
            }
        };
        fromSection(creds, QStringLiteral("shared credentials file"));
        fromSection(prof, QStringLiteral("config file"));
    }
    // Region: AWS_REGION (the SDKs' variable, which the CLI v2 honours over the next), AWS_DEFAULT_REGION, the profile.
    s.region = value(env, "AWS_REGION");
    if (s.region.isEmpty())
        s.region = value(env, "AWS_DEFAULT_REGION");
    if (s.region.isEmpty())
        s.region = prof.value(QStringLiteral("region"));
    if (s.region.isEmpty())
        s.region = QStringLiteral("us-east-1");
    // Endpoint: the service's variable, the global one, then the profile's endpoint_url (a [services] block is not
    // read yet).
    if (!isTrue(value(env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")) && !isTrue(prof.value(QStringLiteral("ignore_configured_endpoint_urls")))) {
        s.endpointUrl = value(env, "AWS_ENDPOINT_URL_S3");
        if (s.endpointUrl.isEmpty())
            s.endpointUrl = value(env, "AWS_ENDPOINT_URL");
        if (s.endpointUrl.isEmpty())
            s.endpointUrl = prof.value(QStringLiteral("endpoint_url"));
    }
    while (s.endpointUrl.endsWith(QLatin1Char('/')))
        s.endpointUrl.chop(1);
    return s;
}

}  // namespace ingot::s3
