// Pulling cache entries from the test Hub into a real local compile cache: the staging that makes an entry appear
// whole or not at all, the engine, and `ingot-cli cache pull`.
#include "services/cache/cachescanner.h"
#include "services/hub/hubclient.h"
#include "services/stores/localcachestore.h"
#include "services/transfer/entrystaging.h"
#include "services/transfer/hubpull.h"
#include "services/util/sha256.h"
#include "tests/support/testhub.h"
#include "tests/support/testsupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <mutex>
#include <thread>

#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <sys/file.h>
#include <unistd.h>

using namespace ingot;

namespace {
using test::randomBytes;
const QString kKey = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_1234+abcd");

const QString kRepo = QStringLiteral("neuronorg/cache");
const QString kBigRepo = QStringLiteral("neuronorg/big");
const QString kV1 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString kV2 = QStringLiteral("neuronxcc-2.16.0.0+deadbeef");
const QString kV3 = QStringLiteral("neuronxcc-2.17.0.0+0bad0bad");
const QString kBigKey = kV2 + QStringLiteral("/MODULE_77+big0");
constexpr qint64 kBigSize = 128LL << 20;

// Records what an engine reports.
class Recorder final : public TransferReporter
{
public:
    void itemStarted(int i, qint64) override { std::lock_guard l(m); started.insert(i); }
    void itemProgress(int i, qint64 d) override { std::lock_guard l(m); progress[i] = d; }
    void itemFinished(int i, TransferItem::State s, const QString &) override { std::lock_guard l(m); finished[i] = s; }
    void note(const QString &) override {}
    std::mutex m;
    QSet<int> started;
    QHash<int, qint64> progress;
    QHash<int, TransferItem::State> finished;
};

// Every path below `dir` (hidden ones too), relative.
QStringList allBelow(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}

QStringList stagingNames(const QString &versionDir)
{
    return QDir(versionDir).entryList({QStringLiteral(".ingot-incoming-*")}, QDir::AllEntries | QDir::Hidden | QDir::System);
}
}  // namespace

class TestHubPull final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sha256MatchesQt();
    void stagingCommitMakesTheEntryAppearWhole();
    void stagingIsAdoptedAfterAnInterruption();
    void stagingBusyWhileAnotherHoldsIt();
    void stagingLeftoversListedOncePerTransfer();
    void stagingNeverOverwritesAnEntry();
    void stagingRefusesALinkedVersionFolder();
    void stagingOfSomeoneElseIsLeftAlone();
    void resumeDownloadContinuesAPart();
    void pullsSelectedEntriesByteForByte();
    void entryKeysOfACompilerOrAll();
    void cliPullsACompilerVersion();
    void existingEntriesAreSkippedUntouched();
    void corruptBodiesAreRefused();
    void hostileHubFoldersAreRefused();
    void killedPullResumesAndScansNeverSeeHalfAnEntry();
    void stopLeavesItResumable();
    void offlineMakesNoRequest();
    void hubCacheLayoutLinksBlobs();
    void hubCacheLayoutRefusesOidsThatAreNotHex();
    void busyEntryFailsWithExit12();
    void cliUsageAndDestinationErrors();

private:
    QString entryPath(const QString &root, const QString &key) const { return root + QLatin1Char('/') + key; }
    void verifyEntry(const QString &root, const QString &key);
    int cli(const QStringList &args, QByteArray *out = nullptr, const QStringList &env = {});
    QProcessEnvironment cliEnv(const QStringList &extra) const;

    test::TestHub m_hub;
    QMap<QString, QByteArray> m_files;  // the repo's files
    QTemporaryDir m_home;
};

void TestHubPull::initTestCase()
{
    QString error;
    QVERIFY2(m_hub.start(&error, 1000, 1024), qPrintable(error));  // files from 1 KiB on are LFS
    const QStringList v1 = {QStringLiteral("MODULE_1+aaaa"), QStringLiteral("MODULE_2+bbbb"), QStringLiteral("MODULE_3+cccc"),
                            QStringLiteral("MODULE_4+dddd"), QStringLiteral("MODULE_5+eeee")};
    quint32 seed = 1;
    auto module = [&](const QString &key) {
        m_files[key + QStringLiteral("/model.neff")] = randomBytes(3000 + int(seed) * 517, seed);
        m_files[key + QStringLiteral("/model.hlo_module.pb")] = randomBytes(700, seed + 100);
        m_files[key + QStringLiteral("/compile_flags.json")] = "[\"--model-type=transformer\"]";
        m_files[key + QStringLiteral("/model.done")] = QByteArray();
        ++seed;
    };
    for (const QString &m : v1)
        module(kV1 + QLatin1Char('/') + m);
    module(kV2 + QStringLiteral("/MODULE_6+ffff"));
    m_files[kV1 + QStringLiteral("/0_REGISTRY/0.0.28/llama/meta-llama/Llama-2-7b/abc.json")] = "{}";
    m_files[QStringLiteral("registry.json")] = "{}";
    // Hostile folders: a sub-folder in a module, a file named as Ingot's partial files.
    m_files[kV3 + QStringLiteral("/MODULE_8+sub0/model.neff")] = "neff";
    m_files[kV3 + QStringLiteral("/MODULE_8+sub0/nested/x")] = "x";
    m_files[kV3 + QStringLiteral("/MODULE_9+part/model.neff.part")] = "p";
    // What optimum-cli's synchronize may have uploaded: a failed compile, and a lock beside a finished one.
    m_files[kV3 + QStringLiteral("/MODULE_10+fail/model.log")] = "error";
    m_files[kV3 + QStringLiteral("/MODULE_10+fail/compile_flags.json")] = "[]";
    m_files[kV3 + QStringLiteral("/MODULE_11+lock/model.neff")] = "neff";
    m_files[kV3 + QStringLiteral("/MODULE_11+lock/model.hlo_module.pb.lock")] = "";
    m_hub.makeRepo(kRepo, false, m_files);
    QMap<QString, QByteArray> big;
    QByteArray block = randomBytes(1 << 20, 99);
    QByteArray data;
    data.reserve(kBigSize);
    for (int i = 0; i < int(kBigSize >> 20); ++i) {
        block[0] = char(i);
        data += block;
    }
    big[kBigKey + QStringLiteral("/model.neff")] = data;
    big[kBigKey + QStringLiteral("/model.done")] = QByteArray();
    m_hub.makeRepo(kBigRepo, false, big);
    m_files[kBigKey + QStringLiteral("/model.neff")] = data;
    m_files[kBigKey + QStringLiteral("/model.done")] = QByteArray();
}

