// Copying cache entries between local caches and a host's over a real sshd on 127.0.0.1: local -> host -> another
// local cache gives the same bytes and SUCCESS entries; interrupted copies (the stop flag, a server killed mid-way)
// leave no entry and the next copy completes; existing entries are skipped untouched; FAILED and LOCKED entries are
// refused; a sha256 mismatch keeps nothing; `ingot-cli cache copy` with --json and its exit codes 10 and 12.
#include "services/cache/cachescanner.h"
#include "services/remote/remotehosts.h"
#include "services/stores/storefactory.h"
#include "services/transfer/hostcopy.h"
#include "services/transfer/hostcopyscripts.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "services/util/shellquote.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <functional>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ingot;
using ingot::test::TestSshd;

namespace {
using test::randomBytes;

const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString BIG = V + QStringLiteral("/MODULE_1111+aaaa");
const QString SMALL = V + QStringLiteral("/MODULE_2222+bbbb");
const QString LINKED = V + QStringLiteral("/MODULE_3333+cccc");
// Names with spaces, quotes, a backslash, a newline, bytes that are not UTF-8, and one longer than tar's 100 bytes.
const QByteArray kOddName = "it's a \"quoted\" name \\ with\nnewline";
const QByteArray kBytesName = "bytes-\xff\xfe\x80.bin";
const QByteArray kLongName = QByteArray(140, 'n') + ".txt";

QString path(const QString &root, const QString &key, const QByteArray &name = {})
{
    QString p = root + QLatin1Char('/') + key;
    if (!name.isEmpty())
        p += QLatin1Char('/') + nameFromBytes(name);
    return p;
}

void writeBytes(const QString &p, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(p).path());
    test::writeFile(p, data);
}

// name -> bytes of every file below `folder` (links followed), names relative.
QMap<QByteArray, QByteArray> contents(const QString &folder)
{
    QMap<QByteArray, QByteArray> m;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        m.insert(nameToBytes(f.mid(folder.size() + 1)), test::readFile(f));
    }
    return m;
}

QStringList stagings(const QString &root)
{
    return QDir(root + QLatin1Char('/') + V)
        .entryList({QStringLiteral(".ingot-incoming-*")}, QDir::AllEntries | QDir::Hidden | QDir::System);
}

// Waits (up to 10 s) until the host has made a staging: on a loaded machine the first megabytes can sit in ssh's
// buffers before the host's shell has even started.
QStringList stagingsSoon(const QString &root)
{
    QStringList st = stagings(root);
    for (int i = 0; i < 1000 && st.isEmpty(); ++i, st = stagings(root))
        QThread::msleep(10);
    return st;
}

// Waits (the host removes a staging when its side of the stream ends, a moment after ours did).
bool noStagingsSoon(const QString &root)
{
    for (int i = 0; i < 300 && !stagings(root).isEmpty(); ++i)
        QThread::msleep(50);
    return stagings(root).isEmpty();
}

ModuleState stateOf(const StoreLocation &where, const QString &key)
{
    QString error;
    auto store = makeStore(where, &error);
    if (!store || !store->open(&error))
        return ModuleState::Unknown;
    CacheScanner scanner(*store);
    bool vanished = false;
    const CacheModule m = scanner.scanModule(key.section(QLatin1Char('/'), 0, 0), key.section(QLatin1Char('/'), 1),
                                             &vanished, &error);
    return vanished ? ModuleState::Empty : m.state;
}

class Recorder final : public TransferReporter
{
public:
    std::function<void(int, qint64)> onProgress;
    QMutex mutex;
    QVector<int> started, finished;
    qint64 maxDone = 0;
    void itemStarted(int index, qint64) override
    {
        QMutexLocker l(&mutex);
        started << index;
    }
    void itemProgress(int index, qint64 done) override
    {
        {
            QMutexLocker l(&mutex);
            maxDone = std::max(maxDone, done);
        }
        if (onProgress)
            onProgress(index, done);
    }
    void itemFinished(int index, TransferItem::State, const QString &) override
    {
        QMutexLocker l(&mutex);
        finished << index;
    }
    void note(const QString &) override {}
};

// SIGKILL to the process groups of the host scripts that `sshd`'s sessions run now (sh -c with SshShell's prelude);
// how many were killed. Only this test's server: the suite runs other servers (and this test in the sanitizer build)
// at the same time, and their scripts are not ours to kill.
// The host's side of every copy running now (their shells: sh -c with the copy scripts).
QVector<qint64> hostScripts(const test::TestSshd &sshd)
{
    QVector<qint64> pids;
    for (const qint64 pid : sshd.sessionProcesses()) {
        QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray cmd = f.readAll();
        if (cmd.startsWith(QByteArray("sh\0-c\0", 6)) && cmd.contains("printf \"%bX\""))
            pids.append(pid);
    }
    return pids;
}

// Waits until the host's side of a stopped copy has ended: its staging (if it made one yet) is gone with it. Both
// are asked together, up to 60 s (a loaded CI machine): a host's shell that starts late (its session was still being
// set up when the stop came) makes its staging after a first look saw neither. On failure, *why says what stayed.
bool hostSideEndedSoon(const test::TestSshd &sshd, const QString &root, QString *why)
{
    for (int i = 0; i < 1200; ++i) {
        if (hostScripts(sshd).isEmpty() && stagings(root).isEmpty())
            return true;
        QThread::msleep(50);
    }
    QStringList scripts;
    for (const qint64 pid : hostScripts(sshd)) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        scripts << QString::number(pid)
                       + (stat.open(QIODevice::ReadOnly) ? QStringLiteral(" (%1)").arg(QString::fromLatin1(stat.readAll().simplified().left(80)))
                                                         : QString());
    }
    *why = QStringLiteral("after 60 s: host scripts [%1], stagings [%2] in %3")
               .arg(scripts.join(QStringLiteral(", ")), stagings(root).join(QStringLiteral(", ")), root);
    return false;
}

