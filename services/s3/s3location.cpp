#include "services/s3/s3location.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QUrl>

#include <algorithm>

namespace ingot::s3 {

namespace {

class S3LocationText
{
    Q_DECLARE_TR_FUNCTIONS(ingot::S3Location)
};

// S3's rules for a bucket name (general purpose buckets): 3-63 of a-z 0-9 . -, a letter or digit at both ends, no
// "..", not shaped like an IP address.
bool validBucket(const QString &b)
{
    if (b.size() < 3 || b.size() > 63 || b.contains(QLatin1String("..")))
        return false;
    for (const QChar c : b)
        if (!((c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
              || c == QLatin1Char('.') || c == QLatin1Char('-')))
            return false;
    auto alnum = [](QChar c) { return c.isDigit() || (c >= QLatin1Char('a') && c <= QLatin1Char('z')); };
    if (!alnum(b.front()) || !alnum(b.back()))
        return false;
    const QStringList parts = b.split(QLatin1Char('.'));
    bool ip = parts.size() == 4;
    for (const QString &p : parts)
        ip = ip && !p.isEmpty() && p.size() <= 3 && std::all_of(p.cbegin(), p.cend(), [](QChar c) { return c.isDigit(); });
    return !ip;
}

}  // namespace

bool S3Location::parse(const QString &url, S3Location *out, QString *error)
{
    if (!url.startsWith(QLatin1String("s3://"))) {
        *error = S3LocationText::tr("\"%1\" is not an S3 location (s3://bucket/prefix).").arg(displayName(url));
        return false;
    }
    const QString rest = url.mid(5);
    const int slash = rest.indexOf(QLatin1Char('/'));
    const QString bucket = slash < 0 ? rest : rest.left(slash);
    QString prefix = slash < 0 ? QString() : rest.mid(slash + 1);
    if (!validBucket(bucket)) {
        *error = S3LocationText::tr("\"%1\" is not a bucket name S3 allows (3 to 63 lower-case letters, digits, dots "
                                    "and hyphens).").arg(displayName(bucket));
        return false;
    }
    while (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    if (!prefix.isEmpty()) {
        for (const QString &part : prefix.split(QLatin1Char('/'))) {
            if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String("..")
                || std::any_of(part.cbegin(), part.cend(), [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; })) {
                *error = S3LocationText::tr("The prefix \"%1\" has an empty, \".\" or \"..\" part, or a control "
                                            "character: refused.").arg(displayName(prefix));
                return false;
            }
        }
        prefix += QLatin1Char('/');
    }
    out->bucket = bucket;
    out->prefix = prefix;
    return true;
}

QString S3Location::url() const
{
    return QStringLiteral("s3://") + bucket + (prefix.isEmpty() ? QString() : QLatin1Char('/') + prefix.chopped(1));
}

S3Endpoint endpointFor(const AwsSettings &settings, const QString &bucket, QString *error)
{
    S3Endpoint e;
    if (!settings.endpointUrl.isEmpty()) {
        const QUrl u(settings.endpointUrl);
        if (!u.isValid() || (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https")) || u.host().isEmpty()
            || (!u.path().isEmpty() && u.path() != QLatin1String("/")) || u.hasQuery() || !u.userInfo().isEmpty()) {
            *error = S3LocationText::tr("The S3 endpoint \"%1\" is not http(s)://host[:port].").arg(displayName(settings.endpointUrl));
            return {};
        }
        e.scheme = u.scheme().toLatin1();
        e.host = u.host(QUrl::FullyEncoded).toLatin1();
        if (u.host().contains(QLatin1Char(':')))
            e.host = '[' + e.host + ']';  // an IPv6 address
        if (u.port() > 0)
            e.host += ':' + QByteArray::number(u.port());
        e.pathStyle = true;
    } else {
        if (!isValidRegion(settings.region)) {
            *error = S3LocationText::tr("The AWS region \"%1\" is not a region name (letters, digits and hyphens, like "
                                        "us-east-1): no request is made.").arg(displayName(settings.region));
            return {};
        }
        e.scheme = "https";
        const QByteArray regional = "s3." + settings.region.toLatin1() + ".amazonaws.com";
        e.pathStyle = bucket.contains(QLatin1Char('.'));
        e.host = e.pathStyle ? regional : bucket.toLatin1() + '.' + regional;
    }
    e.base = e.scheme + "://" + e.host;
    return e;
}

QByteArray objectPath(const S3Endpoint &endpoint, const QString &bucket, const QString &key)
{
    const QByteArray k = uriEncode(nameToBytes(key), true);
    if (endpoint.pathStyle)
        return '/' + bucket.toLatin1() + (key.isEmpty() ? QByteArray() : '/' + k);
    return '/' + k;
}

}  // namespace ingot::s3