void TestHubPull::sha256MatchesQt()
{
    // Every length around the block and padding edges, fed in uneven pieces.
    const QByteArray data = randomBytes(3 << 20, 7);
    QRandomGenerator g(11);
    {
        for (int len : {0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096, 65537, 3 << 20}) {
            Sha256 h;
            for (int at = 0; at < len;) {
                const int n = qMin(len - at, int(g.bounded(1, 200000)));
                h.addData(data.constData() + at, n);
                at += n;
            }
            QCOMPARE(h.result().toHex(), QCryptographicHash::hash(data.left(len), QCryptographicHash::Sha256).toHex());
        }
    }
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("f")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
    f.close();
    QString error;
    QCOMPARE(Sha256::hexOfFile(f.fileName(), &error), QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex()));
    QVERIFY(Sha256::hexOfFile(dir.filePath(QStringLiteral("missing")), &error).isEmpty());
    QVERIFY(error.contains(QStringLiteral("missing")));
}

void TestHubPull::verifyEntry(const QString &root, const QString &key)
{
    const QString dir = entryPath(root, key);
    QStringList expected;
    for (auto it = m_files.cbegin(); it != m_files.cend(); ++it)
        if (it.key().startsWith(key + QLatin1Char('/')))
            expected << it.key().mid(key.size() + 1);
    expected.sort();
    QVERIFY(!expected.isEmpty());
    QCOMPARE(allBelow(dir), expected);
    for (const QString &f : expected)
        QVERIFY2(test::readFile(dir + QLatin1Char('/') + f) == m_files[key + QLatin1Char('/') + f], qPrintable(key + QLatin1Char('/') + f));
    QVERIFY(stagingNames(QFileInfo(dir).path()).filter(QStringLiteral(".ingot-incoming-") + QFileInfo(dir).fileName() + QLatin1Char('.')).isEmpty());
}

QProcessEnvironment TestHubPull::cliEnv(const QStringList &extra) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *v : {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_HUB_OFFLINE", "CUSTOM_CACHE_REPO", "NEURON_CC_FLAGS",
                          "NEURON_COMPILE_CACHE_URL"})
        env.remove(QString::fromLatin1(v));
    env.insert(QStringLiteral("HF_ENDPOINT"), m_hub.url());
    env.insert(QStringLiteral("HF_HOME"), m_home.path() + QStringLiteral("/hf"));
    env.insert(QStringLiteral("INGOT_KEYCHAIN"), QStringLiteral("none"));
    for (const QString &e : extra)
        env.insert(e.section(QLatin1Char('='), 0, 0), e.section(QLatin1Char('='), 1));
    return env;
}

int TestHubPull::cli(const QStringList &args, QByteArray *out, const QStringList &env)
{
    QProcess p;
    p.setProcessEnvironment(cliEnv(env));
    p.start(QStringLiteral(INGOT_CLI_PATH), QStringList{QStringLiteral("cache"), QStringLiteral("pull")} + args);
    if (!p.waitForFinished(120000))
        return -1;
    if (out)
        *out = p.readAllStandardOutput();
    const QByteArray e = p.readAllStandardError();
    if (!e.isEmpty())
        qInfo("ingot-cli stderr: %s", e.constData());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

void TestHubPull::stagingCommitMakesTheEntryAppearWhole()
{
    QTemporaryDir dir;
    QString error;
    IncomingEntry in;
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &in, &error), IncomingEntry::Status::Ready);
    QVERIFY(QFileInfo(in.stagingPath()).isDir());
    QVERIFY(QFileInfo(in.stagingPath()).fileName().startsWith(QStringLiteral(".ingot-incoming-MODULE_1234+abcd.")));
    test::writeFile(in.stagingPath() + QStringLiteral("/model.neff"), "neff");
    test::writeFile(in.stagingPath() + QStringLiteral("/stale.part"), "x");
    QVERIFY(!QFileInfo::exists(dir.path() + QLatin1Char('/') + kKey));
    QVERIFY(in.prune({QStringLiteral("model.neff")}, &error));
    QCOMPARE(in.commit(&error), IncomingEntry::Status::Ready);
    QVERIFY(!in.isOpen());
    const QString entry = dir.path() + QLatin1Char('/') + kKey;
    QCOMPARE(test::readFile(entry + QStringLiteral("/model.neff")), QByteArray("neff"));
    QCOMPARE(QDir(entry).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("model.neff")});
    QVERIFY(stagingNames(QFileInfo(entry).path()).isEmpty());
    QCOMPARE(QFileInfo(entry).permissions() & QFile::ReadOther, QFile::ReadOther);
}

void TestHubPull::stagingIsAdoptedAfterAnInterruption()
{
    QTemporaryDir dir;
    QString error, first;
    {
        IncomingEntry in;
        QCOMPARE(IncomingEntry::open(dir.path(), kKey, &in, &error), IncomingEntry::Status::Ready);
        first = in.stagingPath();
        test::writeFile(first + QStringLiteral("/model.neff.part"), "half");
        in.close();  // as a killed process leaves it
    }
    IncomingEntry again;
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &again, &error), IncomingEntry::Status::Ready);
    QCOMPARE(again.stagingPath(), first);
    QCOMPARE(test::readFile(first + QStringLiteral("/model.neff.part")), QByteArray("half"));
    again.abandon();
    QVERIFY(!QFileInfo::exists(first));
    QVERIFY(!QFileInfo::exists(dir.path() + QLatin1Char('/') + kKey));
}

