// Issue 39's done-when for policies across the fleet: one named policy applied everywhere by the real ingot-cli (this
// machine's cache, two hosts over real sshd servers, an S3 cache on the test S3 server) frees exactly the entries its
// preview listed in each place, while a compile holds a lock in each place; the bytes freed and the gc log say the
// same. A listed host that does not answer is reported and the other places still run.
#include "services/cache/samplecache.h"
#include "services/fleet/fleetgc.h"
#include "services/fleet/gclog.h"
#include "services/util/appsettings.h"

#include "tests/s3/pythonserver.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ingot;
using ingot::test::TestSshd;

namespace {

const QString kBucket = QStringLiteral("team-cache");
const QString kPrefix = QStringLiteral("team/cache/");
const QString kS3Url = QStringLiteral("s3://team-cache/team/cache");
// The lock a compile holds in its entry while neuronx-cc runs (docs/formats.md: `model.hlo_module.pb.lock`, flock).
const QString kLockName = QStringLiteral("model.hlo_module.pb.lock");

// What the file system says of one entry before a run: its apparent bytes (what a preview counts), the blocks of its
// files (what the local store reports freed: files only) and of its files and folders (what a host's `du` reports).
struct EntryFacts {
    qint64 bytes = 0;
    qint64 fileBlocks = 0;
    qint64 allBlocks = 0;
};

// The entries (COMPILER/MODULE folders) of a cache folder, each with its facts; links never followed.
QMap<QString, EntryFacts> entriesOf(const QString &root)
{
    QMap<QString, EntryFacts> out;
    for (const QString &v : QDir(root).entryList({QStringLiteral("neuronxcc-*")}, QDir::Dirs | QDir::NoSymLinks)) {
        for (const QString &m : QDir(root + QLatin1Char('/') + v).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks | QDir::Hidden)) {
            const QString dir = root + QLatin1Char('/') + v + QLatin1Char('/') + m;
            EntryFacts f;
            struct stat st {};
            if (::lstat(QFile::encodeName(dir).constData(), &st) == 0)
                f.allBlocks += qint64(st.st_blocks) * 512;
            for (QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
                 it.hasNext();) {
                if (::lstat(QFile::encodeName(it.next()).constData(), &st) != 0)
                    continue;
                f.allBlocks += qint64(st.st_blocks) * 512;
                if (S_ISREG(st.st_mode)) {
                    f.bytes += st.st_size;
                    f.fileBlocks += qint64(st.st_blocks) * 512;
                }
            }
            out.insert(v + QLatin1Char('/') + m, f);
        }
    }
    return out;
}

// A SUCCESS entry of the oldest compiler version, which the policy (keep the 2 newest versions) takes: the one a
// compile locks (its fresh lock file makes it recently used, so only the version rule would take it).
QString oldCompilerEntry(const QString &root)
{
    const QString oldest = sampleCompilerVersions().first();
    const QMap<QString, EntryFacts> entries = entriesOf(root);
    for (auto it = entries.constBegin(); it != entries.constEnd(); ++it) {
        const QStringList files = QDir(root + QLatin1Char('/') + it.key()).entryList(QDir::Files);
        if (it.key().startsWith(oldest + QLatin1Char('/')) && files.contains(QStringLiteral("model.neff"))
            && !files.contains(QStringLiteral("model.log")) && files.filter(QStringLiteral(".lock")).isEmpty())
            return it.key();
    }
    return {};
}

// A compile holding its entry's lock as neuronx-cc's wrapper does through Python's filelock (UnixFileLock: the file
// opened O_RDWR|O_CREAT|O_TRUNC, then flock LOCK_EX): a real process that holds it until the object goes.
class CompileHoldingLock
{
public:
    explicit CompileHoldingLock(const QString &lockFile)
    {
        m_p.start(QStringLiteral("/usr/bin/python3"),
                  {QStringLiteral("-c"), QStringLiteral("import fcntl, os, sys\n"
                                                        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)\n"
                                                        "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
                                                        "print('held', flush=True)\n"
                                                        "sys.stdin.read()\n"),
                   lockFile});
        while (m_p.waitForReadyRead(10000) && !m_p.readAllStandardOutput().contains("held")) {
        }
        m_held = QFileInfo::exists(lockFile) && m_p.state() == QProcess::Running;
    }
    ~CompileHoldingLock()
    {
        m_p.closeWriteChannel();
        if (!m_p.waitForFinished(10000))
            m_p.kill();
        m_p.waitForFinished();
    }
    Q_DISABLE_COPY_MOVE(CompileHoldingLock)
    bool held() const { return m_held; }

