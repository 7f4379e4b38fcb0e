// AWS Signature Version 4 (header form) for S3 requests: the canonical request, the string to sign, the signing
// key and the Authorization header, as the AWS documentation describes them. Written here rather than through
// libcurl's CURLOPT_AWS_SIGV4: the published examples check each step on its own (libcurl's signer gives only the
// final header), and a streamed request needs the payload hash chosen by the caller (UNSIGNED-PAYLOAD for a large
// upload read once).
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>

namespace ingot::s3 {

struct Credentials {
    QByteArray accessKeyId;
    QByteArray secretAccessKey;  // never logged, never in argv
    QByteArray sessionToken;     // empty unless temporary credentials (a role, IMDS)
    bool isValid() const { return !accessKeyId.isEmpty() && !secretAccessKey.isEmpty(); }
};

// One request as it will be sent. `path` is the URI path already percent-encoded as it goes on the wire (S3 does not
// encode it a second time for the canonical request); `query` holds the decoded names and values (encoded here).
struct SigningRequest {
    QByteArray method;                             // GET, PUT, POST, DELETE, HEAD
    QByteArray host;                               // as the Host header will carry it (with :port when not default)
    QByteArray path;                               // "/bucket/key" or "/key", percent-encoded
    QList<QPair<QByteArray, QByteArray>> query;    // decoded
    QList<QPair<QByteArray, QByteArray>> headers;  // besides host, x-amz-date, x-amz-content-sha256, the token
    QByteArray payloadHash;                        // hex sha256 of the body, or "UNSIGNED-PAYLOAD"
};

// The headers to add to the request (x-amz-date, x-amz-content-sha256, x-amz-security-token when there is a session
// token, Authorization), in that order.
struct Signed {
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray canonicalRequest;  // for tests and for the error a server's SignatureDoesNotMatch gets
    QByteArray stringToSign;
    QByteArray signature;         // hex
};

// RFC 3986 unreserved characters kept, every other byte as %XX (upper case), as SigV4 wants for query names and
// values; with `keepSlash`, '/' is kept too (an object key in a path).
QByteArray uriEncode(const QByteArray &bytes, bool keepSlash);

// The hex sha256 of an empty body, for GET, HEAD and DELETE.
QByteArray emptyPayloadHash();

QByteArray canonicalRequest(const SigningRequest &r, const QList<QPair<QByteArray, QByteArray>> &allHeaders,
                            QByteArray *signedHeaders);
QByteArray signingKey(const QByteArray &secret, const QByteArray &date, const QByteArray &region,
                      const QByteArray &service);

// Signs `r` at `when` (UTC) for `region` and `service` ("s3").
Signed sign(const SigningRequest &r, const Credentials &c, const QByteArray &region, const QByteArray &service,
            const QDateTime &when);

}  // namespace ingot::s3
