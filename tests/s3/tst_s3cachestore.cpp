// An S3 compile cache behind the store interface, against the test S3 server (a fake for S3, checked with boto3):
// the scanner finds the same modules in the same states as in the folder the bucket was filled from, files are read
// with ranges, and maintenance removes exactly an entry's keys, leaves an entry with a lock object, and never touches
// a neighbouring prefix.
#include "services/cache/cachescanner.h"
#include "services/cache/samplecache.h"
#include "services/s3/s3cachestore.h"
#include "services/stores/localcachestore.h"
#include "services/stores/storefactory.h"

#include "tests/s3/pythonserver.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace ingot;
using namespace ingot::s3;

namespace {
class TestS3Server : public test::PythonServer
{
public:
    explicit TestS3Server(const QString &seed, const QStringList &extra = {})
        : PythonServer("tests/s3/tests3.py", QStringList{QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                         QStringLiteral("s3cr3t"), QStringLiteral("--page-size"), QStringLiteral("50"),
                                                         QStringLiteral("--seed"), QStringLiteral("team-cache=") + seed}
                                                 + extra)
    {
    }
    AwsSettings settings() const
    {
        AwsSettings a;
        a.credentials = {"AKIDINGOT", "s3cr3t", {}};
        a.endpointUrl = url();
        return a;
    }
};

S3Location at(const QString &url)
{
    S3Location l;
    QString error;
    S3Location::parse(url, &l, &error);
    return l;
}

QHash<QString, CacheModule> byKey(const CacheSnapshot &s)
{
    QHash<QString, CacheModule> out;
    for (const CacheModule &m : s.modules)
        out.insert(m.key(), m);
    return out;
}
}  // namespace

class TestS3CacheStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_seed, m_local;

