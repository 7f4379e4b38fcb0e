// Where S3 keys, region and endpoint come from: the same answers as botocore (the AWS CLI's resolver, Debian's
// python3-botocore) for the environment and shared files of each case, and the documented rules botocore 1.29 does
// not have yet (AWS_REGION, endpoint URLs), and words for profiles Ingot does not support.
#include "services/s3/awsconfig.h"
#include "services/s3/s3location.h"

#include "tests/s3/pythonserver.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot::s3;

class TestAwsConfig : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Environment base() const
    {
        return {{QStringLiteral("HOME"), m_dir.path()},
                {QStringLiteral("AWS_CONFIG_FILE"), m_dir.path() + QStringLiteral("/config")},
                {QStringLiteral("AWS_SHARED_CREDENTIALS_FILE"), m_dir.path() + QStringLiteral("/credentials")}};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        ingot::test::writeFile(m_dir.path() + QStringLiteral("/config"),
                               "# the team's settings\n"
                               "[default]\nregion = us-west-2\n\n"
                               "[profile build]\nregion=eu-central-1\naws_access_key_id = AKIDCONFIGBUILD\n"
                               "aws_secret_access_key = configsecret\n"
                               "s3 =\n  addressing_style = path\n  max_concurrent_requests = 20\n"
                               "[profile cache]\nregion = ap-south-1\n"
                               "[profile nokeys]\nregion = sa-east-1\n"
                               "[profile role]\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = cache\n"
                               "external_id = team-7\nrole_session_name = ci\nduration_seconds = 1800\n"
                               "aws_access_key_id = AKIDIGNORED\naws_secret_access_key = ignored\n"
                               "[profile envrole]\nrole_arn = arn:aws:iam::123456789012:role/y\ncredential_source = Environment\n"
                               "[profile instancerole]\nrole_arn = arn:aws:iam::123456789012:role/z\n"
                               "credential_source = Ec2InstanceMetadata\nregion = eu-west-3\n"
                               "[profile chained]\nrole_arn = arn:aws:iam::123456789012:role/c\nsource_profile = role\n"
                               "[profile nosource]\nrole_arn = arn:aws:iam::123456789012:role/n\n"
                               "[profile ecs]\nrole_arn = arn:aws:iam::123456789012:role/e\ncredential_source = EcsContainer\n"
                               "[profile mfa]\nrole_arn = arn:aws:iam::123456789012:role/m\nsource_profile = cache\n"
                               "mfa_serial = arn:aws:iam::123456789012:mfa/ann\n"
                               "[profile svc]\nservices = lab\naws_access_key_id = svc\naws_secret_access_key = svcsecret\n"
                               "endpoint_url = http://profile-wide:1\n"
                               "[services lab]\ns3 =\n  endpoint_url = http://lab-s3:9000\nsts =\n  endpoint_url = http://lab-sts:9001\n"
                               "[profile minio]\nendpoint_url = http://127.0.0.1:9000/\naws_access_key_id = minio\n"
                               "aws_secret_access_key = minio123\n");
        ingot::test::writeFile(m_dir.path() + QStringLiteral("/credentials"),
                               "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = defaultsecret\n"
                               "[build]\naws_access_key_id = AKIDCREDBUILD\naws_secret_access_key = credsecret\n"
                               "aws_session_token = credtoken\n"
                               "[cache]\r\naws_access_key_id=AKIDCACHE\r\naws_secret_access_key=cachesecret\r\n");
    }

    void parsesTheAwsShape()
    {
        const IniSections ini = parseAwsIni("[profile a]\nregion = x\ns3 =\n  addressing_style = path\nk = v\n; c\n[b]\nq=1\n");
        QCOMPARE(ini.value(QStringLiteral("profile a")).value(QStringLiteral("s3.addressing_style")), QStringLiteral("path"));
        QCOMPARE(ini.value(QStringLiteral("profile a")).value(QStringLiteral("k")), QStringLiteral("v"));
        QCOMPARE(ini.value(QStringLiteral("b")).value(QStringLiteral("q")), QStringLiteral("1"));
        QVERIFY(!ini.value(QStringLiteral("profile a")).contains(QStringLiteral("; c")));
    }

    void sameAnswersAsBotocore()
    {
        struct Case {
            QString profile;
            QList<QPair<const char *, const char *>> env;
        };
        const QList<Case> cases{
            {{}, {}},                                                                         // [default] of both files
            {{}, {{"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "envsecret"}}},  // the environment first
            {{}, {{"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "envsecret"}, {"AWS_PROFILE", "build"}}},
            {QStringLiteral("build"), {{"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "envsecret"}}},  // explicit
            {{}, {{"AWS_PROFILE", "build"}}},                                                  // credentials file before config
            {{}, {{"AWS_PROFILE", "cache"}, {"AWS_DEFAULT_REGION", "us-east-2"}}},
            {{}, {{"AWS_PROFILE", "nokeys"}}},                                                 // keys from nowhere
            {{}, {{"AWS_PROFILE", "cache"}, {"AWS_DEFAULT_PROFILE", "build"}}},                // the older name first
            {{}, {{"AWS_PROFILE", "missing"}}},
            {{}, {{"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "envsecret"}, {"AWS_SESSION_TOKEN", "session"}}},
            {{}, {{"AWS_ACCESS_KEY_ID", "AKIDENV"}, {"AWS_SECRET_ACCESS_KEY", "envsecret"}, {"AWS_SESSION_TOKEN", "session"},
                  {"AWS_SECURITY_TOKEN", "security"}}},
            {{}, {{"AWS_ACCESS_KEY_ID", "AKIDENV"}}},                                          // half a pair: the files
        };
        QJsonArray in;
        QList<AwsSettings> mine;
        for (const Case &c : cases) {
            Environment env = base();
            QJsonObject envJson;
            for (const auto &[k, v] : c.env)
                env.insert(QString::fromLatin1(k), QString::fromLatin1(v));
            for (auto it = env.cbegin(); it != env.cend(); ++it)
                envJson.insert(it.key(), it.value());
            in.append(QJsonObject{{QStringLiteral("env"), envJson},
                                  {QStringLiteral("profile"), c.profile.isEmpty() ? QJsonValue() : QJsonValue(c.profile)}});
            mine << resolveAwsSettings(c.profile, env);
        }
        QList<QByteArray> lines;
        QString error;
        QVERIFY2(ingot::test::runBotocore("botocore_resolve.py", QJsonDocument(in).toJson(), &lines, &error), qPrintable(error));
        QCOMPARE(lines.size(), mine.size());
        for (int i = 0; i < mine.size(); ++i) {
            const QJsonObject b = QJsonDocument::fromJson(lines.at(i)).object();
            const AwsSettings &m = mine.at(i);
            const QByteArray what = "case " + QByteArray::number(i) + ": " + lines.at(i);
            if (b.contains(QStringLiteral("error"))) {
                QVERIFY2(!m.error.isEmpty(), what.constData());
                continue;
            }
            QVERIFY2(m.error.isEmpty(), qPrintable(m.error));
            QVERIFY2(m.credentials.accessKeyId == b.value(QStringLiteral("access")).toString().toUtf8(), what.constData());
            QVERIFY2(m.credentials.secretAccessKey == b.value(QStringLiteral("secret")).toString().toUtf8(), what.constData());
            QVERIFY2(m.credentials.sessionToken == b.value(QStringLiteral("token")).toString().toUtf8(), what.constData());
            const QString region = b.value(QStringLiteral("region")).toString();
            QVERIFY2(m.region == (region.isEmpty() ? QStringLiteral("us-east-1") : region), what.constData());
        }
    }

    // Role profiles, as botocore's assume-role provider reads them (STS itself: tst_s3client).
    void roleProfiles()
    {
        AwsSettings r = resolveAwsSettings(QStringLiteral("role"), base());
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(!r.credentials.isValid());  // the role wins over keys in the same profile
        QVERIFY(r.assumeRole.isSet());
        QCOMPARE(r.assumeRole.roleArn, QStringLiteral("arn:aws:iam::123456789012:role/x"));
        QCOMPARE(r.assumeRole.source.accessKeyId, QByteArray("AKIDCACHE"));  // source_profile's, credentials file
        QCOMPARE(r.assumeRole.externalId, QStringLiteral("team-7"));
        QCOMPARE(r.assumeRole.sessionName, QStringLiteral("ci"));
        QCOMPARE(r.assumeRole.durationSeconds, 1800);
        QCOMPARE(r.assumeRole.stsEndpoint, QStringLiteral("https://sts.us-east-1.amazonaws.com"));
        QCOMPARE(r.credentialSource, QStringLiteral("assumed role"));
        // AWS_PROFILE is not explicit: keys in the environment win over the role.
        Environment env = base();
        env.insert(QStringLiteral("AWS_PROFILE"), QStringLiteral("role"));
        env.insert(QStringLiteral("AWS_ACCESS_KEY_ID"), QStringLiteral("AKIDENV"));
        env.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), QStringLiteral("envsecret"));
        r = resolveAwsSettings({}, env);
        QVERIFY(!r.assumeRole.isSet());
        QCOMPARE(r.credentials.accessKeyId, QByteArray("AKIDENV"));
        // credential_source = Environment: the environment's keys ask for the role.
        r = resolveAwsSettings(QStringLiteral("envrole"), env);
        QVERIFY(r.assumeRole.isSet());
        QCOMPARE(r.assumeRole.source.accessKeyId, QByteArray("AKIDENV"));
        QVERIFY(resolveAwsSettings(QStringLiteral("envrole"), base()).error.contains(QStringLiteral("AWS_ACCESS_KEY_ID")));
        // Ec2InstanceMetadata: the instance role's keys, STS in the profile's region; an STS endpoint of its own.
        env = base();
        env.insert(QStringLiteral("AWS_ENDPOINT_URL_STS"), QStringLiteral("http://sts-local:1"));
        r = resolveAwsSettings(QStringLiteral("instancerole"), env);
        QVERIFY(r.assumeRole.sourceFromInstance);
        QCOMPARE(r.assumeRole.stsEndpoint, QStringLiteral("http://sts-local:1"));
        QCOMPARE(resolveAwsSettings(QStringLiteral("instancerole"), base()).assumeRole.stsEndpoint,
                 QStringLiteral("https://sts.eu-west-3.amazonaws.com"));
        QCOMPARE(resolveAwsSettings(QStringLiteral("svc"), base()).assumeRole.stsEndpoint, QString());  // no role
        // Refused with words: a chain of roles, no source, an unsupported source, MFA.
        QVERIFY(resolveAwsSettings(QStringLiteral("chained"), base()).error.contains(QStringLiteral("chain")));
        QVERIFY(resolveAwsSettings(QStringLiteral("nosource"), base()).error.contains(QStringLiteral("source_profile")));
        QVERIFY(resolveAwsSettings(QStringLiteral("ecs"), base()).error.contains(QStringLiteral("EcsContainer")));
        QVERIFY(resolveAwsSettings(QStringLiteral("mfa"), base()).error.contains(QStringLiteral("mfa_serial")));
    }

    // Issue 35: one region rule wherever a region comes from, the one botocore applies before a region reaches a
    // host name (validate_region_name), and words naming where the refused one came from.
    void regionsAreTheOnesBotocoreTakes()
    {
        const QStringList regions{QStringLiteral("us-east-1"), QStringLiteral("eu-central-1"), QStringLiteral("cn-north-1"),
                                  QStringLiteral("us-gov-west-1"), QStringLiteral("a"), QStringLiteral("EU-West-1"),
                                  QStringLiteral("x@127.0.0.1:9000/"), QStringLiteral("us-east-1.evil.com"),
                                  QStringLiteral("-us-east-1"), QStringLiteral("us-east-1-"), QStringLiteral("12345"),
                                  QStringLiteral("us east 1"), QStringLiteral("us-east-1/"), QStringLiteral("us_east_1"),
                                  QStringLiteral("us-east-1\r\nX: y"), QStringLiteral("r%40x"), QString(64, QLatin1Char('a')),
                                  QString(63, QLatin1Char('a')), QStringLiteral("us-east-1#"), QStringLiteral("über-1")};
        QList<QByteArray> lines;
        QString error;
        QVERIFY2(ingot::test::runBotocore("botocore_region.py", QJsonDocument(QJsonArray::fromStringList(regions)).toJson(), &lines, &error),
                 qPrintable(error));
        QCOMPARE(lines.size(), regions.size());
        for (int i = 0; i < regions.size(); ++i)
            QVERIFY2(isValidRegion(regions.at(i)) == (lines.at(i) == "1"), qPrintable(regions.at(i)));
        QVERIFY(!isValidRegion(QString()));
        // Each place a region comes from is named when it is refused.
        Environment env = base();
        env.insert(QStringLiteral("AWS_REGION"), QStringLiteral("x@127.0.0.1:9000/"));
        AwsSettings s = resolveAwsSettings({}, env);
        QVERIFY2(s.error.contains(QStringLiteral("(from AWS_REGION)")), qPrintable(s.error));
        QVERIFY(!s.credentials.isValid());
        env = base();
        env.insert(QStringLiteral("AWS_DEFAULT_REGION"), QStringLiteral("a.b"));
        s = resolveAwsSettings({}, env);
        QVERIFY2(s.error.contains(QStringLiteral("(from AWS_DEFAULT_REGION)")), qPrintable(s.error));
        const QString config = m_dir.path() + QStringLiteral("/bad-region-config");
        ingot::test::writeFile(config, "[profile far]\nregion = evil.example/\naws_access_key_id = A\naws_secret_access_key = B\n");
        env = base();
        env.insert(QStringLiteral("AWS_CONFIG_FILE"), config);
        s = resolveAwsSettings(QStringLiteral("far"), env);
        QVERIFY2(s.error.contains(QStringLiteral("\"far\"")) && s.error.contains(QStringLiteral("evil.example/")), qPrintable(s.error));
        // Where the host name is made: the same rule, for settings made any other way.
        AwsSettings direct;
        direct.region = QStringLiteral("x@127.0.0.1:9000/");
        QString why;
        QVERIFY(endpointFor(direct, QStringLiteral("team-cache"), &why).host.isEmpty());
        QVERIFY2(why.contains(QStringLiteral("not a region name")), qPrintable(why));
        direct.region = QStringLiteral("eu-west-1");
        QCOMPARE(endpointFor(direct, QStringLiteral("team-cache"), &why).host, QByteArray("team-cache.s3.eu-west-1.amazonaws.com"));
    }

    void documentedRulesBeyondBotocore129()
    {
        Environment env = base();
        // AWS_REGION (the SDKs' variable, honoured by the CLI v2) over AWS_DEFAULT_REGION.
        env.insert(QStringLiteral("AWS_REGION"), QStringLiteral("eu-north-1"));
        env.insert(QStringLiteral("AWS_DEFAULT_REGION"), QStringLiteral("us-east-2"));
        QCOMPARE(resolveAwsSettings({}, env).region, QStringLiteral("eu-north-1"));
        // Endpoints: the service's variable, the global one, the profile's; all ignored when asked.
        env = base();
        QCOMPARE(resolveAwsSettings(QStringLiteral("minio"), env).endpointUrl, QStringLiteral("http://127.0.0.1:9000"));
        env.insert(QStringLiteral("AWS_ENDPOINT_URL"), QStringLiteral("http://global:1"));
        QCOMPARE(resolveAwsSettings(QStringLiteral("minio"), env).endpointUrl, QStringLiteral("http://global:1"));
        env.insert(QStringLiteral("AWS_ENDPOINT_URL_S3"), QStringLiteral("http://s3only:2"));
        QCOMPARE(resolveAwsSettings(QStringLiteral("minio"), env).endpointUrl, QStringLiteral("http://s3only:2"));
        env.insert(QStringLiteral("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"), QStringLiteral("true"));
        QVERIFY(resolveAwsSettings(QStringLiteral("minio"), env).endpointUrl.isEmpty());
        QCOMPARE(resolveAwsSettings(QStringLiteral("minio"), env).credentialSource, QStringLiteral("config file"));
        // A [services] block: its s3 endpoint over the profile's endpoint_url, under the environment's.
        env = base();
        QCOMPARE(resolveAwsSettings(QStringLiteral("svc"), env).endpointUrl, QStringLiteral("http://lab-s3:9000"));
        env.insert(QStringLiteral("AWS_ENDPOINT_URL"), QStringLiteral("http://global:1"));
        QCOMPARE(resolveAwsSettings(QStringLiteral("svc"), env).endpointUrl, QStringLiteral("http://global:1"));
        // No files at all: nothing, and the default region.
        Environment bare{{QStringLiteral("HOME"), m_dir.path() + QStringLiteral("/nowhere")}};
        const AwsSettings none = resolveAwsSettings({}, bare);
        QVERIFY(none.error.isEmpty());
        QVERIFY(!none.credentials.isValid());
        QCOMPARE(none.region, QStringLiteral("us-east-1"));
    }
};

QTEST_GUILESS_MAIN(TestAwsConfig)
#include "tst_awsconfig.moc"
