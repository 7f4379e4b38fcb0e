// The S3 client against the test S3 server (tests/s3/tests3.py, checked with boto3 by s3_conformance): listings
// page by page with exact prefixes, ranged reads, batch deletes that never leave the prefix, retries on 503
// SlowDown, and hostile answers (endless pages, keys with "..", a huge body, a redirect, a wrong secret) refused
// with words that never hold the secret.
#include "services/s3/s3client.h"

#include "tests/s3/pythonserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace ingot;
using namespace ingot::s3;

namespace {
const char *const kSecret = "s3cr3t/Ingot+=";

// The test S3 server, with the one key pair every client here uses (or not).
class TestS3 : public test::PythonServer
{
public:
    explicit TestS3(const QStringList &extra, const QString &seed = QString())
        : PythonServer("tests/s3/tests3.py", QStringList{QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                        QString::fromLatin1(kSecret), QStringLiteral("--bucket"), QStringLiteral("team-cache")}
                                                 + (seed.isEmpty() ? QStringList() : QStringList{QStringLiteral("--seed"), QStringLiteral("team-cache=") + seed})
                                                 + extra)
    {
    }
};

// The IMDSv2 stand-in, giving the same keys with a session token.
class Imds : public test::PythonServer
{
public:
    explicit Imds(const QStringList &extra)
        : PythonServer("tests/s3/imds_standin.py", QStringList{QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                              QString::fromLatin1(kSecret), QStringLiteral("--token"), QStringLiteral("role-token")}
                                                       + extra)
    {
    }
    Environment env() const { return {{QStringLiteral("AWS_EC2_METADATA_SERVICE_ENDPOINT"), url()}}; }
};

AwsSettings settingsFor(const TestS3 &s, const char *secret = kSecret)
{
    AwsSettings a;
    a.credentials = {"AKIDINGOT", secret, {}};
    a.region = QStringLiteral("us-east-1");
    a.endpointUrl = s.url();
    return a;
}

S3Location at(const char *url)
{
    S3Location l;
    QString error;
    S3Location::parse(QString::fromLatin1(url), &l, &error);
    return l;
}
}  // namespace

class TestS3Client : public QObject
{
    Q_OBJECT

    QTemporaryDir m_seed;
    const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");

private slots:
    void initTestCase()
    {
        qputenv("AWS_EC2_METADATA_DISABLED", "true");  // a client without keys never asks a real instance's metadata
        // 30 modules of two files under team/cache, and neighbours whose names start alike.
        for (int i = 0; i < 30; ++i) {
            const QString m = m_seed.path() + QStringLiteral("/team/cache/") + V + QStringLiteral("/MODULE_%1+a b").arg(1000 + i);
            test::writeFile(m + QStringLiteral("/model.neff"), QByteArray("neff-") + QByteArray::number(i));
            test::writeFile(m + QStringLiteral("/model.done"), {});
        }
        test::writeFile(m_seed.path() + QStringLiteral("/team/cache-other/x/model.neff"), "other");
        test::writeFile(m_seed.path() + QStringLiteral("/team/cachex/y"), "other");
    }

    void listsPageByPageWithinTheExactPrefix()
    {
        TestS3 server({QStringLiteral("--page-size"), QStringLiteral("7")}, m_seed.path());
        S3Client c(settingsFor(server), at("s3://team-cache/team/cache"));
        S3Listing l;
        QString error;
        QVERIFY2(c.list(QStringLiteral("team/cache/"), QString(), &l, &error), qPrintable(error));
        QCOMPARE(l.objects.size(), 60);  // 9 pages of 7
        for (const S3Object &o : l.objects)
            QVERIFY2(o.key.startsWith(QStringLiteral("team/cache/") + V + QStringLiteral("/MODULE_")), qPrintable(o.key));
        QVERIFY(l.objects.first().lastModified.isValid());
        QVERIFY(!l.objects.first().etag.isEmpty());
        QVERIFY2(c.list(QStringLiteral("team/cache/") + V + QLatin1Char('/'), QStringLiteral("/"), &l, &error), qPrintable(error));
        QCOMPARE(l.commonPrefixes.size(), 30);
        QVERIFY(l.commonPrefixes.contains(QStringLiteral("team/cache/") + V + QStringLiteral("/MODULE_1007+a b/")));
        QVERIFY(l.objects.isEmpty());
        // Only below the location's prefix.
        QVERIFY(!c.list(QStringLiteral("team/"), QString(), &l, &error));
        QVERIFY(error.contains(QStringLiteral("not under")));
    }