private:
    QProcess m_p;
    bool m_held = false;
};

// boto3 on the test S3 server (tests/fleet/s3_objects.py).
bool s3Objects(const QString &endpoint, const QStringList &args, QByteArray *out)
{
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{QStringLiteral(INGOT_SOURCE_DIR "/tests/fleet/s3_objects.py"), endpoint} + args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0) {
        qWarning("%s", p.readAllStandardError().constData());
        return false;
    }
    *out = p.readAllStandardOutput();
    return true;
}

// The entries of the S3 cache as boto3 lists them: each entry's bytes (the sum of its objects).
QMap<QString, EntryFacts> s3EntriesOf(const QString &endpoint, QSet<QString> *keys = nullptr)
{
    QMap<QString, EntryFacts> out;
    QByteArray listing;
    if (!s3Objects(endpoint, {QStringLiteral("list"), kBucket, kPrefix}, &listing))
        return out;
    for (const QByteArray &line : listing.split('\n')) {
        const QList<QByteArray> kv = line.split('\t');
        if (kv.size() != 2)
            continue;
        const QString key = QString::fromUtf8(kv.at(0)).mid(kPrefix.size());
        if (keys)
            keys->insert(key);
        const QStringList parts = key.split(QLatin1Char('/'));
        if (parts.size() >= 3 && parts.first().startsWith(QLatin1String("neuronxcc-")))
            out[parts.at(0) + QLatin1Char('/') + parts.at(1)].bytes += kv.at(1).toLongLong();
    }
    return out;
}

QJsonObject runCli(const QStringList &args, int *code, QByteArray *err)
{
    const test::ProgramRun r = test::runProgram(QStringLiteral(INGOT_CLI_PATH), args, 120000);
    *code = r.code;
    *err = r.err;
    return QJsonDocument::fromJson(r.out).object();
}

// The places of a `cache gc --json` document, by id.
QHash<QString, QJsonObject> placesById(const QJsonObject &doc)
{
    QHash<QString, QJsonObject> out;
    for (const QJsonValue &v : doc.value(QStringLiteral("places")).toArray())
        out.insert(v[QStringLiteral("place")].toString(), v.toObject());
    return out;
}

// A plan's entries that go ("remove" items), and those it keeps.
QSet<QString> planned(const QJsonObject &place, const char *list = "items")
{
    QSet<QString> out;
    for (const QJsonValue &i : place.value(QStringLiteral("plan")).toObject().value(QLatin1String(list)).toArray())
        if (qstrcmp(list, "kept") == 0 || i[QStringLiteral("operation")].toString() == QLatin1String("remove"))
            out.insert(i[QStringLiteral("key")].toString());
    return out;
}