// A transfer reads each version folder once for staging folders (StagingLeftovers), not once per entry: what was
// there then is adopted, what it leaves open is adopted again by its own next open(), and a staging another process
// starts afterwards is not seen: both write, the second commit finds the entry (Exists) and nothing is overwritten.
void TestHubPull::stagingLeftoversListedOncePerTransfer()
{
    QTemporaryDir dir;
    QString error, leftover;
    const QString other = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_5678+abcd");
    {
        IncomingEntry in;
        QCOMPARE(IncomingEntry::open(dir.path(), kKey, &in, &error), IncomingEntry::Status::Ready);
        leftover = in.stagingPath();
        test::writeFile(leftover + QStringLiteral("/model.neff.part"), "half");
        in.close();
    }
    StagingLeftovers listing;
    IncomingEntry first;
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &first, &error, &listing), IncomingEntry::Status::Ready);
    QCOMPARE(first.stagingPath(), leftover);  // there when the folder was read: adopted
    first.close();
    IncomingEntry again;
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &again, &error, &listing), IncomingEntry::Status::Ready);
    QCOMPARE(again.stagingPath(), leftover);  // left by this transfer: adopted again, the half file kept
    QCOMPARE(test::readFile(leftover + QStringLiteral("/model.neff.part")), QByteArray("half"));
    QCOMPARE(again.commit(&error), IncomingEntry::Status::Ready);
    // Another process's staging, started after the listing, is not seen: two stagings, one entry.
    IncomingEntry theirs, ours;
    QCOMPARE(IncomingEntry::open(dir.path(), other, &theirs, &error), IncomingEntry::Status::Ready);
    test::writeFile(theirs.stagingPath() + QStringLiteral("/model.neff"), "theirs");
    QCOMPARE(IncomingEntry::open(dir.path(), other, &ours, &error, &listing), IncomingEntry::Status::Ready);
    QVERIFY(ours.stagingPath() != theirs.stagingPath());
    test::writeFile(ours.stagingPath() + QStringLiteral("/model.neff"), "ours");
    QCOMPARE(theirs.commit(&error), IncomingEntry::Status::Ready);
    QCOMPARE(ours.commit(&error), IncomingEntry::Status::Exists);
    QCOMPARE(test::readFile(dir.path() + QLatin1Char('/') + other + QStringLiteral("/model.neff")), QByteArray("theirs"));
    QVERIFY(stagingNames(dir.path() + QStringLiteral("/neuronxcc-2.15.128.0+56dc5a86")).isEmpty());
    // Without the listing, the same race is seen as it happens: Busy.
    IncomingEntry held, late;
    const QString third = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_9999+abcd");
    QCOMPARE(IncomingEntry::open(dir.path(), third, &held, &error), IncomingEntry::Status::Ready);
    QCOMPARE(IncomingEntry::open(dir.path(), third, &late, &error), IncomingEntry::Status::Busy);
}

void TestHubPull::stagingBusyWhileAnotherHoldsIt()
{
    QTemporaryDir dir;
    QString error;
    IncomingEntry a, b;
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &a, &error), IncomingEntry::Status::Ready);
    test::writeFile(a.stagingPath() + QStringLiteral("/model.neff.part"), "mine");
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &b, &error), IncomingEntry::Status::Busy);
    QVERIFY2(error.contains(QStringLiteral("Another transfer")), qPrintable(error));
    QVERIFY(!b.isOpen());
    QCOMPARE(stagingNames(QFileInfo(a.stagingPath()).path()).size(), 1);
    QCOMPARE(test::readFile(a.stagingPath() + QStringLiteral("/model.neff.part")), QByteArray("mine"));
    // Another process holding it (a child with its own lock on the folder) is Busy too.
    const QString path = a.stagingPath();
    a.close();
    int ready[2];
    QCOMPARE(::pipe(ready), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(ready[0]);
        const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_DIRECTORY);
        const char held = (fd >= 0 && ::flock(fd, LOCK_EX) == 0) ? '1' : '0';
        (void)!::write(ready[1], &held, 1);  // the lock is held from here on
        ::sleep(30);
        ::_exit(0);
    }
    ::close(ready[1]);
    char held = 0;
    QCOMPARE(::read(ready[0], &held, 1), ssize_t(1));  // waits for the child's lock, however loaded the machine
    ::close(ready[0]);
    QCOMPARE(held, '1');
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &b, &error), IncomingEntry::Status::Busy);
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &b, &error), IncomingEntry::Status::Ready);
    QCOMPARE(b.stagingPath(), path);
}

void TestHubPull::stagingNeverOverwritesAnEntry()
{
    QTemporaryDir dir;
    QString error;
    const QString entry = dir.path() + QLatin1Char('/') + kKey;
    IncomingEntry in;
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &in, &error), IncomingEntry::Status::Ready);
    test::writeFile(in.stagingPath() + QStringLiteral("/model.neff"), "theirs");
    const QString staging = in.stagingPath();
    // Someone (a compiler) makes the entry meanwhile: the commit leaves it alone.
    QVERIFY(QDir().mkpath(entry));
    test::writeFile(entry + QStringLiteral("/model.neff"), "compiler");
    QCOMPARE(in.commit(&error), IncomingEntry::Status::Exists);
    QCOMPARE(test::readFile(entry + QStringLiteral("/model.neff")), QByteArray("compiler"));
    QVERIFY(!QFileInfo::exists(staging));
    // An existing entry, even a dangling link, is Exists at open.
    QVERIFY(QDir(entry).removeRecursively());
    QVERIFY(QFile::link(QStringLiteral("/nonexistent/target"), entry));
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &in, &error), IncomingEntry::Status::Exists);
    QVERIFY(QFileInfo(entry).isSymLink());
    QVERIFY(stagingNames(QFileInfo(entry).path()).isEmpty());
}

