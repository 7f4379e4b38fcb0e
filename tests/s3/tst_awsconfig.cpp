// Where S3 keys, region and endpoint come from: the same answers as botocore (the AWS CLI's resolver, Debian's
// python3-botocore) for the environment and shared files of each case, and the documented rules botocore 1.29 does
// not have yet (AWS_REGION, endpoint URLs), and words for profiles Ingot does not support.
#include "services/s3/awsconfig.h"

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
        // A profile that assumes a role: words, and no keys from its source profile used in its place.
        const AwsSettings role = resolveAwsSettings(QStringLiteral("role"), base());
        QVERIFY2(role.error.contains(QStringLiteral("role_arn")), qPrintable(role.error));
        QVERIFY(!role.credentials.isValid());
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
