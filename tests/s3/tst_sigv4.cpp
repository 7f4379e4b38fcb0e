// Signature Version 4: the published examples (the S3 API reference's GET Object with a Range, the SigV4 test
// suite's get-vanilla) step by step, and requests of the kinds the S3 store sends signed here and by botocore (the
// AWS SDK for Python's signer, Debian's python3-botocore): keys with spaces and non-ASCII bytes, list queries with
// continuation tokens, a session token, a body, a port in the host.
#include "services/s3/sigv4.h"

#include "tests/s3/pythonserver.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace ingot::s3;

namespace {
QDateTime at(const char *stamp)
{
    QDateTime t = QDateTime::fromString(QString::fromLatin1(stamp), QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
    t.setTimeSpec(Qt::UTC);
    return t;
}
QByteArray header(const Signed &s, const QByteArray &name)
{
    for (const auto &[n, v] : s.headers)
        if (n == name)
            return v;
    return {};
}
}  // namespace

class TestSigV4 : public QObject
{
    Q_OBJECT
private slots:
    void s3GetObjectExample()
    {
        // Amazon S3 API Reference, "Signature Calculations for the Authorization Header", Example: GET Object.
        SigningRequest r{"GET", "examplebucket.s3.amazonaws.com", "/test.txt", {}, {{"Range", "bytes=0-9"}}, emptyPayloadHash()};
        const Credentials c{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", {}};
        const Signed s = sign(r, c, "us-east-1", "s3", at("20130524T000000Z"));
        QCOMPARE(s.canonicalRequest, QByteArray("GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
                                                "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
                                                "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
                                                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(s.stringToSign, QByteArray("AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
                                            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972"));
        QCOMPARE(s.signature, QByteArray("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"));
        QCOMPARE(header(s, "Authorization"),
                 QByteArray("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"));
        QVERIFY(header(s, "x-amz-security-token").isEmpty());
    }

    void testSuiteGetVanilla()
    {
        // The Signature Version 4 test suite's get-vanilla (a generic service: no x-amz-content-sha256 header).
        SigningRequest r{"GET", "example.amazonaws.com", "/", {}, {}, emptyPayloadHash()};
        const Credentials c{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", {}};
        const Signed s = sign(r, c, "us-east-1", "service", at("20150830T123600Z"));
        QCOMPARE(header(s, "Authorization"),
                 QByteArray("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                            "SignedHeaders=host;x-amz-date, "
                            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"));
        QVERIFY(header(s, "x-amz-content-sha256").isEmpty());
    }

    void encodingAndCanonicalForm()
    {
        QCOMPARE(uriEncode("a b/c~d_e-f.g+h=i&é", false), QByteArray("a%20b%2Fc~d_e-f.g%2Bh%3Di%26%C3%A9"));
        QCOMPARE(uriEncode("team/cache/a b", true), QByteArray("team/cache/a%20b"));
        // Query pairs sorted by encoded name, then value; header values trimmed, inner spaces as one; a header named
        // twice is one line.
        SigningRequest r{"GET", "h", "", {{"prefix", "x/"}, {"delimiter", "/"}, {"a", "2"}, {"a", "1"}},
                         {{"X-Custom", "  two   words "}, {"x-custom", "more"}}, "UNSIGNED-PAYLOAD"};
        QByteArray signedHeaders;
        const QByteArray cr = canonicalRequest(r, QList<QPair<QByteArray, QByteArray>>{{"host", "h"}} + r.headers, &signedHeaders);
        QCOMPARE(cr, QByteArray("GET\n/\na=1&a=2&delimiter=%2F&prefix=x%2F\nhost:h\nx-custom:two words,more\n\nhost;x-custom\n"
                                "UNSIGNED-PAYLOAD"));
        QCOMPARE(signedHeaders, QByteArray("host;x-custom"));
    }

    void agreesWithBotocore()
    {
        struct Case {
            QByteArray method, host, path;
            QList<QPair<QByteArray, QByteArray>> query, headers;
            QByteArray body, token, region, when;
        };
        const QList<Case> cases{
            {"GET", "127.0.0.1:9000", "/bucket", {{"list-type", "2"}, {"prefix", "team/cache/"}, {"delimiter", "/"},
                                                  {"continuation-token", "a+b/=="}}, {}, {}, {}, "us-east-1", "20261127T120000Z"},
            {"GET", "127.0.0.1:9000", "/bucket/team/cache/" + uriEncode("neuronxcc-2.15.128.0+56dc5a86/MODULE_1+a b/€.neff", true),
             {}, {{"Range", "bytes=100-"}}, {}, "FQoGZXIvYXdzEJr//////////wEaDExample", "eu-west-1", "20261127T235959Z"},
            {"PUT", "bucket.s3.us-west-2.amazonaws.com", "/team/cache/x/model.done", {{"partNumber", "3"}, {"uploadId", "VXBsb2FkIElE"}},
             {{"Content-Type", "application/octet-stream"}}, "the part's bytes", {}, "us-west-2", "20260101T000000Z"},
            {"POST", "localhost:9000", "/bucket", {{"delete", ""}}, {{"Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg=="}},
             "<Delete><Object><Key>a</Key></Object></Delete>", {}, "us-east-1", "20261127T120000Z"},
        };
        const Credentials base{"AKIDINGOTTEST", "secret/with+odd=chars", {}};
        QJsonArray in;
        QList<QByteArray> mine;
        for (const Case &k : cases) {
            SigningRequest r{k.method, k.host, k.path, k.query, k.headers,
                             k.body.isEmpty() ? emptyPayloadHash() : QCryptographicHash::hash(k.body, QCryptographicHash::Sha256).toHex()};
            Credentials c = base;
            c.sessionToken = k.token;
            mine << header(sign(r, c, k.region, "s3", at(k.when.constData())), "Authorization");
            QByteArray query;
            for (const auto &[n, v] : k.query)
                query += (query.isEmpty() ? "?" : "&") + uriEncode(n, false) + '=' + uriEncode(v, false);
            QJsonObject headers;
            for (const auto &[n, v] : k.headers)
                headers.insert(QString::fromLatin1(n), QString::fromLatin1(v));
            in.append(QJsonObject{{QStringLiteral("method"), QString::fromLatin1(k.method)},
                                  {QStringLiteral("url"), QString::fromLatin1("http://" + k.host + k.path + query)},
                                  {QStringLiteral("headers"), headers}, {QStringLiteral("body"), QString::fromUtf8(k.body)},
                                  {QStringLiteral("access"), QString::fromLatin1(c.accessKeyId)}, {QStringLiteral("secret"), QString::fromLatin1(c.secretAccessKey)},
                                  {QStringLiteral("token"), QString::fromLatin1(c.sessionToken)}, {QStringLiteral("region"), QString::fromLatin1(k.region)},
                                  {QStringLiteral("when"), QString::fromLatin1(k.when)}});
        }
        QList<QByteArray> theirs;
        QString error;
        QVERIFY2(ingot::test::runBotocore("botocore_sign.py", QJsonDocument(in).toJson(), &theirs, &error), qPrintable(error));
        QCOMPARE(theirs.size(), mine.size());
        for (int i = 0; i < mine.size(); ++i)
            QCOMPARE(mine.at(i), theirs.at(i));
    }
};

QTEST_GUILESS_MAIN(TestSigV4)
#include "tst_sigv4.moc"
