// The Hub client against the test Hub (a stand-in for huggingface.co): every endpoint, every fault, offline.
#include "services/hub/hubclient.h"
#include "tests/support/testhub.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <thread>

using namespace ingot;
using nlohmann::json;

class TestHubClient : public QObject
{
    Q_OBJECT

    test::TestHub *hub = nullptr;
    QByteArray big;

    HubClient client(const QString &token = QStringLiteral("hf_alice_write")) const
    {
        HubClient c(hub->url(), token);
        RetryPolicy fast;
        fast.baseDelayMs = 10;
        fast.maxDelayMs = 50;
        c.setRetryPolicy(fast);
        return c;
    }

private Q_SLOTS:
    void initTestCase()
    {
        hub = new test::TestHub;
        QString error;
        QVERIFY2(hub->start(&error, 7, 100 * 1000), qPrintable(error));
        big.resize(300 * 1000);
        for (int i = 0; i < big.size(); ++i)
            big[i] = char((i * 7919) % 251);
        QMap<QString, QByteArray> files{{QStringLiteral("README.md"), "hello"},
                                        {QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_1+aa/model.neff"), big}};
        for (int i = 0; i < 30; ++i)
            files.insert(QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_%1+bb/compile_flags.json").arg(100 + i), "[]");
        hub->makeRepo(QStringLiteral("alice/private-cache"), true, files);
        hub->makeRepo(QStringLiteral("aws-neuron/public-cache"), false, {{QStringLiteral("a.txt"), "public"}});
        hub->makeRepo(QStringLiteral("meta/gated-model"), false, {{QStringLiteral("config.json"), "{}"}}, true);
    }
    void cleanupTestCase() { delete hub; }
    void init() { hub->post(QStringLiteral("/_test/faults"), {{"kind", "none"}, {"count", 0}}); }

    void whoami()
    {
        HubError e;
        const WhoAmI me = client().whoami(&e);
        QVERIFY2(e.ok(), qPrintable(e.message));
        QCOMPARE(me.name, QStringLiteral("alice"));
        QCOMPARE(me.orgs, QStringList{QStringLiteral("neuronorg")});
        QCOMPARE(me.role, QStringLiteral("write"));
        client(QStringLiteral("hf_wrong")).whoami(&e);
        QCOMPARE(e.kind, HubError::Kind::Unauthorized);
        QVERIFY(e.message.contains(QStringLiteral("invalid or expired")));
        QVERIFY(!e.message.contains(QStringLiteral("hf_wrong")));
        client(QString()).whoami(&e);
        QCOMPARE(e.kind, HubError::Kind::Unauthorized);
    }

    void privateReposNeedTheRightToken()
    {
        HubError e;
        RepoInfo info = client().repoInfo(QStringLiteral("alice/private-cache"), QString(), &e);
        QVERIFY(e.ok());
        QVERIFY(info.isPrivate);
        QCOMPARE(info.files, 32);
        QCOMPARE(info.sha.size(), 40);
        client(QString()).repoInfo(QStringLiteral("alice/private-cache"), QString(), &e);
        QCOMPARE(e.kind, HubError::Kind::NotFound);
        QCOMPARE(e.status, 401);
        QVERIFY(e.message.contains(QStringLiteral("log in")));
        client(QStringLiteral("hf_bob_read")).repoInfo(QStringLiteral("alice/private-cache"), QString(), &e);
        QCOMPARE(e.kind, HubError::Kind::NotFound);
        client().repoInfo(QStringLiteral("alice/private-cache"), QStringLiteral("v9"), &e);
        QCOMPARE(e.kind, HubError::Kind::RevisionNotFound);
        HubError ge;
        client(QString()).readFile(QStringLiteral("meta/gated-model"), QString(), QStringLiteral("config.json"), 1000, &ge);
        QCOMPARE(ge.kind, HubError::Kind::Gated);
    }

    void treeAcrossPages()
    {
        HubError e;
        int pages = 0;
        const QVector<TreeEntry> all = client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), true, &e,
                                                         nullptr, [&](const QVector<TreeEntry> &) { ++pages; });
        QVERIFY2(e.ok(), qPrintable(e.message));
        // 32 files + 31 module folders + 1 version folder, 7 per page.
        QCOMPARE(all.size(), 64);
        QCOMPARE(pages, 10);
        int lfs = 0;
        for (const TreeEntry &t : all)
            lfs += t.lfsOid.isEmpty() ? 0 : 1;
        QCOMPARE(lfs, 1);
        const QVector<TreeEntry> top = client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), false, &e);
        QCOMPARE(top.size(), 2);
        client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QStringLiteral("no/such"), false, &e);
        QCOMPARE(e.kind, HubError::Kind::EntryNotFound);
        client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QStringLiteral("../x"), false, &e);
        QCOMPARE(e.kind, HubError::Kind::UnsafePath);
    }

    void pathsInfo()
    {
        HubError e;
        const auto info = client().pathsInfo(QStringLiteral("alice/private-cache"), QStringLiteral("main"),
                                             {QStringLiteral("README.md"), QStringLiteral("missing"),
                                              QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_1+aa/model.neff")}, &e);
        QVERIFY(e.ok());
        QCOMPARE(info.size(), 2);
    }

    void downloadsAreVerifiedAndAtomic()
    {
        QTemporaryDir tmp;
        HubError e;
        hub->clearLog();
        const QString dest = tmp.path() + QStringLiteral("/model.neff");
        const DownloadResult r = client().download(QStringLiteral("alice/private-cache"), QString(),
                                                   QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_1+aa/model.neff"), dest, &e);
        QVERIFY2(e.ok(), qPrintable(e.message));
        QCOMPARE(r.size, big.size());
        QCOMPARE(r.etag, QString::fromLatin1(QCryptographicHash::hash(big, QCryptographicHash::Sha256).toHex()));
        QCOMPARE(r.commit.size(), 40);
        QFile f(dest);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), big);
        // The large file came from the CDN host, which never saw the token.
        bool sawCdn = false;
        for (const auto &req : hub->requestLog()) {
            const QString path = QString::fromStdString(req["path"].get<std::string>());
            if (path.startsWith(QStringLiteral("/cdn/"))) {
                sawCdn = true;
                QCOMPARE(req["token"].get<bool>(), false);
                QVERIFY(QString::fromStdString(req["host"].get<std::string>()) != hub->url().mid(7));
            }
        }
        QVERIFY(sawCdn);
        const QByteArray small = client().readFile(QStringLiteral("alice/private-cache"), QString(), QStringLiteral("README.md"), 100, &e);
        QCOMPARE(small, QByteArray("hello"));
        client().download(QStringLiteral("alice/private-cache"), QString(), QStringLiteral("nope.bin"), tmp.path() + QStringLiteral("/nope"), &e);
        QCOMPARE(e.kind, HubError::Kind::EntryNotFound);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 1);  // nothing partial left behind
    }

    void createRepo()
    {
        HubError e;
        const QString url = client().createRepo(QStringLiteral("neuronorg/new-cache"), false, &e);
        QVERIFY2(e.ok(), qPrintable(e.message));
        QVERIFY(url.endsWith(QStringLiteral("/neuronorg/new-cache")));
        client().createRepo(QStringLiteral("neuronorg/new-cache"), false, &e);
        QCOMPARE(e.kind, HubError::Kind::Conflict);
        client(QStringLiteral("hf_bob_read")).createRepo(QStringLiteral("bob/x"), false, &e);
        QCOMPARE(e.kind, HubError::Kind::Forbidden);
        // Private by default: the creator reads it, nobody else does.
        const RepoInfo info = client().repoInfo(QStringLiteral("neuronorg/new-cache"), QString(), &e);
        QVERIFY2(e.ok(), qPrintable(e.message));
        QVERIFY(info.isPrivate);
        client(QString()).repoInfo(QStringLiteral("neuronorg/new-cache"), QString(), &e);
        QCOMPARE(e.kind, HubError::Kind::NotFound);
        client().createRepo(QStringLiteral("neuronorg/open-cache"), true, &e);
        QVERIFY(e.ok());
        QVERIFY(!client(QString()).repoInfo(QStringLiteral("neuronorg/open-cache"), QString(), &e).isPrivate);
        QVERIFY(e.ok());
    }

    // An id that is not org/name is the caller's mistake, not a missing repo: every call says so, and sends nothing.
    void invalidRepoIdsAreInvalidArguments()
    {
        QTemporaryDir tmp;
        hub->clearLog();
        for (const QString &bad : {QStringLiteral("noslash"), QStringLiteral("a/b/c"), QStringLiteral("a b/c"), QStringLiteral("../etc")}) {
            QList<HubError> errors;
            HubError e;
            client().repoInfo(bad, QString(), &e);
            errors << e;
            client().listTree(bad, QStringLiteral("main"), QString(), false, &e);
            errors << e;
            client().pathsInfo(bad, QStringLiteral("main"), {QStringLiteral("a")}, &e);
            errors << e;
            client().readFile(bad, QStringLiteral("main"), QStringLiteral("a.txt"), 1000, &e);
            errors << e;
            client().download(bad, QStringLiteral("main"), QStringLiteral("a.txt"), tmp.filePath(QStringLiteral("a.txt")), &e);
            errors << e;
            client().createRepo(bad, false, &e);
            errors << e;
            for (const HubError &x : std::as_const(errors)) {
                QCOMPARE(x.kind, HubError::Kind::InvalidArgument);
                QVERIFY2(x.message.contains(QStringLiteral("\"%1\" is not a repo id").arg(bad)), qPrintable(x.message));
                QVERIFY(x.message.contains(QStringLiteral("org/name")));
            }
        }
        QCOMPARE(hub->requestLog().size(), size_t(0));
        QVERIFY(QDir(tmp.path()).isEmpty());
    }

    void transientFaultsAreRetried_data()
    {
        QTest::addColumn<QByteArray>("fault");
        QTest::newRow("latency") << QByteArray(R"({"kind":"latency","ms":300,"count":1})");
        QTest::newRow("5xx twice") << QByteArray(R"({"kind":"error5xx","status":502,"count":2})");
        QTest::newRow("dropped connection") << QByteArray(R"({"kind":"drop","count":2})");
        QTest::newRow("truncated body") << QByteArray(R"({"kind":"truncate","count":1})");
        QTest::newRow("429 Retry-After") << QByteArray(R"({"kind":"ratelimit","retry_after":1,"count":1})");
        QTest::newRow("unknown fields") << QByteArray(R"({"kind":"extrafields","count":1})");
    }
    void transientFaultsAreRetried()
    {
        QFETCH(QByteArray, fault);
        QVERIFY(hub->fault(json::parse(fault.toStdString())));
        QElapsedTimer t;
        t.start();
        HubError e;
        const WhoAmI me = client().whoami(&e);
        QVERIFY2(e.ok(), qPrintable(e.message));
        QCOMPARE(me.name, QStringLiteral("alice"));
        if (fault.contains("ratelimit"))
            QVERIFY2(t.elapsed() >= 900, "Retry-After must be honoured");
    }

    void truncatedDownloadIsRetriedAndVerified()
    {
        QTemporaryDir tmp;
        QVERIFY(hub->fault({{"kind", "truncate"}, {"count", 1}, {"path", "/cdn/"}}));
        HubError e;
        const DownloadResult r = client().download(QStringLiteral("alice/private-cache"), QString(),
                                                   QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_1+aa/model.neff"),
                                                   tmp.path() + QStringLiteral("/n"), &e);
        QVERIFY2(e.ok(), qPrintable(e.message));
        QCOMPARE(r.size, big.size());
    }

    void persistentFailuresBecomeClearErrors_data()
    {
        QTest::addColumn<QByteArray>("fault");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("words");
        QTest::newRow("5xx") << QByteArray(R"({"kind":"error5xx","status":503,"count":50})") << int(HubError::Kind::Server) << QStringLiteral("failed to answer");
        QTest::newRow("html page") << QByteArray(R"({"kind":"html","count":50})") << int(HubError::Kind::Server) << QStringLiteral("HTML");
        QTest::newRow("malformed json") << QByteArray(R"({"kind":"badjson","count":1})") << int(HubError::Kind::BadResponse) << QStringLiteral("malformed or truncated JSON");
        QTest::newRow("redirect loop") << QByteArray(R"({"kind":"redirectloop","count":50})") << int(HubError::Kind::BadResponse) << QStringLiteral("redirect");
        QTest::newRow("rate limited") << QByteArray(R"({"kind":"ratelimit","retry_after":0,"count":50})") << int(HubError::Kind::RateLimited) << QStringLiteral("rate-limiting");
        QTest::newRow("dropped") << QByteArray(R"({"kind":"drop","count":50})") << int(HubError::Kind::Network) << QStringLiteral("Network error");
    }
    void persistentFailuresBecomeClearErrors()
    {
        QFETCH(QByteArray, fault);
        QFETCH(int, kind);
        QFETCH(QString, words);
        QVERIFY(hub->fault(json::parse(fault.toStdString())));
        HubError e;
        client().whoami(&e);
        QCOMPARE(int(e.kind), kind);
        QVERIFY2(e.message.contains(words), qPrintable(e.message));
        QVERIFY(!e.message.contains(QStringLiteral("hf_alice_write")));
    }

    void unsafeTreePathsAreRefused()
    {
        QVERIFY(hub->fault({{"kind", "badpaths"}, {"count", 1}}));
        HubError e;
        client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), false, &e);
        QCOMPARE(e.kind, HubError::Kind::UnsafePath);
        QVERIFY(e.message.contains(QStringLiteral("..")) || e.message.contains(QStringLiteral("/etc")));
    }

    void hugeResponsesAreRefused()
    {
        QVERIFY(hub->fault({{"kind", "huge"}, {"bytes", 8 << 20}, {"count", 1}}));
        HubError e;
        client().readFile(QStringLiteral("alice/private-cache"), QString(), QStringLiteral("README.md"), 1 << 20, &e);
        QCOMPARE(e.kind, HubError::Kind::TooLarge);
    }

    void offlineMakesNoRequest()
    {
        hub->clearLog();
        HubClient offline(hub->url(), QStringLiteral("hf_alice_write"), true);
        HubError e;
        offline.whoami(&e);
        QCOMPARE(e.kind, HubError::Kind::Offline);
        offline.listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), true, &e);
        QCOMPARE(e.kind, HubError::Kind::Offline);
        QCOMPARE(hub->requestLog().size(), size_t(0));
    }

    void cancelStopsRetrying()
    {
        QVERIFY(hub->fault({{"kind", "ratelimit"}, {"retry_after", 30}, {"count", 5}}));
        std::atomic_bool cancel{false};
        QElapsedTimer t;
        t.start();
        std::thread stopper([&] {
            QThread::msleep(300);
            cancel = true;
        });
        HubError e;
        client().whoami(&e, &cancel);
        stopper.join();
        QCOMPARE(e.kind, HubError::Kind::Cancelled);
        QVERIFY(t.elapsed() < 5000);
    }
};

QTEST_GUILESS_MAIN(TestHubClient)
#include "tst_hubclient.moc"
