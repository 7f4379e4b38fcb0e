#include "services/s3/s3client.h"

#include "services/util/names.h"
#include "services/util/relpath.h"
#include "services/util/sha256.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QSet>
#include <QXmlStreamReader>

#include <algorithm>

namespace ingot::s3 {

namespace {

class S3ClientText
{
    Q_DECLARE_TR_FUNCTIONS(ingot::S3Client)
};

constexpr qint64 kMaxListPage = 16 << 20;  // one page of 1000 keys is a few hundred KB

QString s3Text(const QByteArray &xml, const char *element)
{
    QXmlStreamReader r(xml);
    while (!r.atEnd() && !r.hasError())
        if (r.readNext() == QXmlStreamReader::StartElement && r.name() == QLatin1String(element))
            return r.readElementText().left(300);
    return {};
}

QByteArray xmlEscaped(const QByteArray &s)
{
    QByteArray out;
    for (const char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default: out += c;
        }
    }
    return out;
}

bool hasControl(const QString &s)
{
    return std::any_of(s.cbegin(), s.cend(), [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
}

}  // namespace

S3Access::~S3Access() = default;

bool S3Access::plainKey(const S3Location &location, const QString &prefix, const QString &key)
{
    if (!key.startsWith(prefix) || key.size() <= prefix.size() || !location.holds(key) || hasControl(key))
        return false;
    QString rel = key.mid(location.prefix.size());
    if (rel.endsWith(QLatin1Char('/')))
        rel.chop(1);  // a common prefix
    return isSafeRelativePath(rel);
}

QString S3Client::identity() const
{
    std::lock_guard lock(m_regionMutex);
    return QString::fromLatin1(m_endpoint.base) + QLatin1Char('|') + m_location.url();
}

S3Client::S3Client(const AwsSettings &settings, const S3Location &location, std::shared_ptr<InstanceRole> role)
    : m_settings(settings), m_location(location), m_endpoint(endpointFor(settings, location.bucket, &m_endpointError)),
      m_region(settings.region)
{
    m_http.setUserAgent("Ingot (S3 compile caches)");
    if (m_settings.assumeRole.isSet())
        m_assumed = std::make_shared<AssumedRole>(m_settings.assumeRole, m_settings.region,
                                                  m_settings.assumeRole.sourceFromInstance ? std::move(role) : nullptr);
    else if (!m_settings.credentials.isValid())
        m_role = role ? std::move(role) : std::make_shared<InstanceRole>();
}

bool S3Client::keys(Credentials *out, QString *error) const
{
    if (m_settings.credentials.isValid()) {
        *out = m_settings.credentials;
        return true;
    }
    QString why;
    if (m_assumed)
        return m_assumed->credentials(out, error);
    if (m_role && m_role->credentials(out, &why))
        return true;
    *error = S3ClientText::tr("No AWS keys were found for %1 (the environment, the profile \"%2\").")
                 .arg(displayName(m_location.url()), displayName(m_settings.profile))
             + (why.isEmpty() ? QString() : QLatin1Char(' ') + why);
    return false;
}

bool S3Client::usable(QString *error) const
{
    if (!m_settings.error.isEmpty()) {
        *error = m_settings.error;
        return false;
    }
    if (std::lock_guard lock(m_regionMutex); m_endpoint.host.isEmpty()) {
        *error = m_endpointError;
        return false;
    }
    Credentials c;
    return keys(&c, error);
}

HttpResponse S3Client::send(const QByteArray &method, const QString &key, const QList<QPair<QByteArray, QByteArray>> &query,
                            const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body, qint64 maxBytes,
                            const std::atomic_bool *cancel, HttpRequest *streaming, bool regionRetried) const
{
    QString region;
    S3Endpoint endpoint;
    {
        std::lock_guard lock(m_regionMutex);
        region = m_region;
        endpoint = m_endpoint;
    }
    SigningRequest sr{method, endpoint.host, objectPath(endpoint, m_location.bucket, key), query, headers,
                      Sha256::hash(body).toHex()};
    Credentials c;
    QString ignored;
    keys(&c, &ignored);  // usable() said there are some; a role's are refreshed here when they near their end
    const Signed s = sign(sr, c, region.toLatin1(), "s3", QDateTime::currentDateTimeUtc());
    QByteArray q;
    for (const auto &[n, v] : query)
        q += (q.isEmpty() ? "?" : "&") + uriEncode(n, false) + '=' + uriEncode(v, false);
    HttpRequest req;
    if (streaming) {  // a large body either way: only the low-speed rule bounds its time
        req.sink = streaming->sink;
        req.onBodyStart = streaming->onBodyStart;
        req.timeoutMs = 0;
        req.timeoutAttempts = 2;
    }
    req.method = method;
    req.url = QString::fromLatin1(endpoint.base + sr.path + q);
    req.headers = headers + s.headers;
    req.body = body;
    req.maxBytes = maxBytes;
    req.trustedOrigin = QString::fromLatin1(endpoint.base);
    req.sameOriginRedirects = true;  // a signed request never follows a redirect to another host
    HttpResponse r = m_http.send(req, cancel);
    // The bucket is in another region (S3 says which: x-amz-bucket-region, or <Region> in the error): that region
    // from now on, and this request once more, as botocore's S3 region redirector does.
    const QString other = (r.status == 301 || r.status == 307 || r.status == 400) ? bucketRegionOf(r) : QString();
    if (!other.isEmpty() && other != region && !regionRetried) {
        {
            std::lock_guard lock(m_regionMutex);
            m_region = other;
            AwsSettings moved = m_settings;
            moved.region = other;
            QString ignoredError;
            m_endpoint = endpointFor(moved, m_location.bucket, &ignoredError);
        }
        return send(method, key, query, headers, body, maxBytes, cancel, streaming, true);
    }
    return r;
}

QString S3Client::region() const
{
    std::lock_guard lock(m_regionMutex);
    return m_region;
}

QString S3Client::bucketRegionOf(const HttpResponse &r)
{
    QString region = QString::fromLatin1(r.header("x-amz-bucket-region"));
    const QString code = s3Text(r.body, "Code");
    if (region.isEmpty() && (code == QLatin1String("AuthorizationHeaderMalformed") || code == QLatin1String("PermanentRedirect")
                             || code == QLatin1String("IllegalLocationConstraintException")))
        region = s3Text(r.body, "Region");
    // S3's regions are lower case; the rule every other region meets (isValidRegion) too.
    const bool plain = region.size() >= 2 && region == region.toLower() && isValidRegion(region);
    return plain ? region : QString();
}

QString S3Client::failureText(const HttpResponse &r, const QString &what) const
{
    if (r.failure != HttpResponse::Failure::None)
        return S3ClientText::tr("%1: %2").arg(what, r.error);
    const QString code = s3Text(r.body, "Code");
    const QString message = s3Text(r.body, "Message");
    if (code == QLatin1String("SignatureDoesNotMatch") || code == QLatin1String("InvalidAccessKeyId")
        || code == QLatin1String("InvalidToken") || code == QLatin1String("ExpiredToken"))
        return S3ClientText::tr("%1: S3 refused the keys (%2): check the secret key, the session token and the "
                                "machine's clock.").arg(what, code);
    if (code == QLatin1String("NoSuchBucket"))
        return S3ClientText::tr("%1: the bucket %2 does not exist.").arg(what, displayName(m_location.bucket));
    if (r.status >= 300 && r.status < 400)
        return S3ClientText::tr("%1: S3 sent the request elsewhere (HTTP %2); the bucket may be in another region than %3.")
            .arg(what).arg(r.status).arg(region());
    return S3ClientText::tr("%1: HTTP %2 %3 %4").arg(what).arg(r.status).arg(displayName(code), displayName(message)).trimmed();
}

namespace {
// One page of a ListObjectsV2 answer, its keys decoded (encoding-type=url) but not yet checked.
struct ListPage {
    QList<S3Object> objects;
    QStringList prefixes;
    bool truncated = false;
    QString next;
};

bool parseListPage(const QByteArray &body, ListPage *page, QString *why)
{
    QXmlStreamReader x(body);
    bool url = false, inContents = false, inPrefixes = false;
    S3Object o;
    while (!x.atEnd()) {
        x.readNext();
        if (x.isStartElement()) {
            const auto n = x.name();
            if (n == QLatin1String("Contents")) {
                inContents = true;
                o = {};
            } else if (n == QLatin1String("CommonPrefixes")) {
                inPrefixes = true;
            } else if (n == QLatin1String("Key") && inContents) {
                o.key = x.readElementText();
            } else if (n == QLatin1String("Size") && inContents) {
                o.size = x.readElementText().toLongLong();
            } else if (n == QLatin1String("LastModified") && inContents) {
                o.lastModified = QDateTime::fromString(x.readElementText(), Qt::ISODateWithMs);
            } else if (n == QLatin1String("ETag") && inContents) {
                o.etag = x.readElementText().remove(QLatin1Char('"')).toLatin1();
            } else if (n == QLatin1String("Prefix") && inPrefixes) {
                page->prefixes << x.readElementText();
            } else if (n == QLatin1String("IsTruncated")) {
                page->truncated = x.readElementText() == QLatin1String("true");
            } else if (n == QLatin1String("NextContinuationToken")) {
                page->next = x.readElementText();
            } else if (n == QLatin1String("EncodingType")) {
                url = x.readElementText() == QLatin1String("url");
            }
        } else if (x.isEndElement()) {
            if (x.name() == QLatin1String("Contents")) {
                inContents = false;
                page->objects << o;
            } else if (x.name() == QLatin1String("CommonPrefixes")) {
                inPrefixes = false;
            }
        }
    }
    if (x.hasError()) {
        *why = S3ClientText::tr("the answer is not S3's XML (%1).").arg(x.errorString());
        return false;
    }
    auto decoded = [url](const QString &s) { return url ? nameFromBytes(QByteArray::fromPercentEncoding(s.toUtf8())) : s; };
    for (S3Object &obj : page->objects)
        obj.key = decoded(obj.key);
    for (QString &p : page->prefixes)
        p = decoded(p);
    return true;
}
}  // namespace

bool S3Client::list(const QString &prefix, const QString &delimiter, S3Listing *out, QString *error,
                    const std::atomic_bool *cancel) const
{
    *out = {};
    if (!usable(error))
        return false;
    if (prefix != m_location.prefix && !m_location.holds(prefix)) {
        *error = S3ClientText::tr("%1 is not under %2.").arg(displayName(prefix), displayName(m_location.url()));
        return false;
    }
    const QString what = S3ClientText::tr("Listing %1").arg(displayName(QStringLiteral("s3://") + m_location.bucket + QLatin1Char('/') + prefix));
    S3Listing got;
    QSet<QString> tokens;
    QString token;
    auto refuse = [&](const QString &why) {
        *error = what + QStringLiteral(": ") + why;
        return false;
    };
    // A key the server lists must be under what was asked and a plain path below the cache's prefix.
    auto plain = [&](const QString &key) { return plainKey(m_location, prefix, key); };
    QElapsedTimer clock;
    clock.start();
    for (int page = 0;; ++page) {
        const qint64 keys = got.objects.size() + got.commonPrefixes.size();
        if (page >= m_budget.maxPages)
            return refuse(S3ClientText::tr("the server still says there is more after %1 pages (%2 keys): refused as a "
                                           "listing without end.").arg(page).arg(keys));
        if (page >= m_budget.sparsePages && keys < qint64(page) * m_budget.minKeysPerPage)
            return refuse(S3ClientText::tr("the server gave %1 keys in %2 pages and still says there is more (S3 gives up to "
                                           "1,000 a page): refused as a listing without end.").arg(keys).arg(page));
        if (page > 0 && clock.elapsed() > m_budget.maxMs)
            return refuse(S3ClientText::tr("the listing took more than %1 s (%2 pages, %3 keys so far): refused.")
                              .arg(m_budget.maxMs / 1000.0).arg(page).arg(keys));
        QList<QPair<QByteArray, QByteArray>> query{{"list-type", "2"}, {"prefix", nameToBytes(prefix)}, {"encoding-type", "url"}};
        if (!delimiter.isEmpty())
            query.append({"delimiter", nameToBytes(delimiter)});
        if (!token.isEmpty())
            query.append({"continuation-token", token.toUtf8()});
        const HttpResponse r = send("GET", QString(), query, {}, {}, kMaxListPage, cancel);
        if (!r.ok()) {
            *error = failureText(r, what);
            return false;
        }
        ListPage lp;
        QString why;
        if (!parseListPage(r.body, &lp, &why))
            return refuse(why);
        for (const S3Object &obj : std::as_const(lp.objects)) {
            if (!plain(obj.key) || obj.size < 0)
                return refuse(S3ClientText::tr("the server listed %1, which is not a plain key under the prefix: refused.").arg(displayName(obj.key)));
            got.objects << obj;
        }
        for (const QString &p : std::as_const(lp.prefixes)) {
            if (!plain(p) || (!delimiter.isEmpty() && !p.endsWith(delimiter)))
                return refuse(S3ClientText::tr("the server listed %1, which is not a plain key under the prefix: refused.").arg(displayName(p)));
            got.commonPrefixes << p;
        }
        if (got.objects.size() + got.commonPrefixes.size() > m_budget.maxKeys)
            return refuse(S3ClientText::tr("more than %1 keys: refused.").arg(m_budget.maxKeys));
        if (!lp.truncated)
            break;
        if (lp.next.isEmpty() || tokens.contains(lp.next))
            return refuse(S3ClientText::tr("the server says there is more but gives no new continuation token: refused."));
        tokens.insert(lp.next);
        token = lp.next;
    }
    *out = std::move(got);
    return true;
}

bool S3Client::get(const QString &key, qint64 offset, qint64 length, QByteArray *out, QString *error, qint64 maxBytes,
                   const std::atomic_bool *cancel) const
{
    out->clear();
    if (!usable(error))
        return false;
    if (!m_location.holds(key)) {
        *error = S3ClientText::tr("%1 is not under %2.").arg(displayName(key), displayName(m_location.url()));
        return false;
    }
    QList<QPair<QByteArray, QByteArray>> headers;
    const bool ranged = offset > 0 || length >= 0;
    if (ranged)
        headers.append({"Range", "bytes=" + QByteArray::number(offset) + '-'
                                     + (length >= 0 ? QByteArray::number(offset + std::max<qint64>(0, length - 1)) : QByteArray())});
    const HttpResponse r = send("GET", key, {}, headers, {}, maxBytes, cancel);
    if (!r.ok() || (ranged && r.status != 206)) {
        *error = r.ok() ? S3ClientText::tr("Reading %1: the server ignored the range asked for.").arg(displayName(key))
                        : failureText(r, S3ClientText::tr("Reading %1").arg(displayName(key)));
        return false;
    }
    *out = r.body;
    return true;
}

bool S3Client::remove(const QStringList &keys, QStringList *failed, QString *error, const std::atomic_bool *cancel) const
{
    failed->clear();
    if (!usable(error))
        return false;
    for (const QString &k : keys) {
        if (!m_location.holds(k) || hasControl(k)) {
            *error = S3ClientText::tr("%1 is not under %2: nothing was deleted.").arg(displayName(k), displayName(m_location.url()));
            return false;
        }
    }
    for (qsizetype at = 0; at < keys.size(); at += kMaxDeleteBatch) {
        QByteArray body = "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Quiet>true</Quiet>";
        for (const QString &k : keys.mid(at, kMaxDeleteBatch))
            body += "<Object><Key>" + xmlEscaped(nameToBytes(k)) + "</Key></Object>";
        body += "</Delete>";
        const QByteArray md5 = QCryptographicHash::hash(body, QCryptographicHash::Md5).toBase64();
        const HttpResponse r = send("POST", QString(), {{"delete", ""}}, {{"Content-MD5", md5}, {"Content-Type", "application/xml"}},
                                    body, 16 << 20, cancel);
        if (!r.ok()) {
            *error = failureText(r, S3ClientText::tr("Deleting from %1").arg(displayName(m_location.url())));
            return false;
        }
        QXmlStreamReader x(r.body);
        QString key, code;
        bool inError = false;
        while (!x.atEnd()) {
            x.readNext();
            if (x.isStartElement() && x.name() == QLatin1String("Error")) {
                inError = true;
                key.clear(), code.clear();
            } else if (x.isStartElement() && inError && x.name() == QLatin1String("Key")) {
                key = x.readElementText();
            } else if (x.isStartElement() && inError && x.name() == QLatin1String("Code")) {
                code = x.readElementText();
            } else if (x.isEndElement() && x.name() == QLatin1String("Error")) {
                inError = false;
                *failed << displayName(key) + QStringLiteral(": ") + displayName(code);
            }
        }
    }
    return true;
}

bool S3Client::checkKey(const QString &key, QString *error) const
{
    if (!usable(error))
        return false;
    if (!m_location.holds(key) || hasControl(key)) {
        *error = S3ClientText::tr("%1 is not under %2.").arg(displayName(key), displayName(m_location.url()));
        return false;
    }
    return true;
}

bool S3Client::download(const QString &key, qint64 offset, const std::function<bool(const char *, size_t, bool)> &sink,
                        QByteArray *etag, qint64 *size, QString *error, const std::atomic_bool *cancel,
                        QByteArray *checksum) const
{
    if (!checkKey(key, error))
        return false;
    const QString what = S3ClientText::tr("Reading %1").arg(displayName(key));
    QList<QPair<QByteArray, QByteArray>> headers;
    if (offset > 0)
        headers.append({"Range", "bytes=" + QByteArray::number(offset) + '-'});
    else
        headers.append(qMakePair(QByteArray("x-amz-checksum-mode"), QByteArray("ENABLED")));  // its SHA-256, if kept
    bool wrongRange = false;
    HttpRequest streaming;
    streaming.sink = sink;
    streaming.onBodyStart = [offset, &wrongRange](int status, const QHash<QByteArray, QByteArray> &h) {
        const QByteArray range = h.value("content-range");
        wrongRange = offset > 0 && (status != 206 || !range.startsWith(QByteArray("bytes " + QByteArray::number(offset) + '-')));
        return !wrongRange;
    };
    // The bound is for an error body; the object itself goes to the sink.
    const HttpResponse r = send("GET", key, {}, headers, {}, 1 << 20, cancel, &streaming);
    if (wrongRange) {
        *error = S3ClientText::tr("%1: the server did not answer the range asked for.").arg(what);
        return false;
    }
    if (!r.ok()) {
        *error = failureText(r, what);
        return false;
    }
    *etag = r.header("etag");
    etag->replace('"', QByteArray());
    if (checksum)
        *checksum = offset > 0 ? QByteArray() : r.header("x-amz-checksum-sha256");
    const QByteArray range = r.header("content-range");
    *size = r.status == 206 ? range.mid(range.lastIndexOf('/') + 1).toLongLong() : r.header("content-length").toLongLong();
    return true;
}

bool S3Client::put(const QString &key, const QByteArray &data, QByteArray *etag, QString *error, const std::atomic_bool *cancel) const
{
    if (!checkKey(key, error))
        return false;
    const QByteArray md5 = QCryptographicHash::hash(data, QCryptographicHash::Md5);
    const HttpResponse r = send("PUT", key, {},
                                {{"Content-MD5", md5.toBase64()}, {"x-amz-checksum-sha256", Sha256::hash(data).toBase64()}},
                                data, 1 << 20, cancel);
    if (!r.ok()) {
        *error = failureText(r, S3ClientText::tr("Writing %1").arg(displayName(key)));
        return false;
    }
    *etag = r.header("etag").replace('"', QByteArray());
    return true;
}

bool S3Client::createUpload(const QString &key, QString *uploadId, QString *error, const std::atomic_bool *cancel) const
{
    if (!checkKey(key, error))
        return false;
    const HttpResponse r = send("POST", key, {{"uploads", ""}}, {}, {}, 1 << 20, cancel);
    *uploadId = r.ok() ? s3Text(r.body, "UploadId") : QString();
    if (uploadId->isEmpty() || hasControl(*uploadId)) {
        *error = r.ok() ? S3ClientText::tr("Starting the upload of %1: S3 gave no upload id.").arg(displayName(key))
                        : failureText(r, S3ClientText::tr("Starting the upload of %1").arg(displayName(key)));
        return false;
    }
    return true;
}

bool S3Client::uploadPart(const QString &key, const QString &uploadId, int number, const QByteArray &data, QByteArray *etag,
                          QString *error, const std::atomic_bool *cancel) const
{
    if (!checkKey(key, error))
        return false;
    const QByteArray md5 = QCryptographicHash::hash(data, QCryptographicHash::Md5);
    const HttpResponse r = send("PUT", key, {{"partNumber", QByteArray::number(number)}, {"uploadId", uploadId.toUtf8()}},
                                {{"Content-MD5", md5.toBase64()}}, data, 1 << 20, cancel);
    if (!r.ok()) {
        *error = failureText(r, S3ClientText::tr("Writing part %1 of %2").arg(number).arg(displayName(key)));
        return false;
    }
    *etag = r.header("etag").replace('"', QByteArray());
    return true;
}

bool S3Client::listParts(const QString &key, const QString &uploadId, QList<S3Part> *parts, QString *error,
                         const std::atomic_bool *cancel) const
{
    parts->clear();
    if (!checkKey(key, error))
        return false;
    QString marker;
    for (int page = 0; page < 100; ++page) {  // 10,000 parts at most, 1,000 a page
        QList<QPair<QByteArray, QByteArray>> query{{"uploadId", uploadId.toUtf8()}};
        if (!marker.isEmpty())
            query.append({"part-number-marker", marker.toUtf8()});
        const HttpResponse r = send("GET", key, query, {}, {}, kMaxListPage, cancel);
        if (!r.ok()) {
            *error = failureText(r, S3ClientText::tr("Listing the parts of %1").arg(displayName(key)));
            return false;
        }
        QXmlStreamReader x(r.body);
        bool truncated = false;
        QString next;
        S3Part part;
        while (!x.atEnd()) {
            x.readNext();
            if (x.isStartElement()) {
                if (x.name() == QLatin1String("Part"))
                    part = {};
                else if (x.name() == QLatin1String("PartNumber"))
                    part.number = x.readElementText().toInt();
                else if (x.name() == QLatin1String("Size"))
                    part.size = x.readElementText().toLongLong();
                else if (x.name() == QLatin1String("ETag"))
                    part.etag = x.readElementText().remove(QLatin1Char('"')).toLatin1();
                else if (x.name() == QLatin1String("IsTruncated"))
                    truncated = x.readElementText() == QLatin1String("true");
                else if (x.name() == QLatin1String("NextPartNumberMarker"))
                    next = x.readElementText();
            } else if (x.isEndElement() && x.name() == QLatin1String("Part") && part.number > 0) {
                parts->append(part);
            }
        }
        if (x.hasError() || parts->size() > 10000) {
            *error = S3ClientText::tr("Listing the parts of %1: the answer is not S3's XML.").arg(displayName(key));
            parts->clear();
            return false;
        }
        if (!truncated)
            return true;
        if (next.isEmpty() || next == marker)
            break;
        marker = next;
    }
    *error = S3ClientText::tr("Listing the parts of %1: the server gives no end to the list.").arg(displayName(key));
    parts->clear();
    return false;
}

bool S3Client::completeUpload(const QString &key, const QString &uploadId, const QList<S3Part> &parts, QByteArray *etag,
                              QString *error, const std::atomic_bool *cancel) const
{
    if (!checkKey(key, error))
        return false;
    QByteArray body = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
    for (const S3Part &p : parts)
        body += "<Part><PartNumber>" + QByteArray::number(p.number) + "</PartNumber><ETag>\"" + xmlEscaped(p.etag)
                + "\"</ETag></Part>";
    body += "</CompleteMultipartUpload>";
    const HttpResponse r = send("POST", key, {{"uploadId", uploadId.toUtf8()}}, {{"Content-Type", "application/xml"}}, body,
                                1 << 20, cancel);
    // S3 may answer 200 with an error document when the completion fails late.
    const QString code = r.ok() ? s3Text(r.body, "Code") : QString();
    if (!r.ok() || !code.isEmpty()) {
        *error = code.isEmpty() ? failureText(r, S3ClientText::tr("Completing the upload of %1").arg(displayName(key)))
                                : S3ClientText::tr("Completing the upload of %1: %2").arg(displayName(key), displayName(code));
        return false;
    }
    *etag = s3Text(r.body, "ETag").remove(QLatin1Char('"')).toLatin1();
    return true;
}

bool S3Client::abortUpload(const QString &key, const QString &uploadId, QString *error) const
{
    if (!checkKey(key, error))
        return false;
    const HttpResponse r = send("DELETE", key, {{"uploadId", uploadId.toUtf8()}}, {}, {}, 1 << 20, nullptr);
    if (!r.ok() && r.status != 404) {
        *error = failureText(r, S3ClientText::tr("Abandoning the upload of %1").arg(displayName(key)));
        return false;
    }
    return true;
}

}  // namespace ingot::s3
