// The fleet's summaries (services/fleet/fleetsummary): each kind of place read through its real part — a folder, a
// TorchNeuron cache, a host's cache over a real sshd, the test S3 server and the test Hub — with the figures the
// Local cache page's scanner gives for the same files; a place that cannot be reached is a row saying why while the
// others are read; a place past its time limit is said timed out without holding the rest; a cancel stops them.
#include "services/cache/cachescanner.h"
#include "services/cache/cachestats.h"
#include "services/fleet/fleetplaces.h"
#include "services/fleet/fleetsummary.h"
#include "services/remote/remotehosts.h"
#include "services/s3/s3cachestore.h"
#include "services/stores/localcachestore.h"
#include "services/util/appsettings.h"
#include "tests/s3/pythonserver.h"
#include "tests/support/testhub.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QMutex>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString V14 = QStringLiteral("neuronxcc-2.14.227.0+2d4f85be");
const QStringList OK = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done")};
const QStringList FAILED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")};
const QStringList LOCKED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo_module.pb.lock")};
const QStringList PARTIAL = {QStringLiteral("model.hlo_module.pb")};

// Two compilers; 3 ready, 1 failed, 1 locked, 1 incomplete; the newest use 2 days ago.
QString makeCache(const QString &root)
{
    test::makeModule(root, V15, QStringLiteral("MODULE_1+a"), OK, 2, 4000);
    test::makeModule(root, V15, QStringLiteral("MODULE_2+a"), OK, 5, 3000);
    test::makeModule(root, V14, QStringLiteral("MODULE_3+a"), OK, 40, 2000);
    test::makeModule(root, V15, QStringLiteral("MODULE_4+a"), FAILED, 3);
    test::makeModule(root, V15, QStringLiteral("MODULE_5+a"), LOCKED, 3);
    test::makeModule(root, V14, QStringLiteral("MODULE_6+a"), PARTIAL, 10);
    return root;
}

FleetPlace placeOf(const QString &spec)
{
    QString error;
    const std::optional<FleetPlace> p = fleetPlaceFor(spec, &error);
    if (!p)
        qWarning("%s", qPrintable(error));
    return p.value_or(FleetPlace());
}

// What the scanner (the Local cache page's) says of the same folder.
CacheStats statsOf(const QString &root)
{
    LocalCacheStore store(root);
    QString error;
    store.open(&error);
    return computeStats(CacheScanner(store).scan(nullptr).modules, QDateTime::currentMSecsSinceEpoch());
}

void verifyCacheFigures(const FleetSummary &s, const QString &root)
{
    QCOMPARE(s.status, FleetSummary::Status::Read);
    QVERIFY(s.error.isEmpty());
    QCOMPARE(s.entries, 6);
    QCOMPARE(s.ready, 3);
    QCOMPARE(s.failed, 1);
    QCOMPARE(s.locked, 1);
    QCOMPARE(s.incomplete, 1);
    QCOMPARE(s.compilers, QStringList({QStringLiteral("2.15.128.0+56dc5a86"), QStringLiteral("2.14.227.0+2d4f85be")}));
    QCOMPARE(s.bytes, statsOf(root).size);
    QVERIFY(s.bytes >= 9000);
    const qint64 twoDaysAgo = QDateTime::currentMSecsSinceEpoch() - 2 * 86400000LL;
    QVERIFY2(qAbs(s.lastUsedMs - twoDaysAgo) < 120000, qPrintable(QString::number(s.lastUsedMs - twoDaysAgo)));
    QVERIFY(s.readAtMs > 0);
}

class TestS3Server : public test::PythonServer
{
public:
    explicit TestS3Server(const QString &seed)
        : PythonServer("tests/s3/tests3.py", {QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                              QStringLiteral("s3cr3t"), QStringLiteral("--seed"), QStringLiteral("team-cache=") + seed})
    {
    }
};

}  // namespace

