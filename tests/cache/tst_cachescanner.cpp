// Scanning real folders: states, sizes, links, unknown items, incremental rescans, cancel, and bad input.
#include "services/cache/cachescanner.h"
#include "services/cache/cachestats.h"
#include "services/stores/localcachestore.h"
#include "services/cache/samplecache.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>
#include <atomic>
#include <functional>
#include <sys/stat.h>

using namespace ingot;

namespace {
const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString V14 = QStringLiteral("neuronxcc-2.14.227.0+2d4f85be");

CacheSnapshot scan(const QString &root, ScanStats *stats = nullptr, const CacheSnapshot *prev = nullptr)
{
    LocalCacheStore store(root);
    CacheScanner scanner(store);
    return scanner.scan(prev, {}, nullptr, stats);
}

// The local store, passed through: the stores below change one call each.
class PassThroughStore : public CacheStore
{
public:
    explicit PassThroughStore(const QString &root) : m_inner(root) {}
    QString displayRoot() const override { return m_inner.displayRoot(); }
    bool open(QString *e) override { return m_inner.open(e); }
    ListResult list(const QString &rel) override { return m_inner.list(rel); }
    ListResult listNames(const QString &rel) override { return m_inner.listNames(rel); }
    bool statEntry(const QString &rel, StoreEntry *entry, bool *vanished, QString *error) override
    {
        return m_inner.statEntry(rel, entry, vanished, error);
    }
    bool readFile(const QString &r, qint64 m, bool f, QByteArray *o, QString *e) override { return m_inner.readFile(r, m, f, o, e); }
    QString linkTarget(const QString &r) override { return m_inner.linkTarget(r); }
    bool remove(const QString &r, qint64 *f, QString *e) override { return m_inner.remove(r, f, e); }
    RemoveResult removeEntry(const QString &r, qint64 *f, QString *e) override { return m_inner.removeEntry(r, f, e); }
    QString rootIdentity() const override { return m_inner.rootIdentity(); }
    QVector<qint64> runningCompilers(QString *e) override { return m_inner.runningCompilers(e); }
    QString fullPath(const QString &r) const override { return m_inner.fullPath(r); }
    bool isLocal() const override { return true; }

protected:
    LocalCacheStore m_inner;
};

// A real store whose listing of one folder first deletes another: an entry vanishing mid-scan. Every folder is
// listed whole (as a store without listNames() lists it).
class VanishingStore final : public PassThroughStore
{
public:
    VanishingStore(const QString &root, QString trigger, QString victim)
        : PassThroughStore(root), m_root(root), m_trigger(std::move(trigger)), m_victim(std::move(victim)) {}
    ListResult list(const QString &rel) override
    {
        if (rel == m_trigger)
            QDir(m_root + QLatin1Char('/') + m_victim).removeRecursively();
        return m_inner.list(rel);
    }
    ListResult listNames(const QString &rel) override { return list(rel); }

private:
    QString m_root, m_trigger, m_victim;
};

// A real store that runs `beforeStat` on a folder the moment the scanner looks at it (after the listing of its parent
// named it): a module folder that vanishes or is swapped for a link while a large version folder is being scanned.
class RacingStore final : public PassThroughStore
{
public:
    using PassThroughStore::PassThroughStore;
    std::function<void(const QString &)> beforeStat;
    std::atomic<int> statted{0};
    bool statEntry(const QString &rel, StoreEntry *entry, bool *vanished, QString *error) override
    {
        ++statted;
        if (beforeStat)
            beforeStat(rel);
        return m_inner.statEntry(rel, entry, vanished, error);
    }
};

}  // namespace

