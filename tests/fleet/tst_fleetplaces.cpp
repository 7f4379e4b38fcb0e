// The places Ingot knows (services/fleet/fleetplaces): from the environment and the settings, each once, named by a
// stable id that --place takes back; policies only where they apply.
#include "services/fleet/fleetplaces.h"

#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

class TestFleetPlaces : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString folder(const QString &name)
    {
        const QString p = m_dir.filePath(name);
        QDir().mkpath(p);
        return p;
    }

    static QStringList ids(const QVector<FleetPlace> &places)
    {
        QStringList out;
        for (const FleetPlace &p : places)
            out << p.id;
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QSettings().clear();  // the test's own settings folder outlives a run: start from none
        // No ssh config of the account's: an empty one of the test's, and one host added.
        const QString config = m_dir.filePath(QStringLiteral("ssh_config"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Host trn-a\n  HostName 127.0.0.1\n");
        f.close();
        AppSettings::setSshConfigFile(config);
        AppSettings::addRemoteHost(QStringLiteral("ubuntu@trn-b:2222"));
        RemoteHosts::instance().reset();
        qputenv("NEURON_CC_FLAGS", QByteArray("--cache_dir=") + QFile::encodeName(folder(QStringLiteral("neuron"))));
        qunsetenv("NEURON_COMPILE_CACHE_URL");
        qputenv("VLLM_CACHE_ROOT", QFile::encodeName(m_dir.filePath(QStringLiteral("vllm"))));
        qunsetenv("NEURON_LIBTORCH_REMOTE_CACHE");
        qputenv("CUSTOM_CACHE_REPO", "team/neuron-cache");
        qputenv("HF_HOME", QFile::encodeName(folder(QStringLiteral("hf"))));
    }

    void everyKindOnceInOrder()
    {
        const QString added = folder(QStringLiteral("fsx/cache"));
        AppSettings::addCacheRoot(added);
        AppSettings::addCacheRoot(m_dir.filePath(QStringLiteral("neuron")));  // the default again: listed once
        AppSettings::addS3Cache(QStringLiteral("s3://team-bucket/neuron-cache"));
        AppSettings::addS3Cache(QStringLiteral("not-s3://x"));  // not an S3 URL: never kept
        AppSettings::addHubRepo(QStringLiteral("team/neuron-cache"));  // the one in use: listed once
        AppSettings::addHubRepo(QStringLiteral("aws-neuron/optimum-neuron-cache"));
        const QVector<FleetPlace> places = knownFleetPlaces();
        const QStringList expected{QDir::cleanPath(m_dir.filePath(QStringLiteral("neuron"))),
                                   QDir::cleanPath(added),
                                   QStringLiteral("host:trn-a"),
                                   QStringLiteral("host:ubuntu@trn-b:2222"),
                                   QStringLiteral("s3://team-bucket/neuron-cache"),
                                   QStringLiteral("hub:team/neuron-cache"),
                                   QStringLiteral("hub:aws-neuron/optimum-neuron-cache")};
        QCOMPARE(ids(places), expected);
        QCOMPARE(places[0].kind, FleetPlace::Kind::Local);
        QCOMPARE(places[0].origin, QStringLiteral("the Neuron default here"));
        QCOMPARE(places[2].kind, FleetPlace::Kind::Host);
        QVERIFY(!places[2].store.isValid());  // resolved on the host, when asked
        QCOMPARE(places[4].store.kind, QStringLiteral("s3"));
        QCOMPARE(places[5].origin, QStringLiteral("the Hub cache repo in use"));
        QString why;
        QVERIFY(places[0].takesPolicies());
        QVERIFY(places[4].takesPolicies());
        QVERIFY(!places[5].takesPolicies(&why));
        QVERIFY(!why.isEmpty());
        QCOMPARE(QString::fromLatin1(fleetKindName(places[6].kind)), QStringLiteral("hub"));
    }

    void torchNeuronTiersOnceUsed()
    {
        QVERIFY(!ids(knownFleetPlaces()).join(QLatin1Char(' ')).contains(QStringLiteral("torchneuron:")));
        const QString tier = folder(QStringLiteral("vllm/neuron/compile_cache"));
        const QString remote = folder(QStringLiteral("fsx/torchneuron"));
        qputenv("NEURON_LIBTORCH_REMOTE_CACHE", QFile::encodeName(remote));
        const QStringList got = ids(knownFleetPlaces());
        qunsetenv("NEURON_LIBTORCH_REMOTE_CACHE");
        QVERIFY2(got.contains(QStringLiteral("torchneuron:") + QDir::cleanPath(tier)), qPrintable(got.join(QLatin1Char(' '))));
        QVERIFY2(got.contains(QStringLiteral("torchneuron:") + QDir::cleanPath(remote)), qPrintable(got.join(QLatin1Char(' '))));
    }

    void aNamedPlaceComesBack()
    {
        QString error;
        for (const FleetPlace &known : knownFleetPlaces()) {
            const std::optional<FleetPlace> again = fleetPlaceFor(known.id, &error);
            QVERIFY2(again, qPrintable(known.id + QStringLiteral(": ") + error));
            QCOMPARE(again->kind, known.kind);
            QCOMPARE(again->store, known.store);
        }
        const std::optional<FleetPlace> folderPlace = fleetPlaceFor(QStringLiteral("relative/cache"), &error);
        QVERIFY(folderPlace);
        QCOMPARE(folderPlace->store.path, QDir::current().absoluteFilePath(QStringLiteral("relative/cache")));
        QVERIFY(!fleetPlaceFor(QStringLiteral("host:unknown-host"), &error));
        QVERIFY2(error.contains(QStringLiteral("unknown-host")), qPrintable(error));
        QVERIFY(!fleetPlaceFor(QStringLiteral("hub:not a repo"), &error));
        QVERIFY(!fleetPlaceFor(QStringLiteral("https://example.com/x"), &error));
        QVERIFY(!fleetPlaceFor(QString(), &error));
    }

    void aHubPlaceHasNoStoreAndAnUnreachableHostSaysWhy()
    {
        QString error;
        FleetPlace hub = *fleetPlaceFor(QStringLiteral("hub:team/neuron-cache"), &error);
        QVERIFY(!resolvePlace(&hub, &error));
        QVERIFY(!error.isEmpty());
        FleetPlace local = knownFleetPlaces().first();
        QVERIFY(resolvePlace(&local, &error));  // nothing to resolve
        // trn-a is 127.0.0.1 on port 22 where no sshd of this test listens (or one that does not know the key):
        // never a prompt, an error with words.
        FleetPlace host = *fleetPlaceFor(QStringLiteral("host:trn-a"), &error);
        error.clear();
        QVERIFY(!resolvePlace(&host, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!host.store.isValid());
    }
};

QTEST_GUILESS_MAIN(TestFleetPlaces)
#include "tst_fleetplaces.moc"