private slots:
    void initTestCase()
    {
        qputenv("AWS_EC2_METADATA_DISABLED", "true");  // never a real instance's metadata
        // The bucket holds team/cache (a sample cache of small files, no links: S3 has none) and team/cache-other.
        m_seed = m_tmp.path() + QStringLiteral("/seed");
        m_local = m_seed + QStringLiteral("/team/cache");
        SampleCacheOptions o;
        o.modules = 40;
        o.oddEntries = false;
        o.hubLinks = false;
        o.minNeffBytes = 100;
        o.maxNeffBytes = 4000;
        QString error;
        QVERIFY2(writeSampleCache(m_local, o, nullptr, &error), qPrintable(error));
        test::writeFile(m_seed + QStringLiteral("/team/cache-other/neuronxcc-2.15.128.0+56dc5a86/MODULE_9+z/model.neff"), "other");
    }

    void theScannerSeesWhatTheFolderHolds()
    {
        TestS3Server server(m_seed);
        S3CacheStore s3(server.settings(), at(QStringLiteral("s3://team-cache/team/cache")));
        QString error;
        QVERIFY2(s3.open(&error), qPrintable(error));
        LocalCacheStore local(m_local);
        QVERIFY(local.open(&error));
        const QHash<QString, CacheModule> fromS3 = byKey(CacheScanner(s3).scan(nullptr));
        const QHash<QString, CacheModule> fromDisk = byKey(CacheScanner(local).scan(nullptr));
        QVERIFY(fromDisk.size() >= 40);
        QCOMPARE(QSet<QString>(fromS3.keyBegin(), fromS3.keyEnd()), QSet<QString>(fromDisk.keyBegin(), fromDisk.keyEnd()));
        int states = 0;
        for (auto it = fromDisk.cbegin(); it != fromDisk.cend(); ++it) {
            const CacheModule &s = fromS3.value(it.key());
            QVERIFY2(s.state == it->state, qPrintable(it.key()));
            QVERIFY2(s.size == it->size, qPrintable(it.key()));
            QCOMPARE(s.fileCount(), it->fileCount());
            states |= 1 << int(it->state);
        }
        QVERIFY(qPopulationCount(quint32(states)) >= 3);  // more than one kind of entry was compared
        QVERIFY(!s3.isLocal());
        QCOMPARE(s3.displayRoot(), QStringLiteral("s3://team-cache/team/cache"));
        // Files: whole, and the end of one.
        const CacheModule any = *std::find_if(fromDisk.cbegin(), fromDisk.cend(), [](const CacheModule &m) {
            return std::any_of(m.files.cbegin(), m.files.cend(), [](const CacheFile &f) { return f.name == QLatin1String("model.neff"); });
        });
        const QString neff = any.key() + QStringLiteral("/model.neff");
        QByteArray bytes;
        QVERIFY2(s3.readFile(neff, 1 << 20, false, &bytes, &error), qPrintable(error));
        QCOMPARE(bytes, test::readFile(m_local + QLatin1Char('/') + neff));
        QVERIFY2(s3.readFile(neff, 10, true, &bytes, &error), qPrintable(error));
        QCOMPARE(bytes, test::readFile(m_local + QLatin1Char('/') + neff).right(10));
        // A clone shares the listing (the scanner's threads).
        QCOMPARE(s3.clone()->list(any.version).entries.size(), s3.list(any.version).entries.size());
    }

    // Issue 35: the cache is listed with ListObjectsV2 alone, one pass over the prefix's pages (no delimiter walk per
    // compiler folder), and no object is read until something is shown; a second look costs the same pages again.
    void listingIsOnePassOfListObjectsV2()
    {
        const QString journal = m_tmp.path() + QStringLiteral("/listing.log");
        QFile::remove(journal);
        TestS3Server server(m_seed, {QStringLiteral("--journal"), journal, QStringLiteral("--journal-lists")});
        int objects = 0;
        for (QDirIterator it(m_local, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext(); it.next())
            ++objects;
        QVERIFY(objects > 50);  // more than one page of 50
        const int pages = (objects + 49) / 50;
        S3CacheStore s3(server.settings(), at(QStringLiteral("s3://team-cache/team/cache")));
        const CacheSnapshot snap = CacheScanner(s3).scan(nullptr);
        QVERIFY2(snap.fatalError.isEmpty(), qPrintable(snap.fatalError));
        QVERIFY(snap.modules.size() >= 40);
        QStringList lines = QString::fromUtf8(test::readFile(journal)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.filter(QStringLiteral("REQUEST")).size(), pages);
        QCOMPARE(lines.filter(QStringLiteral("LIST team/cache/|")).size(), pages);  // no delimiter, the prefix itself
        QVERIFY(lines.filter(QStringLiteral("GET ")).isEmpty());
        CacheScanner(s3).scan(&snap);  // F5: the same pages again, nothing more
        lines = QString::fromUtf8(test::readFile(journal)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.filter(QStringLiteral("REQUEST")).size(), 2 * pages);
    }

    void maintenanceRemovesExactlyAnEntryAndLeavesLocked()
    {
        TestS3Server server(m_seed);
        S3CacheStore s3(server.settings(), at(QStringLiteral("s3://team-cache/team/cache")));
        QString error;
        QVERIFY2(s3.open(&error), qPrintable(error));
        const CacheSnapshot snap = CacheScanner(s3).scan(nullptr);
        const CacheModule *locked = nullptr, *plain = nullptr;
        for (const CacheModule &m : snap.modules) {
            if (m.state == ModuleState::Locked && !locked)
                locked = &m;
            else if (m.state != ModuleState::Locked && !plain && m.fileCount() > 0)
                plain = &m;
        }
        QVERIFY(locked && plain);
        qint64 freed = 0;
        QCOMPARE(s3.removeEntry(locked->key(), &freed, &error), CacheStore::RemoveResult::Locked);
        QVERIFY2(error.contains(QStringLiteral("lock")), qPrintable(error));
        QCOMPARE(freed, 0);
        QCOMPARE(s3.removeEntry(plain->key(), &freed, &error), CacheStore::RemoveResult::Removed);
        QCOMPARE(freed, plain->size);
        // Listed again from the server: gone there, the rest and the neighbour untouched.
        S3CacheStore again(server.settings(), at(QStringLiteral("s3://team-cache/team/cache")));
        QVERIFY(again.open(&error));
        const QHash<QString, CacheModule> after = byKey(CacheScanner(again).scan(nullptr));
        QVERIFY(!after.contains(plain->key()));
        QVERIFY(after.contains(locked->key()));
        QCOMPARE(after.size(), snap.modules.size() - 1);
        S3CacheStore other(server.settings(), at(QStringLiteral("s3://team-cache/team/cache-other")));
        QVERIFY(other.open(&error));
        QCOMPARE(CacheScanner(other).scan(nullptr).modules.size(), 1);
        // Its locks are never judged stale: clear-locks has words instead of a compiler list.
        QString why;
        QVERIFY(s3.runningCompilers(&why).isEmpty());
        QVERIFY2(why.contains(QStringLiteral("treated as live")), qPrintable(why));
        // Nothing outside the prefix can be named.
        QVERIFY(!s3.remove(QStringLiteral("../cache-other/neuronxcc-2.15.128.0+56dc5a86"), &freed, &error));
    }

    void theCliListsAndMaintainsAnS3Cache()
    {
        // A cache written by hand: a success, a failure, a locked entry; and the neighbouring prefix.
        const QString seed = m_tmp.path() + QStringLiteral("/cli-seed");
        const QString v = seed + QStringLiteral("/team/cache/neuronxcc-2.15.128.0+56dc5a86");
        test::writeFile(v + QStringLiteral("/MODULE_1+a/model.neff"), "neff");
        test::writeFile(v + QStringLiteral("/MODULE_1+a/model.done"), "");
        test::writeFile(v + QStringLiteral("/MODULE_2+b/model.log"), "ERROR boom\n");
        test::writeFile(v + QStringLiteral("/MODULE_3+c/model.neff"), "neff");
        test::writeFile(v + QStringLiteral("/MODULE_3+c/model.neff.lock"), "");
        test::writeFile(seed + QStringLiteral("/team/cache-other/neuronxcc-2.15.128.0+56dc5a86/MODULE_9+z/model.log"), "ERROR\n");
        const QString journal = m_tmp.path() + QStringLiteral("/cli.log");
        QFile::remove(journal);
        TestS3Server server(seed, {QStringLiteral("--journal"), journal, QStringLiteral("--journal-lists")});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AWS_ACCESS_KEY_ID"), QStringLiteral("AKIDINGOT"));
        env.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), QStringLiteral("s3cr3t"));
        env.insert(QStringLiteral("AWS_ENDPOINT_URL"), server.settings().endpointUrl);
        env.insert(QStringLiteral("HOME"), m_tmp.path());
        env.insert(QStringLiteral("AWS_EC2_METADATA_DISABLED"), QStringLiteral("true"));
        auto cli = [&](const QStringList &args, QByteArray *out) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(INGOT_CLI_PATH), args);
            p.waitForFinished(60000);
            *out = p.readAllStandardOutput() + p.readAllStandardError();
            return p.exitCode();
        };
        const QString url = QStringLiteral("s3://team-cache/team/cache");
        QByteArray out;
        QCOMPARE(cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--cache-dir"), url, QStringLiteral("--json")}, &out), 0);
        QVERIFY2(out.contains("MODULE_2+b") && out.contains("FAILED") && out.contains("LOCKED"), out.constData());
        QVERIFY(!out.contains("MODULE_9+z"));
        QCOMPARE(test::readFile(journal).count("REQUEST"), 1);  // one page: one request, as aws s3api list-objects-v2
        // Locks on S3 are live: clear-locks refuses with words and changes nothing.
        QVERIFY(cli({QStringLiteral("cache"), QStringLiteral("clear-locks"), QStringLiteral("--cache-dir"), url, QStringLiteral("--yes")}, &out) != 0);
        QVERIFY2(out.contains("treated as live"), out.constData());
        QCOMPARE(cli({QStringLiteral("cache"), QStringLiteral("clean-failed"), QStringLiteral("--cache-dir"), url, QStringLiteral("--yes")}, &out), 0);
        QCOMPARE(cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--cache-dir"), url}, &out), 0);
        QVERIFY2(!out.contains("MODULE_2+b") && out.contains("MODULE_1+a") && out.contains("MODULE_3+c"), out.constData());
        // Where the runtime looks: NEURON_COMPILE_CACHE_URL; the neighbour's failure is still there.
        env.insert(QStringLiteral("NEURON_COMPILE_CACHE_URL"), QStringLiteral("s3://team-cache/team/cache-other"));
        QCOMPARE(cli({QStringLiteral("cache"), QStringLiteral("list")}, &out), 0);
        QVERIFY2(out.contains("MODULE_9+z") && out.contains("FAILED"), out.constData());
        // A wrong secret: words, a non-zero exit, and the secret nowhere.
        env.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), QStringLiteral("wrong-secret-value"));
        QVERIFY(cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--cache-dir"), url}, &out) != 0);
        QVERIFY2(out.contains("refused the keys") && !out.contains("wrong-secret-value"), out.constData());
    }

    // Issue 35: S3 locks can be cleared by age (a compile on another machine cannot be seen): without an age the
    // preview says nothing can be cleared and why; with one, only locks whose object is older go, and the rule is said.
    void clearLocksOnS3TakesAnAge()
    {
        const QString seed = m_tmp.path() + QStringLiteral("/locks-seed");
        const QString v = seed + QStringLiteral("/team/cache/neuronxcc-2.15.128.0+56dc5a86");
        test::writeFile(v + QStringLiteral("/MODULE_3+c/model.neff"), "neff");
        test::writeFile(v + QStringLiteral("/MODULE_3+c/model.neff.lock"), "");
        test::writeFile(v + QStringLiteral("/MODULE_4+d/model.neff"), "neff");
        test::writeFile(v + QStringLiteral("/MODULE_4+d/model.neff.lock"), "");
        QFile old(v + QStringLiteral("/MODULE_3+c/model.neff.lock"));
        QVERIFY(old.open(QIODevice::ReadWrite));
        QVERIFY(old.setFileTime(QDateTime::currentDateTime().addSecs(-3 * 3600), QFileDevice::FileModificationTime));
        old.close();
        TestS3Server server(seed, {QStringLiteral("--seed-mtimes")});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AWS_ACCESS_KEY_ID"), QStringLiteral("AKIDINGOT"));
        env.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), QStringLiteral("s3cr3t"));
        env.insert(QStringLiteral("AWS_ENDPOINT_URL"), server.settings().endpointUrl);
        env.insert(QStringLiteral("HOME"), m_tmp.path());
        env.insert(QStringLiteral("AWS_EC2_METADATA_DISABLED"), QStringLiteral("true"));
        const QString url = QStringLiteral("s3://team-cache/team/cache");
        auto cli = [&](QStringList args, QByteArray *out) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(INGOT_CLI_PATH), QStringList{QStringLiteral("cache")} + args + QStringList{QStringLiteral("--cache-dir"), url});
            p.waitForFinished(60000);
            *out = p.readAllStandardOutput() + p.readAllStandardError();
            return p.exitCode();
        };
        QByteArray out;
        // Why a job would compile a locked entry again: the advice is to clear the lock by age, as on S3 it can only be.
        cli({QStringLiteral("explain"), QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_4+d")}, &out);
        QVERIFY2(out.contains("LOCKED") && out.contains("clear-locks --older-than 2h") && out.contains("cannot be seen"), out.constData());
        QVERIFY(cli({QStringLiteral("clear-locks"), QStringLiteral("--yes")}, &out) != 0);
        QVERIFY2(out.contains("nothing to do") && out.contains("without an age") && out.contains("kept neuronxcc-2.15.128.0+56dc5a86/MODULE_3+c"),
                 out.constData());
        QCOMPARE(cli({QStringLiteral("clear-locks"), QStringLiteral("--older-than"), QStringLiteral("2h"), QStringLiteral("--dry-run")}, &out), 0);
        QVERIFY2(out.contains("MODULE_3+c") && out.contains("kept neuronxcc-2.15.128.0+56dc5a86/MODULE_4+d") && out.contains("younger than 2h")
                     && out.contains("older than 2h is taken as left by a compile that ended"),
                 out.constData());
        QCOMPARE(cli({QStringLiteral("clear-locks"), QStringLiteral("--older-than"), QStringLiteral("2h"), QStringLiteral("--yes")}, &out), 0);
        QCOMPARE(cli({QStringLiteral("list"), QStringLiteral("--state"), QStringLiteral("LOCKED")}, &out), 0);
        QVERIFY2(out.contains("MODULE_4+d") && !out.contains("MODULE_3+c"), out.constData());
        QCOMPARE(cli({QStringLiteral("list")}, &out), 0);
        QVERIFY2(out.contains("MODULE_3+c"), out.constData());  // only its lock went
        QCOMPARE(cli({QStringLiteral("clear-locks"), QStringLiteral("--older-than"), QStringLiteral("soon")}, &out), 2);
        QVERIFY2(out.contains("90m, 2h or 7d"), out.constData());
    }

    // Issue 35: `cache explain --other s3://bucket/prefix` looks in that S3 cache (it took "s3" for an SSH host); a URL
    // of a kind Ingot has no store for is refused with words, never taken as a host either.
    void explainLooksInAnS3Cache()
    {
        const QString seed = m_tmp.path() + QStringLiteral("/explain-seed");
        const QString entry = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_77+abc");
        test::writeFile(seed + QStringLiteral("/team/cache/") + entry + QStringLiteral("/model.neff"), "neff");
        test::writeFile(seed + QStringLiteral("/team/cache/") + entry + QStringLiteral("/model.done"), "");
        const QString here = m_tmp.path() + QStringLiteral("/explain-here");
        QVERIFY(QDir().mkpath(here + QStringLiteral("/neuronxcc-2.15.128.0+56dc5a86")));
        TestS3Server server(seed);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AWS_ACCESS_KEY_ID"), QStringLiteral("AKIDINGOT"));
        env.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), QStringLiteral("s3cr3t"));
        env.insert(QStringLiteral("AWS_ENDPOINT_URL"), server.settings().endpointUrl);
        env.insert(QStringLiteral("HOME"), m_tmp.path());
        env.insert(QStringLiteral("AWS_EC2_METADATA_DISABLED"), QStringLiteral("true"));
        p.setProcessEnvironment(env);
        auto explain = [&](const QString &other, QByteArray *out) {
            p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("explain"), entry, QStringLiteral("--cache-dir"),
                                                     here, QStringLiteral("--other"), other, QStringLiteral("--json")});
            p.waitForFinished(60000);
            *out = p.readAllStandardOutput() + p.readAllStandardError();
            return p.exitCode();
        };
        QByteArray out;
        QCOMPARE(explain(QStringLiteral("s3://team-cache/team/cache"), &out), 0);
        QVERIFY2(out.contains("\"verdict\": \"other-cache\"") && out.contains("\"other_cache\": \"s3://team-cache/team/cache\""), out.constData());
        QVERIFY(explain(QStringLiteral("gs://team-cache/team/cache"), &out) != 0);
        QVERIFY2(out.contains("is a URL") && !out.contains("ssh"), out.constData());
        QVERIFY(explain(QStringLiteral("s3://Bad_Bucket/x"), &out) != 0);
        QVERIFY2(out.contains("bucket name"), out.constData());
    }

    void theFactoryMakesItFromAnS3Url()
    {
        registerS3Store();
        QVERIFY(StoreFactory::instance().hasKind(s3StoreKind()));
        StoreLocation loc{s3StoreKind(), QString(), QStringLiteral("s3://team-cache/team/cache")};
        auto store = makeStore(loc);
        QVERIFY(store);
        QCOMPARE(store->displayRoot(), QStringLiteral("s3://team-cache/team/cache"));
        loc.path = QStringLiteral("s3://Bad_Bucket/x");
        QVERIFY(!makeStore(loc));
    }
};

QTEST_GUILESS_MAIN(TestS3CacheStore)
#include "tst_s3cachestore.moc"