class TestCacheScanner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void statesFollowTheReference()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+d41d8cd9"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::makeModule(r, V15, QStringLiteral("MODULE_2+d41d8cd9"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.log")});
        test::makeModule(r, V15, QStringLiteral("MODULE_3+d41d8cd9"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo_module.pb.lock")});
        test::makeModule(r, V15, QStringLiteral("MODULE_4+d41d8cd9"), {QStringLiteral("model.hlo_module.pb")});
        test::makeModule(r, V15, QStringLiteral("MODULE_5+d41d8cd9"), {});
        // >= 2.15 writes model.done: a neff without it is an interrupted compile.
        test::makeModule(r, V15, QStringLiteral("MODULE_6+d41d8cd9"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff")});
        // Older compilers write no model.done; old file names.
        test::makeModule(r, V14, QStringLiteral("MODULE_7+d41d8cd9"), {QStringLiteral("model.hlo.pb"), QStringLiteral("compile_flags.txt"), QStringLiteral("model.neff")});
        // A lock wins over everything, a neff over a log.
        test::makeModule(r, V14, QStringLiteral("MODULE_8+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.log"), QStringLiteral("x.lock")});
        test::makeModule(r, V14, QStringLiteral("MODULE_9+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.log")});
        test::makeModule(r, V14, QStringLiteral("MODULE_abcdef0123456789abcd"), {QStringLiteral("model.neff")});

        const CacheSnapshot s = scan(r);
        QVERIFY(s.fatalError.isEmpty());
        auto state = [&](const QString &v, const QString &n) { return s.find(v + QLatin1Char('/') + n)->state; };
        QCOMPARE(state(V15, QStringLiteral("MODULE_1+d41d8cd9")), ModuleState::Success);
        QCOMPARE(state(V15, QStringLiteral("MODULE_2+d41d8cd9")), ModuleState::Failed);
        QCOMPARE(state(V15, QStringLiteral("MODULE_3+d41d8cd9")), ModuleState::Locked);
        QCOMPARE(state(V15, QStringLiteral("MODULE_4+d41d8cd9")), ModuleState::Incomplete);
        QCOMPARE(state(V15, QStringLiteral("MODULE_5+d41d8cd9")), ModuleState::Empty);
        QCOMPARE(state(V15, QStringLiteral("MODULE_6+d41d8cd9")), ModuleState::Incomplete);
        QCOMPARE(state(V14, QStringLiteral("MODULE_7+d41d8cd9")), ModuleState::Success);
        QCOMPARE(state(V14, QStringLiteral("MODULE_8+d41d8cd9")), ModuleState::Locked);
        QCOMPARE(state(V14, QStringLiteral("MODULE_9+d41d8cd9")), ModuleState::Success);
        const CacheModule *traced = s.find(V14 + QStringLiteral("/MODULE_abcdef0123456789abcd"));
        QCOMPARE(traced->kind, EntryKind::TracedModule);
        QVERIFY(traced->warnings.isEmpty());
        QCOMPARE(s.modules.size(), 10);
    }

    void sizesTimesAndFiles()
    {
        QTemporaryDir tmp;
        test::makeModule(tmp.path(), V15, QStringLiteral("MODULE_1+d41d8cd9"),
                         {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.neff"), QStringLiteral("model.done"), QStringLiteral("extra.txt")},
                         10, 3'000'000'000);
        const QString neff = tmp.path() + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+d41d8cd9/model.neff");
        // Reading the neff two days ago is what makes it "used" two days ago.
        const qint64 used = QDateTime::currentMSecsSinceEpoch() - 2LL * 86400000;
        struct timespec ts[2] = {{time_t(used / 1000), 0}, {0, UTIME_OMIT}};
        ::utimensat(AT_FDCWD, QFile::encodeName(neff).constData(), ts, 0);
        const CacheSnapshot s = scan(tmp.path());
        const CacheModule *m = s.find(V15 + QStringLiteral("/MODULE_1+d41d8cd9"));
        QVERIFY(m);
        QCOMPARE(m->size, 3'000'000'000LL + 100 + 100 + 100);
        QVERIFY(m->allocated < m->size / 100);  // sparse
        QCOMPARE(m->fileCount(), 4);
        QCOMPARE(m->files[0].name, QStringLiteral("extra.txt"));
        QVERIFY(m->files[0].is(CacheFile::Unexpected));
        QVERIFY(qAbs(m->lastUsedMs - used) < 2000);
    }

    void hubLinksAreCountedOnceAndNotInSize()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path() + QStringLiteral("/cache");
        const QString blob = tmp.path() + QStringLiteral("/hf/hub/models--aws-neuron--optimum-neuron-cache/blobs/1234");
        test::writeFile(blob, QByteArray(4096, 'n'));
        for (const char *name : {"MODULE_1+aaaaaaaa", "MODULE_2+aaaaaaaa"}) {
            const QString d = r + QLatin1Char('/') + V15 + QLatin1Char('/') + QLatin1String(name);
            QDir().mkpath(d);
            QFile::link(blob, d + QStringLiteral("/model.neff"));
            test::writeFile(d + QStringLiteral("/model.done"), {});
        }
        const CacheSnapshot s = scan(r);
        const CacheModule *m = s.find(V15 + QStringLiteral("/MODULE_1+aaaaaaaa"));
        QCOMPARE(m->state, ModuleState::Success);
        QCOMPARE(m->size, 0);
        QCOMPARE(m->linkedSize, 4096);
        QVERIFY(m->files[1].is(CacheFile::HubBlob));
        QVERIFY(m->warnings.isEmpty());  // hub links are expected, not a warning
        const CacheStats st = computeStats(s.modules, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(st.linkedSize, 4096);  // two links, one blob
        QCOMPARE(st.size, 0);
    }

    void unknownItemsAreListedNotDropped()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::writeFile(r + QStringLiteral("/notes.txt"), "hello");
        QDir().mkpath(r + QStringLiteral("/random folder"));
        test::writeFile(r + QLatin1Char('/') + V15 + QStringLiteral("/stray.tmp"), "x");
        QDir().mkpath(r + QLatin1Char('/') + V15 + QStringLiteral("/0_REGISTRY"));
        QDir().mkpath(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+d41d8cd9/subdir"));
        const CacheSnapshot s = scan(r);
        QCOMPARE(s.find(QStringLiteral("notes.txt"))->kind, EntryKind::UnknownFile);
        QCOMPARE(s.find(QStringLiteral("notes.txt"))->size, 5);
        QCOMPARE(s.find(QStringLiteral("random folder"))->kind, EntryKind::UnknownDir);
        QCOMPARE(s.find(V15 + QStringLiteral("/stray.tmp"))->state, ModuleState::Unknown);
        QCOMPARE(s.find(V15 + QStringLiteral("/0_REGISTRY"))->kind, EntryKind::UnknownDir);
        const CacheModule *m = s.find(V15 + QStringLiteral("/MODULE_1+d41d8cd9"));
        QVERIFY(m->warnings.join(QString()).contains(QStringLiteral("subdir")));
        QVERIFY(s.warnings.size() >= 5);
    }

    void badInputIsAWarningNeverACrash()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path() + QStringLiteral("/cache");
        const QString v = r + QLatin1Char('/') + V15;
        test::makeModule(r, V15, QStringLiteral("MODULE_with space+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::makeModule(r, V15, QStringLiteral("MODULE_ünïcödé+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        QDir().mkpath(v + QStringLiteral("/MODULE_3+d41d8cd9"));
        QFile::link(tmp.path() + QStringLiteral("/missing"), v + QStringLiteral("/MODULE_3+d41d8cd9/model.neff"));
        test::writeFile(tmp.path() + QStringLiteral("/outside/flags.json"), "[]");
        QDir().mkpath(v + QStringLiteral("/MODULE_4+d41d8cd9"));
        QFile::link(tmp.path() + QStringLiteral("/outside/flags.json"), v + QStringLiteral("/MODULE_4+d41d8cd9/compile_flags.json"));
        QFile::link(tmp.path() + QStringLiteral("/outside"), v + QStringLiteral("/MODULE_5+d41d8cd9"));  // a linked folder
        const CacheSnapshot s = scan(r);
        QVERIFY(s.fatalError.isEmpty());
        QCOMPARE(s.find(V15 + QStringLiteral("/MODULE_with space+d41d8cd9"))->state, ModuleState::Success);
        QVERIFY(!s.find(V15 + QStringLiteral("/MODULE_ünïcödé+d41d8cd9"))->warnings.isEmpty());
        const CacheModule *broken = s.find(V15 + QStringLiteral("/MODULE_3+d41d8cd9"));
        QCOMPARE(broken->state, ModuleState::Incomplete);  // a broken link is no neff
        QVERIFY(broken->warnings.join(QString()).contains(QStringLiteral("broken")));
        const CacheModule *out = s.find(V15 + QStringLiteral("/MODULE_4+d41d8cd9"));
        QVERIFY(out->files[0].is(CacheFile::OutsideRoot));
        QVERIFY(out->warnings.join(QString()).contains(QStringLiteral("outside")));
        const CacheModule *linkedDir = s.find(V15 + QStringLiteral("/MODULE_5+d41d8cd9"));
        QCOMPARE(linkedDir->kind, EntryKind::LinkedDir);
        QCOMPARE(linkedDir->state, ModuleState::Unknown);
    }

    void rootThatIsAFileOrMissing()
    {
        QTemporaryDir tmp;
        test::writeFile(tmp.path() + QStringLiteral("/file"), "x");
        CacheSnapshot s = scan(tmp.path() + QStringLiteral("/file"));
        QVERIFY(s.fatalError.contains(QStringLiteral("not a folder")));
        QVERIFY(s.modules.isEmpty());
        s = scan(tmp.path() + QStringLiteral("/missing"));
        QVERIFY(s.fatalError.contains(QStringLiteral("does not exist")));
    }

    void unreadableFolders()
    {
        INGOT_RUN_UNPRIVILEGED();
        const QString base = qEnvironmentVariable("INGOT_TEST_DIR", QDir::tempPath()) + QStringLiteral("/unreadable");
        QDir(base).removeRecursively();
        test::makeModule(base, V15, QStringLiteral("MODULE_1+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::makeModule(base, V15, QStringLiteral("MODULE_2+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::makeModule(base, V14, QStringLiteral("MODULE_3+d41d8cd9"), {QStringLiteral("model.neff")});
        QFile::setPermissions(base + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_2+d41d8cd9"), QFileDevice::Permissions());
        QFile::setPermissions(base + QLatin1Char('/') + V14, QFileDevice::Permissions());
        const CacheSnapshot s = scan(base);
        QFile::setPermissions(base + QLatin1Char('/') + V14, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QFile::setPermissions(base + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_2+d41d8cd9"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(s.fatalError.isEmpty());
        QCOMPARE(s.find(V15 + QStringLiteral("/MODULE_1+d41d8cd9"))->state, ModuleState::Success);
        const CacheModule *denied = s.find(V15 + QStringLiteral("/MODULE_2+d41d8cd9"));
        QVERIFY(denied);
        QCOMPARE(denied->state, ModuleState::Unknown);  // never classified, so never deleted
        QVERIFY(denied->warnings.join(QString()).contains(QStringLiteral("permission denied")));
        bool versionWarned = false;
        for (const auto &w : s.warnings)
            versionWarned = versionWarned || (w.path == V14 && w.message.contains(QStringLiteral("permission denied")));
        QVERIFY(versionWarned);
        QDir(base).removeRecursively();
    }

    void vanishingEntriesMidScan()
    {
        QTemporaryDir tmp;
        test::makeModule(tmp.path(), V15, QStringLiteral("MODULE_1+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::makeModule(tmp.path(), V15, QStringLiteral("MODULE_2+d41d8cd9"), {QStringLiteral("model.neff"), QStringLiteral("model.done")});
        test::makeModule(tmp.path(), V14, QStringLiteral("MODULE_3+d41d8cd9"), {QStringLiteral("model.neff")});
        // When the scanner lists V15 (newest first), V14 is deleted under it; and a module vanishes after listing.
        VanishingStore store(tmp.path(), V15, V14);
        CacheScanner scanner(store);
        const CacheSnapshot s = scanner.scan(nullptr);
        QVERIFY(s.find(V15 + QStringLiteral("/MODULE_1+d41d8cd9")));
        QVERIFY(!s.find(V14 + QStringLiteral("/MODULE_3+d41d8cd9")));
        bool warned = false;
        for (const auto &w : s.warnings)
            warned = warned || w.message.contains(QStringLiteral("vanished"));
        QVERIFY(warned);
        VanishingStore store2(tmp.path(), V15 + QStringLiteral("/MODULE_1+d41d8cd9"), V15 + QStringLiteral("/MODULE_2+d41d8cd9"));
        CacheScanner scanner2(store2);
        const CacheSnapshot s2 = scanner2.scan(nullptr);
        QVERIFY(s2.find(V15 + QStringLiteral("/MODULE_1+d41d8cd9")) || s2.find(V15 + QStringLiteral("/MODULE_2+d41d8cd9")) == nullptr);
    }

    void incrementalRescanReusesUnchangedModules()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 120, 3);
        ScanStats first;
        CacheSnapshot s1 = scan(root, &first);
        QCOMPARE(first.modulesReused, 0);
        // One new failed entry, one success entry removed, one locked entry finishes.
        test::makeModule(root, V15, QStringLiteral("MODULE_999+d41d8cd9"), {QStringLiteral("model.log")});
        QString removedKey, lockedKey;
        for (const auto &m : s1.modules) {
            if (removedKey.isEmpty() && m.state == ModuleState::Success && m.version == V15 && !m.name.contains(QLatin1Char(' ')))
                removedKey = m.key();
            if (lockedKey.isEmpty() && m.state == ModuleState::Locked)
                lockedKey = m.key();
        }
        QVERIFY(!removedKey.isEmpty() && !lockedKey.isEmpty());
        QDir(root + QLatin1Char('/') + removedKey).removeRecursively();
        for (const auto &f : QDir(root + QLatin1Char('/') + lockedKey).entryList({QStringLiteral("*.lock")}, QDir::Files))
            QFile::remove(root + QLatin1Char('/') + lockedKey + QLatin1Char('/') + f);
        ScanStats second;
        QVector<ScanDelta> deltas;
        LocalCacheStore store(root);
        CacheScanner scanner(store);
        const CacheSnapshot s2 = scanner.scan(&s1, [&](ScanDelta &&d) { deltas << d; }, nullptr, &second);
        QVERIFY2(second.modulesReused > 80, qPrintable(QString::number(second.modulesReused)));
        QStringList upserted, removed;
        for (const auto &d : deltas) {
            for (const auto &m : d.upserts)
                upserted << m.key();
            removed += d.removed;
        }
        QVERIFY(upserted.contains(V15 + QStringLiteral("/MODULE_999+d41d8cd9")));
        QVERIFY(upserted.contains(lockedKey));
        QCOMPARE(removed, QStringList{removedKey});
        QVERIFY(s2.find(lockedKey)->state != ModuleState::Locked);
        QCOMPARE(s2.modules.size(), s1.modules.size());  // one added, one removed
        // The result equals a full scan.
        const CacheSnapshot full = scan(root);
        QCOMPARE(full.modules.size(), s2.modules.size());
        for (const auto &m : full.modules)
            QCOMPARE(s2.find(m.key())->state, m.state);
    }

    // Only a Locked entry is read again when its folder did not change: a running compile writes its files in place.
    // Empty and Incomplete ones change only by names coming and going, which moves the folder's times.
    void rescanReadsLockedEntriesAgainAndReusesTheRest()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 200, 3);
        const CacheSnapshot s1 = scan(root);
        int locked = 0, modules = 0;
        QString lockedKey;
        for (const auto &m : s1.modules) {
            if (!m.isModule())
                continue;
            ++modules;
            if (m.state == ModuleState::Locked) {
                ++locked;
                if (lockedKey.isEmpty() && std::any_of(m.files.begin(), m.files.end(), [](const CacheFile &f) {
                        return f.name == QLatin1String("model.hlo_module.pb") && !f.is(CacheFile::Symlink);
                    }))
                    lockedKey = m.key();
            }
        }
        QVERIFY(locked > 0 && !lockedKey.isEmpty());
        QVERIFY(std::any_of(s1.modules.begin(), s1.modules.end(), [](const CacheModule &m) { return m.state == ModuleState::Empty; }));
        QVERIFY(std::any_of(s1.modules.begin(), s1.modules.end(), [](const CacheModule &m) { return m.state == ModuleState::Incomplete; }));
        // The compile writes on: the folder's times stay, the file grows.
        const QString pb = root + QLatin1Char('/') + lockedKey + QStringLiteral("/model.hlo_module.pb");
        const qint64 before = s1.find(lockedKey)->size;
        {
            QFile f(pb);
            QVERIFY(f.open(QIODevice::Append));
            QVERIFY(f.write(QByteArray(4096, 'x')) == 4096);
        }
        ScanStats st;
        QVector<ScanDelta> deltas;
        LocalCacheStore store(root);
        CacheScanner scanner(store);
        const CacheSnapshot s2 = scanner.scan(&s1, [&](ScanDelta &&d) { deltas << d; }, nullptr, &st);
        QCOMPARE(st.modulesReused, modules - locked);
        QCOMPARE(s2.find(lockedKey)->size, before + 4096);
        int upserted = 0;
        for (const auto &d : deltas)
            for (const auto &m : d.upserts)
                upserted += m.isModule() ? 1 : 0;
        QCOMPARE(upserted, locked);  // the reused ones are not sent again
        const CacheSnapshot full = scan(root);
        QCOMPARE(full.modules.size(), s2.modules.size());
        for (const auto &m : full.modules) {
            QCOMPARE(s2.find(m.key())->state, m.state);
            QCOMPARE(s2.find(m.key())->size, m.size);
        }
    }

    // The version folder is read for its names first; each module folder is looked at afterwards. One that vanishes
    // in between is gone (no warning, no row), one swapped for a link is shown as a link, never followed.
    void moduleFoldersChangingWhileAVersionIsRead()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 60, 3);
        const CacheSnapshot s1 = scan(root);
        QStringList keys;
        for (const auto &m : s1.modules)
            if (m.isModule() && m.version == V15 && keys.size() < 2)
                keys << m.key();
        QCOMPARE(keys.size(), 2);
        QTemporaryDir elsewhere;
        for (const bool incremental : {false, true}) {
            QTemporaryDir copy;
            QVERIFY(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), root + QStringLiteral("/."), copy.path()}) == 0);
            RacingStore store(copy.path());
            store.beforeStat = [&](const QString &rel) {
                const QByteArray path = QFile::encodeName(copy.path() + QLatin1Char('/') + rel);
                if (rel == keys[0]) {
                    QDir(QString::fromLocal8Bit(path)).removeRecursively();
                } else if (rel == keys[1]) {
                    QDir(QString::fromLocal8Bit(path)).removeRecursively();
                    QVERIFY(::symlink(QFile::encodeName(elsewhere.path()).constData(), path.constData()) == 0);
                }
            };
            CacheScanner scanner(store);
            const CacheSnapshot s = scanner.scan(incremental ? &s1 : nullptr);
            QVERIFY(store.statted > 0);
            QVERIFY(!s.find(keys[0]));
            QVERIFY(s.find(keys[1]));
            QCOMPARE(s.find(keys[1])->kind, EntryKind::LinkedDir);
            QVERIFY(s.find(keys[1])->warnings.join(QLatin1Char(' ')).contains(QLatin1String("outside the cache root")));
            QCOMPARE(s.modules.size(), s1.modules.size() - 1);
            for (const auto &w : s.warnings)
                QVERIFY2(!w.path.startsWith(keys[0]), qPrintable(w.message));
        }
    }

    // A store's own statEntry() and the generic one (the parent's listing, for stores that list everything at once)
    // agree; a name that is not there is gone.
    void statEntryAgreesWithTheListing()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 20, 3);
        const CacheSnapshot s = scan(root);
        QString key;
        for (const auto &m : s.modules)
            if (m.isModule() && key.isEmpty())
                key = m.key();
        PassThroughStore store(root);
        QString error;
        QVERIFY(store.open(&error));
        StoreEntry own, generic;
        bool vanished = true;
        QVERIFY2(store.statEntry(key, &own, &vanished, &error), qPrintable(error));
        QVERIFY(!vanished);
        QVERIFY2(store.CacheStore::statEntry(key, &generic, &vanished, &error), qPrintable(error));
        QCOMPARE(own.type, StoreEntry::Type::Dir);
        QCOMPARE(generic.type, own.type);
        QCOMPARE(generic.mtimeMs, own.mtimeMs);
        QCOMPARE(generic.ctimeMs, s.find(key)->dirCtimeMs);
        QVERIFY(own.statted && generic.statted);
        for (const bool useGeneric : {false, true}) {
            StoreEntry e;
            vanished = false;
            const QString gone = key + QStringLiteral("-gone");
            QVERIFY(!(useGeneric ? store.CacheStore::statEntry(gone, &e, &vanished, &error) : store.statEntry(gone, &e, &vanished, &error)));
            QVERIFY(vanished);
        }
    }

    void progressiveBatchesAndCancel()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 400, 5);
        LocalCacheStore store(root);
        CacheScanner scanner(store);
        scanner.setBatchInterval(0);
        int batches = 0, rows = 0;
        scanner.scan(nullptr, [&](ScanDelta &&d) { ++batches; rows += d.upserts.size(); });
        QVERIFY(batches > 3);
        QVERIFY(rows >= 400);
        std::atomic_bool cancel{false};
        ScanStats st;
        int seen = 0;
        LocalCacheStore store2(root);
        CacheScanner scanner2(store2);
        scanner2.setBatchInterval(0);
        scanner2.scan(nullptr, [&](ScanDelta &&d) {
            seen += d.upserts.size();
            if (seen > 50)
                cancel = true;
        }, &cancel, &st);
        QVERIFY(st.cancelled);
        QVERIFY(seen < 400);
    }

    void parallelListingEqualsSequential()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 600, 8);
        LocalCacheStore a(root), b(root);
        CacheScanner one(a), four(b);
        one.setThreads(1);
        four.setThreads(4);
        const CacheSnapshot s1 = one.scan(nullptr), s4 = four.scan(nullptr);
        QCOMPARE(s4.modules.size(), s1.modules.size());
        for (const CacheModule &m : s1.modules) {
            const CacheModule *p = s4.find(m.key());
            QVERIFY(p);
            QCOMPARE(p->state, m.state);
            QCOMPARE(p->size, m.size);
            QCOMPARE(p->fileCount(), m.fileCount());
            QCOMPARE(p->lastUsedMs, m.lastUsedMs);
        }
    }

    void sampleCacheScansToWhatWasWritten()
    {
        QTemporaryDir tmp;
        SampleCacheOptions o;
        o.modules = 300;
        o.seed = 11;
        SampleCacheResult res;
        QString error;
        QVERIFY(writeSampleCache(tmp.path() + QStringLiteral("/c"), o, &res, &error));
        const CacheSnapshot s = scan(tmp.path() + QStringLiteral("/c"));
        const CacheStats st = computeStats(s.modules, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(st.entries, res.modules);
        for (int i = 0; i < ModuleStateCount; ++i)
            QCOMPARE(st.perState[i], res.perState[i]);
        QCOMPARE(st.size, res.bytes);
        QCOMPARE(st.versions.size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestCacheScanner)
#include "tst_cachescanner.moc"
