// Entries between real local caches and an S3 cache on the test S3 server (a fake for S3, checked with boto3), through
// the transfer engine the app's queue and ingot-cli use: up (multipart for a large NEFF, model.done last, ETags
// checked), down (staged, identical bytes), an interrupted upload and download resumed, locks and other entries
// left alone, only SUCCESS entries moved, and the Hub <-> S3 moves by way of this machine (the test Hub).
#include "services/hub/hubclient.h"
#include "services/remote/remotehosts.h"
#include "services/util/appsettings.h"
#include "services/s3/s3cachestore.h"
#include "services/transfer/s3transfer.h"
#include "services/transfer/transferengine.h"

#include "tests/s3/pythonserver.h"
#include "tests/support/testhub.h"
#include "tests/support/testsshd.h"

#include <QCryptographicHash>
#include <QDir>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace ingot;

namespace {
const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString Big = V + QStringLiteral("/MODULE_1+big");
const QString Small = V + QStringLiteral("/MODULE_2+small");
const QString Other = V + QStringLiteral("/MODULE_3+other");
constexpr qint64 BigSize = (20LL << 20) + 12345;  // three 8 MiB parts

class TestS3Server : public test::PythonServer
{
public:
    TestS3Server(const QString &journal, const QString &seed = QString())
        : PythonServer("tests/s3/tests3.py", QStringList{QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                         QStringLiteral("s3cr3t"), QStringLiteral("--bucket"), QStringLiteral("team-cache"),
                                                         QStringLiteral("--journal"), journal}
                                                 + (seed.isEmpty() ? QStringList() : QStringList{QStringLiteral("--seed"), QStringLiteral("team-cache=") + seed}))
    {
        qputenv("AWS_ENDPOINT_URL", url().toUtf8());
    }
};

QByteArray randomBytes(qint64 n)
{
    QByteArray b(n, Qt::Uninitialized);
    QRandomGenerator g(n);
    for (qint64 i = 0; i + 4 <= n; i += 4) {
        const quint32 v = g.generate();
        memcpy(b.data() + i, &v, 4);
    }
    return b;
}

void writeEntry(const QString &root, const QString &key, const QMap<QString, QByteArray> &files)
{
    for (auto it = files.cbegin(); it != files.cend(); ++it)
        test::writeFile(root + QLatin1Char('/') + key + QLatin1Char('/') + it.key(), it.value());
}

QMap<QString, QByteArray> success(const QByteArray &neff)
{
    return {{QStringLiteral("model.hlo_module.pb"), "hlo"}, {QStringLiteral("compile_flags.json"), "[\"--model-type=transformer\"]"},
            {QStringLiteral("model.neff"), neff}, {QStringLiteral("model.done"), ""}};
}

StoreLocation s3At(const QString &prefix)
{
    return {s3::s3StoreKind(), QString(), QStringLiteral("s3://team-cache/") + prefix};
}

s3::S3Client client(const QString &prefix)
{
    s3::S3Location l;
    QString e;
    s3::S3Location::parse(QStringLiteral("s3://team-cache/") + prefix, &l, &e);
    return s3::S3Client(s3::resolveAwsSettings(), l);
}

// Stops the transfer once an item has passed `after` bytes.
class StopAfter final : public TransferReporter
{
public:
    StopAfter(std::atomic_bool *stop, qint64 after) : m_stop(stop), m_after(after) {}
    void itemStarted(int, qint64) override {}
    void itemProgress(int, qint64 done) override
    {
        if (m_after >= 0 && done >= m_after)
            *m_stop = true;
    }
    void itemFinished(int, TransferItem::State, const QString &) override {}
    void note(const QString &) override {}

private:
    std::atomic_bool *m_stop;
    qint64 m_after;
};

QStringList journal(const QString &path)
{
    return QString::fromUtf8(test::readFile(path)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QMap<QString, QByteArray> filesUnder(const QString &folder)
{
    QMap<QString, QByteArray> out;
    QDir d(folder);
    for (const QString &n : d.entryList(QDir::Files | QDir::Hidden))
        out.insert(n, test::readFile(folder + QLatin1Char('/') + n));
    return out;
}
}  // namespace

class TestS3Transfer : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_local;
    QByteArray m_bigNeff;

    TransferOutcome run(TransferKind kind, const TransferPlace &from, const TransferPlace &to, QVector<TransferItem> &items,
                        TransferReporter &reporter, const std::atomic_bool *stop = nullptr, const HubClient *hub = nullptr,
                        const QString &work = QString())
    {
        TransferRecord r;
        r.id = QStringLiteral("t");
        r.kind = kind;
        r.from = from;
        r.to = to;
        TransferContext ctx;
        ctx.hub = hub;
        ctx.workDir = work.isEmpty() ? m_tmp.path() + QStringLiteral("/work") : work;
        return runTransfer(r, items, reporter, ctx, stop);
    }

private slots:
    void initTestCase()
    {
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        qputenv("AWS_ACCESS_KEY_ID", "AKIDINGOT");
        qputenv("AWS_SECRET_ACCESS_KEY", "s3cr3t");
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        m_local = m_tmp.path() + QStringLiteral("/local");
        m_bigNeff = randomBytes(BigSize);
        writeEntry(m_local, Big, success(m_bigNeff));
        writeEntry(m_local, Small, success("small neff"));
        writeEntry(m_local, V + QStringLiteral("/MODULE_4+failed"), {{QStringLiteral("model.log"), "error"}});
    }

    // Up: the large NEFF in three parts, model.done after every other file of its entry, every key under the
    // prefix; again: skipped. Down into a fresh cache: the same bytes.
    void upAndDownAgain()
    {
        const QString log = m_tmp.path() + QStringLiteral("/updown.log");
        TestS3Server server(log);
        QVector<TransferItem> items = itemsFor({Big, Small, V + QStringLiteral("/MODULE_4+failed")});
        NullTransferReporter quiet;
        TransferOutcome out = run(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(m_local)),
                                  TransferPlace::ofCache(s3At(QStringLiteral("team/cache"))), items, quiet);
        QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
        QCOMPARE(items[0].state, TransferItem::State::Done);
        QCOMPARE(items[1].state, TransferItem::State::Done);
        QCOMPARE(items[2].state, TransferItem::State::Skipped);  // issue 35: as copy and push skip a FAILED entry
        QCOMPARE(items[2].message, notSuccessWhy(ModuleState::Failed));
        qint64 bigTotal = 0;
        for (const QByteArray &b : success(m_bigNeff))
            bigTotal += b.size();
        QCOMPARE(items[0].bytesDone, bigTotal);
        const QStringList lines = journal(log);
        QCOMPARE(lines.filter(QStringLiteral("PART team/cache/") + Big + QStringLiteral("/model.neff")).size(), 3);
        QVERIFY(lines.contains(QStringLiteral("COMPLETE team/cache/") + Big + QStringLiteral("/model.neff")));
        for (const QString &key : {Big, Small}) {
            const int done = lines.indexOf(QStringLiteral("PUT team/cache/") + key + QStringLiteral("/model.done"));
            QVERIFY(done >= 0);
            for (int i = 0; i < lines.size(); ++i)
                if (lines[i].contains(key) && !lines[i].startsWith(QLatin1String("GET")))
                    QVERIFY2(i <= done, qPrintable(lines[i] + QStringLiteral(" after model.done")));
        }
        for (const QString &l : lines)
            QVERIFY2(l.section(QLatin1Char(' '), 1, 1).startsWith(QLatin1String("team/cache/")), qPrintable(l));
        s3::S3Listing listing;
        QString error;
        QVERIFY2(client(QStringLiteral("team/cache")).list(QStringLiteral("team/cache/"), QString(), &listing, &error), qPrintable(error));
        QCOMPARE(listing.objects.size(), 8);
        // A small file went with its SHA-256, which S3 keeps and gives back.
        QByteArray etag, checksum;
        qint64 size = -1;
        QVERIFY2(client(QStringLiteral("team/cache")).download(QStringLiteral("team/cache/") + Small + QStringLiteral("/model.neff"), 0,
                                                               [](const char *, size_t, bool) { return true; }, &etag, &size, &error,
                                                               nullptr, &checksum),
                 qPrintable(error));
        QCOMPARE(checksum, QCryptographicHash::hash("small neff", QCryptographicHash::Sha256).toBase64());

        items = itemsFor({Big, Small});
        run(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(m_local)),
            TransferPlace::ofCache(s3At(QStringLiteral("team/cache"))), items, quiet);
        QCOMPARE(items[0].state, TransferItem::State::Skipped);
        QVERIFY2(items[0].message.contains(QLatin1String("Already in")), qPrintable(items[0].message));

