#include "services/s3/awsconfig.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcessEnvironment>

#include <algorithm>

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

bool isValidRegion(const QString &region)
{
    if (region.isEmpty() || region.size() > 63 || region.startsWith(QLatin1Char('-')) || region.endsWith(QLatin1Char('-')))
        return false;
    bool letter = false;
    for (const QChar c : region) {
        const bool alpha = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
        if (!alpha && !(c >= u'0' && c <= u'9') && c != u'-')
            return false;
        letter = letter || alpha || c == u'-';
    }
    return letter;  // not only digits
}

QString credentialsProblem(const Credentials &c)
{
    auto control = [](const QByteArray &b) { return std::any_of(b.cbegin(), b.cend(), [](char ch) { return uchar(ch) < 0x20 || uchar(ch) == 0x7f; }); };
    if (control(c.accessKeyId))
        return QStringLiteral("aws_access_key_id");
    if (control(c.secretAccessKey))
        return QStringLiteral("aws_secret_access_key");
    if (control(c.sessionToken))
        return QStringLiteral("aws_session_token");
    return {};
}

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

namespace {
// A service's endpoint URL, in the AWS CLI v2's order: AWS_ENDPOINT_URL_<SERVICE>, AWS_ENDPOINT_URL, the profile's
// [services NAME] block ("s3 =" then an indented "endpoint_url = ..."), the profile's endpoint_url; none when
// configured endpoints are to be ignored.
QString endpointFor(const QString &service, const Environment &env, const QHash<QString, QString> &prof, const IniSections &config)
{
    if (isTrue(value(env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")) || isTrue(prof.value(QStringLiteral("ignore_configured_endpoint_urls"))))
        return {};
    QString url = env.value(QStringLiteral("AWS_ENDPOINT_URL_") + service.toUpper());
    if (url.isEmpty())
        url = value(env, "AWS_ENDPOINT_URL");
    const QString services = prof.value(QStringLiteral("services"));
    if (url.isEmpty() && !services.isEmpty())
        url = config.value(QStringLiteral("services ") + services).value(service + QStringLiteral(".endpoint_url"));
    if (url.isEmpty())
        url = prof.value(QStringLiteral("endpoint_url"));
    while (url.endsWith(QLatin1Char('/')))
        url.chop(1);
    return url;
}

// A role profile: role_arn with source_profile (static keys) or credential_source (Environment, Ec2InstanceMetadata).
bool resolveAssumeRole(AwsSettings &s, const QString &roleArn, const QHash<QString, QString> &prof, const IniSections &config,
                       const IniSections &credentials, const Environment &env)
{
    AssumeRoleSpec r;
    r.roleArn = roleArn;
    r.sessionName = prof.value(QStringLiteral("role_session_name"));
    r.externalId = prof.value(QStringLiteral("external_id"));
    bool ok = false;
    const int duration = prof.value(QStringLiteral("duration_seconds")).toInt(&ok);
    if (ok && duration >= 900)
        r.durationSeconds = duration;
    const QString sourceProfile = prof.value(QStringLiteral("source_profile"));
    const QString credentialSource = prof.value(QStringLiteral("credential_source"));
    auto refuse = [&](const QString &why) {
        s.error = AwsConfigText::tr("The AWS profile \"%1\" assumes the role %2, but %3").arg(displayName(s.profile), displayName(roleArn), why);
        return false;
    };
    if (!sourceProfile.isEmpty()) {
        r.sourceProfile = sourceProfile;
        const QHash<QString, QString> fromCreds = credentials.value(sourceProfile);
        const QHash<QString, QString> fromConfig =
            config.value(sourceProfile == QLatin1String("default") && config.contains(QStringLiteral("default"))
                             ? QStringLiteral("default") : QStringLiteral("profile ") + sourceProfile);
        for (const auto *sec : {&fromCreds, &fromConfig}) {
            if (sec->contains(QStringLiteral("role_arn")) && sourceProfile != s.profile)
                return refuse(AwsConfigText::tr("its source profile \"%1\" assumes a role too, which Ingot does not chain yet.")
                                  .arg(displayName(sourceProfile)));
            if (!r.source.isValid() && !sec->value(QStringLiteral("aws_access_key_id")).isEmpty())
                r.source = {sec->value(QStringLiteral("aws_access_key_id")).toUtf8(),
                            sec->value(QStringLiteral("aws_secret_access_key")).toUtf8(),
                            sec->value(QStringLiteral("aws_session_token")).toUtf8()};
        }
        if (!r.source.isValid())
            return refuse(AwsConfigText::tr("its source profile \"%1\" has no keys.").arg(displayName(sourceProfile)));
    } else if (credentialSource == QLatin1String("Environment")) {
        r.source = {value(env, "AWS_ACCESS_KEY_ID").toUtf8(), value(env, "AWS_SECRET_ACCESS_KEY").toUtf8(),
                    value(env, "AWS_SESSION_TOKEN").toUtf8()};
        if (!r.source.isValid())
            return refuse(AwsConfigText::tr("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set (credential_source = Environment)."));
    } else if (credentialSource == QLatin1String("Ec2InstanceMetadata")) {
        r.sourceFromInstance = true;
    } else {
        return refuse(credentialSource.isEmpty()
                          ? AwsConfigText::tr("names neither source_profile nor credential_source.")
                          : AwsConfigText::tr("credential_source = %1 is not supported (Environment and Ec2InstanceMetadata are).")
                                .arg(displayName(credentialSource)));
    }
    if (const QString part = credentialsProblem(r.source); !part.isEmpty())
        return refuse(AwsConfigText::tr("the source key %1 holds a control character (a line break?), which would go "
                                        "into an HTTP header.").arg(part));
    r.stsEndpoint = endpointFor(QStringLiteral("sts"), env, prof, config);
    if (r.stsEndpoint.isEmpty())
        r.stsEndpoint = QStringLiteral("https://sts.%1.amazonaws.com").arg(s.region);
    s.assumeRole = r;
    s.credentialSource = QStringLiteral("assumed role");
    return true;
}
}  // namespace

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
        for (const char *unsupported : {"credential_process", "sso_start_url", "sso_session", "mfa_serial"}) {
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
    QString regionFrom = QStringLiteral("AWS_REGION");
    s.region = value(env, "AWS_REGION");
    if (s.region.isEmpty())
        s.region = value(env, "AWS_DEFAULT_REGION"), regionFrom = QStringLiteral("AWS_DEFAULT_REGION");
    if (s.region.isEmpty())
        s.region = prof.value(QStringLiteral("region")), regionFrom = AwsConfigText::tr("the profile \"%1\" in %2")
                                                                           .arg(displayName(s.profile), displayName(configPath));
    if (s.region.isEmpty())
        s.region = QStringLiteral("us-east-1");
    if (!isValidRegion(s.region)) {
        s.error = AwsConfigText::tr("The AWS region \"%1\" (from %2) is not a region name (letters, digits and hyphens, "
                                    "like us-east-1): refused, since it would become part of the host name requests go to.")
                      .arg(displayName(s.region), regionFrom);
        s.region.clear();
        s.credentials = {};
        return s;
    }
    if (const QString part = credentialsProblem(s.credentials); !part.isEmpty()) {
        s.error = AwsConfigText::tr("The AWS key %1 (from the %2) holds a control character (a line break?): refused, "
                                    "since it would go into an HTTP header. Write it again on one line.")
                      .arg(part, s.credentialSource);
        s.credentials = {};
        return s;
    }
    s.endpointUrl = endpointFor(QStringLiteral("s3"), env, prof, config);
    while (s.endpointUrl.endsWith(QLatin1Char('/')))
        s.endpointUrl.chop(1);
    const QString roleArn = prof.value(QStringLiteral("role_arn"), creds.value(QStringLiteral("role_arn")));
    // A role profile's role wins over keys in the same profile (botocore asks the assume-role provider before the
    // shared files); keys in the environment win over both, unless the profile was named explicitly.
    if (!roleArn.isEmpty() && s.credentialSource != QLatin1String("environment")) {
        s.credentials = {};
        s.credentialSource.clear();
        resolveAssumeRole(s, roleArn, prof, config, credentials, env);
    }
    return s;
}

}  // namespace ingot::s3