void TestHubPull::stagingRefusesALinkedVersionFolder()
{
    QTemporaryDir dir, elsewhere;
    QString error;
    QVERIFY(QFile::link(elsewhere.path(), dir.path() + QStringLiteral("/neuronxcc-2.15.128.0+56dc5a86")));
    IncomingEntry in;
    QCOMPARE(IncomingEntry::open(dir.path(), kKey, &in, &error), IncomingEntry::Status::Failed);
    QVERIFY2(error.contains(QStringLiteral("symbolic link")), qPrintable(error));
    QVERIFY(QDir(elsewhere.path()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    QCOMPARE(IncomingEntry::open(dir.path(), QStringLiteral("neuronxcc-1/../MODULE_x"), &in, &error), IncomingEntry::Status::Failed);
    QCOMPARE(IncomingEntry::open(dir.path(), QStringLiteral("neuronxcc-1/MODULE_x/y"), &in, &error), IncomingEntry::Status::Failed);
}

// Issue 21: a leftover staging is adopted only when it is a real folder of ours that nobody else may write into.
// One that others may write (or someone else's, or a link) is left alone: its files never become the entry's.
void TestHubPull::stagingOfSomeoneElseIsLeftAlone()
{
    QTemporaryDir cache, elsewhere;
    const QString key = kV1 + QStringLiteral("/MODULE_4+dddd");
    const QString version = entryPath(cache.path(), kV1);
    const QString planted = version + QStringLiteral("/.ingot-incoming-MODULE_4+dddd.aB3dE9");
    const QByteArray neff = m_files[key + QStringLiteral("/model.neff")];
    // Files of the right sizes, not the Hub's bytes: an adopted staging's complete files count as pulled.
    test::writeFile(planted + QStringLiteral("/model.neff"), QByteArray(neff.size(), 'E'));
    test::writeFile(planted + QStringLiteral("/compile_flags.json"), QByteArray(m_files[key + QStringLiteral("/compile_flags.json")].size(), 'E'));
    QVERIFY(QFile::setPermissions(planted, QFile::Permissions(0x7777)));  // rwx for everyone
    QVERIFY(QFile::link(elsewhere.path(), version + QStringLiteral("/.ingot-incoming-MODULE_4+dddd.lInKeD")));
    QStringList leftAlone = {QStringLiteral(".ingot-incoming-MODULE_4+dddd.aB3dE9"), QStringLiteral(".ingot-incoming-MODULE_4+dddd.lInKeD")};
    if (::geteuid() == 0) {
        // Root can show the owner rule too: a folder of another user (nobody), not writable by others.
        const QString theirs = version + QStringLiteral("/.ingot-incoming-MODULE_4+dddd.nObOdY");
        test::writeFile(theirs + QStringLiteral("/model.neff"), QByteArray(neff.size(), 'N'));
        QVERIFY(QFile::setPermissions(theirs, QFile::Permissions(0x7755)));
        QCOMPARE(::chown(QFile::encodeName(theirs).constData(), 65534, 65534), 0);
        leftAlone << QStringLiteral(".ingot-incoming-MODULE_4+dddd.nObOdY");
    }
    const HubClient hub(m_hub.url(), QString());
    PullRequest req;
    req.repo = kRepo;
    req.cacheRoot = cache.path();
    QVector<TransferItem> items = itemsFor({key});
    NullTransferReporter rep;
    pullEntries(hub, req, items, rep);
    QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
    for (const QString &f : {QStringLiteral("model.neff"), QStringLiteral("compile_flags.json"), QStringLiteral("model.done")})
        QVERIFY2(test::readFile(entryPath(cache.path(), key) + QLatin1Char('/') + f) == m_files[key + QLatin1Char('/') + f], qPrintable(f));
    QCOMPARE(QFileInfo(entryPath(cache.path(), key)).ownerId(), uint(::geteuid()));
    leftAlone.sort();
    QCOMPARE(stagingNames(version), leftAlone);
    QCOMPARE(test::readFile(planted + QStringLiteral("/model.neff")), QByteArray(neff.size(), 'E'));
    QVERIFY(QDir(elsewhere.path()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
}

void TestHubPull::resumeDownloadContinuesAPart()
{
    const HubClient hub(m_hub.url(), QString());
    QTemporaryDir dir;
    const QString path = kV1 + QStringLiteral("/MODULE_1+aaaa/model.neff");  // LFS: through the CDN
    const QByteArray want = m_files[path];
    const QString wantSha = QString::fromLatin1(QCryptographicHash::hash(want, QCryptographicHash::Sha256).toHex());
    const QString part = dir.path() + QStringLiteral("/part");
    auto run = [&](const QByteArray &already, qint64 expected, HubClient::ResumeResult *r) {
        test::writeFile(part, already);
        const int fd = ::open(QFile::encodeName(part).constData(), O_RDWR);
        HubError err;
        *r = hub.resumeDownload(kRepo, QStringLiteral("main"), path, fd, expected, HubClient::Digest::Sha256, &err);
        ::close(fd);
        if (!err.ok())
            qWarning("%s", qPrintable(err.message));
        return err;
    };
    m_hub.clearLog();
    HubClient::ResumeResult r;
    QVERIFY(run(want.left(1000), want.size(), &r).ok());
    QCOMPARE(r.resumedFrom, 1000);
    QCOMPARE(r.digest, wantSha);
    QCOMPARE(test::readFile(part), want);
    const nlohmann::json log = m_hub.requestLog();
    bool ranged = false;
    for (const auto &e : log)
        ranged = ranged || (e["range"].is_string() && e["range"] == "bytes=1000-");
    QVERIFY2(ranged, log.dump().c_str());
    // A part longer than the file is no prefix of it: started over. A part of the full size asks nothing.
    QVERIFY(run(want + "tail", want.size(), &r).ok());
    QCOMPARE(r.resumedFrom, 0);
    QCOMPARE(test::readFile(part), want);
    m_hub.clearLog();
    QVERIFY(run(want, want.size(), &r).ok());
    QCOMPARE(r.digest, wantSha);
    QCOMPARE(int(m_hub.requestLog().size()), 0);
    // A regular file, by its git blob id.
    const QString small = kV1 + QStringLiteral("/MODULE_1+aaaa/model.hlo_module.pb");
    test::writeFile(part, m_files[small].left(10));
    const int fd = ::open(QFile::encodeName(part).constData(), O_RDWR);
    HubError err;
    r = hub.resumeDownload(kRepo, QStringLiteral("main"), small, fd, m_files[small].size(), HubClient::Digest::GitBlobSha1, &err);
    ::close(fd);
    QVERIFY2(err.ok(), qPrintable(err.message));
    QByteArray blob = QByteArray("blob ") + QByteArray::number(m_files[small].size());
    blob.append('\0');
    QCOMPARE(r.digest, QString::fromLatin1(QCryptographicHash::hash(QByteArray(blob + m_files[small]), QCryptographicHash::Sha1).toHex()));
    QCOMPARE(r.resumedFrom, 10);
}

void TestHubPull::pullsSelectedEntriesByteForByte()
{
    const HubClient hub(m_hub.url(), QStringLiteral("hf_alice_write"));
    QTemporaryDir cache;
    PullRequest req;
    req.repo = kRepo;
    req.cacheRoot = cache.path();
    const QStringList keys = {kV1 + QStringLiteral("/MODULE_1+aaaa"), kV2 + QStringLiteral("/MODULE_6+ffff")};
    QVector<TransferItem> items = itemsFor(keys);
    Recorder rec;
    m_hub.clearLog();
    const PullOutcome o = pullEntries(hub, req, items, rec);
    QVERIFY2(o.error.ok(), qPrintable(o.error.message));
    for (int i = 0; i < items.size(); ++i) {
        QVERIFY2(items[i].state == TransferItem::State::Done, qPrintable(items[i].message));
        QCOMPARE(items[i].files, 4);
        QCOMPARE(items[i].bytesDone, items[i].bytesTotal);
        QVERIFY(items[i].bytesTotal > 3000);
        QCOMPARE(rec.finished.value(i), TransferItem::State::Done);
        QVERIFY(rec.started.contains(i));
        QCOMPARE(rec.progress.value(i), items[i].bytesTotal);
        verifyEntry(cache.path(), keys[i]);
    }
    // The token went to the Hub, never to the CDN host the LFS files came from.
    int cdn = 0, api = 0;
    for (const auto &e : m_hub.requestLog()) {
        const bool toCdn = QString::fromStdString(e["path"]).startsWith(QStringLiteral("/cdn/"));
        cdn += toCdn;
        api += !toCdn && e["token"] == true;
        QVERIFY(!(toCdn && e["token"] == true));
    }
    QCOMPARE(cdn, 2);
    QVERIFY(api > 0);
    // Nothing else was written: two version folders with one entry each.
    QCOMPARE(allBelow(cache.path()).filter(QRegularExpression(QStringLiteral("^[^/]+/[^/]+$"))), keys);
    // The scanner sees two SUCCESS entries.
    LocalCacheStore store(cache.path());
    CacheScanner scanner(store);
    CacheSnapshot snap = scanner.scan(nullptr);
    snap.reindex();
    for (const QString &k : keys) {
        QVERIFY(snap.find(k));
        QCOMPARE(snap.find(k)->state, ModuleState::Success);
    }
}

void TestHubPull::entryKeysOfACompilerOrAll()
{
    const HubClient hub(m_hub.url(), QString());
    HubError err;
    const QStringList v1 = hubEntryKeys(hub, kRepo, QStringLiteral("main"), QStringLiteral("2.15.128.0+56dc5a86"), &err);
    QVERIFY2(err.ok(), qPrintable(err.message));
    QCOMPARE(v1.size(), 5);
    for (const QString &k : v1)
        QVERIFY(k.startsWith(kV1 + QStringLiteral("/MODULE_")));
    QCOMPARE(hubEntryKeys(hub, kRepo, QStringLiteral("main"), kV1, &err), v1);
    const QStringList all = hubEntryKeys(hub, kRepo, QStringLiteral("main"), QString(), &err);
    QCOMPARE(all.size(), 10);  // 5 + 1 + the four of kV3; no registry folder
    QVERIFY(!all.join(QLatin1Char(' ')).contains(QStringLiteral("REGISTRY")));
    hubEntryKeys(hub, kRepo, QStringLiteral("main"), QStringLiteral("9.9.9"), &err);
    QCOMPARE(err.kind, HubError::Kind::EntryNotFound);
}

void TestHubPull::cliPullsACompilerVersion()
{
    QTemporaryDir cache;
    QByteArray out;
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--compiler"),
                  QStringLiteral("2.15.128.0+56dc5a86"), QStringLiteral("--json"), QStringLiteral("--parallel"), QStringLiteral("3")},
                 &out),
             0);
    const nlohmann::json j = nlohmann::json::parse(out.constData());
    QCOMPARE(int(j["items"].size()), 5);
    QCOMPARE(j["done"].get<int>(), 5);
    for (const auto &it : j["items"]) {
        QCOMPARE(it["state"].get<std::string>(), std::string("done"));
        QCOMPARE(it["files"].get<int>(), 4);
        verifyEntry(cache.path(), QString::fromStdString(it["key"].get<std::string>()));
    }
    QCOMPARE(QDir(cache.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList{kV1});
    // Again: everything is there, so everything is skipped (exit 0), and the table says so.
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--compiler"), kV1}, &out), 0);
    QVERIFY2(out.contains("skipped") && out.contains("0 pulled"), out.constData());
}

void TestHubPull::existingEntriesAreSkippedUntouched()
{
    QTemporaryDir cache;
    const QString success = kV1 + QStringLiteral("/MODULE_1+aaaa"), locked = kV1 + QStringLiteral("/MODULE_2+bbbb");
    const QString fresh = kV1 + QStringLiteral("/MODULE_3+cccc");
    QVERIFY(QDir().mkpath(entryPath(cache.path(), success)));
    QVERIFY(QDir().mkpath(entryPath(cache.path(), locked)));
    test::writeFile(entryPath(cache.path(), success) + QStringLiteral("/model.neff"), "my own neff");
    test::writeFile(entryPath(cache.path(), success) + QStringLiteral("/model.done"), "");
    test::writeFile(entryPath(cache.path(), locked) + QStringLiteral("/model.hlo_module.pb"), "hlo");
    test::writeFile(entryPath(cache.path(), locked) + QStringLiteral("/model.hlo_module.pb.lock"), "");
    const QStringList before = allBelow(cache.path());
    QByteArray out;
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--json"),
                  success, locked, fresh}, &out), 0);
    const nlohmann::json j = nlohmann::json::parse(out.constData());
    QCOMPARE(j["items"][0]["state"].get<std::string>(), std::string("skipped"));
    QCOMPARE(j["items"][1]["state"].get<std::string>(), std::string("skipped"));
    QCOMPARE(j["items"][2]["state"].get<std::string>(), std::string("done"));
    QCOMPARE(test::readFile(entryPath(cache.path(), success) + QStringLiteral("/model.neff")), QByteArray("my own neff"));
    QCOMPARE(test::readFile(entryPath(cache.path(), locked) + QStringLiteral("/model.hlo_module.pb")), QByteArray("hlo"));
    QStringList after = allBelow(cache.path());
    for (const QString &b : before)
        QVERIFY(after.contains(b));
    QCOMPARE(allBelow(entryPath(cache.path(), success)), (QStringList{QStringLiteral("model.done"), QStringLiteral("model.neff")}));
    QCOMPARE(allBelow(entryPath(cache.path(), locked)).size(), 2);
    verifyEntry(cache.path(), fresh);
}

