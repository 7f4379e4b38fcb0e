// The TorchNeuron / vLLM-Neuron compile cache, from fixture caches in the documented layout (aws-neuron-sdk,
// vllm-neuron compilation_cache.md; not a running TorchNeuron): where the tiers are, each key's state (a lock held
// by a real flock, a stale one, a missing marker), the previewed maintenance with its re-check, the same cache in
// the test S3 server (a fake for S3, checked with boto3), and ingot-cli.
#include "services/cache/torchneuron.h"
#include "services/s3/s3cachestore.h"
#include "services/stores/localcachestore.h"

#include "tests/s3/pythonserver.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

using namespace ingot;
using State = TorchNeuronEntry::State;

namespace {
const QString Done = QStringLiteral("0123456789abcdef0123456789abcdef");
const QString Odd = QStringLiteral("11111111111111111111111111111111");
const QString Busy = QStringLiteral("22222222222222222222222222222222");
const QString BusyInside = QStringLiteral("33333333333333333333333333333333");
const QString Stale = QStringLiteral("44444444444444444444444444444444");
const QString Broken = QStringLiteral("55555555555555555555555555555555");
const QString LockOnly = QStringLiteral("66666666666666666666666666666666");
const QString Old = QStringLiteral("77777777777777777777777777777777");

void complete(const QString &root, const QString &key, qint64 neff, qint64 markerNeff)
{
    test::writeFile(root + QLatin1Char('/') + key + QStringLiteral("/graph.hlo"), "hlo module");
    test::writeFile(root + QLatin1Char('/') + key + QStringLiteral("/graph_") + key + QStringLiteral(".neff"), QByteArray(neff, 'n'));
    test::writeFile(root + QLatin1Char('/') + key + QStringLiteral("/command.txt"), "neuronx-cc compile graph.hlo --framework XLA --target trn2");
    test::writeFile(root + QLatin1Char('/') + key + QStringLiteral("/.compilation_complete"),
                    "completed:1764000000.5\nneff_size:" + QByteArray::number(markerNeff) + '\n');
}

// The fixture: every state once, and a folder that is not a key.
QString fixture(const QTemporaryDir &tmp)
{
    const QString root = tmp.path() + QStringLiteral("/compile_cache");
    complete(root, Done, 1000, 1000);
    complete(root, Odd, 1000, 2048);
    complete(root, Old, 500, 500);
    test::writeFile(root + QLatin1Char('/') + Busy + QStringLiteral("/graph.hlo"), "hlo");
    test::writeFile(root + QLatin1Char('/') + Busy + QStringLiteral(".lock"), "");
    test::writeFile(root + QLatin1Char('/') + BusyInside + QStringLiteral("/graph.hlo"), "hlo");
    test::writeFile(root + QLatin1Char('/') + BusyInside + QStringLiteral("/compile.lock"), "");
    test::writeFile(root + QLatin1Char('/') + Stale + QStringLiteral("/graph.hlo"), "hlo");
    test::writeFile(root + QLatin1Char('/') + Stale + QStringLiteral(".lock"), "");
    test::writeFile(root + QLatin1Char('/') + Broken + QStringLiteral("/graph.hlo"), "hlo");
    test::writeFile(root + QLatin1Char('/') + LockOnly + QStringLiteral(".lock"), "");
    test::writeFile(root + QStringLiteral("/not-a-key/readme.txt"), "x");
    // Old: unused for 40 days.
    const QString old = root + QLatin1Char('/') + Old;
    const struct timespec t[2] = {{time(nullptr) - 40 * 86400, 0}, {time(nullptr) - 40 * 86400, 0}};
    for (const QString &f : QDir(old).entryList(QDir::Files | QDir::Hidden))
        ::utimensat(AT_FDCWD, QFile::encodeName(old + QLatin1Char('/') + f).constData(), t, 0);
    ::utimensat(AT_FDCWD, QFile::encodeName(old).constData(), t, 0);
    return root;
}

// A process holding an exclusive flock on a file, as a compiling process holds its key's lock.
class Holder
{
public:
    explicit Holder(const QString &path)
    {
        m_fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CLOEXEC);
        if (m_fd >= 0)
            ::flock(m_fd, LOCK_EX);
    }
    ~Holder() { ::close(m_fd); }
    bool ok() const { return m_fd >= 0; }

private:
    int m_fd = -1;
};

