// An S3 cache read on a host with the host's own keys: the host's AWS CLI (Debian's awscli) against the test S3
// server (a fake for S3, checked with boto3). Through this machine's shell, the store gives the same tree as the
// direct client, reads ranges and removes an entry; over a real sshd whose sessions alone hold the keys, ingot-cli
// lists and maintains it with --host while this process has none.
#include "services/cache/cachescanner.h"
#include "services/remote/remotehosts.h"
#include "services/s3/hosts3access.h"
#include "services/s3/s3cachestore.h"
#include "services/util/appsettings.h"

#include "tests/s3/pythonserver.h"
#include "tests/support/testsshd.h"

#include <QCoreApplication>
#include <QStandardPaths>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace ingot;
using namespace ingot::s3;

namespace {
const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");

QHash<QString, ModuleState> states(const CacheSnapshot &s)
{
    QHash<QString, ModuleState> out;
    for (const CacheModule &m : s.modules)
        out.insert(m.key(), m.state);
    return out;
}

S3Location at(const QString &url)
{
    S3Location l;
    QString error;
    S3Location::parse(url, &l, &error);
    return l;
}
}  // namespace

class TestHostS3 : public QObject
{
    Q_OBJECT

    QTemporaryDir m_seed;

    std::unique_ptr<test::PythonServer> server()
    {
        return std::make_unique<test::PythonServer>(
            "tests/s3/tests3.py", QStringList{QStringLiteral("--access"), QStringLiteral("AKIDHOST"), QStringLiteral("--secret"),
                                              QStringLiteral("host/secret"), QStringLiteral("--seed"), QStringLiteral("team-cache=") + m_seed.path()});
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("aws")).isEmpty())
            QFAIL("the AWS CLI (aws) is missing: packaging/install-deps.sh --test installs Debian's awscli");
        for (int i = 0; i < 6; ++i) {
            const QString m = m_seed.path() + QStringLiteral("/team/cache/") + V + QStringLiteral("/MODULE_%1+aa").arg(i);
            test::writeFile(m + QStringLiteral("/compile_flags.json"), "[\"--model-type=transformer\"]");
            if (i == 0) {
                test::writeFile(m + QStringLiteral("/model.log"), "ERROR: the compile failed");
            } else {
                test::writeFile(m + QStringLiteral("/model.neff"), QByteArray(1000 + i, 'n'));
                test::writeFile(m + QStringLiteral("/model.done"), {});
            }
        }
        test::writeFile(m_seed.path() + QStringLiteral("/team/cache/") + V + QStringLiteral("/MODULE_9+aa/model.lock"), {});
        test::writeFile(m_seed.path() + QStringLiteral("/team/cache-other/x"), "neighbour");
    }

    // This machine's shell stands for the host: the same tree as the direct client, a range, a removal.
    void theHostsCliGivesTheSameCache()
    {
        const auto s = server();
        qputenv("AWS_ACCESS_KEY_ID", "AKIDHOST");
        qputenv("AWS_SECRET_ACCESS_KEY", "host/secret");
        qputenv("AWS_DEFAULT_REGION", "us-east-1");
        qputenv("AWS_ENDPOINT_URL", s->url().toUtf8());
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        const S3Location where = at(QStringLiteral("s3://team-cache/team/cache"));
        S3CacheStore viaHost(std::make_shared<HostS3Access>(makeLocalShell(), QStringLiteral("here"), where),
                             QStringLiteral("here:s3://team-cache/team/cache"));
        S3CacheStore direct(resolveAwsSettings(), where);
        CacheScanner a(viaHost), b(direct);
        const CacheSnapshot got = a.scan(nullptr), want = b.scan(nullptr);
        QVERIFY2(got.fatalError.isEmpty(), qPrintable(got.fatalError));
        QCOMPARE(got.modules.size(), 7);
        QCOMPARE(states(got), states(want));
        QCOMPARE(states(got).value(V + QStringLiteral("/MODULE_0+aa")), ModuleState::Failed);
        QCOMPARE(states(got).value(V + QStringLiteral("/MODULE_9+aa")), ModuleState::Locked);
        QByteArray tail;
        QString error;
        QVERIFY2(viaHost.readFile(V + QStringLiteral("/MODULE_0+aa/model.log"), 6, true, &tail, &error), qPrintable(error));
        QCOMPARE(tail, QByteArray("failed"));
        qint64 freed = 0;
        const CacheStore::RemoveResult removed = viaHost.removeEntry(V + QStringLiteral("/MODULE_0+aa"), &freed, &error);
        QVERIFY2(removed == CacheStore::RemoveResult::Removed, qPrintable(error));
        QCOMPARE(viaHost.removeEntry(V + QStringLiteral("/MODULE_9+aa"), &freed, &error), CacheStore::RemoveResult::Locked);
        S3Listing left;
        QVERIFY(S3Client(resolveAwsSettings(), at(QStringLiteral("s3://team-cache/team"))).list(QStringLiteral("team/"), QString(), &left, &error));
        QStringList keys;
        for (const S3Object &o : std::as_const(left.objects))
            keys << o.key;
        QVERIFY(!keys.join(QLatin1Char(' ')).contains(QStringLiteral("MODULE_0+aa")));
        QVERIFY(keys.contains(QStringLiteral("team/cache-other/x")));
        QVERIFY(keys.contains(QStringLiteral("team/cache/") + V + QStringLiteral("/MODULE_9+aa/model.lock")));
        // No AWS CLI there: words that say so.
        HostS3Access none(makeLocalShell(), QStringLiteral("bare"), where);
        qputenv("PATH", "/nonexistent");
        S3Listing l;
        QVERIFY(!none.list(where.prefix, QString(), &l, &error));
        qputenv("PATH", "/usr/local/bin:/usr/bin:/bin");
        QVERIFY2(error.contains(QStringLiteral("AWS CLI")) && error.contains(QStringLiteral("bare")), qPrintable(error));
    }

    // Over a real sshd whose sessions alone hold the keys: ingot-cli cache list --host reads the host's S3 cache.
    void ingotCliWithHost()
    {
        // ingot-cli reads the ssh config file from Ingot's settings: written where it looks.
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        const auto s = server();
        for (const char *v : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_ENDPOINT_URL", "AWS_DEFAULT_REGION"})
            qunsetenv(v);
        test::TestSshd sshd(QStringLiteral("ingot-s3cli"));
        sshd.setSessionEnvironment({QStringLiteral("AWS_ACCESS_KEY_ID=AKIDHOST"), QStringLiteral("AWS_SECRET_ACCESS_KEY=host/secret"),
                                    QStringLiteral("AWS_DEFAULT_REGION=us-east-1"), QStringLiteral("AWS_ENDPOINT_URL=") + s->url(),
                                    QStringLiteral("AWS_CONFIG_FILE=/nonexistent"), QStringLiteral("AWS_SHARED_CREDENTIALS_FILE=/nonexistent")});
        QString error;
        QVERIFY2(sshd.start(&error), qPrintable(error));
        QVERIFY(sshd.trustHostKey());
        QProcess p;
        AppSettings::setSshConfigFile(sshd.sshConfigFile());
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--host"), sshd.alias(),
                                                 QStringLiteral("--cache-dir"), QStringLiteral("s3://team-cache/team/cache"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, QByteArray(out + p.readAllStandardError()).constData());
        const auto j = nlohmann::json::parse(out.toStdString());
        QVERIFY(j["entries"].size() >= 6);
    }
};

QTEST_GUILESS_MAIN(TestHostS3)
#include "tst_hosts3.moc"