    void readsRangesAndDeletesOnlyWithinThePrefix()
    {
        TestS3 server({}, m_seed.path());
        S3Client c(settingsFor(server), at("s3://team-cache/team/cache"));
        const QString neff = QStringLiteral("team/cache/") + V + QStringLiteral("/MODULE_1012+a b/model.neff");
        QByteArray bytes;
        QString error;
        QVERIFY2(c.get(neff, 0, -1, &bytes, &error), qPrintable(error));
        QCOMPARE(bytes, QByteArray("neff-12"));
        QVERIFY2(c.get(neff, 5, 2, &bytes, &error), qPrintable(error));
        QCOMPARE(bytes, QByteArray("12"));
        QVERIFY(!c.get(QStringLiteral("team/cache-other/x/model.neff"), 0, -1, &bytes, &error));
        QStringList failed;
        // One key outside the prefix: nothing at all is deleted.
        QVERIFY(!c.remove({neff, QStringLiteral("team/cachex/y")}, &failed, &error));
        QVERIFY(c.get(neff, 0, -1, &bytes, &error));
        QVERIFY2(c.remove({neff, QStringLiteral("team/cache/") + V + QStringLiteral("/MODULE_1012+a b/model.done")}, &failed, &error),
                 qPrintable(error));
        QVERIFY(failed.isEmpty());
        S3Listing l;
        QVERIFY(c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QCOMPARE(l.objects.size(), 58);
        S3Client other(settingsFor(server), at("s3://team-cache/team"));
        QVERIFY(other.list(QStringLiteral("team/"), QString(), &l, &error));
        QCOMPARE(l.objects.size(), 60);  // the neighbours are still there
    }

    void slowDownIsRetried()
    {
        TestS3 server({QStringLiteral("--slowdown-every"), QStringLiteral("2")}, m_seed.path());
        S3Client c(settingsFor(server), at("s3://team-cache/team/cache"));
        c.setRetryPolicy({5, 10, 50, 1000});
        S3Listing l;
        QString error;
        for (int i = 0; i < 3; ++i) {
            QVERIFY2(c.list(QStringLiteral("team/cache/"), QString(), &l, &error), qPrintable(error));
            QCOMPARE(l.objects.size(), 60);
        }
    }

    void theInstanceRoleGivesKeysAndRefreshesThem()
    {
        TestS3 server({QStringLiteral("--token"), QStringLiteral("role-token")}, m_seed.path());
        AwsSettings noKeys = settingsFor(server);
        noKeys.credentials = {};
        S3Listing l;
        QString error;
        {
            Imds imds({});
            auto role = std::make_shared<InstanceRole>(imds.env());
            S3Client c(noKeys, at("s3://team-cache/team/cache"), role);
            for (int i = 0; i < 3; ++i)
                QVERIFY2(c.list(QStringLiteral("team/cache/"), QString(), &l, &error), qPrintable(error));
            QCOMPARE(l.objects.size(), 60);
            QCOMPARE(role->fetches(), 1);  // an hour left: asked once
            QVERIFY(role->expiration() > QDateTime::currentDateTimeUtc().addSecs(3000));
        }
        {
            Imds imds({QStringLiteral("--expires-in"), QStringLiteral("120")});  // inside the five-minute margin
            auto role = std::make_shared<InstanceRole>(imds.env());
            S3Client c(noKeys, at("s3://team-cache/team/cache"), role);
            QVERIFY2(c.list(QStringLiteral("team/cache/"), QString(), &l, &error), qPrintable(error));
            QVERIFY2(c.list(QStringLiteral("team/cache/"), QString(), &l, &error), qPrintable(error));
            QVERIFY(role->fetches() >= 2);
        }
        {
            Imds imds({QStringLiteral("--no-role")});
            S3Client c(noKeys, at("s3://team-cache/team/cache"), std::make_shared<InstanceRole>(imds.env()));
            QVERIFY(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
            QVERIFY2(error.contains(QStringLiteral("no IAM role")), qPrintable(error));
        }
        // Off an instance: fails within the timeout, and is not asked again at once.
        auto nowhere = std::make_shared<InstanceRole>(Environment{{QStringLiteral("AWS_EC2_METADATA_SERVICE_ENDPOINT"), QStringLiteral("http://127.0.0.1:1")}});
        QElapsedTimer t;
        t.start();
        S3Client c(noKeys, at("s3://team-cache/team/cache"), nowhere);
        QVERIFY(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("No AWS keys")) && error.contains(QStringLiteral("metadata")), qPrintable(error));
        QCOMPARE(nowhere->fetches(), 1);
        QVERIFY(t.elapsed() < 5000);
        InstanceRole off(Environment{{QStringLiteral("AWS_EC2_METADATA_DISABLED"), QStringLiteral("true")}});
        Credentials k;
        QVERIFY(!off.credentials(&k, &error));
        QVERIFY(error.contains(QStringLiteral("AWS_EC2_METADATA_DISABLED")));
    }

    // A role profile (role_arn + source_profile): the source keys ask STS (the test server's stand-in) once, its
    // temporary keys sign the S3 requests; a wrong source secret gives words without any secret in them.
    void aRoleProfileAsksStsOnce()
    {
        const QString journal = m_seed.path() + QStringLiteral("/sts.log");
        const QString role = QStringLiteral("arn:aws:iam::123456789012:role/neuron-cache");
        TestS3 server({QStringLiteral("--token"), QStringLiteral("role-token"), QStringLiteral("--sts-access"), QStringLiteral("AKIDSOURCE"),
                       QStringLiteral("--sts-secret"), QStringLiteral("source/secret"), QStringLiteral("--role-arn"), role,
                       QStringLiteral("--journal"), journal},
                      m_seed.path());
        const QString config = m_seed.path() + QStringLiteral("/aws-config");
        test::writeFile(config, "[profile team]\nrole_arn = " + role.toUtf8() + "\nsource_profile = src\n"
                                "[profile src]\naws_access_key_id = AKIDSOURCE\naws_secret_access_key = source/secret\n"
                                "[profile wrong]\nrole_arn = " + role.toUtf8() + "\nsource_profile = bad\n"
                                "[profile bad]\naws_access_key_id = AKIDSOURCE\naws_secret_access_key = not-the-secret\n");
        const Environment env{{QStringLiteral("AWS_CONFIG_FILE"), config},
                              {QStringLiteral("AWS_SHARED_CREDENTIALS_FILE"), m_seed.path() + QStringLiteral("/none")},
                              {QStringLiteral("AWS_ENDPOINT_URL"), server.url()}};
        S3Client c(resolveAwsSettings(QStringLiteral("team"), env), at("s3://team-cache/team/cache"));
        S3Listing l;
        QString error;
        QVERIFY2(c.list(QStringLiteral("team/cache/"), QString(), &l, &error), qPrintable(error));
        QCOMPARE(l.objects.size(), 60);
        QByteArray body;
        QVERIFY2(c.get(l.objects.first().key, 0, -1, &body, &error), qPrintable(error));
        QCOMPARE(test::readFile(journal).count(QByteArray("ASSUME " + role.toUtf8() + " ingot-")), 1);
        S3Client wrong(resolveAwsSettings(QStringLiteral("wrong"), env), at("s3://team-cache/team/cache"));
        QVERIFY(!wrong.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("Assuming the role")) && error.contains(QStringLiteral("SignatureDoesNotMatch")), qPrintable(error));
        QVERIFY(!error.contains(QStringLiteral("not-the-secret")));
    }