void TestHubPull::corruptBodiesAreRefused()
{
    const HubClient hub(m_hub.url(), QString());
    QTemporaryDir cache;
    PullRequest req;
    req.repo = kRepo;
    req.cacheRoot = cache.path();
    // An LFS file (by sha256, from the CDN) and a regular one (by git blob id) arrive with a byte flipped.
    const QString lfsKey = kV1 + QStringLiteral("/MODULE_4+dddd"), regularKey = kV1 + QStringLiteral("/MODULE_5+eeee");
    const QList<QPair<QString, QString>> cases = {{lfsKey, QStringLiteral("/cdn/")},
                                                  {regularKey, regularKey + QStringLiteral("/compile_flags.json")}};
    for (const auto &[key, where] : cases) {
        QVERIFY(m_hub.fault({{"kind", "corrupt"}, {"path", QString(where).replace(QLatin1Char('+'), QStringLiteral("%2B")).toStdString()}, {"count", 1000}}));
        QVector<TransferItem> items = itemsFor({key});
        NullTransferReporter rep;
        pullEntries(hub, req, items, rep);
        QVERIFY(m_hub.clearFaults());
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QStringLiteral("damaged")), qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(entryPath(cache.path(), key)));
        // No file keeps the bad bytes: what stays in the staging is verified, or a part that is a true prefix of
        // its file (another file of the entry stopped when this one failed; verified when it completes).
        const QStringList staging = stagingNames(cache.path() + QLatin1Char('/') + kV1).filter(QFileInfo(key).fileName());
        QCOMPARE(staging.size(), 1);
        const QString sdir = cache.path() + QLatin1Char('/') + kV1 + QLatin1Char('/') + staging.first();
        for (const QString &f : allBelow(sdir)) {
            const QByteArray data = test::readFile(sdir + QLatin1Char('/') + f);
            if (f.endsWith(QStringLiteral(".part")))
                QVERIFY2(m_files[key + QLatin1Char('/') + f.chopped(5)].startsWith(data), qPrintable(f));
            else
                QCOMPARE(data, m_files[key + QLatin1Char('/') + f]);
        }
    }
    // Without the fault, the same pull completes from what is there.
    QVector<TransferItem> items = itemsFor({lfsKey, regularKey});
    NullTransferReporter rep;
    pullEntries(hub, req, items, rep);
    for (int i = 0; i < 2; ++i) {
        QVERIFY2(items[i].state == TransferItem::State::Done, qPrintable(items[i].message));
        verifyEntry(cache.path(), items[i].key);
    }
}

