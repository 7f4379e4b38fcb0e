#include "services/s3/instancerole.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace ingot::s3 {

namespace {

class ImdsText
{
    Q_DECLARE_TR_FUNCTIONS(ingot::InstanceRole)
};

constexpr qint64 kMaxAnswer = 64 << 10;

}  // namespace

InstanceRole::InstanceRole(const Environment &env)
{
    m_enabled = env.value(QStringLiteral("AWS_EC2_METADATA_DISABLED")).compare(QLatin1String("true"), Qt::CaseInsensitive) != 0;
    m_endpoint = env.value(QStringLiteral("AWS_EC2_METADATA_SERVICE_ENDPOINT"), QStringLiteral("http://169.254.169.254"));
    while (m_endpoint.endsWith(QLatin1Char('/')))
        m_endpoint.chop(1);
    m_http.setRetryPolicy({1, 0, 0, 0});  // one attempt each, as the AWS CLI makes
    m_http.setUserAgent("Ingot (instance role)");
}

QDateTime InstanceRole::expiration() const
{
    return m_cache.expiration();
}

int InstanceRole::fetches() const
{
    return m_cache.fetches();
}

bool InstanceRole::credentials(Credentials *out, QString *error)
{
    if (!m_enabled) {
        *error = ImdsText::tr("The instance role is not asked (AWS_EC2_METADATA_DISABLED).");
        return false;
    }
    return m_cache.get(out, error, [this](Credentials *keys, QDateTime *expiration, QString *why) { return fetch(keys, expiration, why); });
}

bool InstanceRole::fetch(Credentials *out, QDateTime *expiration, QString *error) const
{
    auto request = [&](const QByteArray &method, const QString &path, const QList<QPair<QByteArray, QByteArray>> &headers) {
        HttpRequest r;
        r.method = method;
        r.url = m_endpoint + path;
        r.headers = headers;
        r.timeoutMs = kTimeoutMs;
        r.maxBytes = kMaxAnswer;
        return m_http.send(r);
    };
    const HttpResponse token = request("PUT", QStringLiteral("/latest/api/token"), {{"X-aws-ec2-metadata-token-ttl-seconds", "21600"}});
    if (!token.ok() || token.body.isEmpty()) {
        *error = ImdsText::tr("No instance role: the instance metadata service at %1 did not answer (%2).")
                     .arg(m_endpoint, token.failure != HttpResponse::Failure::None ? token.error : QStringLiteral("HTTP %1").arg(token.status));
        return false;
    }
    const QByteArray session = token.body.trimmed();
    if (std::any_of(session.cbegin(), session.cend(), [](char c) { return uchar(c) < 0x20 || uchar(c) == 0x7f; })) {
        *error = ImdsText::tr("No instance role: the instance metadata service at %1 gave a token with a control "
                              "character, which would go into an HTTP header: refused.").arg(m_endpoint);
        return false;
    }
    const QList<QPair<QByteArray, QByteArray>> auth{{"X-aws-ec2-metadata-token", session}};
    const HttpResponse roles = request("GET", QStringLiteral("/latest/meta-data/iam/security-credentials/"), auth);
    const QByteArray role = roles.body.split('\n').value(0).trimmed();
    if (!roles.ok() || role.isEmpty() || role.contains('/') || role.contains("..")) {
        *error = ImdsText::tr("No instance role: this instance has no IAM role attached (HTTP %1).").arg(roles.status);
        return false;
    }
    const HttpResponse keys = request("GET", QStringLiteral("/latest/meta-data/iam/security-credentials/") + QString::fromLatin1(role), auth);
    const QJsonObject j = QJsonDocument::fromJson(keys.body).object();
    if (!keys.ok() || j.value(QStringLiteral("Code")).toString() != QLatin1String("Success")
        || j.value(QStringLiteral("AccessKeyId")).toString().isEmpty() || j.value(QStringLiteral("SecretAccessKey")).toString().isEmpty()) {
        *error = ImdsText::tr("The instance role %1 gave no keys (HTTP %2, %3).")
                     .arg(displayName(QString::fromLatin1(role))).arg(keys.status).arg(displayName(j.value(QStringLiteral("Code")).toString()));
        return false;
    }
    *out = {j.value(QStringLiteral("AccessKeyId")).toString().toUtf8(), j.value(QStringLiteral("SecretAccessKey")).toString().toUtf8(),
            j.value(QStringLiteral("Token")).toString().toUtf8()};
    *expiration = QDateTime::fromString(j.value(QStringLiteral("Expiration")).toString(), Qt::ISODate);
    if (const QString part = credentialsProblem(*out); !part.isEmpty()) {
        *out = {};
        *error = ImdsText::tr("The instance role %1 gave keys whose %2 holds a control character, which would go into an "
                              "HTTP header: refused.").arg(displayName(QString::fromLatin1(role)), part);
        return false;
    }
    return true;
}

}  // namespace ingot::s3