bool writeCache(const QString &root, quint64 seed)
{
    SampleCacheOptions o;
    o.modules = 12;
    o.seed = seed;
    o.oddEntries = false;
    o.hubLinks = false;  // S3 holds no links; the same kind of cache in every place
    o.minNeffBytes = 1000;
    o.maxNeffBytes = 9000;
    QString error;
    if (!writeSampleCache(root, o, nullptr, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return true;
}

}  // namespace

class TestFleetGc : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<TestSshd> m_hostA, m_hostB;
    std::unique_ptr<test::PythonServer> m_s3;
    QString m_sshConfig;

    QString local() const { return m_tmp.path() + QStringLiteral("/here/cache"); }
    QString hostCache(const char *host) const { return m_tmp.path() + QLatin1Char('/') + QLatin1String(host) + QStringLiteral("/cache"); }
    QString s3Seed() const { return m_tmp.path() + QStringLiteral("/s3"); }
    QString endpoint() const { return m_s3->url(); }

    std::unique_ptr<TestSshd> startHost(const char *alias, const QString &cache)
    {
        auto host = std::make_unique<TestSshd>(QLatin1String(alias));
        // The host's profile standing in: its Neuron tools cache in their own folder there.
        host->setSessionEnvironment({QStringLiteral("NEURON_CC_FLAGS=--cache_dir=") + cache});
        QString error;
        if (!host->start(&error) || !host->trustHostKey()) {
            qWarning("%s", qPrintable(error));
            return nullptr;
        }
        return host;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        QVERIFY(!m_tmp.path().contains(QLatin1Char(' ')));  // a session variable holds it
        // Ingot's settings, the gc log and every cache in the test's own folder; ingot-cli inherits all of it.
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_tmp.path() + QStringLiteral("/config")));
        qputenv("INGOT_GC_LOG", QFile::encodeName(m_tmp.path() + QStringLiteral("/gc.log")));
        qputenv("NEURON_CC_FLAGS", QFile::encodeName(QStringLiteral("--cache_dir=") + local()));
        qunsetenv("NEURON_COMPILE_CACHE_URL");
        qunsetenv("NEURON_LIBTORCH_REMOTE_CACHE");
        // vLLM-Neuron's local tier here: a place that takes no policies, said so.
        qputenv("VLLM_CACHE_ROOT", QFile::encodeName(m_tmp.path() + QStringLiteral("/vllm")));
        QVERIFY(QDir().mkpath(m_tmp.path() + QStringLiteral("/vllm/neuron/compile_cache")));
        qputenv("AWS_ACCESS_KEY_ID", "AKIDINGOT");
        qputenv("AWS_SECRET_ACCESS_KEY", "s3cr3t");
        qputenv("AWS_DEFAULT_REGION", "us-east-1");
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));

        QVERIFY(writeCache(local(), 1));
        QVERIFY(writeCache(hostCache("trn-a"), 2));
        QVERIFY(writeCache(hostCache("trn-b"), 3));
        QVERIFY(writeCache(s3Seed() + QLatin1Char('/') + kPrefix.chopped(1), 4));
        // The bucket holds what the folder holds, each object last modified when its file was (entries' ages).
        m_s3 = std::make_unique<test::PythonServer>("tests/s3/tests3.py",
                                                    QStringList{QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                                QStringLiteral("s3cr3t"), QStringLiteral("--seed-mtimes"),
                                                                QStringLiteral("--seed"), kBucket + QLatin1Char('=') + s3Seed()});
        QVERIFY(!endpoint().endsWith(QLatin1Char(':')));
        qputenv("AWS_ENDPOINT_URL", endpoint().toUtf8());
        AppSettings::addS3Cache(kS3Url);  // opened before: a place of the fleet

        m_hostA = startHost("ingot-trn-a", hostCache("trn-a"));
        m_hostB = startHost("ingot-trn-b", hostCache("trn-b"));
        QVERIFY(m_hostA && m_hostB);
        m_sshConfig = m_tmp.path() + QStringLiteral("/ssh_config");
        test::writeFile(m_sshConfig, (m_hostA->configBlock() + QLatin1Char('\n') + m_hostB->configBlock()).toUtf8());
        AppSettings::setSshConfigFile(m_sshConfig);

        int code = -1;
        QByteArray err;
        runCli({QStringLiteral("cache"), QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("team"),
                QStringLiteral("--keep-versions"), QStringLiteral("2"), QStringLiteral("--unused-days"), QStringLiteral("30"),
                QStringLiteral("--failed")}, &code, &err);
        QVERIFY2(code == 0, err.constData());
    }

    void cleanupTestCase()
    {
        // The hosts' master connections end with their servers.
        m_hostA.reset();
        m_hostB.reset();
    }

    // The done-when: preview everywhere, then apply everywhere; in each place exactly the previewed entries went, the
    // entry a compile holds locked stayed with its lock, and the bytes freed are those of the entries that went.
    void onePolicyEverywhereFreesExactlyThePreview()
    {
        // A compile in each place: here and on each host a process holding the entry's lock; on S3 a fresh lock object.
        const QString lockedHere = oldCompilerEntry(local());
        const QString lockedA = oldCompilerEntry(hostCache("trn-a"));
        const QString lockedB = oldCompilerEntry(hostCache("trn-b"));
        const QString lockedS3 = oldCompilerEntry(s3Seed() + QLatin1Char('/') + kPrefix.chopped(1));
        QVERIFY(!lockedHere.isEmpty() && !lockedA.isEmpty() && !lockedB.isEmpty() && !lockedS3.isEmpty());
        CompileHoldingLock here(local() + QLatin1Char('/') + lockedHere + QLatin1Char('/') + kLockName);
        CompileHoldingLock onA(hostCache("trn-a") + QLatin1Char('/') + lockedA + QLatin1Char('/') + kLockName);
        CompileHoldingLock onB(hostCache("trn-b") + QLatin1Char('/') + lockedB + QLatin1Char('/') + kLockName);
        QVERIFY(here.held() && onA.held() && onB.held());
        QByteArray ignored;
        QVERIFY(s3Objects(endpoint(), {QStringLiteral("put"), kBucket, kPrefix + lockedS3 + QLatin1Char('/') + kLockName}, &ignored));

        const QString idA = QStringLiteral("host:ingot-trn-a"), idB = QStringLiteral("host:ingot-trn-b");
        const QHash<QString, QString> roots{{local(), local()}, {idA, hostCache("trn-a")}, {idB, hostCache("trn-b")}};
        const QHash<QString, QString> lockedIn{{local(), lockedHere}, {idA, lockedA}, {idB, lockedB}, {kS3Url, lockedS3}};
        QHash<QString, QMap<QString, EntryFacts>> before;
        for (auto it = roots.cbegin(); it != roots.cend(); ++it)
            before.insert(it.key(), entriesOf(it.value()));
        QSet<QString> s3KeysBefore;
        before.insert(kS3Url, s3EntriesOf(endpoint(), &s3KeysBefore));
        QVERIFY(before.value(kS3Url).size() >= 10);

        // The preview: every place reached and planned, the locked entry kept, nothing changed.
        const QStringList gc{QStringLiteral("cache"), QStringLiteral("gc"), QStringLiteral("--policy"), QStringLiteral("team"),
                             QStringLiteral("--everywhere"), QStringLiteral("--json")};
        int code = -1;
        QByteArray err;
        const QHash<QString, QJsonObject> preview = placesById(runCli(gc + QStringList{QStringLiteral("--dry-run")}, &code, &err));
        QVERIFY2(code == 0, err.constData());
        QHash<QString, QSet<QString>> previewed;
        for (const QString &id : lockedIn.keys()) {
            const QJsonObject p = preview.value(id);
            QVERIFY2(p.value(QStringLiteral("status")).toString() == QLatin1String("planned"), qPrintable(id + QLatin1Char(' ') + p.value(QStringLiteral("error")).toString()));
            previewed.insert(id, planned(p));
            QVERIFY2(!previewed.value(id).isEmpty(), qPrintable(id));
            QVERIFY2(planned(p, "kept").contains(lockedIn.value(id)), qPrintable(id));
            QVERIFY(!previewed.value(id).contains(lockedIn.value(id)));
            qint64 bytes = 0;
            for (const QString &k : previewed.value(id)) {
                QVERIFY2(before.value(id).contains(k), qPrintable(k));
                bytes += before.value(id).value(k).bytes;
            }
            QCOMPARE(p.value(QStringLiteral("plan")).toObject().value(QStringLiteral("bytes")).toInteger(), bytes);
        }
        for (const QJsonObject &p : preview)  // the rest: the Hub repo in use, vLLM-Neuron's tier
            QVERIFY2(lockedIn.contains(p.value(QStringLiteral("place")).toString())
                         || p.value(QStringLiteral("status")).toString() == QLatin1String("no-policies"),
                     qPrintable(p.value(QStringLiteral("place")).toString()));
        QVERIFY(preview.contains(QStringLiteral("torchneuron:") + m_tmp.path() + QStringLiteral("/vllm/neuron/compile_cache")));
        for (auto it = roots.cbegin(); it != roots.cend(); ++it)
            QCOMPARE(entriesOf(it.value()).keys(), before.value(it.key()).keys());
        QCOMPARE(s3EntriesOf(endpoint()).keys(), before.value(kS3Url).keys());

        // Applied, logged: exactly the previewed entries are gone in each place, everything else stays.
        const QJsonObject doc = runCli(gc + QStringList{QStringLiteral("--yes"), QStringLiteral("--log")}, &code, &err);
        QVERIFY2(code == 0, err.constData());
        const QHash<QString, QJsonObject> applied = placesById(doc);
        QHash<QString, QMap<QString, EntryFacts>> after;
        for (auto it = roots.cbegin(); it != roots.cend(); ++it)
            after.insert(it.key(), entriesOf(it.value()));
        QSet<QString> s3KeysAfter;
        after.insert(kS3Url, s3EntriesOf(endpoint(), &s3KeysAfter));
        qint64 freedTotal = 0;
        for (const QString &id : lockedIn.keys()) {
            QSet<QString> expected(before.value(id).keyBegin(), before.value(id).keyEnd());
            expected -= previewed.value(id);
            QCOMPARE(QSet<QString>(after.value(id).keyBegin(), after.value(id).keyEnd()), expected);
            QVERIFY(after.value(id).contains(lockedIn.value(id)));
            const QJsonObject result = applied.value(id).value(QStringLiteral("result")).toObject();
            QCOMPARE(result.value(QStringLiteral("done")).toInt(), previewed.value(id).size());
            QCOMPARE(result.value(QStringLiteral("skipped")).toInt(), 0);
            QCOMPARE(result.value(QStringLiteral("failed")).toInt(), 0);
            // The bytes freed: what the store freed of the entries that went (S3: their objects' sizes; here, the
            // blocks of their files; a host's `du`, folders too).
            qint64 expectFreed = 0;
            for (const QString &k : previewed.value(id)) {
                const EntryFacts f = before.value(id).value(k);
                expectFreed += id == kS3Url ? f.bytes : id == local() ? f.fileBlocks : f.allBlocks;
            }
            QCOMPARE(result.value(QStringLiteral("freed")).toInteger(), expectFreed);
            freedTotal += expectFreed;
        }
        for (const QString &id : {local(), idA, idB})
            QVERIFY(QFileInfo::exists(roots.value(id) + QLatin1Char('/') + lockedIn.value(id) + QLatin1Char('/') + kLockName));
        QVERIFY(s3KeysAfter.contains(lockedS3 + QLatin1Char('/') + kLockName));
        QCOMPARE(doc.value(QStringLiteral("total")).toObject().value(QStringLiteral("freed")).toInteger(), freedTotal);

        // The log line says the same.
        QString error;
        const QVector<GcRun> runs = readGcRuns(1, &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        const GcRun &run = runs.first();
        QCOMPARE(run.policy, QStringLiteral("team"));
        QCOMPARE(run.trigger, QStringLiteral("cli"));
        QVERIFY(!run.dryRun);
        QCOMPARE(run.freedBytes(), freedTotal);
        QCOMPARE(run.unreachable(), 0);
        int placesSeen = 0;
        for (const GcPlaceResult &r : run.places) {
            if (!lockedIn.contains(r.place))
                continue;
            ++placesSeen;
            QVERIFY(r.reached);
            QCOMPARE(r.planned, previewed.value(r.place).size());
            QCOMPARE(r.removed, previewed.value(r.place).size());
            QCOMPARE(r.freedBytes, applied.value(r.place).value(QStringLiteral("result")).toObject().value(QStringLiteral("freed")).toInteger());
        }
        QCOMPARE(placesSeen, 4);
    }

    // A host in the list that does not answer, and one whose key is not known yet (a run without a terminal must not
    // ask): each said with why, exit 10, and the other places still run (and the run is logged).
    void anUnreachableHostDoesNotStopTheOthers()
    {
        const QVector<int> port = test::freeLoopbackPorts(1);
        QVERIFY(port.size() == 1 && port.first() > 0);
        QString down = m_hostA->configBlock();
        down.replace(QStringLiteral("Host ingot-trn-a"), QStringLiteral("Host ingot-trn-down"))
            .replace(QStringLiteral("Port %1").arg(m_hostA->port()), QStringLiteral("Port %1").arg(port.first()));
        TestSshd unknownKey(QStringLiteral("ingot-trn-new"));  // a new host, its key never trusted
        QString error;
        QVERIFY2(unknownKey.start(&error), qPrintable(error));
        test::writeFile(m_sshConfig, (m_hostA->configBlock() + QLatin1Char('\n') + m_hostB->configBlock() + QLatin1Char('\n') + down
                                      + QLatin1Char('\n') + unknownKey.configBlock())
                                         .toUtf8());
        // Fresh failures here and on a host: what the policy removes this time.
        const QString v = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
        const QStringList failed{QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")};
        test::makeModule(local(), v, QStringLiteral("MODULE_900+f"), failed, 0.5);
        test::makeModule(hostCache("trn-a"), v, QStringLiteral("MODULE_901+f"), failed, 0.5);

        int code = -1;
        QByteArray err;
        const QJsonObject doc = runCli({QStringLiteral("cache"), QStringLiteral("gc"), QStringLiteral("--policy"), QStringLiteral("team"),
                                        QStringLiteral("--everywhere"), QStringLiteral("--yes"), QStringLiteral("--json"),
                                        QStringLiteral("--log"), QStringLiteral("--trigger"), QStringLiteral("schedule")},
                                       &code, &err);
        QCOMPARE(code, 10);
        const QHash<QString, QJsonObject> places = placesById(doc);
        const QJsonObject p = places.value(QStringLiteral("host:ingot-trn-down"));
        QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("unreachable"));
        QVERIFY2(p.value(QStringLiteral("error")).toString().contains(QStringLiteral("refused"), Qt::CaseInsensitive),
                 qPrintable(p.value(QStringLiteral("error")).toString()));
        const QJsonObject asks = places.value(QStringLiteral("host:ingot-trn-new"));
        QCOMPARE(asks.value(QStringLiteral("status")).toString(), QStringLiteral("unreachable"));
        QVERIFY2(asks.value(QStringLiteral("error")).toString().contains(QStringLiteral("host key")),
                 qPrintable(asks.value(QStringLiteral("error")).toString()));
        QVERIFY(!QFileInfo::exists(local() + QLatin1Char('/') + v + QStringLiteral("/MODULE_900+f")));
        QVERIFY(!QFileInfo::exists(hostCache("trn-a") + QLatin1Char('/') + v + QStringLiteral("/MODULE_901+f")));
        for (const QString &id : {local(), QStringLiteral("host:ingot-trn-a"), QStringLiteral("host:ingot-trn-b"), kS3Url})
            QVERIFY2(places.value(id).value(QStringLiteral("status")).toString() == QLatin1String("planned"), qPrintable(id));
        const QVector<GcRun> runs = readGcRuns(1);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().trigger, QStringLiteral("schedule"));
        QCOMPARE(runs.first().unreachable(), 2);
        QVERIFY2(runs.first().summary().contains(QStringLiteral("2 unreachable")), qPrintable(runs.first().summary()));
        QCOMPARE(unknownKey.acceptedLogins(), 0);
    }

    // The guarantees hold per place between the preview and the run: an entry a compile locked since stays (skipped,
    // said), and a place whose folder was replaced refuses there alone while the other place runs.
    void eachPlaceIsCheckedAgainRightBeforeItRuns()
    {
        QTemporaryDir tmp;
        const QString one = tmp.path() + QStringLiteral("/one"), two = tmp.path() + QStringLiteral("/two");
        QVERIFY(writeCache(one, 7) && writeCache(two, 8));
        CachePolicy policy;
        policy.name = QStringLiteral("versions");
        policy.keepVersions = 2;
        QVector<FleetPlace> places;
        for (const QString &root : {one, two}) {
            QString error;
            const std::optional<FleetPlace> p = fleetPlaceFor(root, &error);
            QVERIFY2(p, qPrintable(error));
            places << *p;
        }
        QVector<int> progressSeen;
        const FleetGcPreview preview = previewFleetGc(policy, places, QDateTime::currentMSecsSinceEpoch(), {},
                                                      [&](int done, int, const QString &) { progressSeen << done; });
        QCOMPARE(progressSeen.last(), 2);
        QCOMPARE(preview.places.size(), 2);
        QVERIFY(preview.places.at(0).planned() && preview.places.at(1).planned());
        const MaintenancePlan &plan = preview.places.at(0).plan;
        QVERIFY(plan.entryCount() >= 2);
        QCOMPARE(preview.entryCount(), plan.entryCount() + preview.places.at(1).plan.entryCount());
        QCOMPARE(preview.bytes(), plan.bytes + preview.places.at(1).plan.bytes);

        // Since the preview: a compile took the lock of a previewed entry in `one`; `two` was replaced by a copy.
        const QString taken = plan.items.first().key;
        CompileHoldingLock compile(one + QLatin1Char('/') + taken + QLatin1Char('/') + kLockName);
        QVERIFY(compile.held());
        QVERIFY(QDir().rename(two, two + QStringLiteral(".old")));
        QCOMPARE(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), two + QStringLiteral(".old"), two}), 0);
        const QMap<QString, EntryFacts> twoBefore = entriesOf(two);

        QVector<MaintenanceReport> reports;
        const GcRun run = applyFleetGc(preview, QStringLiteral("gui"), {}, nullptr, &reports);
        QCOMPARE(run.places.size(), 2);
        QCOMPARE(reports.size(), 2);
        const GcPlaceResult &r1 = run.places.at(0);
        QVERIFY2(r1.error.isEmpty(), qPrintable(r1.error));
        QCOMPARE(r1.skipped, 1);
        QCOMPARE(r1.removed, plan.entryCount() - 1);
        QVERIFY(QFileInfo::exists(one + QLatin1Char('/') + taken));
        const auto skipped = std::find_if(reports.at(0).outcomes.cbegin(), reports.at(0).outcomes.cend(),
                                          [&](const ItemOutcome &o) { return o.key == taken; });
        QVERIFY(skipped != reports.at(0).outcomes.cend() && skipped->result == ItemOutcome::Result::Skipped);
        const GcPlaceResult &r2 = run.places.at(1);
        QVERIFY(r2.reached);
        QVERIFY2(r2.error.contains(QStringLiteral("no longer the folder that was previewed")), qPrintable(r2.error));
        QCOMPARE(r2.removed, 0);
        QCOMPARE(entriesOf(two).keys(), twoBefore.keys());
        QCOMPARE(run.trigger, QStringLiteral("gui"));
        QCOMPARE(run.freedBytes(), r1.freedBytes);
    }

    // One cache under two names (a link to it named too) is planned once: the second name plans nothing and says
    // where its plan is, so the run removes each entry once and nothing fails.
    void theSameCacheUnderTwoNamesIsPlannedOnce()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/cache"), link = tmp.path() + QStringLiteral("/link");
        QVERIFY(writeCache(root, 9));
        QVERIFY(QFile::link(root, link));
        CachePolicy policy;
        policy.name = QStringLiteral("versions");
        policy.keepVersions = 2;
        QVector<FleetPlace> places;
        for (const QString &path : {root, link}) {
            QString error;
            const std::optional<FleetPlace> p = fleetPlaceFor(path, &error);
            QVERIFY2(p, qPrintable(error));
            places << *p;
        }
        QCOMPARE(places.at(0).id == places.at(1).id, false);
        const FleetGcPreview preview = previewFleetGc(policy, places, QDateTime::currentMSecsSinceEpoch());
        QVERIFY(preview.places.at(0).plan.entryCount() >= 2);
        QVERIFY(preview.places.at(1).planned());
        QCOMPARE(preview.places.at(1).plan.entryCount(), 0);
        QVERIFY2(preview.places.at(1).plan.notes.join(QString()).contains(root), qPrintable(preview.places.at(1).plan.notes.join(QString())));
        QCOMPARE(preview.entryCount(), preview.places.at(0).plan.entryCount());
        const GcRun run = applyFleetGc(preview, QStringLiteral("cli"));
        QCOMPARE(run.places.at(0).removed, preview.places.at(0).plan.entryCount());
        QCOMPARE(run.places.at(0).failed + run.places.at(1).failed, 0);
        QCOMPARE(run.places.at(1).removed, 0);
    }

    // A preview cancelled before it starts reads no place: each is said to be cancelled, none planned.
    void aCancelledPreviewReadsNothing()
    {
        QString error;
        const std::optional<FleetPlace> p = fleetPlaceFor(local(), &error);
        QVERIFY2(p, qPrintable(error));
        const std::atomic_bool cancel{true};
        CachePolicy policy;
        policy.name = QStringLiteral("any");
        policy.removeFailed = true;
        const FleetGcPreview preview = previewFleetGc(policy, {*p, *p}, QDateTime::currentMSecsSinceEpoch(), {}, {}, &cancel);
        QCOMPARE(preview.places.size(), 2);
        for (const FleetGcPlace &place : preview.places) {
            QCOMPARE(place.status, FleetGcPlace::Status::Unreachable);
            QCOMPARE(place.error, QStringLiteral("cancelled"));
            QCOMPARE(place.place.id, p->id);
        }
        QCOMPARE(preview.unreachable(), 2);
        QCOMPARE(preview.asDryRun(QStringLiteral("cli")).unreachable(), 2);
    }
};

QTEST_GUILESS_MAIN(TestFleetGc)
#include "tst_fleetgc.moc"