const TorchNeuronEntry *find(const TorchNeuronSnapshot &s, const QString &key)
{
    for (const TorchNeuronEntry &e : s.entries)
        if (e.key == key)
            return &e;
    return nullptr;
}
}  // namespace

class TestTorchNeuron : public QObject
{
    Q_OBJECT

private slots:
    void locationsAsDocumented()
    {
        TorchNeuronLocations t = resolveTorchNeuronLocations({}, QStringLiteral("/home/ann"), QStringLiteral("ann"), false);
        QCOMPARE(t.local, QStringLiteral("/home/ann/.cache/vllm/neuron/compile_cache"));
        QVERIFY(t.remote.isEmpty());
        QVERIFY(!t.disabled);
        QCOMPARE(t.waitSeconds, 600);
        t = resolveTorchNeuronLocations({}, QStringLiteral("/home/ann"), QStringLiteral("ann"), true);
        QCOMPARE(t.local, QStringLiteral("/tmp/vllm_neuron_wdir_ann/neuron/compile_cache"));
        t = resolveTorchNeuronLocations({{QStringLiteral("VLLM_CACHE_ROOT"), QStringLiteral("/data/c/")},
                                         {QStringLiteral("NEURON_LIBTORCH_REMOTE_CACHE"), QStringLiteral("/mnt/fsx/neuron-cache")},
                                         {QStringLiteral("NEURON_LIBTORCH_DISABLE_COMPILE_CACHE"), QStringLiteral("1")},
                                         {QStringLiteral("NEURON_LIBTORCH_COMPILATION_TIMEOUT"), QStringLiteral("1200")}},
                                        QStringLiteral("/home/ann"), QStringLiteral("ann"), true);
        // VLLM_CACHE_ROOT wins over the NFS fallback.
        QCOMPARE(t.local, QStringLiteral("/data/c/neuron/compile_cache"));
        QVERIFY(t.localWhy.contains(QLatin1String("VLLM_CACHE_ROOT")));
        QCOMPARE(t.remote, QStringLiteral("/mnt/fsx/neuron-cache"));
        QVERIFY(t.disabled);
        QCOMPARE(t.waitSeconds, 1200);
        QVERIFY(isTorchNeuronKey(Done));
        QVERIFY(!isTorchNeuronKey(QStringLiteral("neuronxcc-2.15.128.0+56dc5a86")));
        QVERIFY(!isTorchNeuronKey(Done.left(31) + QLatin1Char('g')));
    }

    void statesFromAFixture()
    {
        QTemporaryDir tmp;
        const QString root = fixture(tmp);
        Holder a(root + QLatin1Char('/') + Busy + QStringLiteral(".lock"));
        Holder b(root + QLatin1Char('/') + BusyInside + QStringLiteral("/compile.lock"));
        QVERIFY(a.ok() && b.ok());
        LocalCacheStore store(root);
        const TorchNeuronSnapshot s = scanTorchNeuronCache(store);
        QVERIFY2(s.fatalError.isEmpty(), qPrintable(s.fatalError));
        QCOMPARE(s.entries.size(), 8);
        QCOMPARE(find(s, Done)->state, State::Complete);
        QCOMPARE(find(s, Done)->neffBytes, 1000);
        QVERIFY(!find(s, Done)->neffMismatch);
        QCOMPARE(find(s, Done)->files, 4);
        QVERIFY(find(s, Odd)->neffMismatch);
        QCOMPARE(find(s, Busy)->state, State::Compiling);
        QCOMPARE(find(s, BusyInside)->state, State::Compiling);
        QCOMPARE(find(s, Stale)->state, State::StaleLock);
        QCOMPARE(find(s, Broken)->state, State::Incomplete);
        QCOMPARE(find(s, LockOnly)->state, State::StaleLock);
        QVERIFY(!find(s, LockOnly)->folder);
        QCOMPARE(s.otherItems, QStringList{QStringLiteral("not-a-key")});
        QVERIFY(find(s, Old)->lastUsedMs < QDateTime::currentMSecsSinceEpoch() - 39LL * 86400 * 1000);
    }

