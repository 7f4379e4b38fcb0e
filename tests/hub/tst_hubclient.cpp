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
            big[i] = char((qint64(i) * 7919) % 251);
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

    // ---- a hostile Hub (issue 10, item 12) ------------------------------------------------------------------

    int requestsTo(const QString &pathPart)
    {
        int n = 0;
        for (const auto &req : hub->requestLog())
            n += QString::fromStdString(req["path"].get<std::string>()).contains(pathPart) ? 1 : 0;
        return n;
    }

    // A Link chain that never ends: the listing stops at its limits, with what it holds bounded, and says so.
    void endlessListingsStopAtTheirLimits()
    {
        const ListingLimits limits;
        QCOMPARE(limits.maxEntries, 500000);
        QCOMPARE(limits.maxPages, 5000);
        // Full pages: the entry limit (the defaults) is reached after 100 pages of 5000.
        QVERIFY(hub->fault({{"kind", "endlesspages"}, {"entries", 5000}, {"path", "/tree/"}, {"count", 1000000000}}));
        hub->clearLog();
        HubError e;
        qint64 seen = 0;
        QVector<TreeEntry> all = client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), true, &e,
                                                   nullptr, [&](const QVector<TreeEntry> &page) { seen += page.size(); });
        QCOMPARE(e.kind, HubError::Kind::TooLarge);
        QVERIFY2(e.message.contains(QStringLiteral("kept sending pages")), qPrintable(e.message));
        QVERIFY2(e.message.contains(QStringLiteral("500000 entries")), qPrintable(e.message));
        QVERIFY(e.message.contains(QStringLiteral("alice/private-cache")));
        QCOMPARE(all.size(), 500000);
        QCOMPARE(seen, qint64(500000));  // the page that broke the limit was not handed on either
        QCOMPARE(requestsTo(QStringLiteral("/tree/")), 101);
        all.clear();
        // Small pages: the page limit. One entry a page, so the run stays short.
        QVERIFY(hub->fault({{"kind", "endlesspages"}, {"entries", 1}, {"path", "/tree/"}, {"count", 1000000000}}));
        hub->clearLog();
        HubClient c = client();
        c.setListingLimits({40, 500000});
        all = c.listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), true, &e);
        QCOMPARE(e.kind, HubError::Kind::TooLarge);
        QVERIFY2(e.message.contains(QStringLiteral("more than 40 pages")), qPrintable(e.message));
        QCOMPARE(all.size(), 40);
        QCOMPARE(requestsTo(QStringLiteral("/tree/")), 40);
    }

    // With the default page limit too: 5000 pages of one entry, then an error, not a 100,000-page loop.
    void endlessListingsStopAtTheDefaultPageLimit()
    {
        QVERIFY(hub->fault({{"kind", "endlesspages"}, {"entries", 1}, {"path", "/tree/"}, {"count", 1000000000}}));
        HubError e;
        const QVector<TreeEntry> all = client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), true, &e);
        QCOMPARE(e.kind, HubError::Kind::TooLarge);
        QVERIFY2(e.message.contains(QStringLiteral("more than 5000 pages")), qPrintable(e.message));
        QCOMPARE(all.size(), 5000);
    }

    // A next page that is one already read is a loop, found at once.
    void pagingLoopsAreFoundAtOnce_data()
    {
        QTest::addColumn<int>("period");
        QTest::newRow("a page naming itself") << 1;
        QTest::newRow("three pages going round") << 3;
    }
    void pagingLoopsAreFoundAtOnce()
    {
        QFETCH(int, period);
        QVERIFY(hub->fault({{"kind", "pagecycle"}, {"period", period}, {"path", "/tree/"}, {"count", 1000000000}}));
        hub->clearLog();
        HubError e;
        client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), false, &e);
        QCOMPARE(e.kind, HubError::Kind::BadResponse);
        QVERIFY2(e.message.contains(QStringLiteral("already read")), qPrintable(e.message));
        // The first page (no cursor), then cursors 0 .. period-1; the next link repeats one of them.
        QCOMPARE(requestsTo(QStringLiteral("/tree/")), period + 1);
    }

    // A Link to another origin is not followed: nothing of it is merged, and it never sees a request.
    void linksToAnotherOriginAreNotFollowed_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<bool>("second");
        const QString port = hub->url().section(QLatin1Char(':'), -1);
        QTest::newRow("another host") << QStringLiteral("http://127.0.0.2:") + port << false;
        QTest::newRow("another port") << QString() << true;
        QTest::newRow("another scheme") << QStringLiteral("https://127.0.0.1:") + port << false;
    }
    void linksToAnotherOriginAreNotFollowed()
    {
        QFETCH(QString, base);
        QFETCH(bool, second);
        // A second Hub with the same repo, full of entries that must not show up.
        test::TestHub other;
        QString error;
        QVERIFY2(other.start(&error), qPrintable(error));
        other.makeRepo(QStringLiteral("alice/private-cache"), false, {{QStringLiteral("foreign-1.txt"), "x"}, {QStringLiteral("foreign-2.txt"), "y"}});
        if (second)
            base = other.url();
        QVERIFY(hub->fault({{"kind", "foreignlink"}, {"base", base.toStdString()}, {"path", "/tree/"}, {"count", 1}}));
        hub->clearLog();
        HubError e;
        const QVector<TreeEntry> all = client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), false, &e);
        QCOMPARE(e.kind, HubError::Kind::BadResponse);
        QVERIFY2(e.message.contains(QStringLiteral("continues on another host")), qPrintable(e.message));
        QVERIFY2(e.message.contains(HttpClient::originOf(base)), qPrintable(e.message));
        for (const TreeEntry &t : all)
            QVERIFY2(!t.path.startsWith(QStringLiteral("foreign")), qPrintable(t.path));
        QCOMPARE(other.requestLog().size(), size_t(0));
        const json log = hub->requestLog();
        QCOMPARE(log.size(), size_t(1));
        QCOMPARE(QString::fromStdString(log[0]["host"].get<std::string>()), hub->url().mid(7));  // never 127.0.0.2
    }

    // The same for a listing the Hub redirects elsewhere: API answers come from HF_ENDPOINT's origin only.
    void apiRedirectsToAnotherOriginAreRefused()
    {
        test::TestHub other;
        QString error;
        QVERIFY2(other.start(&error), qPrintable(error));
        other.makeRepo(QStringLiteral("alice/private-cache"), false, {{QStringLiteral("foreign-1.txt"), "x"}});
        QVERIFY(hub->fault({{"kind", "redirectto"}, {"path", "/tree/"}, {"count", 1},
                            {"location", QString(other.url() + QStringLiteral("/api/models/alice/private-cache/tree/main")).toStdString()}}));
        hub->clearLog();
        HubError e;
        const QVector<TreeEntry> all = client().listTree(QStringLiteral("alice/private-cache"), QStringLiteral("main"), QString(), false, &e);
        QCOMPARE(e.kind, HubError::Kind::BadResponse);
        QVERIFY2(e.message.contains(QStringLiteral("redirected to another host")), qPrintable(e.message));
        QVERIFY(all.isEmpty());
        QCOMPARE(other.requestLog().size(), size_t(0));
        QCOMPARE(hub->requestLog().size(), size_t(1));
    }

    // A redirect to file:, ftp:, ... fails at once: one request, no retries, and words saying why.
    void nonHttpRedirectsFailAtOnce_data()
    {
        QTest::addColumn<QString>("location");
        QTest::addColumn<QString>("pathPart");
        QTest::newRow("file: from the API") << QStringLiteral("file:///etc/passwd") << QStringLiteral("/api/whoami-v2");
        QTest::newRow("ftp: from the API") << QStringLiteral("ftp://127.0.0.1/pub/x") << QStringLiteral("/api/whoami-v2");
        QTest::newRow("file: from resolve") << QStringLiteral("file:///etc/passwd") << QStringLiteral("/resolve/");
        QTest::newRow("gopher: from resolve") << QStringLiteral("gopher://127.0.0.1:70/x") << QStringLiteral("/resolve/");
    }
    void nonHttpRedirectsFailAtOnce()
    {
        QFETCH(QString, location);
        QFETCH(QString, pathPart);
        QVERIFY(hub->fault({{"kind", "redirectto"}, {"location", location.toStdString()}, {"path", pathPart.toStdString()}, {"count", 50}}));
        hub->clearLog();
        HubError e;
        if (pathPart.contains(QStringLiteral("whoami")))
            client().whoami(&e);
        else
            client().readFile(QStringLiteral("alice/private-cache"), QString(), QStringLiteral("README.md"), 1000, &e);
        QCOMPARE(e.kind, HubError::Kind::BadResponse);
        QVERIFY2(e.message.contains(QStringLiteral("not an http or https URL")), qPrintable(e.message));
        QVERIFY2(e.message.contains(location.section(QLatin1Char(':'), 0, 0) + QLatin1Char(':')), qPrintable(e.message));
        QCOMPARE(hub->requestLog().size(), size_t(1));
    }

    // A body dripping a byte every half second fails on the low-speed rule, in bounded time, and is not retried.
    void drippingAnswersFailInBoundedTime()
    {
        QVERIFY(hub->fault({{"kind", "drip"}, {"interval", 0.5}, {"bytes", 600}, {"path", "/api/whoami-v2"}, {"count", 50}}));
        hub->clearLog();
        QElapsedTimer t;
        t.start();
        HubError e;
        client().whoami(&e);
        const qint64 ms = t.elapsed();
        QCOMPARE(e.kind, HubError::Kind::Timeout);
        QVERIFY2(e.message.contains(QStringLiteral("too slowly")), qPrintable(e.message));
        QVERIFY2(e.message.contains(QStringLiteral("/api/whoami-v2")), qPrintable(e.message));
        QVERIFY2(ms < 40000, qPrintable(QString::number(ms)));  // it used to take 5 attempts of 60 s
        QVERIFY2(ms >= (kLowSpeedSeconds - 1) * 1000, qPrintable(QString::number(ms)));
        QCOMPARE(hub->requestLog().size(), size_t(1));
    }

    // An answer that keeps coming fast enough for the low-speed rule still ends at the API time limit.
    void endlessAnswersStopAtTheTimeLimit()
    {
        QVERIFY(hub->fault({{"kind", "drip"}, {"interval", 0.25}, {"chunk", 2048}, {"bytes", 4 << 20}, {"path", "/api/whoami-v2"}, {"count", 50}}));
        hub->clearLog();
        QElapsedTimer t;
        t.start();
        HubError e;
        client().whoami(&e);
        const qint64 ms = t.elapsed();
        QCOMPARE(e.kind, HubError::Kind::Timeout);
        QVERIFY2(e.message.contains(QStringLiteral("did not answer within 30 s")), qPrintable(e.message));
        QVERIFY2(ms < 40000 && ms >= kApiTimeoutMs - 1000, qPrintable(QString::number(ms)));
        QCOMPARE(hub->requestLog().size(), size_t(1));
    }

    // A download has no time limit, but the same low-speed rule: a stall is tried once more, then it fails.
    void drippingDownloadsFailInBoundedTime()
    {
        QTemporaryDir tmp;
        QVERIFY(hub->fault({{"kind", "drip"}, {"interval", 0.5}, {"bytes", 600}, {"path", "/cdn/"}, {"count", 50}}));
        hub->clearLog();
        QElapsedTimer t;
        t.start();
        HubError e;
        client().download(QStringLiteral("alice/private-cache"), QString(), QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_1+aa/model.neff"),
                          tmp.path() + QStringLiteral("/n"), &e);
        const qint64 ms = t.elapsed();
        QCOMPARE(e.kind, HubError::Kind::Timeout);
        QVERIFY2(e.message.contains(QStringLiteral("too slowly")), qPrintable(e.message));
        QVERIFY2(ms < 60000, qPrintable(QString::number(ms)));
        QCOMPARE(requestsTo(QStringLiteral("/cdn/")), 2);
        QVERIFY(QDir(tmp.path()).isEmpty());  // nothing partial left
    }

    void cancelStopsRetrying()
    {
        QVERIFY(hub->fault({{"kind", "ratelimit"}, {"retry_after", 30}, {"count", 5}}));
        hub->clearLog();
        std::atomic_bool cancel{false};
        std::atomic_bool finished{false};
        HubError e;
        const HubClient hubClient = client();
        std::thread caller([&] {
            hubClient.whoami(&e, &cancel);
            finished = true;
        });
        // The Hub has been asked and answered 429 with 30 s to wait: the client waits it out, until cancelled.
        QTRY_VERIFY_WITH_TIMEOUT(requestsTo(QStringLiteral("whoami")) >= 1, 10000);
        QVERIFY(!finished);
        QElapsedTimer t;
        t.start();
        cancel = true;
        QTRY_VERIFY_WITH_TIMEOUT(finished, 5000);
        caller.join();
        QCOMPARE(e.kind, HubError::Kind::Cancelled);
        QVERIFY(t.elapsed() < 5000);
        QCOMPARE(requestsTo(QStringLiteral("whoami")), 1);  // no retry after the cancel
    }

    // A request stops on either of two flags (a pull's download: the transfer's stop, or its entry's own abort).
    void eitherOfTwoStopFlagsStops()
    {
        for (int which = 0; which < 2; ++which) {
            QVERIFY(hub->fault({{"kind", "ratelimit"}, {"retry_after", 30}, {"count", 5}}));
            hub->clearLog();
            std::atomic_bool first{false}, second{false};
            std::atomic_bool finished{false};
            HttpClient http;
            HttpRequest req;
            req.url = hub->url() + QStringLiteral("/api/whoami-v2");
            HttpResponse resp;
            std::thread caller([&] {
                resp = http.send(req, StopFlags(&first, &second));
                finished = true;
            });
            QTRY_VERIFY_WITH_TIMEOUT(requestsTo(QStringLiteral("whoami")) >= 1, 10000);
            QVERIFY(!finished);
            (which == 0 ? first : second) = true;
            QTRY_VERIFY_WITH_TIMEOUT(finished, 5000);
            caller.join();
            QCOMPARE(resp.failure, HttpResponse::Failure::Cancelled);
            QVERIFY(hub->clearFaults());
        }
    }
};

QTEST_GUILESS_MAIN(TestHubClient)
#include "tst_hubclient.moc"
