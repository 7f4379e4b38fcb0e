// s3://bucket/prefix as NEURON_COMPILE_CACHE_URL names it: exact prefixes, bucket names S3 refuses, and where the
// requests go (path-style to an S3-compatible endpoint, virtual-hosted to AWS, path-style for a dotted bucket).
#include "services/s3/s3location.h"

#include <QTest>

using namespace ingot::s3;

class TestS3Location : public QObject
{
    Q_OBJECT
private slots:
    void prefixesAreExact()
    {
        S3Location l;
        QString error;
        QVERIFY(S3Location::parse(QStringLiteral("s3://team-bucket/team/cache"), &l, &error));
        QCOMPARE(l.bucket, QStringLiteral("team-bucket"));
        QCOMPARE(l.prefix, QStringLiteral("team/cache/"));
        QCOMPARE(l.url(), QStringLiteral("s3://team-bucket/team/cache"));
        QVERIFY(l.holds(QStringLiteral("team/cache/neuronxcc-2.15/MODULE_1+a/model.neff")));
        QVERIFY(!l.holds(QStringLiteral("team/cache-other/neuronxcc-2.15/MODULE_1+a/model.neff")));
        QVERIFY(!l.holds(QStringLiteral("team/cachex/a")));
        QVERIFY(!l.holds(QStringLiteral("team/cache/")));
        QVERIFY(S3Location::parse(QStringLiteral("s3://team-bucket/team/cache///"), &l, &error));
        QCOMPARE(l.prefix, QStringLiteral("team/cache/"));
        QVERIFY(S3Location::parse(QStringLiteral("s3://team-bucket"), &l, &error));
        QVERIFY(l.prefix.isEmpty());
        QCOMPARE(l.url(), QStringLiteral("s3://team-bucket"));
        QVERIFY(l.holds(QStringLiteral("neuronxcc-2.15/MODULE_1+a/model.neff")));
    }

    void badLocationsAreRefusedWithWords()
    {
        S3Location l;
        QString error;
        for (const char *bad : {"/var/tmp/cache", "s3:/b/p", "s3://Upper/p", "s3://ab/p", "s3://-bucket/p", "s3://a..b/p",
                                "s3://192.168.1.10/p", "s3://bucket/a//b", "s3://bucket/a/../b", "s3://bucket/./b",
                                "s3://bucket/a\tb"}) {
            error.clear();
            QVERIFY2(!S3Location::parse(QString::fromLatin1(bad), &l, &error), bad);
            QVERIFY2(!error.isEmpty(), bad);
        }
    }

    void requestsGoWhereTheCliSendsThem()
    {
        AwsSettings aws;
        aws.region = QStringLiteral("us-west-2");
        QString error;
        S3Endpoint e = endpointFor(aws, QStringLiteral("team-bucket"), &error);
        QCOMPARE(e.base, QByteArray("https://team-bucket.s3.us-west-2.amazonaws.com"));
        QVERIFY(!e.pathStyle);
        QCOMPARE(objectPath(e, QStringLiteral("team-bucket"), QStringLiteral("team/cache/MODULE_1+a b/€")),
                 QByteArray("/team/cache/MODULE_1%2Ba%20b/%E2%82%AC"));
        e = endpointFor(aws, QStringLiteral("team.bucket"), &error);
        QCOMPARE(e.base, QByteArray("https://s3.us-west-2.amazonaws.com"));
        QCOMPARE(objectPath(e, QStringLiteral("team.bucket"), QStringLiteral("k")), QByteArray("/team.bucket/k"));
        aws.endpointUrl = QStringLiteral("http://127.0.0.1:9000");
        e = endpointFor(aws, QStringLiteral("team-bucket"), &error);
        QVERIFY(e.pathStyle);
        QCOMPARE(e.host, QByteArray("127.0.0.1:9000"));
        QCOMPARE(objectPath(e, QStringLiteral("team-bucket"), QString()), QByteArray("/team-bucket"));
        for (const char *bad : {"ftp://h", "http://user:pw@h", "http://h/path", "not a url"}) {
            aws.endpointUrl = QString::fromLatin1(bad);
            error.clear();
            QVERIFY2(endpointFor(aws, QStringLiteral("team-bucket"), &error).host.isEmpty(), bad);
            QVERIFY2(!error.isEmpty(), bad);
        }
    }
};

QTEST_GUILESS_MAIN(TestS3Location)
#include "tst_s3location.moc"