int killHostScripts(const test::TestSshd &sshd)
{
    int n = 0;
    for (const qint64 pid : hostScripts(sshd)) {
        const pid_t group = ::getpgid(pid_t(pid));
        if (group > 1 && group != ::getpgrp() && ::kill(-group, SIGKILL) == 0)
            ++n;
    }
    return n;
}

using CliRun = test::ProgramRun;

CliRun cli(const QStringList &args)
{
    return test::runProgram(QStringLiteral(INGOT_CLI_PATH), args);
}

// Whether a process waits for a lock on `path` held by another (flock(1) blocked on it): the kernel lists such a
// waiter in /proc/locks as "N: -> FLOCK ... MAJ:MIN:INODE ...".
bool someoneWaitsToLock(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return false;
    QFile locks(QStringLiteral("/proc/locks"));
    if (!locks.open(QIODevice::ReadOnly))
        return false;
    const QByteArray inode = ':' + QByteArray::number(qulonglong(st.st_ino));
    for (const QByteArray &line : locks.readAll().split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() > 6 && f.at(1) == "->" && f.at(6).endsWith(inode))
            return true;
    }
    return false;
}

}  // namespace

class TestHostCopy final : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSshd> m_sshd;
    QTemporaryDir m_dir;
    QString m_source;  // a local cache with entries of every kind
    QByteArray m_big;

    StoreLocation host(const QString &root) const { return sshStoreLocation(m_sshd->alias(), root); }
    QString fresh(const QString &name) const
    {
        const QString p = m_dir.path() + QLatin1Char('/') + name;
        QDir().mkpath(p);
        return p;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        QVERIFY(m_dir.isValid());
        m_sshd = std::make_unique<TestSshd>();
        QString error;
        QVERIFY2(m_sshd->start(&error), qPrintable(error));
        QVERIFY(m_sshd->trustHostKey());
        AppSettings::setSshConfigFile(m_sshd->sshConfigFile());
        RemoteHosts::instance().reset();
        registerRemoteStores();

        m_source = fresh(QStringLiteral("source"));
        m_big = randomBytes(6 << 20, 1);
        writeBytes(path(m_source, BIG, "model.neff"), m_big);
        writeBytes(path(m_source, BIG, "model.done"), {});
        writeBytes(path(m_source, BIG, "model.hlo_module.pb"), randomBytes(4096, 2));
        writeBytes(path(m_source, BIG, kOddName), "odd");
        writeBytes(path(m_source, BIG, kBytesName), randomBytes(777, 3));
        writeBytes(path(m_source, BIG, kLongName), "long");
        writeBytes(path(m_source, SMALL, "model.neff"), "small neff");
        writeBytes(path(m_source, SMALL, "model.done"), {});
        writeBytes(path(m_source, SMALL, "compile_flags.json"), "[\"--target=trn1\"]");
        // optimum-neuron's layout: the neff a link into the hub cache; its content travels.
        const QString blob = m_dir.path() + QStringLiteral("/hub/models--org--cache/blobs/0123abcd");
        writeBytes(blob, "neff from a hub blob");
        QDir().mkpath(path(m_source, LINKED));
        QVERIFY(QFile::link(blob, path(m_source, LINKED, "model.neff")));
        writeBytes(path(m_source, LINKED, "model.done"), {});
        // Entries never copied.
        writeBytes(path(m_source, V + QStringLiteral("/MODULE_4444+dddd"), "model.log"), "error: compile failed");
        writeBytes(path(m_source, V + QStringLiteral("/MODULE_4444+dddd"), "model.hlo_module.pb"), "hlo");
        writeBytes(path(m_source, V + QStringLiteral("/MODULE_5555+eeee"), "model.hlo_module.pb"), "hlo");
        writeBytes(path(m_source, V + QStringLiteral("/MODULE_5555+eeee"), "model.neff.lock"), {});
    }

    void cleanupTestCase()
    {
        if (auto conn = RemoteHosts::instance().connection(m_sshd->alias()))
            conn->close();
        test::removeTree(m_dir.path());
    }

    void localToHostToLocalGivesTheSameBytes()
    {
        const QString remote = fresh(QStringLiteral("remote"));
        const QString back = fresh(QStringLiteral("back"));
        QVector<TransferItem> items = itemsFor({BIG, SMALL, LINKED});
        Recorder rec;
        copyEntries(StoreLocation::local(m_source), host(remote), items, rec, nullptr);
        for (const TransferItem &it : items)
            QVERIFY2(it.state == TransferItem::State::Done, qPrintable(it.key + QStringLiteral(": ") + it.message));
        QCOMPARE(items[0].files, 6);
        QCOMPARE(items[0].bytesDone, m_big.size() + 4096 + 3 + 777 + 4);
        QCOMPARE(rec.finished.size(), 3);
        QVERIFY(rec.maxDone >= m_big.size());

        items = itemsFor({BIG, SMALL, LINKED});
        copyEntries(host(remote), StoreLocation::local(back), items, rec, nullptr);
        for (const TransferItem &it : items)
            QVERIFY2(it.state == TransferItem::State::Done, qPrintable(it.key + QStringLiteral(": ") + it.message));

        for (const QString &key : {BIG, SMALL, LINKED}) {
            const auto original = contents(path(m_source, key));
            QCOMPARE(contents(path(remote, key)), original);
            QCOMPARE(contents(path(back, key)), original);
            QCOMPARE(stateOf(host(remote), key), ModuleState::Success);
            QCOMPARE(stateOf(StoreLocation::local(back), key), ModuleState::Success);
        }
        QVERIFY(QFileInfo::exists(path(back, BIG, kBytesName)));
        QVERIFY(QFileInfo::exists(path(back, BIG, kLongName)));
        // The hub link arrived as a plain file with the blob's bytes.
        QVERIFY(!QFileInfo(path(back, LINKED, "model.neff")).isSymLink());
        QCOMPARE(test::readFile(path(back, LINKED, "model.neff")), QByteArray("neff from a hub blob"));
        QVERIFY(stagings(remote).isEmpty());
        QVERIFY(stagings(back).isEmpty());
    }

    void existingEntriesAreSkippedUntouched()
    {
        const QString remote = fresh(QStringLiteral("existing-remote"));
        const QString local = fresh(QStringLiteral("existing-local"));
        writeBytes(path(remote, SMALL, "model.neff"), "theirs");
        writeBytes(path(remote, SMALL, "model.done"), {});
        writeBytes(path(local, SMALL, "model.neff"), "mine");
        Recorder rec;
        QVector<TransferItem> items = itemsFor({SMALL});
        QVector<HostCopyResult> results;
        copyEntries(StoreLocation::local(m_source), host(remote), items, rec, nullptr, &results);
        QCOMPARE(items[0].state, TransferItem::State::Skipped);
        QCOMPARE(results[0], HostCopyResult::Exists);
        QCOMPARE(test::readFile(path(remote, SMALL, "model.neff")), QByteArray("theirs"));
        QCOMPARE(QDir(path(remote, SMALL)).entryList(QDir::Files).size(), 2);

        items = itemsFor({SMALL});
        copyEntries(host(remote), StoreLocation::local(local), items, rec, nullptr, &results);
        QCOMPARE(items[0].state, TransferItem::State::Skipped);
        QCOMPARE(test::readFile(path(local, SMALL, "model.neff")), QByteArray("mine"));
        QVERIFY(noStagingsSoon(remote));
        QVERIFY(stagings(local).isEmpty());
    }

    // Issue 35: FAILED and LOCKED entries are not copied and are Skipped with the transfer rule's words (as a push
    // skips them), not Failed; a missing entry and a bad key are failures.
    void failedAndLockedEntriesAreSkipped()
    {
        const QString remote = fresh(QStringLiteral("refused"));
        Recorder rec;
        QVector<TransferItem> items = itemsFor({V + QStringLiteral("/MODULE_4444+dddd"), V + QStringLiteral("/MODULE_5555+eeee"),
                                                V + QStringLiteral("/MODULE_9999+none"), QStringLiteral("../escape")});
        QVector<HostCopyResult> results;
        copyEntries(StoreLocation::local(m_source), host(remote), items, rec, nullptr, &results);
        QCOMPARE(items[0].state, TransferItem::State::Skipped);
        QCOMPARE(items[1].state, TransferItem::State::Skipped);
        QCOMPARE(results[0], HostCopyResult::NotSuccess);
        QCOMPARE(items[0].message, notSuccessWhy(ModuleState::Failed));
        QCOMPARE(items[1].message, notSuccessWhy(ModuleState::Locked));
        QCOMPARE(items[2].state, TransferItem::State::Failed);
        QCOMPARE(items[3].state, TransferItem::State::Failed);
        QVERIFY2(items[2].message.contains(QLatin1String("does not exist")), qPrintable(items[2].message));
        QVERIFY(!QFileInfo::exists(remote + QLatin1Char('/') + V));
    }

    void aStopMidStreamLeavesNoEntryAndTheNextCopyCompletes()
    {
        const QString remote = fresh(QStringLiteral("stopped-remote"));
        const QString local = fresh(QStringLiteral("stopped-local"));
        for (const bool up : {true, false}) {
            std::atomic_bool stop{false};
            Recorder rec;
            rec.onProgress = [&](int, qint64 done) {
                if (done > (1 << 20))
                    stop = true;
            };
            const StoreLocation from = up ? StoreLocation::local(m_source) : host(remote);
            const StoreLocation to = up ? host(remote) : StoreLocation::local(local);
            const QString destRoot = up ? remote : local;
            QVector<TransferItem> items = itemsFor({BIG});
            copyEntries(from, to, items, rec, &stop);
            QCOMPARE(items[0].state, TransferItem::State::Pending);
            QVERIFY(!QFileInfo::exists(path(destRoot, BIG)));
            // Under load the host's shell may not even have made its staging yet when the stop returns (CI once
            // saw no staging, then a held one): what is checked is that, once that side ended, nothing stays.
            QString why;
            QVERIFY2(hostSideEndedSoon(*m_sshd, destRoot, &why), qPrintable((up ? QStringLiteral("to the host: ") : QStringLiteral("from the host: ")) + why));

            stop = false;
            rec.onProgress = nullptr;
            copyEntries(from, to, items, rec, &stop);
            QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
            QCOMPARE(contents(path(destRoot, BIG)), contents(path(m_source, BIG)));
            QVERIFY(stagings(destRoot).isEmpty());
        }
    }

    void aServerKilledMidStreamLeavesNoEntry()
    {
        const QString remote = fresh(QStringLiteral("killed-remote"));
        Recorder rec;
        bool killed = false;
        rec.onProgress = [&](int, qint64 done) {
            if (done > (2 << 20) && !killed) {
                killed = true;
                m_sshd->kill();
            }
        };
        QVector<TransferItem> items = itemsFor({BIG});
        copyEntries(StoreLocation::local(m_source), host(remote), items, rec, nullptr);
        QVERIFY(killed);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(!items[0].message.isEmpty(), "says why");
        QVERIFY(!QFileInfo::exists(path(remote, BIG)));
        // The host's shell died with the server: its staging stays until the next copy of that entry removes it.
        QString error;
        QVERIFY2(m_sshd->restart(&error), qPrintable(error));
        items = itemsFor({BIG});
        rec.onProgress = nullptr;
        copyEntries(StoreLocation::local(m_source), host(remote), items, rec, nullptr);
        QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
        QCOMPARE(contents(path(remote, BIG)), contents(path(m_source, BIG)));
        QVERIFY(stagings(remote).isEmpty());
    }

    void aHostShellKilledLeavesAStagingTheNextCopyRemoves()
    {
        // SIGKILL to the host's side of the copy (its shell, head and tar): no trap runs there, the staging stays.
        const QString remote = fresh(QStringLiteral("shell-killed-remote"));
        Recorder rec;
        int killed = 0;
        rec.onProgress = [&](int, qint64 done) {
            if (done <= (2 << 20) || killed != 0)
                return;
            // Only once the host made its staging (CI once killed it before, and there was no staging to find).
            stagingsSoon(remote);
            killed = killHostScripts(*m_sshd);
        };
        QVector<TransferItem> items = itemsFor({BIG});
        copyEntries(StoreLocation::local(m_source), host(remote), items, rec, nullptr);
        QVERIFY(killed > 0);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY(!QFileInfo::exists(path(remote, BIG)));
        QCOMPARE(stagings(remote).size(), 1);
        items = itemsFor({BIG});
        rec.onProgress = nullptr;
        copyEntries(StoreLocation::local(m_source), host(remote), items, rec, nullptr);
        QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
        QCOMPARE(contents(path(remote, BIG)), contents(path(m_source, BIG)));
        QVERIFY(stagings(remote).isEmpty());
    }

    void aChecksumMismatchKeepsNothing()
    {
        // The host's file changes after it was sent and before our "go": the host hashed it while sending, so the
        // sums may well match what arrived, but the file is not what it was when the copy began (its size and times
        // from before tar and after "go" differ), and the copy keeps nothing.
        const QString remote = fresh(QStringLiteral("mismatch-remote"));
        const QString local = fresh(QStringLiteral("mismatch-local"));
        const QByteArray original = randomBytes(1 << 20, 7);
        writeBytes(path(remote, BIG, "model.neff"), original);
        writeBytes(path(remote, BIG, "model.done"), {});
        Recorder rec;
        bool changed = false;
        rec.onProgress = [&](int, qint64 done) {
            if (done == original.size() && !changed) {
                changed = true;
                QByteArray other = original;
                other[12345] = char(other[12345] ^ 1);
                test::writeFile(path(remote, BIG, "model.neff"), other);
            }
        };
        QVector<TransferItem> items = itemsFor({BIG});
        copyEntries(host(remote), StoreLocation::local(local), items, rec, nullptr);
        QVERIFY(changed);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QLatin1String("changed on the host")), qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(path(local, BIG)));
        QVERIFY(stagings(local).isEmpty());
    }

    void aChecksumMismatchOnTheHostKeepsNothing()
    {
        // Local -> host: once every byte of the file was sent, the test changes the host's extracted copy before the
        // host hashes it (it hashes only after the archive's end, which is sent after this callback returns): what the
        // host has is no longer what was sent.
        const QString src = fresh(QStringLiteral("mismatch-up-src"));
        const QString remote = fresh(QStringLiteral("mismatch-up-remote"));
        const QByteArray neff = randomBytes(1 << 20, 9);
        writeBytes(path(src, BIG, "model.neff"), neff);
        writeBytes(path(src, BIG, "model.done"), {});
        Recorder rec;
        bool changed = false;
        rec.onProgress = [&](int, qint64 done) {
            if (done != neff.size() || changed)
                return;
            const QStringList st = stagingsSoon(remote);
            if (st.size() != 1)
                return;
            const QString extracted = remote + QLatin1Char('/') + V + QLatin1Char('/') + st.first() + QStringLiteral("/model.neff");
            // tar writes in order and never goes back: once it is past byte 4242, a change there stays.
            for (int i = 0; i < 1000 && QFileInfo(extracted).size() < 8192; ++i)
                QThread::msleep(10);
            QFile f(extracted);
            if (QFileInfo(extracted).size() >= 8192 && f.open(QIODevice::ReadWrite) && f.seek(4242)) {
                f.write("X", 1);
                changed = true;
            }
        };
        QVector<TransferItem> items = itemsFor({BIG});
        copyEntries(StoreLocation::local(src), host(remote), items, rec, nullptr);
        QVERIFY(changed);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QLatin1String("sha256 of model.neff")), qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(path(remote, BIG)));
        QVERIFY(noStagingsSoon(remote));
        test::removeTree(src);
    }

    void linksArriveAsContentAndOtherMembersAreRefused()
    {
        // Issue 21 #7, host -> here: push's rules on the host too. A host entry holding a link to a file outside its
        // cache (not a hub blob) is refused whole, its content never sent; a link inside the cache arrives as content.
        const QString remote = fresh(QStringLiteral("hostile-remote"));
        const QString local = fresh(QStringLiteral("hostile-local"));
        writeBytes(path(remote, BIG, "model.neff"), "neff");
        writeBytes(path(remote, BIG, "model.done"), {});
        const QString outside = fresh(QStringLiteral("outside"));
        writeBytes(outside + QStringLiteral("/secret"), "secret");
        QVERIFY(QFile::link(outside + QStringLiteral("/secret"), path(remote, BIG, "linked")));
        QVector<TransferItem> items = itemsFor({BIG});
        Recorder rec;
        copyEntries(host(remote), StoreLocation::local(local), items, rec, nullptr);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QLatin1String("outside the cache")) && items[0].message.contains(QLatin1String("linked")),
                 qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(path(local, BIG)));
        QVERIFY(stagings(local).isEmpty());
        QVERIFY(QFile::remove(path(remote, BIG, "linked")));
        QVERIFY(QFile::link(QStringLiteral("model.neff"), path(remote, BIG, "linked")));  // inside the entry
        items = itemsFor({BIG});
        copyEntries(host(remote), StoreLocation::local(local), items, rec, nullptr);
        QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
        QVERIFY(!QFileInfo(path(local, BIG, "linked")).isSymLink());
        QCOMPARE(test::readFile(path(local, BIG, "linked")), QByteArray("neff"));
        // A linked entry folder is never followed.
        QVERIFY(QFile::link(path(remote, BIG), path(remote, SMALL)));
        items = itemsFor({SMALL});
        copyEntries(host(remote), StoreLocation::local(local), items, rec, nullptr);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY(!QFileInfo::exists(path(local, SMALL)));
        // A fifo in a host entry reaches the archive as a fifo member: the reader refuses it and keeps nothing.
        const QString fifoKey = V + QStringLiteral("/MODULE_6666+ffff");
        writeBytes(path(remote, fifoKey, "model.neff"), "neff");
        writeBytes(path(remote, fifoKey, "model.done"), {});
        QCOMPARE(::mkfifo(QFile::encodeName(path(remote, fifoKey, "pipe")).constData(), 0600), 0);
        items = itemsFor({fifoKey});
        copyEntries(host(remote), StoreLocation::local(local), items, rec, nullptr);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QLatin1String("not a file or a folder")), qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(path(local, fifoKey)));
        QVERIFY(stagings(local).isEmpty());
    }

    // Issue 21 #7, here -> a host: an entry's link to a file outside the cache (an owner's "notes -> ~/.ssh/id_rsa")
    // is never sent: the entry stays here with why. A link inside the entry goes as its content, as push does.
    void linksOutsideTheCacheAreNotSentToAHost()
    {
        const QString src = fresh(QStringLiteral("links-up-src"));
        const QString remote = fresh(QStringLiteral("links-up-remote"));
        const QString outside = fresh(QStringLiteral("links-up-home"));
        writeBytes(outside + QStringLiteral("/id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----");
        writeBytes(path(src, SMALL, "model.neff"), "small neff");
        writeBytes(path(src, SMALL, "model.done"), {});
        QVERIFY(QFile::link(outside + QStringLiteral("/id_rsa"), path(src, SMALL, "notes")));
        writeBytes(path(src, BIG, "model.neff"), "big neff");
        writeBytes(path(src, BIG, "model.done"), {});
        QVERIFY(QFile::link(QStringLiteral("model.neff"), path(src, BIG, "model.hlo.pb")));
        QVector<TransferItem> items = itemsFor({SMALL, BIG});
        Recorder rec;
        copyEntries(StoreLocation::local(src), host(remote), items, rec, nullptr);
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QLatin1String("outside the cache")) && items[0].message.contains(QLatin1String("notes")),
                 qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(path(remote, SMALL)));
        QVERIFY2(items[1].state == TransferItem::State::Done, qPrintable(items[1].message));
        QVERIFY(!QFileInfo(path(remote, BIG, "model.hlo.pb")).isSymLink());
        QCOMPARE(test::readFile(path(remote, BIG, "model.hlo.pb")), QByteArray("big neff"));
        QDirIterator all(remote, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
        while (all.hasNext())
            QVERIFY2(!test::readFile(all.next()).contains("PRIVATE KEY"), qPrintable(all.filePath()));
        QVERIFY(noStagingsSoon(remote));
    }

    // Issue 21 #12: a host whose tar announces 1 GiB for a file its listing showed as 5 bytes. The copy refuses the
    // member before writing a byte of it: no entry, no staging, no big file here.
    void anArchiveLargerThanTheListingIsRefused()
    {
        const QString bin = fresh(QStringLiteral("hostile-bin"));
        writeBytes(bin + QStringLiteral("/tar"), QByteArray(R"SH(#!/bin/sh
case "$1" in
-c) exec python3 -c '
import sys, tarfile
ti = tarfile.TarInfo("./model.neff")
ti.size = 1 << 30
out = sys.stdout.buffer
out.write(ti.tobuf(tarfile.GNU_FORMAT))
try:
    for _ in range(1024):
        out.write(bytes(1 << 20))
except BrokenPipeError:
    pass
' ;;
esac
exec /usr/bin/tar "$@"
)SH"));
        QVERIFY(QFile::setPermissions(bin + QStringLiteral("/tar"), QFile::Permissions(0x7755)));
        TestSshd hostile(QStringLiteral("ingot-hostile"));
        hostile.setSessionEnvironment({QStringLiteral("PATH=%1:/usr/local/bin:/usr/bin:/bin").arg(bin)});
        QString error;
        QVERIFY2(hostile.start(&error), qPrintable(error));
        QVERIFY(hostile.trustHostKey());
        const QString config = m_dir.path() + QStringLiteral("/two-hosts.config");
        test::writeFile(config, (m_sshd->configBlock() + QLatin1Char('\n') + hostile.configBlock()).toUtf8());
        AppSettings::setSshConfigFile(config);
        RemoteHosts::instance().reset();
        const QString remote = fresh(QStringLiteral("huge-remote"));
        const QString local = fresh(QStringLiteral("huge-local"));
        writeBytes(path(remote, SMALL, "model.neff"), "small");
        writeBytes(path(remote, SMALL, "model.done"), {});
        QVector<TransferItem> items = itemsFor({SMALL});
        Recorder rec;
        copyEntries(sshStoreLocation(hostile.alias(), remote), StoreLocation::local(local), items, rec, nullptr);
        if (auto conn = RemoteHosts::instance().connection(hostile.alias()))
            conn->close();
        AppSettings::setSshConfigFile(m_sshd->sshConfigFile());
        RemoteHosts::instance().reset();
        QCOMPARE(items[0].state, TransferItem::State::Failed);
        QVERIFY2(items[0].message.contains(QLatin1String("1073741824 bytes")) && items[0].message.contains(QLatin1String("model.neff")),
                 qPrintable(items[0].message));
        QVERIFY(!QFileInfo::exists(path(local, SMALL)));
        QVERIFY(stagings(local).isEmpty());
        QVERIFY(rec.maxDone < (1 << 20));
        QDirIterator all(local, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
        while (all.hasNext())
            QVERIFY2(QFileInfo(all.next()).size() < (1 << 20), qPrintable(all.filePath()));
    }

    // Issue 21: a leftover staging here that others may write into (or a link) is never adopted: the copy makes
    // its own and leaves that one alone, so its owner cannot end up owning (or filling) the entry.
    void aStagingOthersMayWriteIsNotAdopted()
    {
        const QString remote = fresh(QStringLiteral("planted-remote"));
        const QString local = fresh(QStringLiteral("planted-local"));
        writeBytes(path(remote, SMALL, "model.neff"), "small neff");
        writeBytes(path(remote, SMALL, "model.done"), {});
        const QString planted = local + QLatin1Char('/') + V + QStringLiteral("/.ingot-incoming-MODULE_2222+bbbb.pL4nTd");
        writeBytes(planted + QStringLiteral("/model.neff"), "planted");
        QVERIFY(QFile::setPermissions(planted, QFile::Permissions(0x7777)));
        QVector<TransferItem> items = itemsFor({SMALL});
        Recorder rec;
        copyEntries(host(remote), StoreLocation::local(local), items, rec, nullptr);
        QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
        QCOMPARE(contents(path(local, SMALL)), contents(path(remote, SMALL)));
        QCOMPARE(stagings(local), QStringList{QStringLiteral(".ingot-incoming-MODULE_2222+bbbb.pL4nTd")});
        QCOMPARE(test::readFile(planted + QStringLiteral("/model.neff")), QByteArray("planted"));
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(path(local, SMALL)).constData(), &st), 0);
        QCOMPARE(st.st_uid, ::geteuid());
    }

    void theHostsHashListIsTheSameWithOrWithoutOpenssl()
    {
        // One file over 1 MiB (OpenSSL's path), names openssl would not escape (a newline, a backslash), a plain one.
        const QString dir = fresh(QStringLiteral("hashfiles"));
        QHash<QByteArray, QByteArray> want;
        const QList<QPair<QByteArray, QByteArray>> files{{"model.neff", randomBytes(2 << 20, 3)},
                                                         {"new\nline", "a"},
                                                         {"back\\slash", "b"},
                                                         {"plain", ""}};
        for (const auto &[name, bytes] : files) {
            writeBytes(dir + QLatin1Char('/') + QFile::decodeName(name), bytes);
            want.insert(name, QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
        }
        // PATH holds only the tools named here (as links into /usr/bin), so a host without openssl, or with one that
        // fails, is this machine with it left out or replaced.
        auto toolsWithout = [&](const QString &name, const QByteArray &openssl) {
            const QString bin = fresh(name);
            for (const char *tool : {"sh", "find", "xargs", "sha256sum", "tr", "openssl"})
                if (qstrcmp(tool, "openssl") != 0 || openssl == "real")
                    QFile::link(QStandardPaths::findExecutable(QLatin1String(tool)), bin + QLatin1Char('/') + QLatin1String(tool));
            if (openssl == "fails") {
                writeBytes(bin + QStringLiteral("/openssl"), "#!/bin/sh\necho 'broken' >&2\nexit 1\n");
                QFile::setPermissions(bin + QStringLiteral("/openssl"), QFile::ReadOwner | QFile::ExeOwner);
            }
            return bin;
        };
        auto run = [&](const QString &path, QHash<QByteArray, QByteArray> *out) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("PATH"), path);
            p.setProcessEnvironment(env);
            p.setWorkingDirectory(dir);
            p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QString::fromUtf8(hostcopy::hashFilesFunction) + QStringLiteral("hashfiles")});
            p.waitForFinished(60000);
            out->clear();
            return hostcopy::parseHashList(p.readAllStandardOutput(), out);
        };
        QHash<QByteArray, QByteArray> got;
        QVERIFY(run(toolsWithout(QStringLiteral("bin-openssl"), "real"), &got));
        QCOMPARE(got, want);
        QVERIFY(run(toolsWithout(QStringLiteral("bin-no-openssl"), "none"), &got));
        QCOMPARE(got, want);
        QVERIFY(!run(toolsWithout(QStringLiteral("bin-broken-openssl"), "fails"), &got));
    }

    // Not pass/fail: INGOT_BENCH=1 copies 1 GiB (one 768 MiB neff and 256 files of 1 MiB) up and down, and the
    // same with a bare tar piped through ssh on the same master connection (the limit: no hashing, no staging), in
    // INGOT_BENCH_ROUNDS rounds (5), and prints the median ratios.
    void benchmarkOneGigabyte()
    {
        if (qEnvironmentVariableIsEmpty("INGOT_BENCH"))
            QSKIP("set INGOT_BENCH=1 to run");
        const QString src = fresh(QStringLiteral("bench-src"));
        const QString key = V + QStringLiteral("/MODULE_7777+ffff");
        writeBytes(path(src, key, "model.neff"), randomBytes(768 << 20, 11));
        writeBytes(path(src, key, "model.done"), {});
        for (int i = 0; i < 256; ++i)
            writeBytes(path(src, key, QByteArray("part-") + QByteArray::number(i)), randomBytes(1 << 20, 100 + i));
        auto conn = RemoteHosts::instance().connection(m_sshd->alias());
        QVERIFY(conn && conn->connect());
        auto timed = [](const std::function<void()> &f) {
            QElapsedTimer t;
            t.start();
            f();
            return double(t.elapsed()) / 1000.0;
        };
        auto shell = [&](const QString &pipeline) {
            QProcess p;
            p.start(QStringLiteral("bash"), {QStringLiteral("-c"), pipeline});
            QVERIFY(p.waitForFinished(600000));
            QCOMPARE(p.exitCode(), 0);
        };
        auto sshLine = [&](const QString &remoteCommand) {
            const SshConnection::StreamCommand c = conn->streamCommand(remoteCommand);
            QStringList argv{c.program};
            argv += c.arguments;
            return *shellCommand(argv);
        };
        Recorder rec;
        const int rounds = qEnvironmentVariableIsEmpty("INGOT_BENCH_ROUNDS") ? 5 : qMax(1, qEnvironmentVariableIntValue("INGOT_BENCH_ROUNDS"));
        QVector<double> upRatios, downRatios;
        auto median = [](QVector<double> v) {
            std::sort(v.begin(), v.end());
            return v.size() % 2 ? v.at(v.size() / 2) : (v.at(v.size() / 2 - 1) + v.at(v.size() / 2)) / 2;
        };
        for (int round = 0; round < rounds; ++round) {
            const QString up = fresh(QStringLiteral("bench-up-%1").arg(round));
            const QString down = fresh(QStringLiteral("bench-down-%1").arg(round));
            const QString bareUp = fresh(QStringLiteral("bench-bare-up-%1").arg(round));
            const QString bareDown = fresh(QStringLiteral("bench-bare-down-%1").arg(round));
            QVector<TransferItem> items = itemsFor({key});
            const double ingotUp = timed([&] { copyEntries(StoreLocation::local(src), host(up), items, rec, nullptr); });
            QCOMPARE(items[0].state, TransferItem::State::Done);
            items = itemsFor({key});
            const double ingotDown = timed([&] { copyEntries(host(up), StoreLocation::local(down), items, rec, nullptr); });
            QCOMPARE(items[0].state, TransferItem::State::Done);
            const double tarUp = timed([&] {
                shell(QStringLiteral("tar -C %1 -cf - . | %2").arg(shellWord(path(src, key)),
                      sshLine(QStringLiteral("tar -x -f - -C ") + shellWord(bareUp))));
            });
            const double tarDown = timed([&] {
                shell(QStringLiteral("%1 | tar -x -f - -C %2").arg(sshLine(QStringLiteral("tar -c -f - -C ") + shellWord(path(up, key)) + QStringLiteral(" .")),
                      shellWord(bareDown)));
            });
            qInfo("1 GiB, round %d: local->host %.2f s (bare tar|ssh %.2f s, %.2fx); host->local %.2f s (bare %.2f s, %.2fx)",
                  round, ingotUp, tarUp, ingotUp / tarUp, ingotDown, tarDown, ingotDown / tarDown);
            upRatios << ingotUp / tarUp;
            downRatios << ingotDown / tarDown;
            test::removeTree(up), test::removeTree(down), test::removeTree(bareUp), test::removeTree(bareDown);
        }
        qInfo("1 GiB, median of %d rounds: local->host %.2fx, host->local %.2fx of tar|ssh", rounds, median(upRatios),
              median(downRatios));
        test::removeTree(src);
        // Many small entries: what one entry costs beyond its bytes (listing, the master check, one session).
        const QString many = fresh(QStringLiteral("bench-many"));
        QStringList keys;
        for (int i = 0; i < 100; ++i) {
            const QString k = V + QStringLiteral("/MODULE_%1+abcd").arg(10000 + i);
            writeBytes(path(many, k, "model.neff"), randomBytes(64 << 10, 500 + i));
            writeBytes(path(many, k, "model.done"), {});
            keys << k;
        }
        const QString manyUp = fresh(QStringLiteral("bench-many-up"));
        const QString manyDown = fresh(QStringLiteral("bench-many-down"));
        QVector<TransferItem> items = itemsFor(keys);
        const double up = timed([&] { copyEntries(StoreLocation::local(many), host(manyUp), items, rec, nullptr); });
        items = itemsFor(keys);
        const double down = timed([&] { copyEntries(host(manyUp), StoreLocation::local(manyDown), items, rec, nullptr); });
        for (const TransferItem &it : items)
            QCOMPARE(it.state, TransferItem::State::Done);
        qInfo("100 entries of 64 KiB: local->host %.2f s (%.0f ms an entry), host->local %.2f s (%.0f ms an entry)",
              up, up * 10, down, down * 10);
    }

    void theCliCopiesWithJson()
    {
        const QString remote = fresh(QStringLiteral("cli-remote"));
        const QString local = fresh(QStringLiteral("cli-local"));
        CliRun r = cli({QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"), QStringLiteral("local"),
                        QStringLiteral("--to"), m_sshd->alias(), QStringLiteral("--cache-dir"), m_source,
                        QStringLiteral("--remote-dir"), remote, QStringLiteral("--json"), BIG, SMALL});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("copied")).toInt(), 2);
        QCOMPARE(j.value(QStringLiteral("failed")).toInt(), 0);
        const QJsonArray entries = j.value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries[0].toObject().value(QStringLiteral("key")).toString(), BIG);
        QCOMPARE(entries[0].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("done"));
        QCOMPARE(entries[0].toObject().value(QStringLiteral("files")).toInt(), 6);
        QCOMPARE(contents(path(remote, BIG)), contents(path(m_source, BIG)));

        // And back, in plain text: a second run skips what is there (exit 0).
        r = cli({QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"), m_sshd->alias(),
                 QStringLiteral("--to"), QStringLiteral("local"), QStringLiteral("--cache-dir"), local,
                 QStringLiteral("--remote-dir"), remote, SMALL});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.out.contains(QByteArray(QByteArray("copied ") + SMALL.toUtf8())));
        r = cli({QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"), m_sshd->alias(),
                 QStringLiteral("--to"), QStringLiteral("local"), QStringLiteral("--cache-dir"), local,
                 QStringLiteral("--remote-dir"), remote, SMALL});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QByteArray(QByteArray("skipped ") + SMALL.toUtf8())));
        QCOMPARE(contents(path(local, SMALL)), contents(path(m_source, SMALL)));

        // Issue 35: a FAILED entry is skipped, said so and counted as such, exit 0 (as `cache push` does).
        const QString failedKey = V + QStringLiteral("/MODULE_4444+dddd");
        r = cli({QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"), QStringLiteral("local"),
                 QStringLiteral("--to"), m_sshd->alias(), QStringLiteral("--cache-dir"), m_source,
                 QStringLiteral("--remote-dir"), remote, failedKey});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains(QStringLiteral("skipped %1: %2").arg(failedKey, notSuccessWhy(ModuleState::Failed)).toUtf8()),
                 r.out.constData());
        QVERIFY2(r.out.contains("Done: 0 copied, 1 skipped, 0 failed;"), r.out.constData());
        QVERIFY(!QFileInfo::exists(path(remote, failedKey)));
        // Usage: both local, a bad key.
        r = cli({QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"), QStringLiteral("local"),
                 QStringLiteral("--to"), QStringLiteral("local"), BIG});
        QCOMPARE(r.code, 2);
        r = cli({QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"), QStringLiteral("local"),
                 QStringLiteral("--to"), m_sshd->alias(), QStringLiteral("--cache-dir"), m_source,
                 QStringLiteral("--remote-dir"), remote, QStringLiteral("neuronxcc-1/../../etc")});
        QCOMPARE(r.code, 2);
    }

    void theCliStoppedBySigtermLeavesNoEntry()
    {
        const QString src = fresh(QStringLiteral("cli-stop-src"));
        const QString remote = fresh(QStringLiteral("cli-stop-remote"));
        writeBytes(path(src, BIG, "model.neff"), randomBytes(96 << 20, 21));
        writeBytes(path(src, BIG, "model.done"), {});
        QProcess p;
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"),
                                                 QStringLiteral("local"), QStringLiteral("--to"), m_sshd->alias(),
                                                 QStringLiteral("--cache-dir"), src, QStringLiteral("--remote-dir"), remote,
                                                 QStringLiteral("--json"), BIG});
        QVERIFY(p.waitForStarted());
        // The host's staging exists once the stream runs.
        for (int i = 0; i < 2000 && stagings(remote).isEmpty() && p.state() == QProcess::Running; ++i)
            QThread::msleep(5);
        QVERIFY(!stagings(remote).isEmpty());
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        const QJsonObject j = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(j.value(QStringLiteral("stopped")).toBool(), true);
        QCOMPARE(j.value(QStringLiteral("entries")).toArray()[0].toObject().value(QStringLiteral("state")).toString(),
                 QStringLiteral("pending"));
        QVERIFY(!QFileInfo::exists(path(remote, BIG)));
        QVERIFY(noStagingsSoon(remote));
        test::removeTree(src);
    }

    void theCliSaysUnreachableAndBusy()
    {
        const QString remote = fresh(QStringLiteral("busy-remote"));
        // Nothing listens on port 1.
        CliRun r = cli({QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"), QStringLiteral("local"),
                        QStringLiteral("--to"), QStringLiteral("127.0.0.1:1"), QStringLiteral("--cache-dir"), m_source,
                        QStringLiteral("--remote-dir"), remote, SMALL});
        QCOMPARE(r.code, 10);
        // Someone holds the entry's staging folder on the host.
        const QString staging = remote + QLatin1Char('/') + V + QStringLiteral("/.ingot-incoming-MODULE_2222+bbbb.held01");
        QVERIFY(QDir().mkpath(staging));
        const int fd = ::open(QFile::encodeName(staging).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        QCOMPARE(::flock(fd, LOCK_EX | LOCK_NB), 0);
        r = cli({QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"), QStringLiteral("local"),
                 QStringLiteral("--to"), m_sshd->alias(), QStringLiteral("--cache-dir"), m_source,
                 QStringLiteral("--remote-dir"), remote, QStringLiteral("--json"), SMALL});
        QCOMPARE(r.code, 12);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QStringLiteral("entries")).toArray()[0].toObject().value(QStringLiteral("busy")).toBool(), true);
        QVERIFY(!QFileInfo::exists(path(remote, SMALL)));
        QVERIFY(QFileInfo(staging).isDir());  // someone else's: left alone
        // Let go once the copy waits for it (as the host's side of a copy stopped just before does): the copy
        // removes the leftover and goes through.
        QProcess p;
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("copy"), QStringLiteral("--from"),
                                                 QStringLiteral("local"), QStringLiteral("--to"), m_sshd->alias(),
                                                 QStringLiteral("--cache-dir"), m_source, QStringLiteral("--remote-dir"),
                                                 remote, SMALL});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(someoneWaitsToLock(staging) || p.state() != QProcess::Running, 60000);
        QCOMPARE(p.state(), QProcess::Running);
        ::close(fd);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY(stagings(remote).isEmpty());
        QCOMPARE(contents(path(remote, SMALL)), contents(path(m_source, SMALL)));
    }
};

QTEST_GUILESS_MAIN(TestHostCopy)
#include "tst_hostcopy.moc"