void TestHubPull::hostileHubFoldersAreRefused()
{
    QTemporaryDir cache;
    QByteArray out;
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--json"),
                  QStringLiteral("--compiler"), kV3}, &out), 1);
    const nlohmann::json j = nlohmann::json::parse(out.constData());
    QCOMPARE(int(j["items"].size()), 4);
    QHash<QString, QPair<QString, QString>> got;  // module -> state, message
    for (const auto &it : j["items"])
        got[QFileInfo(QString::fromStdString(it["key"])).fileName()] = {QString::fromStdString(it["state"]),
                                                                         QString::fromStdString(it["message"])};
    QCOMPARE(got[QStringLiteral("MODULE_8+sub0")].first, QStringLiteral("failed"));
    QVERIFY(got[QStringLiteral("MODULE_8+sub0")].second.contains(QStringLiteral("sub-folder")));
    QCOMPARE(got[QStringLiteral("MODULE_9+part")].first, QStringLiteral("failed"));
    QVERIFY(got[QStringLiteral("MODULE_9+part")].second.contains(QStringLiteral("model.neff.part")));
    // A failed compile is not pulled (it would block recompiling); a lock uploaded beside a finished one stays behind.
    QCOMPARE(got[QStringLiteral("MODULE_10+fail")].first, QStringLiteral("failed"));
    QVERIFY(got[QStringLiteral("MODULE_10+fail")].second.contains(QStringLiteral("no model.neff")));
    QCOMPARE(got[QStringLiteral("MODULE_11+lock")].first, QStringLiteral("done"));
    QCOMPARE(allBelow(entryPath(cache.path(), kV3 + QStringLiteral("/MODULE_11+lock"))), QStringList{QStringLiteral("model.neff")});
    QCOMPARE(allBelow(cache.path() + QLatin1Char('/') + kV3), (QStringList{QStringLiteral("MODULE_11+lock"), QStringLiteral("MODULE_11+lock/model.neff")}));
    QVERIFY(QDir(cache.path() + QLatin1Char('/') + kV3).removeRecursively());
    // Tree entries that leave the repo ("../", "/etc/passwd") refuse the listing; nothing is written.
    QVERIFY(m_hub.fault({{"kind", "badpaths"}, {"count", 100}}));
    const int rc = cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--all")}, &out);
    QVERIFY(m_hub.clearFaults());
    QCOMPARE(rc, 6);
    QVERIFY(allBelow(cache.path()).isEmpty());
    QVERIFY(!QFileInfo::exists(QStringLiteral("/etc/escape.txt")));
}