    // Each action's preview holds only what it should; a lock taken after the preview keeps its entry.
    void maintenancePreviewsAndRechecks()
    {
        QTemporaryDir tmp;
        const QString root = fixture(tmp);
        auto holder = std::make_unique<Holder>(root + QLatin1Char('/') + Busy + QStringLiteral(".lock"));
        LocalCacheStore store(root);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        TorchNeuronSnapshot s = scanTorchNeuronCache(store);
        QVector<TorchNeuronStep> plan = planTorchNeuron(s, TorchNeuronAction::CleanIncomplete, 0, now);
        QCOMPARE(plan.size(), 1);
        QCOMPARE(plan[0].rel, Broken);
        plan = planTorchNeuron(s, TorchNeuronAction::ClearLocks, 0, now);
        QCOMPARE(plan.size(), 3);  // not the held one of Busy
        QCOMPARE(plan[0].rel, BusyInside + QStringLiteral("/compile.lock"));
        QCOMPARE(plan[1].rel, Stale + QStringLiteral(".lock"));
        QCOMPARE(plan[2].rel, LockOnly + QStringLiteral(".lock"));
        // Someone takes the stale lock between the preview and the run: it stays.
        Holder late(root + QLatin1Char('/') + Stale + QStringLiteral(".lock"));
        TorchNeuronReport r = executeTorchNeuron(store, plan, TorchNeuronAction::ClearLocks, 0, now);
        QCOMPARE(r.done, 2);
        QCOMPARE(r.skipped, 1);
        QVERIFY(QFile::exists(root + QLatin1Char('/') + Stale + QStringLiteral(".lock")));
        QVERIFY(!QFile::exists(root + QLatin1Char('/') + LockOnly + QStringLiteral(".lock")));
        QVERIFY(QFile::exists(root + QLatin1Char('/') + Busy + QStringLiteral(".lock")));

        s = scanTorchNeuronCache(store);  // BusyInside, its lock gone, is incomplete now
        plan = planTorchNeuron(s, TorchNeuronAction::CleanIncomplete, 0, now);
        QCOMPARE(plan.size(), 2);
        r = executeTorchNeuron(store, plan, TorchNeuronAction::CleanIncomplete, 0, now);
        QCOMPARE(r.done, 2);
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + Broken));
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + Busy));

        s = scanTorchNeuronCache(store);
        plan = planTorchNeuron(s, TorchNeuronAction::Prune, 30, now);
        QCOMPARE(plan.size(), 1);
        QCOMPARE(plan[0].rel, Old);
        r = executeTorchNeuron(store, plan, TorchNeuronAction::Prune, 30, now);
        QCOMPARE(r.done, 1);
        QVERIFY(r.freed > 0);
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + Old));
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + Done));
        QVERIFY(QFileInfo::exists(root + QStringLiteral("/not-a-key/readme.txt")));
    }

    // Clear locks while a compiler takes and releases its keys' locks as Python's filelock does (filelock
    // src/filelock/_unix.py, UnixFileLock: open O_RDWR|O_TRUNC, O_CREAT when the file is missing; flock
    // LOCK_EX|LOCK_NB, polled until it is had; a lock had on a file already unlinked is discarded and taken again;
    // released by LOCK_UN and close, the file left, as its older releases do: newer ones unlink it while still
    // holding it, as clear-locks now does): run again and again, it removes locks no one holds and never one that is
    // held (the holder checks, while it holds it, that its path still names the file it locked).
    void clearLocksNeverRemovesAHeldLock()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path() + QStringLiteral("/compile_cache");
        for (int k = 0; k < 8; ++k)
            test::writeFile(root + QStringLiteral("/%1/graph.hlo").arg(k, 32, 10, QLatin1Char('0')), "hlo");
        const char *holder = R"PY(