    // The bucket is in another region than the settings say: S3's answer names it, the client signs again for it
    // once and keeps it (as botocore's redirector; s3_conformance checks that botocore reads the same answer).
    void aBucketInAnotherRegionIsFollowed()
    {
        TestS3 server({QStringLiteral("--region"), QStringLiteral("eu-west-1")}, m_seed.path());
        S3Client c(settingsFor(server), at("s3://team-cache/team/cache"));
        QCOMPARE(c.region(), QStringLiteral("us-east-1"));
        S3Listing l;
        QString error;
        QVERIFY2(c.list(QStringLiteral("team/cache/"), QString(), &l, &error), qPrintable(error));
        QCOMPARE(l.objects.size(), 60);
        QCOMPARE(c.region(), QStringLiteral("eu-west-1"));
        QByteArray body;
        const auto neff = std::find_if(l.objects.cbegin(), l.objects.cend(), [](const S3Object &o) { return o.key.endsWith(QLatin1String(".neff")); });
        QVERIFY(neff != l.objects.cend());
        QVERIFY2(c.get(neff->key, 0, 4, &body, &error), qPrintable(error));
        QCOMPARE(body, QByteArray("neff"));
        // Only a plain region name is taken from an answer.
        HttpResponse r;
        r.status = 400;
        r.body = "<Error><Code>AuthorizationHeaderMalformed</Code><Region>../evil</Region></Error>";
        QVERIFY(S3Client::bucketRegionOf(r).isEmpty());
        r.body = "<Error><Code>AuthorizationHeaderMalformed</Code><Region>ap-south-1</Region></Error>";
        QCOMPARE(S3Client::bucketRegionOf(r), QStringLiteral("ap-south-1"));
    }