void TestHubPull::killedPullResumesAndScansNeverSeeHalfAnEntry()
{
    QTemporaryDir cache;
    // A scan in a loop the whole time: an entry it sees is complete.
    std::atomic_bool done{false};
    std::atomic_int scans{0};
    QStringList violations;
    std::thread scanner([&] {
        LocalCacheStore store(cache.path());
        CacheScanner sc(store);
        while (!done.load()) {
            CacheSnapshot snap = sc.scan(nullptr);
            ++scans;
            for (const CacheModule &m : snap.modules) {
                if (!m.name.startsWith(QStringLiteral("MODULE_")))
                    continue;
                qint64 neff = -1;
                for (const CacheFile &f : m.files)
                    if (f.name == QStringLiteral("model.neff"))
                        neff = f.size;
                if (m.state != ModuleState::Success || neff != kBigSize || m.files.size() != 2)
                    violations << m.key();
            }
        }
    });
    // A failed check returns early: the scanner stops and is joined whatever happens.
    struct Joiner {
        std::atomic_bool &done;
        std::thread &t;
        ~Joiner()
        {
            done = true;
            if (t.joinable())
                t.join();
        }
    } joiner{done, scanner};
    QProcess p;
    p.setProcessEnvironment(cliEnv({}));
    p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("pull"), QStringLiteral("--repo_id"), kBigRepo,
                                             QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--parallel"),
                                             QStringLiteral("1"), kBigKey});
    QVERIFY(p.waitForStarted());
    const QString versionDir = cache.path() + QLatin1Char('/') + kV2;
    qint64 killedAt = -1;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && p.state() == QProcess::Running) {
        const QStringList st = stagingNames(versionDir);
        if (!st.isEmpty()) {
            const qint64 size = QFileInfo(versionDir + QLatin1Char('/') + st.first() + QStringLiteral("/model.neff.part")).size();
            if (size > 0 && size < kBigSize) {
                ::kill(pid_t(p.processId()), SIGKILL);
                killedAt = size;
                break;
            }
        }
        QThread::usleep(500);
    }
    p.waitForFinished();
    QVERIFY2(killedAt > 0, "the pull finished before it could be killed");
    QVERIFY(!QFileInfo::exists(entryPath(cache.path(), kBigKey)));
    m_hub.clearLog();
    QCOMPARE(cli({QStringLiteral("--repo_id"), kBigRepo, QStringLiteral("--cache-dir"), cache.path(), kBigKey}), 0);
    done = true;
    scanner.join();
    QVERIFY2(violations.isEmpty(), qPrintable(violations.join(QLatin1Char(' '))));
    QVERIFY(scans.load() > 0);
    verifyEntry(cache.path(), kBigKey);
    bool ranged = false;
    for (const auto &e : m_hub.requestLog())
        if (e["range"].is_string()) {
            const QString r = QString::fromStdString(e["range"].get<std::string>());
            ranged = ranged || (r.startsWith(QStringLiteral("bytes=")) && r.mid(6).section(QLatin1Char('-'), 0, 0).toLongLong() >= killedAt);
        }
    QVERIFY2(ranged, m_hub.requestLog().dump().c_str());
}

void TestHubPull::stopLeavesItResumable()
{
    const HubClient hub(m_hub.url(), QString());
    QTemporaryDir cache;
    PullRequest req;
    req.repo = kBigRepo;
    req.cacheRoot = cache.path();
    QVector<TransferItem> items = itemsFor({kBigKey});
    Recorder rec;
    std::atomic_bool stop{false};
    std::thread puller([&] { pullEntries(hub, req, items, rec, &stop); });
    QElapsedTimer t;
    t.start();
    for (bool moving = false; !moving && t.elapsed() < 30000; QThread::usleep(200)) {
        std::lock_guard l(rec.m);
        moving = rec.progress.value(0) > 0;
    }
    stop = true;
    puller.join();
    QCOMPARE(items[0].state, TransferItem::State::Pending);  // not failed: it waits for the next run
    QVERIFY(!rec.finished.contains(0));
    QVERIFY(!QFileInfo::exists(entryPath(cache.path(), kBigKey)));
    const QStringList staging = stagingNames(cache.path() + QLatin1Char('/') + kV2);
    QCOMPARE(staging.size(), 1);
    const qint64 kept = QFileInfo(cache.path() + QLatin1Char('/') + kV2 + QLatin1Char('/') + staging.first() +
                                  QStringLiteral("/model.neff.part")).size();
    QVERIFY2(kept > 0 && kept < kBigSize, qPrintable(QString::number(kept)));
    // The next run takes it from there.
    stop = false;
    pullEntries(hub, req, items, rec, &stop);
    QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
    verifyEntry(cache.path(), kBigKey);
}

void TestHubPull::offlineMakesNoRequest()
{
    QTemporaryDir cache;
    m_hub.clearLog();
    QByteArray out;
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--all")}, &out,
                 {QStringLiteral("HF_HUB_OFFLINE=1")}), 8);
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--json"),
                  kV1 + QStringLiteral("/MODULE_1+aaaa")}, &out, {QStringLiteral("HF_HUB_OFFLINE=1")}), 8);
    QVERIFY(out.contains("HF_HUB_OFFLINE"));
    QCOMPARE(int(m_hub.requestLog().size()), 0);
    // The engine alone: every item Failed with the reason, no request.
    const HubClient hub(m_hub.url(), QString(), true);
    PullRequest req;
    req.repo = kRepo;
    req.cacheRoot = cache.path();
    QVector<TransferItem> items = itemsFor({kV1 + QStringLiteral("/MODULE_1+aaaa")});
    NullTransferReporter rep;
    const PullOutcome o = pullEntries(hub, req, items, rep);
    QCOMPARE(o.error.kind, HubError::Kind::Offline);
    QCOMPARE(items[0].state, TransferItem::State::Failed);
    QVERIFY(items[0].message.contains(QStringLiteral("HF_HUB_OFFLINE")));
    QCOMPARE(int(m_hub.requestLog().size()), 0);
    QVERIFY(allBelow(cache.path()).isEmpty());
}

void TestHubPull::hubCacheLayoutLinksBlobs()
{
    QTemporaryDir cache, hf;
    const HubClient hub(m_hub.url(), QString());
    PullRequest req;
    req.repo = kRepo;
    req.cacheRoot = cache.path();
    req.hfHome = hf.path();
    req.options.hubCacheLayout = true;
    const QString one = kV1 + QStringLiteral("/MODULE_1+aaaa"), two = kV1 + QStringLiteral("/MODULE_2+bbbb");
    QVector<TransferItem> items = itemsFor({one});
    NullTransferReporter rep;
    pullEntries(hub, req, items, rep);
    QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
    const QString blobs = hf.path() + QStringLiteral("/hub/models--neuronorg--cache/blobs/");
    for (const QString &f : allBelow(entryPath(cache.path(), one))) {
        const QFileInfo fi(entryPath(cache.path(), one) + QLatin1Char('/') + f);
        QVERIFY2(fi.isSymLink(), qPrintable(f));
        QVERIFY2(fi.canonicalFilePath().startsWith(QFileInfo(blobs).canonicalFilePath()), qPrintable(fi.canonicalFilePath()));
        QCOMPARE(test::readFile(fi.filePath()), m_files[one + QLatin1Char('/') + f]);
    }
    const QByteArray neff = m_files[one + QStringLiteral("/model.neff")];
    QVERIFY(QFileInfo::exists(blobs + QString::fromLatin1(QCryptographicHash::hash(neff, QCryptographicHash::Sha256).toHex())));
    QVERIFY(QFileInfo(hf.path() + QStringLiteral("/hub/models--neuronorg--cache/refs/main")).size() == 40);
    LocalCacheStore store(cache.path());
    CacheScanner scanner(store);
    CacheSnapshot snap = scanner.scan(nullptr);
    snap.reindex();
    QVERIFY(snap.find(one));
    QCOMPARE(snap.find(one)->state, ModuleState::Success);
    for (const CacheFile &f : snap.find(one)->files)
        QVERIFY2(f.flags & CacheFile::HubBlob, qPrintable(f.name));
    // A second entry shares the blobs of model.done and compile_flags.json: those are not fetched again.
    m_hub.clearLog();
    items = itemsFor({two});
    pullEntries(hub, req, items, rep);
    QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
    int fetched = 0;
    for (const auto &e : m_hub.requestLog()) {
        const QString path = QString::fromStdString(e["path"].get<std::string>());
        QVERIFY2(!path.contains(QStringLiteral("/resolve/")) || (!path.endsWith(QStringLiteral("model.done")) &&
                                                                 !path.endsWith(QStringLiteral("compile_flags.json"))),
                 qPrintable(path));
        fetched += path.contains(QStringLiteral("/resolve/"));
    }
    QCOMPARE(fetched, 2);  // model.neff and model.hlo_module.pb
    QCOMPARE(test::readFile(entryPath(cache.path(), two) + QStringLiteral("/model.neff")), m_files[two + QStringLiteral("/model.neff")]);
    QVERIFY(QDir(blobs).entryList(QDir::Files).filter(QStringLiteral(".incomplete")).isEmpty());
}