        const QString down = m_tmp.path() + QStringLiteral("/down");
        QDir().mkpath(down);
        items = itemsFor({Big, Small});
        out = run(TransferKind::Copy, TransferPlace::ofCache(s3At(QStringLiteral("team/cache"))),
                  TransferPlace::ofCache(StoreLocation::local(down)), items, quiet);
        QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
        QCOMPARE(items[0].state, TransferItem::State::Done);
        QCOMPARE(items[1].state, TransferItem::State::Done);
        QCOMPARE(filesUnder(down + QLatin1Char('/') + Big), success(m_bigNeff));
        QCOMPARE(filesUnder(down + QLatin1Char('/') + Small), success("small neff"));
        QCOMPARE(QDir(down + QLatin1Char('/') + V).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 2);
        // Again: the entries are there, nothing is overwritten.
        items = itemsFor({Small});
        run(TransferKind::Copy, TransferPlace::ofCache(s3At(QStringLiteral("team/cache"))),
            TransferPlace::ofCache(StoreLocation::local(down)), items, quiet);
        QCOMPARE(items[0].state, TransferItem::State::Skipped);
    }

    // Stopped after the first part: the entry is not visible (no model.done) and the next run sends only the parts
    // S3 does not hold. A download stopped mid-NEFF continues with a ranged GET.
    void interruptedMovesResume()
    {
        const QString log = m_tmp.path() + QStringLiteral("/resume.log");
        TestS3Server server(log);
        const QString work = m_tmp.path() + QStringLiteral("/resume-work");
        std::atomic_bool stop{false};
        StopAfter stopper(&stop, 8 << 20);
        QVector<TransferItem> items = itemsFor({Big});
        run(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(m_local)),
            TransferPlace::ofCache(s3At(QStringLiteral("p"))), items, stopper, &stop, nullptr, work);
        QCOMPARE(items[0].state, TransferItem::State::Pending);
        QVERIFY(!journal(log).contains(QStringLiteral("PUT p/") + Big + QStringLiteral("/model.done")));
        const int partsBefore = journal(log).filter(QStringLiteral("PART ")).size();
        QVERIFY(partsBefore >= 1);
        QCOMPARE(QDir(work + QStringLiteral("/s3-uploads")).entryList(QDir::Files).size(), 1);

        stop = false;
        NullTransferReporter quiet;
        run(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(m_local)),
            TransferPlace::ofCache(s3At(QStringLiteral("p"))), items, quiet, &stop, nullptr, work);
        QCOMPARE(items[0].state, TransferItem::State::Done);
        const int partsAfter = journal(log).filter(QStringLiteral("PART ")).size();
        QVERIFY2(partsAfter - partsBefore < 3, qPrintable(QString::number(partsAfter - partsBefore)));
        QCOMPARE(journal(log).filter(QStringLiteral("PART p/") + Big + QStringLiteral("/model.neff 1")).size(), 1);
        QCOMPARE(QDir(work + QStringLiteral("/s3-uploads")).entryList(QDir::Files).size(), 0);

        const QString down = m_tmp.path() + QStringLiteral("/resume-down");
        QDir().mkpath(down);
        StopAfter stopDown(&stop, 4 << 20);
        items = itemsFor({Big});
        run(TransferKind::Copy, TransferPlace::ofCache(s3At(QStringLiteral("p"))),
            TransferPlace::ofCache(StoreLocation::local(down)), items, stopDown, &stop, nullptr, work);
        QCOMPARE(items[0].state, TransferItem::State::Pending);
        QVERIFY(!QFileInfo::exists(down + QLatin1Char('/') + Big));
        stop = false;
        run(TransferKind::Copy, TransferPlace::ofCache(s3At(QStringLiteral("p"))),
            TransferPlace::ofCache(StoreLocation::local(down)), items, quiet, &stop, nullptr, work);
        QCOMPARE(items[0].state, TransferItem::State::Done);
        QCOMPARE(filesUnder(down + QLatin1Char('/') + Big), success(m_bigNeff));
        const QStringList gets = journal(log).filter(QStringLiteral("GET p/") + Big + QStringLiteral("/model.neff "));
        QVERIFY2(gets.size() == 2 && !gets.last().endsWith(QLatin1String(" 0")), qPrintable(gets.join(QLatin1Char('|'))));
    }

    // A lock object: neither direction touches the entry. An S3 entry with other files: an upload leaves it. A
    // FAILED entry on S3 is not copied down. Nothing outside the prefix is read or written.
    void otherEntriesAreLeftAlone()
    {
        const QString seed = m_tmp.path() + QStringLiteral("/seed");
        writeEntry(seed + QStringLiteral("/c"), Big, success("x"));
        test::writeFile(seed + QStringLiteral("/c/") + Big + QStringLiteral("/model.lock"), "");
        writeEntry(seed + QStringLiteral("/c"), Small, {{QStringLiteral("model.neff"), "another"}, {QStringLiteral("model.done"), ""}});
        writeEntry(seed + QStringLiteral("/c"), Other, {{QStringLiteral("model.log"), "failed"}});
        writeEntry(seed + QStringLiteral("/c-other"), Other, success("neighbour"));
        const QString log = m_tmp.path() + QStringLiteral("/alone.log");
        TestS3Server server(log, seed);
        NullTransferReporter quiet;
        QVector<TransferItem> items = itemsFor({Big, Small});
        TransferOutcome out = run(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(m_local)),
                                  TransferPlace::ofCache(s3At(QStringLiteral("c"))), items, quiet);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY(out.busy.contains(0));
        QVERIFY2(items[0].message.contains(QLatin1String("model.lock")), qPrintable(items[0].message));
        QCOMPARE(items[1].state, TransferItem::State::Skipped);
        QVERIFY(journal(log).filter(QStringLiteral("PUT")).isEmpty());

        const QString down = m_tmp.path() + QStringLiteral("/alone-down");
        QDir().mkpath(down);
        items = itemsFor({Big, Other, V + QStringLiteral("/MODULE_9+absent")});
        out = run(TransferKind::Copy, TransferPlace::ofCache(s3At(QStringLiteral("c"))),
                  TransferPlace::ofCache(StoreLocation::local(down)), items, quiet);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY(out.busy.contains(0));
        QCOMPARE(items[1].state, TransferItem::State::Skipped);
        QCOMPARE(items[1].message, notSuccessWhy(ModuleState::Failed));
        QCOMPARE(items[2].state, TransferItem::State::Failed);
        QVERIFY(!QFileInfo::exists(down + QLatin1Char('/') + V) || QDir(down + QLatin1Char('/') + V).isEmpty());
        for (const QString &l : journal(log))
            QVERIFY2(!l.contains(QLatin1String("c-other")), qPrintable(l));
    }

    // An object whose bytes are not those S3 kept the SHA-256 of (the server lies about one): refused, nothing lands.
    void aDamagedObjectIsRefused()
    {
        const QString seed = m_tmp.path() + QStringLiteral("/damaged-seed");
        QDir().mkpath(seed);
        test::PythonServer server("tests/s3/tests3.py", {QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                         QStringLiteral("s3cr3t"), QStringLiteral("--bucket"), QStringLiteral("team-cache"),
                                                         QStringLiteral("--hostile"), QStringLiteral("bad-checksum")});
        qputenv("AWS_ENDPOINT_URL", server.url().toUtf8());
        NullTransferReporter quiet;
        QVector<TransferItem> items = itemsFor({Small});
        run(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(m_local)), TransferPlace::ofCache(s3At(QStringLiteral("d"))), items, quiet);
        QCOMPARE(items[0].state, TransferItem::State::Done);
        const QString down = m_tmp.path() + QStringLiteral("/damaged-down");
        QDir().mkpath(down);
        items = itemsFor({Small});
        run(TransferKind::Copy, TransferPlace::ofCache(s3At(QStringLiteral("d"))), TransferPlace::ofCache(StoreLocation::local(down)), items, quiet);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QLatin1String("SHA-256")), qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(down + QLatin1Char('/') + Small));
    }

    // Hub -> S3 and S3 -> Hub go by way of this machine, leaving nothing in the work folder.
    void hubAndS3()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        const QString repo = QStringLiteral("neuronorg/cache");
        QMap<QString, QByteArray> files;
        for (auto [name, bytes] : success("from the hub").asKeyValueRange())
            files.insert(Small + QLatin1Char('/') + name, bytes);
        hub.makeRepo(repo, true, files);
        hub.makeRepo(QStringLiteral("neuronorg/pushed"), true, {});
        const HubClient hubClient(hub.url(), QStringLiteral("hf_alice_write"));
        const QString log = m_tmp.path() + QStringLiteral("/hub.log");
        TestS3Server server(log);
        const QString work = m_tmp.path() + QStringLiteral("/hub-work");
        NullTransferReporter quiet;
        QVector<TransferItem> items = itemsFor({Small});
        TransferOutcome out = run(TransferKind::Pull, TransferPlace::ofHub(repo), TransferPlace::ofCache(s3At(QStringLiteral("h"))),
                                  items, quiet, nullptr, &hubClient, work);
        QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
        QCOMPARE(items[0].state, TransferItem::State::Done);
        QByteArray neff;
        QVERIFY2(client(QStringLiteral("h")).get(QStringLiteral("h/") + Small + QStringLiteral("/model.neff"), 0, -1, &neff, &error),
                 qPrintable(error));
        QCOMPARE(neff, QByteArray("from the hub"));
        QVERIFY(!QFileInfo::exists(work + QStringLiteral("/to-s3/") + Small));

        items = itemsFor({Small});
        out = run(TransferKind::Push, TransferPlace::ofCache(s3At(QStringLiteral("h"))), TransferPlace::ofHub(QStringLiteral("neuronorg/pushed")),
                  items, quiet, nullptr, &hubClient, work);
        QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
        QCOMPARE(items[0].state, TransferItem::State::Done);
        HubError he;
        const auto got = hubClient.download(QStringLiteral("neuronorg/pushed"), QStringLiteral("main"), Small + QStringLiteral("/model.neff"),
                                            m_tmp.path() + QStringLiteral("/pushed.neff"), &he);
        QVERIFY2(he.ok(), qPrintable(he.message));
        QCOMPARE(test::readFile(m_tmp.path() + QStringLiteral("/pushed.neff")), QByteArray("from the hub"));
        QVERIFY(!QFileInfo::exists(work + QStringLiteral("/from-s3/") + Small));
    }

    // S3 -> a host and a host -> S3 go by way of this machine over a real sshd, leaving nothing in the work folder.
    void hostAndS3()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot-tst-s3transfer"));
        test::TestSshd sshd(QStringLiteral("ingot-s3host"));
        QString error;
        QVERIFY2(sshd.start(&error), qPrintable(error));
        QVERIFY(sshd.trustHostKey());
        AppSettings::setSshConfigFile(sshd.sshConfigFile());
        RemoteHosts::instance().reset();
        registerRemoteStores();
        const QString log = m_tmp.path() + QStringLiteral("/host.log");
        TestS3Server server(log);
        const QString work = m_tmp.path() + QStringLiteral("/host-work");
        const QString hostCache = m_tmp.path() + QStringLiteral("/host-cache");
        QDir().mkpath(hostCache);
        NullTransferReporter quiet;
        QVector<TransferItem> items = itemsFor({Big, Small});
        run(TransferKind::Copy, TransferPlace::ofCache(StoreLocation::local(m_local)), TransferPlace::ofCache(s3At(QStringLiteral("up"))), items, quiet);
        QCOMPARE(items[1].state, TransferItem::State::Done);
        items = itemsFor({Big, Small});
        TransferOutcome out = run(TransferKind::Copy, TransferPlace::ofCache(s3At(QStringLiteral("up"))),
                                  TransferPlace::ofCache(sshStoreLocation(sshd.alias(), hostCache)), items, quiet, nullptr, nullptr, work);
        QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
        QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
        QCOMPARE(items[1].state, TransferItem::State::Done);
        QCOMPARE(filesUnder(hostCache + QLatin1Char('/') + Big), success(m_bigNeff));
        QVERIFY(!QFileInfo::exists(work + QStringLiteral("/from-s3/") + Big));
        items = itemsFor({Small});
        out = run(TransferKind::Copy, TransferPlace::ofCache(sshStoreLocation(sshd.alias(), hostCache)),
                  TransferPlace::ofCache(s3At(QStringLiteral("back"))), items, quiet, nullptr, nullptr, work);
        QVERIFY2(out.error.isEmpty(), qPrintable(out.error));
        QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
        QVERIFY(journal(log).contains(QStringLiteral("PUT back/") + Small + QStringLiteral("/model.done")));
        QVERIFY(!QFileInfo::exists(work + QStringLiteral("/to-s3/") + Small));
        RemoteHosts::instance().connection(sshd.alias())->close();
    }

    // ingot-cli cache copy with an S3 side: the same engine, words and exit codes.
    void cliCopies()
    {
        const QString log = m_tmp.path() + QStringLiteral("/cli.log");
        TestS3Server server(log);
        QProcess p;
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--cache-dir"), m_local,
                                                 QStringLiteral("--from"), QStringLiteral("local"), QStringLiteral("--to"),
                                                 QStringLiteral("s3://team-cache/cli"), QStringLiteral("--json"), Small});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, QByteArray(out + p.readAllStandardError()).constData());
        const auto j = nlohmann::json::parse(out.toStdString());
        QCOMPARE(j["done"].get<int>(), 1);
        QCOMPARE(QString::fromStdString(j["to"].get<std::string>()), QStringLiteral("s3://team-cache/cli"));
        QVERIFY(journal(log).contains(QStringLiteral("PUT cli/") + Small + QStringLiteral("/model.done")));

        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"),
                                                 QStringLiteral("s3://team-cache/cli"), QStringLiteral("--to"),
                                                 QStringLiteral("s3://team-cache/x"), Small});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("both S3 caches"));
    }

    // Issue 39: cache verify --s3: the entries copied there are the same (the large NEFF by its multipart ETag in
    // Ingot's part size, the others by their MD5); a file changed here (same size) differs; one never copied is missing.
    void cliVerifiesAgainstS3()
    {
        const QString log = m_tmp.path() + QStringLiteral("/verify.log");
        TestS3Server server(log);
        QTemporaryDir here;
        writeEntry(here.path(), Big, success(m_bigNeff));
        writeEntry(here.path(), Small, success("small neff"));
        writeEntry(here.path(), Other, success("other neff"));
        QProcess p;
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--cache-dir"), here.path(),
                                                 QStringLiteral("--from"), QStringLiteral("local"), QStringLiteral("--to"),
                                                 QStringLiteral("s3://team-cache/verify"), Big, Small});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QStringList verify{QStringLiteral("cache"), QStringLiteral("verify"), QStringLiteral("--cache-dir"), here.path(),
                                 QStringLiteral("--s3"), QStringLiteral("s3://team-cache/verify"), QStringLiteral("--json")};
        p.start(QStringLiteral(INGOT_CLI_PATH), verify + QStringList{Big, Small});
        QVERIFY(p.waitForFinished(60000));
        QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, QByteArray(out + p.readAllStandardError()).constData());
        auto j = nlohmann::json::parse(out.toStdString());
        QCOMPARE(j["checked"].get<int>(), 2);
        for (const auto &e : j["entries"])
            for (const auto &f : e["files"])
                QVERIFY2(!f["size_only"].get<bool>(), f["why"].get<std::string>().c_str());  // every ETag was recomputed
        // One byte changed here, the same size; and an entry never copied.
        QByteArray changed = "small neff";
        changed[0] = 'S';
        test::writeFile(here.path() + QLatin1Char('/') + Small + QStringLiteral("/model.neff"), changed);
        p.start(QStringLiteral(INGOT_CLI_PATH), verify + QStringList{Big, Small, Other});
        QVERIFY(p.waitForFinished(60000));
        out = p.readAllStandardOutput();
        QCOMPARE(p.exitCode(), 1);
        j = nlohmann::json::parse(out.toStdString());
        QCOMPARE(j["differ"].get<int>(), 2);
        QMap<QString, QString> verdicts;
        for (const auto &e : j["entries"])
            verdicts.insert(QString::fromStdString(e["key"].get<std::string>()), QString::fromStdString(e["verdict"].get<std::string>()));
        QCOMPARE(verdicts.value(Big), QStringLiteral("same"));
        QCOMPARE(verdicts.value(Small), QStringLiteral("differs"));
        QCOMPARE(verdicts.value(Other), QStringLiteral("missing"));
        // Nothing was downloaded: listings only.
        const QStringList requests = journal(log);
        QVERIFY(std::none_of(requests.cbegin(), requests.cend(), [](const QString &l) { return l.startsWith(QStringLiteral("GET verify/")); }));
        QVERIFY(std::any_of(requests.cbegin(), requests.cend(), [](const QString &l) { return l.startsWith(QStringLiteral("PUT verify/")); }));
    }
};

QTEST_GUILESS_MAIN(TestS3Transfer)
#include "tst_s3transfer.moc"
