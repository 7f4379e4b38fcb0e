#include "services/s3/sigv4.h"

#include "services/util/sha256.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>

namespace ingot::s3 {

namespace {

QByteArray hmac(const QByteArray &key, const QByteArray &data)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.constData(), int(key.size()), reinterpret_cast<const unsigned char *>(data.constData()),
         size_t(data.size()), out, &len);
    return QByteArray(reinterpret_cast<const char *>(out), int(len));
}

// A header value as SigV4 wants it: outer spaces trimmed, inner runs of spaces and tabs as one space.
QByteArray trimmedValue(const QByteArray &v)
{
    QByteArray out;
    out.reserve(v.size());
    bool space = false;
    for (const char c : v.trimmed()) {
        if (c == ' ' || c == '\t') {
            space = true;
            continue;
        }
        if (space)
            out += ' ';
        space = false;
        out += c;
    }
    return out;
}

}  // namespace

QByteArray uriEncode(const QByteArray &bytes, bool keepSlash)
{
    static const char hex[] = "0123456789ABCDEF";
    QByteArray out;
    out.reserve(bytes.size() * 3);
    for (const char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
            || c == '.' || c == '~' || (keepSlash && c == '/')) {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

QByteArray emptyPayloadHash()
{
    return Sha256::hash(QByteArray()).toHex();
}

QByteArray canonicalRequest(const SigningRequest &r, const QList<QPair<QByteArray, QByteArray>> &allHeaders,
                            QByteArray *signedHeaders)
{
    QList<QPair<QByteArray, QByteArray>> query;
    query.reserve(r.query.size());
    for (const auto &[name, value] : r.query)
        query.append({uriEncode(name, false), uriEncode(value, false)});
    std::sort(query.begin(), query.end());
    QByteArray q;
    for (const auto &[name, value] : std::as_const(query))
        q += (q.isEmpty() ? "" : "&") + name + '=' + value;
    // Headers by lower-case name; a name given twice is one line, its values joined by commas in the order given.
    QList<QPair<QByteArray, QByteArray>> headers;
    for (const auto &[name, value] : allHeaders) {
        const QByteArray lower = name.toLower().trimmed();
        auto it = std::find_if(headers.begin(), headers.end(), [&](const auto &h) { return h.first == lower; });
        if (it == headers.end())
            headers.append({lower, trimmedValue(value)});
        else
            it->second += ',' + trimmedValue(value);
    }
    std::stable_sort(headers.begin(), headers.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QByteArray canonicalHeaders;
    signedHeaders->clear();
    for (const auto &[name, value] : std::as_const(headers)) {
        canonicalHeaders += name + ':' + value + '\n';
        *signedHeaders += (signedHeaders->isEmpty() ? "" : ";") + name;
    }
    return r.method + '\n' + (r.path.isEmpty() ? QByteArray("/") : r.path) + '\n' + q + '\n' + canonicalHeaders + '\n'
           + *signedHeaders + '\n' + r.payloadHash;
}

QByteArray signingKey(const QByteArray &secret, const QByteArray &date, const QByteArray &region,
                      const QByteArray &service)
{
    return hmac(hmac(hmac(hmac("AWS4" + secret, date), region), service), "aws4_request");
}

Signed sign(const SigningRequest &r, const Credentials &c, const QByteArray &region, const QByteArray &service,
            const QDateTime &when)
{
    const QDateTime utc = when.toUTC();
    const QByteArray amzDate = utc.toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")).toLatin1();
    const QByteArray date = amzDate.left(8);
    Signed out;
    out.headers.append({"x-amz-date", amzDate});
    if (service == "s3")  // S3 wants the payload's hash as a header too; other services only sign it
        out.headers.append({"x-amz-content-sha256", r.payloadHash});
    if (!c.sessionToken.isEmpty())
        out.headers.append({"x-amz-security-token", c.sessionToken});
    QList<QPair<QByteArray, QByteArray>> all{{"host", r.host}};
    all += r.headers;
    all += out.headers;
    QByteArray signedHeaders;
    out.canonicalRequest = canonicalRequest(r, all, &signedHeaders);
    const QByteArray scope = date + '/' + region + '/' + service + "/aws4_request";
    out.stringToSign = "AWS4-HMAC-SHA256\n" + amzDate + '\n' + scope + '\n' + Sha256::hash(out.canonicalRequest).toHex();
    out.signature = hmac(signingKey(c.secretAccessKey, date, region, service), out.stringToSign).toHex();
    out.headers.append({"Authorization", "AWS4-HMAC-SHA256 Credential=" + c.accessKeyId + '/' + scope
                                             + ", SignedHeaders=" + signedHeaders + ", Signature=" + out.signature});
    return out;
}

}  // namespace ingot::s3