// Issue 21 #5: with the Hugging Face cache layout the blobs are named by the Hub's oids; a hostile Hub's oids of
// the right length ("../../../../xxx") would create or truncate files outside HF_HOME. Only lowercase hex passes.
void TestHubPull::hubCacheLayoutRefusesOidsThatAreNotHex()
{
    QTemporaryDir cache, around;
    const QString hfHome = around.path() + QStringLiteral("/hf");
    const HubClient hub(m_hub.url(), QString());
    PullRequest req;
    req.repo = kRepo;
    req.cacheRoot = cache.path();
    req.hfHome = hfHome;
    req.options.hubCacheLayout = true;
    const QString key = kV1 + QStringLiteral("/MODULE_3+cccc");
    for (const nlohmann::json &bad : {nlohmann::json::object(), nlohmann::json{{"oid", std::string(40, 'A')}, {"lfsoid", std::string(64, 'F')}}}) {
        nlohmann::json f = {{"kind", "badoids"}, {"count", 1000}, {"path", "/tree/"}};
        f.update(bad);
        QVERIFY(m_hub.fault(f));
        QVector<TransferItem> items = itemsFor({key});
        NullTransferReporter rep;
        pullEntries(hub, req, items, rep);
        QVERIFY(m_hub.clearFaults());
        // Nothing beside HF_HOME, and no blob in it.
        QCOMPARE(QDir(around.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
                 QStringList{QStringLiteral("hf")});
        QCOMPARE(allBelow(hfHome + QStringLiteral("/hub/models--neuronorg--cache/blobs")), QStringList());
        QCOMPARE(allBelow(hfHome).filter(QStringLiteral("xxxx")), QStringList());
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QStringLiteral("checksum")), qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(entryPath(cache.path(), key)));
    }
}

void TestHubPull::busyEntryFailsWithExit12()
{
    QTemporaryDir cache;
    const QString key = kV1 + QStringLiteral("/MODULE_3+cccc");
    IncomingEntry holder;
    QString error;
    QCOMPARE(IncomingEntry::open(cache.path(), key, &holder, &error), IncomingEntry::Status::Ready);
    test::writeFile(holder.stagingPath() + QStringLiteral("/model.neff.part"), "someone else's");
    QByteArray out;
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), QStringLiteral("--json"), key}, &out), 12);
    const nlohmann::json j = nlohmann::json::parse(out.constData());
    QCOMPARE(j["items"][0]["state"].get<std::string>(), std::string("failed"));
    QVERIFY(QString::fromStdString(j["items"][0]["message"]).contains(QStringLiteral("Another transfer")));
    QCOMPARE(test::readFile(holder.stagingPath() + QStringLiteral("/model.neff.part")), QByteArray("someone else's"));
    QVERIFY(!QFileInfo::exists(entryPath(cache.path(), key)));
    // A busy entry among good ones: the others are pulled, the exit is still 12; a failure besides makes it 1.
    const QString other = kV1 + QStringLiteral("/MODULE_5+eeee");
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), key, other}, &out), 12);
    verifyEntry(cache.path(), other);
    QCOMPARE(cli({QStringLiteral("--repo_id"), kRepo, QStringLiteral("--cache-dir"), cache.path(), key,
                  kV1 + QStringLiteral("/MODULE_404+none")}, &out), 1);
    QVERIFY2(out.contains("Not on the Hub"), out.constData());
    holder.abandon();
}

void TestHubPull::cliUsageAndDestinationErrors()
{
    QTemporaryDir cache;
    const QString repo = QStringLiteral("--repo_id");
    const QString dirOpt = QStringLiteral("--cache-dir");
    m_hub.clearLog();
    QCOMPARE(cli({repo, kRepo, dirOpt, cache.path()}), 2);
    QCOMPARE(cli({repo, kRepo, dirOpt, cache.path(), QStringLiteral("--all"), kV1 + QStringLiteral("/MODULE_1+aaaa")}), 2);
    QCOMPARE(cli({repo, kRepo, dirOpt, cache.path(), QStringLiteral("../../etc")}), 2);
    QCOMPARE(cli({repo, kRepo, dirOpt, cache.path(), QStringLiteral("--parallel"), QStringLiteral("0"), QStringLiteral("--all")}), 2);
    QCOMPARE(cli({repo, kRepo, dirOpt, cache.path(), QStringLiteral("--host"), QStringLiteral("trn1.invalid"), QStringLiteral("--all")}), 10);  // unreachable; real hosts: tst_hosthub
    test::writeFile(cache.path() + QStringLiteral("/a-file"), "x");
    QCOMPARE(cli({repo, kRepo, dirOpt, cache.path() + QStringLiteral("/a-file"), QStringLiteral("--all")}), 3);
    QCOMPARE(int(m_hub.requestLog().size()), 0);
    QCOMPARE(cli({repo, QStringLiteral("neuronorg/missing"), dirOpt, cache.path(), QStringLiteral("--all")}), 7);
}

QTEST_GUILESS_MAIN(TestHubPull)
#include "tst_hubpull.moc"
