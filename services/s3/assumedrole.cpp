#include "services/s3/assumedrole.h"

#include "services/s3/sigv4.h"
#include "services/util/names.h"
#include "services/util/sha256.h"

#include <QCoreApplication>
#include <QUrl>
#include <QXmlStreamReader>

namespace ingot::s3 {

namespace {
struct StsText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Sts)
};

QByteArray formValue(const QString &v)
{
    return uriEncode(v.toUtf8(), false);
}
}  // namespace

bool assumeRole(const HttpClient &http, const AssumeRoleSpec &spec, const Credentials &source, const QString &region,
                Credentials *out, QDateTime *expiration, QString *error)
{
    const QUrl url(spec.stsEndpoint);
    if (!url.isValid() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")) || url.host().isEmpty()) {
        *error = StsText::tr("The STS endpoint %1 is not an http(s) URL.").arg(displayName(spec.stsEndpoint));
        return false;
    }
    const QString session = spec.sessionName.isEmpty()
                                ? QStringLiteral("ingot-%1").arg(QDateTime::currentMSecsSinceEpoch() / 1000)
                                : spec.sessionName;
    QByteArray body = "Action=AssumeRole&Version=2011-06-15&RoleArn=" + formValue(spec.roleArn) + "&RoleSessionName="
                      + formValue(session) + "&DurationSeconds=" + QByteArray::number(spec.durationSeconds);
    if (!spec.externalId.isEmpty())
        body += "&ExternalId=" + formValue(spec.externalId);
    const QByteArray host = (url.host() + (url.port() > 0 ? QLatin1Char(':') + QString::number(url.port()) : QString())).toUtf8();
    const QList<QPair<QByteArray, QByteArray>> headers{{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
    const SigningRequest sr{"POST", host, "/", {}, headers, Sha256::hash(body).toHex()};
    const Signed sig = sign(sr, source, region.toLatin1(), "sts", QDateTime::currentDateTimeUtc());
    HttpRequest req;
    req.method = "POST";
    req.url = url.scheme() + QStringLiteral("://") + QString::fromUtf8(host) + QLatin1Char('/');
    req.headers = headers + sig.headers;
    req.body = body;
    req.maxBytes = 1 << 20;
    req.trustedOrigin = HttpClient::originOf(req.url);
    req.sameOriginRedirects = true;
    const HttpResponse r = http.send(req);
    const QString what = StsText::tr("Assuming the role %1").arg(displayName(spec.roleArn));
    if (!r.ok()) {
        QString code;
        QXmlStreamReader x(r.body);
        while (!x.atEnd() && code.isEmpty())
            if (x.readNext() == QXmlStreamReader::StartElement && x.name() == QLatin1String("Code"))
                code = x.readElementText().left(100);
        *error = r.failure != HttpResponse::Failure::None ? StsText::tr("%1: %2").arg(what, r.error)
                                                           : StsText::tr("%1: STS answered HTTP %2 %3").arg(what).arg(r.status).arg(displayName(code));
        return false;
    }
    Credentials keys;
    QString expires;
    QXmlStreamReader x(r.body);
    bool inCredentials = false;
    while (!x.atEnd()) {
        x.readNext();
        if (x.isStartElement() && x.name() == QLatin1String("Credentials"))
            inCredentials = true;
        else if (x.isEndElement() && x.name() == QLatin1String("Credentials"))
            inCredentials = false;
        else if (x.isStartElement() && inCredentials) {
            if (x.name() == QLatin1String("AccessKeyId"))
                keys.accessKeyId = x.readElementText().toUtf8();
            else if (x.name() == QLatin1String("SecretAccessKey"))
                keys.secretAccessKey = x.readElementText().toUtf8();
            else if (x.name() == QLatin1String("SessionToken"))
                keys.sessionToken = x.readElementText().toUtf8();
            else if (x.name() == QLatin1String("Expiration"))
                expires = x.readElementText();
        }
    }
    const QDateTime when = QDateTime::fromString(expires, Qt::ISODateWithMs);
    if (x.hasError() || !keys.isValid() || keys.sessionToken.isEmpty() || !when.isValid()) {
        *error = StsText::tr("%1: STS's answer holds no temporary keys.").arg(what);
        return false;
    }
    if (const QString part = credentialsProblem(keys); !part.isEmpty()) {
        *error = StsText::tr("%1: STS gave keys whose %2 holds a control character, which would go into an HTTP header: "
                             "refused.").arg(what, part);
        return false;
    }
    *out = keys;
    *expiration = when;
    return true;
}

AssumedRole::AssumedRole(AssumeRoleSpec spec, QString region, std::shared_ptr<InstanceRole> instance)
    : m_spec(std::move(spec)), m_region(std::move(region)), m_instance(std::move(instance))
{
    m_http.setUserAgent("Ingot (S3 compile caches)");
    if (m_spec.sourceFromInstance && !m_instance)
        m_instance = std::make_shared<InstanceRole>();
}

bool AssumedRole::credentials(Credentials *out, QString *error)
{
    return m_cache.get(out, error, [this](Credentials *keys, QDateTime *expiration, QString *why) {
        Credentials source = m_spec.source;
        if (m_spec.sourceFromInstance && !m_instance->credentials(&source, why))
            return false;
        return assumeRole(m_http, m_spec, source, m_region, keys, expiration, why);
    });
}

}  // namespace ingot::s3