class TestFleetSummary : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        qputenv("INGOT_KEYCHAIN", "none");
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        registerRemoteStores();
        s3::registerS3Store();
    }

    void aFolderIsReadAsTheScannerReadsIt()
    {
        const QString root = makeCache(m_tmp.path() + QStringLiteral("/folder"));
        const FleetSummary s = summarizePlace(placeOf(root), {});
        verifyCacheFigures(s, root);
        QCOMPARE(s.place.id, root);
        QCOMPARE(s.place.kind, FleetPlace::Kind::Local);
    }

    void anUnreachablePlaceIsARowAndTheOthersAreRead()
    {
        const QString root = makeCache(m_tmp.path() + QStringLiteral("/second"));
        const QString missing = m_tmp.path() + QStringLiteral("/no-such-cache");
        QVector<int> started, finished;
        QMutex m;
        FleetReadEvents events;
        events.started = [&](int i) { QMutexLocker l(&m); started << i; };
        events.finished = [&](int i, const FleetSummary &) { QMutexLocker l(&m); finished << i; };
        const QVector<FleetSummary> all = summarizeFleet({placeOf(missing), placeOf(root)}, {}, events);
        QCOMPARE(all.size(), 2);
        QCOMPARE(all[0].status, FleetSummary::Status::Unreachable);
        QVERIFY2(all[0].error.contains(QStringLiteral("no-such-cache")), qPrintable(all[0].error));
        QCOMPARE(all[0].statusText(), all[0].error);
        QCOMPARE(all[0].entries, 0);
        verifyCacheFigures(all[1], root);
        std::sort(started.begin(), started.end());
        std::sort(finished.begin(), finished.end());
        QCOMPARE(started, QVector<int>({0, 1}));
        QCOMPARE(finished, QVector<int>({0, 1}));
    }

    void aTorchNeuronCacheCountsItsKeys()
    {
        const QString root = m_tmp.path() + QStringLiteral("/torchneuron");
        // As the documentation describes an entry (tests/cache/tst_torchneuron.cpp has every state).
        const QString done = QStringLiteral("0123456789abcdef0123456789abcdef");
        const QString busy = QStringLiteral("22222222222222222222222222222222");
        const QString partial = QStringLiteral("55555555555555555555555555555555");
        test::writeFile(root + QLatin1Char('/') + done + QStringLiteral("/graph_") + done + QStringLiteral(".neff"), QByteArray(1000, 'n'));
        test::writeFile(root + QLatin1Char('/') + done + QStringLiteral("/.compilation_complete"), "completed:1764000000.5\nneff_size:1000\n");
        test::writeFile(root + QLatin1Char('/') + busy + QStringLiteral("/graph.hlo"), "hlo");
        test::writeFile(root + QLatin1Char('/') + busy + QStringLiteral(".lock"), "");
        test::writeFile(root + QLatin1Char('/') + partial + QStringLiteral("/graph.hlo"), "hlo");
        const FleetSummary s = summarizePlace(placeOf(QStringLiteral("torchneuron:") + root), {});
        QCOMPARE(s.status, FleetSummary::Status::Read);
        QCOMPARE(s.place.kind, FleetPlace::Kind::TorchNeuron);
        QCOMPARE(s.entries, 3);
        QCOMPARE(s.ready, 1);
        QCOMPARE(s.locked, 1);
        QCOMPARE(s.incomplete, 1);
        QCOMPARE(s.failed, 0);
        QVERIFY(s.compilers.isEmpty());
        QVERIFY(s.bytes >= 1000);
    }

    void aHostIsReadOverItsConnectionAndAStoppedOneSaysWhy()
    {
        const QString root = makeCache(m_tmp.path() + QStringLiteral("/host-cache"));
        test::TestSshd sshd(QStringLiteral("ingot-fleet"));
        // The host's Neuron tools are told where their cache is, as a profile would.
        sshd.setSessionEnvironment({QStringLiteral("NEURON_CC_FLAGS=--cache_dir=") + root});
        QString error;
        QVERIFY2(sshd.start(&error), qPrintable(error));
        QVERIFY(sshd.trustHostKey());
        AppSettings::setSshConfigFile(sshd.sshConfigFile());
        RemoteHosts::instance().reset();
        const FleetPlace host = placeOf(QStringLiteral("host:ingot-fleet"));
        QCOMPARE(host.kind, FleetPlace::Kind::Host);
        const FleetSummary s = summarizePlace(host, {});
        QVERIFY2(s.isRead(), qPrintable(s.error));
        QCOMPARE(s.place.store.host, QStringLiteral("ingot-fleet"));
        QCOMPARE(s.place.store.path, root);
        verifyCacheFigures(s, root);
        if (auto c = RemoteHosts::instance().connection(sshd.alias()))
            c->close();
        sshd.stop();
        RemoteHosts::instance().reset();
        QElapsedTimer t;
        t.start();
        const FleetSummary gone = summarizePlace(host, {});
        QCOMPARE(gone.status, FleetSummary::Status::Unreachable);
        QVERIFY(!gone.error.isEmpty());
        QVERIFY2(t.elapsed() < 50000, "an unreachable host answers within its connection's time limit");
    }

    void anS3CacheIsReadFromTheTestServer()
    {
        const QString seed = m_tmp.path() + QStringLiteral("/s3seed");
        const QString root = makeCache(seed + QStringLiteral("/team/cache"));
        TestS3Server server(seed);
        qputenv("AWS_ENDPOINT_URL", server.url().toUtf8());
        qputenv("AWS_ACCESS_KEY_ID", "AKIDINGOT");
        qputenv("AWS_SECRET_ACCESS_KEY", "s3cr3t");
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        const FleetSummary s = summarizePlace(placeOf(QStringLiteral("s3://team-cache/team/cache")), {});
        QVERIFY2(s.isRead(), qPrintable(s.error));
        QCOMPARE(s.place.kind, FleetPlace::Kind::S3);
        QCOMPARE(s.entries, 6);
        QCOMPARE(s.ready, 3);
        QCOMPARE(s.failed, 1);
        QCOMPARE(s.locked, 1);
        QCOMPARE(s.incomplete, 1);
        QCOMPARE(s.compilers.size(), 2);
        QCOMPARE(s.bytes, statsOf(root).size);
        // Another bucket: the server says it has none, and the row says so.
        const FleetSummary none = summarizePlace(placeOf(QStringLiteral("s3://no-such-bucket/cache")), {});
        QCOMPARE(none.status, FleetSummary::Status::Unreachable);
        QVERIFY(!none.error.isEmpty());
    }

    void aHubRepoIsReadFromItsListing()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error), qPrintable(error));
        // A cache repo as optimum-neuron's synchronize_hub_cache leaves it (optimum/neuron/cache/hub_cache.py uploads
        // the compiler folders of the local cache as they are, the registry beside them).
        QMap<QString, QByteArray> files = test::registryFixture(QStringLiteral("meta-llama/Llama-3.1-8B"), 2);
        files.insert(V15 + QStringLiteral("/MODULE_1+a/model.neff"), QByteArray(4000, 'n'));
        files.insert(V15 + QStringLiteral("/MODULE_1+a/model.hlo_module.pb"), QByteArray(100, 'h'));
        files.insert(V15 + QStringLiteral("/MODULE_1+a/compile_flags.json"), "[\"--model-type=transformer\"]");
        files.insert(V15 + QStringLiteral("/MODULE_4+a/model.log"), "ERROR: compilation failed\n");
        files.insert(V14 + QStringLiteral("/MODULE_3+a/model.neff"), QByteArray(2000, 'n'));
        hub.makeRepo(QStringLiteral("neuronorg/fleet-cache"), true, files);
        qputenv("HF_ENDPOINT", hub.url().toUtf8());
        qputenv("HF_TOKEN", "hf_alice_write");
        const FleetSummary s = summarizePlace(placeOf(QStringLiteral("hub:neuronorg/fleet-cache")), {});
        QVERIFY2(s.isRead(), qPrintable(s.error));
        QCOMPARE(s.place.kind, FleetPlace::Kind::Hub);
        QCOMPARE(s.entries, 4);  // the fixture's MODULE_1+d41d8cd9 holds only its flags: incomplete
        QCOMPARE(s.ready, 2);
        QCOMPARE(s.failed, 1);
        QCOMPARE(s.incomplete, 1);
        QCOMPARE(s.compilers, QStringList({QStringLiteral("2.15.128.0+56dc5a86"), QStringLiteral("2.14.227.0+2d4f85be")}));
        qint64 entryBytes = 0;  // the files of the MODULE_ folders, not the registry's
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            entryBytes += it.key().contains(QLatin1String("/MODULE_")) ? it.value().size() : 0;
        QCOMPARE(s.bytes, entryBytes);
        QCOMPARE(s.lastUsedMs, 0);
        // Without access the row says why (the token refused for a private repo of another namespace).
        qputenv("HF_TOKEN", "hf_bob_read");
        const FleetSummary denied = summarizePlace(placeOf(QStringLiteral("hub:neuronorg/fleet-cache")), {});
        QCOMPARE(denied.status, FleetSummary::Status::Unreachable);
        QVERIFY(!denied.error.isEmpty());
        // A place past its time limit is said so, and does not hold the others.
        qputenv("HF_TOKEN", "hf_alice_write");
        QVERIFY(hub.fault({{"kind", "latency"}, {"ms", 1500}, {"count", 1000000000}}));
        const QString root = makeCache(m_tmp.path() + QStringLiteral("/beside-slow"));
        FleetSummaryOptions quick;
        quick.placeTimeoutMs = 300;
        QElapsedTimer t;
        t.start();
        const QVector<FleetSummary> all = summarizeFleet({placeOf(QStringLiteral("hub:neuronorg/fleet-cache")), placeOf(root)}, quick);
        QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(all[0].status, FleetSummary::Status::TimedOut);
        QCOMPARE(all[0].statusText(), QStringLiteral("no answer in %1 s").arg(QLocale().toString(double(all[0].tookMs) / 1000.0, 'f', 0)));
        QCOMPARE(all[1].status, FleetSummary::Status::Read);
        QVERIFY(hub.clearFaults());
    }

    void aCancelStopsEveryPlace()
    {
        const QString root = makeCache(m_tmp.path() + QStringLiteral("/cancelled"));
        std::atomic_bool cancel{true};
        const QVector<FleetSummary> all = summarizeFleet({placeOf(root), placeOf(root + QStringLiteral("x"))}, {}, {}, &cancel);
        QCOMPARE(all.size(), 2);
        for (const FleetSummary &s : all) {
            QCOMPARE(s.status, FleetSummary::Status::Cancelled);
            QVERIFY(!s.place.id.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestFleetSummary)
#include "tst_fleetsummary.moc"