    // Issue 35: a server that always says "there is more", with a new token every time, is stopped by the listing's
    // budget (pages that give nothing, pages, time) with words, after about a hundred requests, not 20,000.
    void aListingWithoutEndStopsAtItsBudget()
    {
        const QString journal = m_seed.path() + QStringLiteral("/endless.log");
        QFile::remove(journal);
        TestS3 server({QStringLiteral("--hostile"), QStringLiteral("endless-fresh"), QStringLiteral("--journal"), journal,
                       QStringLiteral("--journal-lists")},
                      m_seed.path());
        S3Client c(settingsFor(server), at("s3://team-cache/team/cache"));
        S3Listing l;
        QString error;
        QElapsedTimer t;
        t.start();
        QVERIFY(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("without end")), qPrintable(error));
        QVERIFY(l.objects.isEmpty());
        QCOMPARE(test::readFile(journal).count("LIST team/cache/|"), ListBudget().sparsePages);
        QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
        // The page and time bounds, each on its own.
        ListBudget pages;
        pages.maxPages = 5;
        c.setListBudget(pages);
        QVERIFY(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("after 5 pages")), qPrintable(error));
        ListBudget time;
        time.maxMs = 1;
        time.sparsePages = 1000000;
        c.setListBudget(time);
        QVERIFY(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("took more than")), qPrintable(error));
        ListBudget keys;
        keys.maxKeys = 10;
        c.setListBudget(keys);
        QVERIFY(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("more than 10 keys")), qPrintable(error));
        // An honest listing of the same prefix is well within the default budget.
        TestS3 honest({QStringLiteral("--page-size"), QStringLiteral("7")}, m_seed.path());
        QVERIFY2(S3Client(settingsFor(honest), at("s3://team-cache/team/cache")).list(QStringLiteral("team/cache/"), QString(), &l, &error),
                 qPrintable(error));
        QCOMPARE(l.objects.size(), 60);
    }

    // Issue 35: a CR/LF (or any control character) in a key, a token or any header value never becomes a header of its
    // own: refused before anything is sent, with words that never hold the value.
    void controlCharactersNeverBecomeHeaders()
    {
        const QString journal = m_seed.path() + QStringLiteral("/headers.log");
        QFile::remove(journal);
        TestS3 server({QStringLiteral("--journal"), journal, QStringLiteral("--journal-lists")}, m_seed.path());
        HttpClient http;
        http.setRetryPolicy({1, 0, 0, 0});
        for (const QPair<QByteArray, QByteArray> &h : {qMakePair(QByteArray("X-Test"), QByteArray("a\r\nX-Injected: yes")),
                                                        qMakePair(QByteArray("X-Test"), QByteArray("a\0b", 3)),
                                                        qMakePair(QByteArray("X-Test"), QByteArray("a\x7f")),
                                                        qMakePair(QByteArray("X-Injected: yes\r\nX-Test"), QByteArray("a"))}) {
            HttpRequest req;
            req.url = server.url() + QStringLiteral("/team-cache/x");
            req.headers = {h};
            const HttpResponse r = http.send(req);
            QCOMPARE(r.failure, HttpResponse::Failure::Refused);
            QCOMPARE(r.status, 0);
            QVERIFY2(!r.error.contains(QStringLiteral("yes")) && r.error.contains(QStringLiteral("sends nothing")), qPrintable(r.error));
        }
        HttpRequest bearer;
        bearer.url = server.url() + QStringLiteral("/team-cache/x");
        bearer.bearer = QStringLiteral("hf_secret\nX-Injected: yes");
        QCOMPARE(http.send(bearer).failure, HttpResponse::Failure::Refused);
        // Keys handed to the client as they are (the last line of defence): words naming the header, not its value.
        AwsSettings s = settingsFor(server);
        s.credentials.sessionToken = "tok\r\nX-Injected: yes";
        S3Listing l;
        QString error;
        QVERIFY(!S3Client(s, at("s3://team-cache/team/cache")).list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("x-amz-security-token")) && !error.contains(QStringLiteral("X-Injected")), qPrintable(error));
        // From the environment: refused where the key is read, naming where it came from.
        const AwsSettings fromEnv = resolveAwsSettings({}, {{QStringLiteral("HOME"), m_seed.path()},
                                                            {QStringLiteral("AWS_ACCESS_KEY_ID"), QStringLiteral("AKIDINGOT")},
                                                            {QStringLiteral("AWS_SECRET_ACCESS_KEY"), QString::fromLatin1(kSecret)},
                                                            {QStringLiteral("AWS_SESSION_TOKEN"), QStringLiteral("tok\r\nX-Injected: yes")}});
        QVERIFY2(fromEnv.error.contains(QStringLiteral("aws_session_token")) && fromEnv.error.contains(QStringLiteral("environment"))
                     && !fromEnv.error.contains(QStringLiteral("X-Injected")),
                 qPrintable(fromEnv.error));
        QVERIFY(!fromEnv.credentials.isValid());
        // From the instance role: its token with a line break is refused where it is read.
        {
            Imds imds({QStringLiteral("--token"), QStringLiteral("role\r\nX-Injected: yes")});
            AwsSettings noKeys = settingsFor(server);
            noKeys.credentials = {};
            QVERIFY(!S3Client(noKeys, at("s3://team-cache/team/cache"), std::make_shared<InstanceRole>(imds.env()))
                         .list(QStringLiteral("team/cache/"), QString(), &l, &error));
            QVERIFY2(error.contains(QStringLiteral("control character")) && !error.contains(QStringLiteral("X-Injected")), qPrintable(error));
        }
        QVERIFY2(!test::readFile(journal).contains("CONNECTION"), test::readFile(journal).constData());  // nothing reached S3
    }

    // Issue 35: a region with URL syntax never reaches a host name: AWS_REGION="x@127.0.0.1:PORT/" made
    // s3.x@127.0.0.1:PORT/.amazonaws.com, which sent requests to that listener.
    void aRegionWithUrlSyntaxSendsNothing()
    {
        const QString journal = m_seed.path() + QStringLiteral("/region.log");
        QFile::remove(journal);
        TestS3 server({QStringLiteral("--journal"), journal, QStringLiteral("--journal-lists")}, m_seed.path());
        const QString evil = QStringLiteral("x@") + server.url().mid(7) + QLatin1Char('/');
        const Environment env{{QStringLiteral("HOME"), m_seed.path()},
                              {QStringLiteral("AWS_ACCESS_KEY_ID"), QStringLiteral("AKIDINGOT")},
                              {QStringLiteral("AWS_SECRET_ACCESS_KEY"), QString::fromLatin1(kSecret)},
                              {QStringLiteral("AWS_REGION"), evil}};
        const AwsSettings resolved = resolveAwsSettings({}, env);
        QVERIFY2(resolved.error.contains(QStringLiteral("AWS_REGION")) && resolved.error.contains(QStringLiteral("not a region name")),
                 qPrintable(resolved.error));
        S3Listing l;
        QString error;
        QVERIFY(!S3Client(resolved, at("s3://team-cache/team/cache")).list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("not a region name")), qPrintable(error));
        // Settings made some other way meet the same rule where the host name is made.
        AwsSettings direct;
        direct.credentials = {"AKIDINGOT", kSecret, {}};
        direct.region = evil;
        QVERIFY(!S3Client(direct, at("s3://team-cache/team/cache")).list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("not a region name")), qPrintable(error));
        // Not even a connection: the region made https://team-cache.s3.x@127.0.0.1:PORT/..., a TLS hello to the listener.
        QVERIFY2(!test::readFile(journal).contains("CONNECTION"), test::readFile(journal).constData());
    }

    void hostileAnswersAreRefusedWithWords()
    {
        struct Case {
            const char *mode;
            const char *words;
        };
        for (const Case &k : {Case{"endless-pages", "continuation token"}, Case{"dotdot-keys", "not a plain key"},
                              Case{"huge-body", "Listing"}, Case{"redirect", "Listing"}}) {
            TestS3 server({QStringLiteral("--hostile"), QString::fromLatin1(k.mode)}, m_seed.path());
            S3Client c(settingsFor(server), at("s3://team-cache/team/cache"));
            c.setRetryPolicy({1, 10, 10, 10});
            S3Listing l;
            QString error;
            QElapsedTimer t;
            t.start();
            QVERIFY2(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error), k.mode);
            QVERIFY2(error.contains(QString::fromLatin1(k.words)), qPrintable(error));
            QVERIFY(l.objects.isEmpty());
            QVERIFY2(t.elapsed() < 30000, k.mode);
        }
        TestS3 server({}, m_seed.path());
        S3Client c(settingsFor(server, "not-the-secret"), at("s3://team-cache/team/cache"));
        S3Listing l;
        QString error;
        QVERIFY(!c.list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("refused the keys")), qPrintable(error));
        QVERIFY(!error.contains(QStringLiteral("not-the-secret")));
        // No keys at all: words before any request.
        AwsSettings none = settingsFor(server);
        none.credentials = {};
        QVERIFY(!S3Client(none, at("s3://team-cache/team/cache")).list(QStringLiteral("team/cache/"), QString(), &l, &error));
        QVERIFY2(error.contains(QStringLiteral("No AWS keys")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestS3Client)
#include "tst_s3client.moc"