import fcntl, os, random, sys, time
root, rounds = sys.argv[1], int(sys.argv[2])
keys = sorted(k for k in os.listdir(root) if len(k) == 32)
held = lost = 0
print('ready', flush=True)
for i in range(rounds):
    path = os.path.join(root, random.choice(keys) + '.lock')
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_TRUNC | (0 if os.path.exists(path) else os.O_CREAT), 0o644)
        except FileNotFoundError:  # removed between the look and the open
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            time.sleep(0.0005)
            continue
        if os.fstat(fd).st_nlink > 0:
            break
        os.close(fd)  # it was removed before it was had: no lock, taken again
    held += 1
    time.sleep(random.uniform(0, 0.001))
    try:
        if os.stat(path).st_ino != os.fstat(fd).st_ino:
            lost += 1
    except FileNotFoundError:
        lost += 1
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    time.sleep(random.uniform(0, 0.0005))
print('held', held, 'lost', lost, flush=True)
)PY";
        QProcess child;
        child.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QString::fromLatin1(holder), root, QStringLiteral("3000")});
        QVERIFY(child.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(child.canReadLine(), 30000);
        QCOMPARE(child.readLine().trimmed(), QByteArray("ready"));
        LocalCacheStore store(root);
        int runs = 0, removed = 0;
        while (child.state() == QProcess::Running) {
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            const QVector<TorchNeuronStep> plan = planTorchNeuron(scanTorchNeuronCache(store), TorchNeuronAction::ClearLocks, 0, now);
            const TorchNeuronReport r = executeTorchNeuron(store, plan, TorchNeuronAction::ClearLocks, 0, now);
            QVERIFY2(r.errors.isEmpty(), qPrintable(r.errors.join(QLatin1Char('\n'))));
            removed += r.done;
            ++runs;
            child.waitForFinished(0);
        }
        QCOMPARE(child.exitStatus(), QProcess::NormalExit);
        QCOMPARE(child.exitCode(), 0);
        const QList<QByteArray> words = child.readAllStandardOutput().trimmed().split(' ');
        QCOMPARE(words.size(), 4);
        QCOMPARE(words[1].toInt(), 3000);
        QVERIFY2(removed > 0, qPrintable(QStringLiteral("%1 runs removed nothing").arg(runs)));
        QCOMPARE(words[3].toInt(), 0);  // no held lock was removed
    }

    // The same cache under an S3 prefix: states from the object names; no lock can be checked from here, so every
    // lock is taken as held and none is offered for removal.
    void s3Prefix()
    {
        QTemporaryDir tmp;
        const QString root = fixture(tmp);
        test::PythonServer server("tests/s3/tests3.py", {QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                         QStringLiteral("s3cr3t"), QStringLiteral("--seed"), QStringLiteral("team=") + tmp.path()});
        s3::AwsSettings a;
        a.credentials = {"AKIDINGOT", "s3cr3t", {}};
        a.endpointUrl = server.url();
        s3::S3Location where;
        QString error;
        QVERIFY(s3::S3Location::parse(QStringLiteral("s3://team/compile_cache"), &where, &error));
        s3::S3CacheStore store(a, where);
        const TorchNeuronSnapshot s = scanTorchNeuronCache(store);
        QVERIFY2(s.fatalError.isEmpty(), qPrintable(s.fatalError));
        QCOMPARE(find(s, Done)->state, State::Complete);
        QCOMPARE(find(s, Broken)->state, State::Incomplete);
        QCOMPARE(find(s, Stale)->state, State::Compiling);  // cannot be told from here
        QVERIFY(!find(s, Stale)->locksChecked);
        QVERIFY(planTorchNeuron(s, TorchNeuronAction::ClearLocks, 0, 0).isEmpty());
        QCOMPARE(planTorchNeuron(s, TorchNeuronAction::CleanIncomplete, 0, 0).size(), 1);
    }

    void cli()
    {
        QTemporaryDir tmp;
        const QString root = fixture(tmp);
        QProcess p;
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("torchneuron"), QStringLiteral("list"), QStringLiteral("--cache-dir"), root,
                                                 QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const auto j = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(j["entries"].size(), size_t(8));
        QCOMPARE(QString::fromStdString(j["entries"][0]["key"].get<std::string>()), Done);
        QCOMPARE(QString::fromStdString(j["entries"][0]["state"].get<std::string>()), QStringLiteral("COMPLETE"));
        // No terminal and no --yes: refused, nothing removed.
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("torchneuron"), QStringLiteral("clean-incomplete"),
                                                 QStringLiteral("--cache-dir"), root});
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 4);
        QVERIFY(QFileInfo::exists(root + QLatin1Char('/') + Broken));
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("torchneuron"), QStringLiteral("clean-incomplete"),
                                                 QStringLiteral("--cache-dir"), root, QStringLiteral("--yes")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(!QFileInfo::exists(root + QLatin1Char('/') + Broken));
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("torchneuron"), QStringLiteral("status"), QStringLiteral("--remote")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);  // NEURON_LIBTORCH_REMOTE_CACHE is not set here
    }
};

QTEST_GUILESS_MAIN(TestTorchNeuron)
#include "tst_torchneuron.moc"
