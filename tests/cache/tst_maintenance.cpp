// Maintenance on real folders: plans are exact, execution re-checks, locked and outside things are never touched.
#include "services/cache/cachefilter.h"
#include "services/cache/cachepolicy.h"
#include "services/cache/cachescanner.h"
#include "services/stores/localcachestore.h"
#include "services/cache/maintenance.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTest>
#include <QTranslator>

#include <atomic>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace ingot;

namespace {
const QString V15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString V14 = QStringLiteral("neuronxcc-2.14.227.0+2d4f85be");
const QStringList OK = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.neff"), QStringLiteral("model.done")};
const QStringList FAILED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")};
const QStringList LOCKED = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo_module.pb.lock")};

QVector<CacheModule> scan(const QString &root)
{
    LocalCacheStore store(root);
    CacheScanner scanner(store);
    return scanner.scan(nullptr).modules;
}

QStringList keys(const MaintenancePlan &p)
{
    QStringList k;
    for (const auto &i : p.items)
        k << i.key;
    k.sort();
    return k;
}

// Marks every text asked of it, as a translation would change it: a word shown to people goes through tr() when
// it comes out marked ("«FAILED»"), and raw when it does not.
class MarkingTranslator final : public QTranslator
{
public:
    QString translate(const char *, const char *source, const char *, int) const override
    {
        return QStringLiteral("\u00ab%1\u00bb").arg(QString::fromUtf8(source));
    }
    bool isEmpty() const override { return false; }
};

bool exists(const QString &root, const QString &key)
{
    return QFileInfo::exists(root + QLatin1Char('/') + key);
}
}  // namespace

class TestMaintenance : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanFailedAllOrSome()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        test::makeModule(r, V15, QStringLiteral("MODULE_2+aa"), FAILED);
        test::makeModule(r, V15, QStringLiteral("MODULE_3+aa"), OK);
        test::makeModule(r, V14, QStringLiteral("MODULE_4+aa"), FAILED);
        const auto mods = scan(r);
        MaintenancePlan all = planCleanFailed(mods);
        QCOMPARE(keys(all), (QStringList{V14 + QStringLiteral("/MODULE_4+aa"), V15 + QStringLiteral("/MODULE_1+aa"), V15 + QStringLiteral("/MODULE_2+aa")}));
        QVERIFY(all.bytes > 0);
        QCOMPARE(all.cacheBytesAfter, all.cacheBytesBefore - all.bytes);
        // One entry only, and a non-failed one named: kept with a reason.
        MaintenancePlan one = planCleanFailed(mods, {V15 + QStringLiteral("/MODULE_2+aa"), V15 + QStringLiteral("/MODULE_3+aa")});
        QCOMPARE(keys(one), QStringList{V15 + QStringLiteral("/MODULE_2+aa")});
        QCOMPARE(one.kept.size(), 1);
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, one);
        QCOMPARE(rep.done, 1);
        QVERIFY(!exists(r, V15 + QStringLiteral("/MODULE_2+aa")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_1+aa")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_3+aa")));
    }

    // Issue 35: the preview said "FAILED：" in Chinese; the state words of its reasons go through tr() (and the
    // CLI's STATE column, stateText), while stateName stays the raw word for files and --json.
    void stateWordsAreTranslated()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        test::makeModule(r, V15, QStringLiteral("MODULE_3+aa"), OK);
        MarkingTranslator marking;
        QCoreApplication::installTranslator(&marking);
        const MaintenancePlan plan = planCleanFailed(scan(r), {V15 + QStringLiteral("/MODULE_1+aa"), V15 + QStringLiteral("/MODULE_3+aa")});
        QCoreApplication::removeTranslator(&marking);
        QCOMPARE(plan.items.size(), 1);
        QVERIFY2(plan.items[0].reason.contains(QStringLiteral("\u00abFAILED\u00bb")), qPrintable(plan.items[0].reason));
        QCOMPARE(plan.kept.size(), 1);
        QVERIFY2(plan.kept[0].reason.contains(QStringLiteral("\u00abSUCCESS\u00bb")), qPrintable(plan.kept[0].reason));
        QCoreApplication::installTranslator(&marking);
        QCOMPARE(stateText(ModuleState::Locked), QStringLiteral("\u00abLOCKED\u00bb"));
        QCOMPARE(stateName(ModuleState::Locked), QStringLiteral("LOCKED"));
        QCoreApplication::removeTranslator(&marking);
        QCOMPARE(stateText(ModuleState::Failed), QStringLiteral("FAILED"));
    }

    void executionRechecksEachEntry()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        test::makeModule(r, V15, QStringLiteral("MODULE_2+aa"), FAILED);
        test::makeModule(r, V15, QStringLiteral("MODULE_3+aa"), FAILED);
        test::makeModule(r, V15, QStringLiteral("MODULE_4+aa"), FAILED);
        const MaintenancePlan plan = planCleanFailed(scan(r));
        QCOMPARE(plan.items.size(), 4);
        // Between preview and run: one gets locked (a retry started), one vanishes, one compiled fine.
        test::writeFile(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb.lock"), {});
        QDir(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_2+aa")).removeRecursively();
        test::writeFile(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_3+aa/model.neff"), "NEFF");
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, plan);
        QCOMPARE(rep.done, 1);
        QCOMPARE(rep.skipped, 3);  // a vanished entry is not a failure: it is gone, as asked (two hosts sharing one folder)
        QCOMPARE(rep.failed, 0);
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_1+aa")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_3+aa")));
        QVERIFY(!exists(r, V15 + QStringLiteral("/MODULE_4+aa")));
        QHash<QString, ItemOutcome> by;
        for (const auto &o : rep.outcomes)
            by.insert(o.key, o);
        QVERIFY(by[V15 + QStringLiteral("/MODULE_1+aa")].message.contains(QStringLiteral("locked")));
        QVERIFY(by[V15 + QStringLiteral("/MODULE_2+aa")].message.contains(QStringLiteral("vanished")));
        QVERIFY(by[V15 + QStringLiteral("/MODULE_3+aa")].message.contains(QStringLiteral("no longer FAILED")));
    }

    void pruneByTtlThenLruButKeepRecent()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        const qint64 MB = 1000 * 1000;
        test::makeModule(r, V15, QStringLiteral("MODULE_old1+aa"), OK, 90, 300 * MB);
        test::makeModule(r, V15, QStringLiteral("MODULE_old2+aa"), OK, 45, 300 * MB);
        test::makeModule(r, V15, QStringLiteral("MODULE_new1+aa"), OK, 10, 300 * MB);
        test::makeModule(r, V15, QStringLiteral("MODULE_new2+aa"), OK, 1, 300 * MB);
        test::makeModule(r, V15, QStringLiteral("MODULE_lock+aa"), LOCKED, 200);
        const auto mods = scan(r);
        PruneOptions o;
        o.nowMs = QDateTime::currentMSecsSinceEpoch();
        o.ttlDays = 30;
        o.maxBytes = 100 * MB;
        MaintenancePlan p = planPrune(mods, o);
        // The two expired ones go; the recent ones stay even though the cache stays over 100 MB.
        QCOMPARE(keys(p), (QStringList{V15 + QStringLiteral("/MODULE_old1+aa"), V15 + QStringLiteral("/MODULE_old2+aa")}));
        QVERIFY(p.notes.join(QString()).contains(QStringLiteral("within the last 30 days")));
        QCOMPARE(p.kept.size(), 1);  // the locked one, old as it is
        QVERIFY(p.kept[0].reason.contains(QStringLiteral("LOCKED")));
        // No TTL: pure LRU down to the limit, oldest first.
        o.ttlDays = 0;
        o.maxBytes = 700 * MB;
        p = planPrune(mods, o);
        QCOMPARE(keys(p), (QStringList{V15 + QStringLiteral("/MODULE_old1+aa"), V15 + QStringLiteral("/MODULE_old2+aa")}));
        o.maxBytes = 650 * MB;
        p = planPrune(mods, o);
        QCOMPARE(p.items.size(), 2);
        o.maxBytes = 500 * MB;
        p = planPrune(mods, o);
        QCOMPARE(p.items.size(), 3);
        QCOMPARE(p.items[2].key, V15 + QStringLiteral("/MODULE_new1+aa"));
        // A longer TTL keeps everything; no limit and no TTL removes nothing.
        o.ttlDays = 365;
        o.maxBytes = 0;
        QVERIFY(planPrune(mods, o).items.isEmpty());
        // Run it: prune with TTL 30.
        o.ttlDays = 30;
        o.maxBytes = 100 * MB;
        p = planPrune(mods, o);
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, p);
        QCOMPARE(rep.done, 2);
        QVERIFY(!exists(r, V15 + QStringLiteral("/MODULE_old1+aa")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_lock+aa")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_new1+aa")));
    }

    void pruneSkipsAnEntryUsedSinceThePreview()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_old+aa"), OK, 90);
        PruneOptions o;
        o.nowMs = QDateTime::currentMSecsSinceEpoch();
        const MaintenancePlan p = planPrune(scan(r), o);
        QCOMPARE(p.items.size(), 1);
        test::setAge(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_old+aa/model.neff"), 0);  // a job read it
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, p);
        QCOMPARE(rep.skipped, 1);
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_old+aa")));
    }

    // Issue 39: cache rm --filter and the cache page's Remove matching: what the expressions select goes, locked
    // entries stay (said), and each entry must still match right before it goes (one used since the preview no longer
    // matches used>30d: kept).
    void removeMatchingTheFilter()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_old+aa"), OK, 90);
        test::makeModule(r, V15, QStringLiteral("MODULE_old2+aa"), OK, 60);
        test::makeModule(r, V15, QStringLiteral("MODULE_new+aa"), OK, 1);
        test::makeModule(r, V14, QStringLiteral("MODULE_oldlocked+aa"), LOCKED, 90);
        CacheFilter f;
        QString why;
        QVERIFY2(CacheFilter::parse({QStringLiteral("used>30d")}, &f, &why), qPrintable(why));
        const MaintenancePlan p = planRemoveMatching(scan(r), f, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(keys(p), (QStringList{V15 + QStringLiteral("/MODULE_old+aa"), V15 + QStringLiteral("/MODULE_old2+aa")}));
        QCOMPARE(p.kept.size(), 1);
        QCOMPARE(p.kept[0].key, V14 + QStringLiteral("/MODULE_oldlocked+aa"));
        QCOMPARE(p.filter, QStringList{QStringLiteral("used>30d")});
        test::setAge(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_old2+aa/model.neff"), 0);  // a job read it
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, p);
        QCOMPARE(rep.done, 1);
        QCOMPARE(rep.skipped, 1);
        QVERIFY(!exists(r, V15 + QStringLiteral("/MODULE_old+aa")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_old2+aa")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_new+aa")));
        QVERIFY(exists(r, V14 + QStringLiteral("/MODULE_oldlocked+aa")));
        // No expression: nothing planned, and why.
        const MaintenancePlan none = planRemoveMatching(scan(r), CacheFilter(), QDateTime::currentMSecsSinceEpoch());
        QVERIFY(none.items.isEmpty());
        QVERIFY(!none.refusal.isEmpty());
    }

    // Issue 39: a named policy's plan: each entry once, under the first rule that takes it (failed, other compiler,
    // unused, then least recently used while over the size); locked entries kept; a compile running there leaves the
    // locks (a note) while the entries still go; and at run time an entry recompiled or used since the preview stays.
    void policyPlansEachRuleOnce()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        const QString V13 = QStringLiteral("neuronxcc-2.13.66.0+6dfecc89");
        test::makeModule(r, V13, QStringLiteral("MODULE_old+aa"), OK, 1);        // an old compiler: goes
        test::makeModule(r, V14, QStringLiteral("MODULE_fail+aa"), FAILED, 1);   // failed: goes
        test::makeModule(r, V14, QStringLiteral("MODULE_unused+aa"), OK, 90);    // unused > 30 d: goes
        test::makeModule(r, V14, QStringLiteral("MODULE_lru+aa"), OK, 20);       // the least recently used of the rest
        test::makeModule(r, V15, QStringLiteral("MODULE_new+aa"), OK, 1);
        test::makeModule(r, V15, QStringLiteral("MODULE_held+aa"), LOCKED, 300); // locked: kept
        const QVector<CacheModule> mods = scan(r);
        qint64 total = 0, newSize = 0, heldSize = 0;
        for (const CacheModule &m : mods) {
            total += m.size;
            if (m.name == QLatin1String("MODULE_new+aa"))
                newSize = m.size;
            if (m.name == QLatin1String("MODULE_held+aa"))
                heldSize = m.size;
        }
        CachePolicy p;
        p.name = QStringLiteral("team");
        p.keepVersions = 2;
        p.unusedDays = 30;
        p.removeFailed = true;
        p.clearLocks = true;
        p.maxBytes = newSize + heldSize;  // everything but the newest and the locked one must go
        const MaintenancePlan plan = planPolicy(mods, p, RunningCompilers{{4242}, {}}, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(plan.action, MaintenanceAction::Policy);
        QCOMPARE(keys(plan), (QStringList{V13 + QStringLiteral("/MODULE_old+aa"), V14 + QStringLiteral("/MODULE_fail+aa"),
                                          V14 + QStringLiteral("/MODULE_lru+aa"), V14 + QStringLiteral("/MODULE_unused+aa")}));
        QHash<QString, QString> why;
        for (const PlanItem &i : plan.items)
            why.insert(i.name, i.reason);
        QVERIFY2(why.value(QStringLiteral("MODULE_old+aa")).contains(QStringLiteral("not one of the 2 newest")), qPrintable(why.value(QStringLiteral("MODULE_old+aa"))));
        QVERIFY(why.value(QStringLiteral("MODULE_fail+aa")).startsWith(QStringLiteral("Failed")));
        QVERIFY(why.value(QStringLiteral("MODULE_unused+aa")).startsWith(QStringLiteral("Unused for 90 days")));
        QVERIFY(why.value(QStringLiteral("MODULE_lru+aa")).startsWith(QStringLiteral("Least recently used")));
        QCOMPARE(plan.kept.size(), 1);
        QCOMPARE(plan.kept[0].key, V15 + QStringLiteral("/MODULE_held+aa"));
        QVERIFY(std::any_of(plan.notes.cbegin(), plan.notes.cend(), [](const QString &n) { return n.startsWith(QStringLiteral("Locks are left")); }));
        QCOMPARE(plan.cacheBytesAfter, total - plan.bytes);
        QCOMPARE(plan.cacheBytesAfter, newSize + heldSize);
        // Between preview and run: the failed entry compiled again (now SUCCESS), the unused one was read.
        test::writeFile(r + QLatin1Char('/') + V14 + QStringLiteral("/MODULE_fail+aa/model.neff"), "NEFF");
        test::writeFile(r + QLatin1Char('/') + V14 + QStringLiteral("/MODULE_fail+aa/model.done"), {});
        test::setAge(r + QLatin1Char('/') + V14 + QStringLiteral("/MODULE_unused+aa/model.neff"), 0);
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, plan);
        QCOMPARE(rep.done, 2);
        QCOMPARE(rep.skipped, 2);
        QVERIFY(!exists(r, V13 + QStringLiteral("/MODULE_old+aa")));
        QVERIFY(!exists(r, V14 + QStringLiteral("/MODULE_lru+aa")));
        QVERIFY(exists(r, V14 + QStringLiteral("/MODULE_fail+aa")));
        QVERIFY(exists(r, V14 + QStringLiteral("/MODULE_unused+aa")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_held+aa/model.hlo_module.pb.lock")));
    }

    void removeVersionsKeepsLockedAndUnknown()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), OK);
        test::makeModule(r, V14, QStringLiteral("MODULE_2+aa"), OK);
        test::makeModule(r, V14, QStringLiteral("MODULE_3+aa"), FAILED);
        const QString v13 = QStringLiteral("neuronxcc-2.13.66.0+6dfecc895");
        test::makeModule(r, v13, QStringLiteral("MODULE_4+aa"), OK);
        test::makeModule(r, v13, QStringLiteral("MODULE_5+aa"), LOCKED);
        test::writeFile(r + QLatin1Char('/') + v13 + QStringLiteral("/notes.txt"), "mine");
        const MaintenancePlan p = planRemoveVersions(scan(r), {V15});
        QCOMPARE(p.entryCount(), 3);
        QCOMPARE(p.kept.size(), 2);
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, p);
        QCOMPARE(rep.failed, 0);
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_1+aa")));
        QVERIFY(!exists(r, V14));  // emptied, then removed
        QVERIFY(exists(r, v13 + QStringLiteral("/MODULE_5+aa")));
        QVERIFY(exists(r, v13 + QStringLiteral("/notes.txt")));
        QVERIFY(!exists(r, v13 + QStringLiteral("/MODULE_4+aa")));
    }

    void symlinkTargetsOutsideTheRootSurvive()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path() + QStringLiteral("/cache");
        const QString blob = tmp.path() + QStringLiteral("/hf/hub/models--a--b/blobs/beef");
        test::writeFile(blob, QByteArray(1000, 'n'));
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), FAILED, 100);
        QFile::link(blob, r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/linked.bin"));
        QFile::link(tmp.path() + QStringLiteral("/hf"), r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/linkdir"));
        const MaintenancePlan p = planCleanFailed(scan(r));
        LocalCacheStore store(r);
        QCOMPARE(executePlan(store, p).done, 1);
        QVERIFY(QFile::exists(blob));
        QCOMPARE(QFileInfo(blob).size(), 1000);
    }

    // Issue 35: where the store cannot tell whether a compile runs (an S3 cache), locks are cleared only with an age:
    // without one nothing is planned and the refusal says why; with one, only lock files older than it, the rule said.
    void clearLocksByAgeWhereCompilesCannotBeSeen()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path() + QStringLiteral("/cache");
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), LOCKED);
        test::makeModule(r, V15, QStringLiteral("MODULE_2+aa"), LOCKED);
        const QString oldLock = r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb.lock");
        const QString youngLock = r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_2+aa/model.hlo_module.pb.lock");
        QFile f(oldLock);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-3 * 3600), QFileDevice::FileModificationTime));
        f.close();
        const QVector<CacheModule> modules = scan(r);
        const RunningCompilers unseen{{}, QStringLiteral("A compile on any machine may be writing it.")};
        const MaintenancePlan none = planClearLocks(modules, unseen);
        QVERIFY(none.items.isEmpty());
        QCOMPARE(none.kept.size(), 2);
        QVERIFY2(none.refusal.contains(QStringLiteral("without an age")), qPrintable(none.refusal));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const MaintenancePlan aged = planClearLocks(modules, unseen, 2 * 3600 * 1000, now);
        QVERIFY(aged.refusal.isEmpty());
        QCOMPARE(keys(aged), QStringList{V15 + QStringLiteral("/MODULE_1+aa")});
        QCOMPARE(aged.items.first().files, QStringList{QStringLiteral("model.hlo_module.pb.lock")});
        QCOMPARE(aged.kept.size(), 1);
        QVERIFY2(aged.kept.first().reason.contains(QStringLiteral("younger than 2h")), qPrintable(aged.kept.first().reason));
        QVERIFY(aged.notes.join(QLatin1Char(' ')).contains(QStringLiteral("older than 2h is taken as left by a compile that ended")));
        // Run (on a folder, which can tell: no compiler runs here): only the old lock goes.
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, aged);
        QVERIFY2(rep.refusal.isEmpty(), qPrintable(rep.refusal));
        QCOMPARE(rep.done, 1);
        QVERIFY(!QFile::exists(oldLock));
        QVERIFY(QFile::exists(youngLock));
        // The age as written after --older-than.
        QCOMPARE(parseLockAge(QStringLiteral("90m")), 90 * 60 * 1000LL);
        QCOMPARE(parseLockAge(QStringLiteral("2h")), 2 * 3600 * 1000LL);
        QCOMPARE(parseLockAge(QStringLiteral("7d")), 7 * 86400 * 1000LL);
        QCOMPARE(parseLockAge(QStringLiteral("30s")), 30 * 1000LL);
        for (const char *bad : {"", "h", "2", "0h", "-2h", "2x", "1.5h", "2 h", "99999999999d", "+2h"})
            QVERIFY2(parseLockAge(QString::fromLatin1(bad)) < 0, bad);
        QCOMPARE(lockAgeText(90 * 60 * 1000LL), QStringLiteral("90m"));
        QCOMPARE(lockAgeText(48 * 3600 * 1000LL), QStringLiteral("2d"));
    }

    void clearLocksRefusedWhileCompilerRuns()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path() + QStringLiteral("/cache");
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), LOCKED);
        test::makeModule(r, V15, QStringLiteral("MODULE_2+aa"), OK);
        LocalCacheStore store(r);
        {
            test::FakeCompilerProcess compiler(tmp);
            const MaintenancePlan p = planClearLocks(scan(r), queryRunningCompilers(store));
            QCOMPARE(p.items.size(), 1);
            QVERIFY(p.refusal.contains(QStringLiteral("neuronx-cc is running")));
            QVERIFY(p.refusal.contains(QString::number(compiler.pid())));
            const MaintenanceReport rep = executePlan(store, p);
            QVERIFY(!rep.refusal.isEmpty());
            QVERIFY(QFile::exists(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb.lock")));
        }
        const MaintenancePlan p = planClearLocks(scan(r), queryRunningCompilers(store));
        QVERIFY(p.refusal.isEmpty());
        // A compiler starting between preview and run is caught too.
        {
            test::FakeCompilerProcess compiler(tmp);
            QVERIFY(!executePlan(store, p).refusal.isEmpty());
        }
        const MaintenanceReport rep = executePlan(store, p);
        QCOMPARE(rep.done, 1);
        QVERIFY(!QFile::exists(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb.lock")));
        QVERIFY(QFile::exists(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb")));
        QCOMPARE(scan(r).first().state == ModuleState::Locked, false);
    }

    void permissionDeniedIsReportedAndTheRestGoesOn()
    {
        INGOT_RUN_UNPRIVILEGED();
        const QString r = qEnvironmentVariable("INGOT_TEST_DIR", QDir::tempPath()) + QStringLiteral("/perm");
        QDir(r).removeRecursively();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        test::makeModule(r, V15, QStringLiteral("MODULE_2+aa"), FAILED);
        test::makeModule(r, V15, QStringLiteral("MODULE_3+aa"), FAILED);
        const QString protectedDir = r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_2+aa");
        QFile::setPermissions(protectedDir, QFile::ReadOwner | QFile::ExeOwner);  // files inside cannot be unlinked
        const MaintenancePlan p = planCleanFailed(scan(r));
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, p);
        QFile::setPermissions(protectedDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QCOMPARE(rep.done, 2);
        QCOMPARE(rep.failed, 1);
        QString msg;
        for (const auto &o : rep.outcomes)
            if (o.result == ItemOutcome::Result::Failed)
                msg = o.message;
        QVERIFY2(msg.contains(QStringLiteral("permission denied")), qPrintable(msg));
        // What could not be removed stays under its own name, nothing hidden.
        QVERIFY(QFileInfo::exists(protectedDir));
        QDir(r).removeRecursively();
    }

    void neverLeavesTheRootEvenWithAForgedPlan()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path() + QStringLiteral("/cache");
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        test::makeModule(tmp.path(), QStringLiteral("victim"), QStringLiteral("MODULE_9+aa"), FAILED);
        MaintenancePlan p = planCleanFailed(scan(r));
        p.items[0].version = QStringLiteral("..");
        p.items[0].name = QStringLiteral("victim/MODULE_9+aa");
        p.items[0].key = QStringLiteral("../victim/MODULE_9+aa");
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, p);
        QCOMPARE(rep.done, 0);
        QCOMPARE(rep.failed, 1);
        QVERIFY(QFileInfo::exists(tmp.path() + QStringLiteral("/victim/MODULE_9+aa/model.log")));
    }

    // Hardening (issue 10, items 7-10): races with the compiler, a swapped root, partial removals, odd names.

    void aLockTakenJustBeforeRemovalKeepsTheEntry()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        LocalCacheStore store(r);
        QString error;
        QVERIFY(store.open(&error));
        // The preview saw no lock; a compile takes the entry right before the removal.
        test::writeFile(r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb.lock"), {});
        qint64 freed = 0;
        QCOMPARE(store.removeEntry(V15 + QStringLiteral("/MODULE_1+aa"), &freed, &error), CacheStore::RemoveResult::Locked);
        QVERIFY(error.contains(QStringLiteral("locked")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_1+aa/model.log")));
        QVERIFY(exists(r, V15 + QStringLiteral("/MODULE_1+aa/model.hlo_module.pb.lock")));
        QCOMPARE(QDir(r + QLatin1Char('/') + V15).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).size(), 1);
    }

    void locksPlantedDuringAPruneAreNeverRemoved()
    {
        // A thread plants locks into entries while a prune runs: every lock that was planted must survive.
        QTemporaryDir tmp;
        const QString r = tmp.path();
        const int n = 400;
        for (int i = 0; i < n; ++i)
            test::makeModule(r, V15, QStringLiteral("MODULE_%1+aa").arg(i), OK, 100);
        PruneOptions o;
        o.nowMs = QDateTime::currentMSecsSinceEpoch();
        const MaintenancePlan p = planPrune(scan(r), o);
        QCOMPARE(p.entryCount(), n);
        std::atomic_bool stop{false};
        std::atomic_int planted{0};
        std::thread racer([&] {
            for (int round = 0; !stop; round = (round + 1) % n) {
                const QByteArray lock = QFile::encodeName(r + QLatin1Char('/') + V15 +
                                                          QStringLiteral("/MODULE_%1+aa/model.hlo_module.pb.lock").arg(round));
                const int fd = ::open(lock.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
                if (fd >= 0) {
                    ::close(fd);
                    ++planted;
                }
            }
        });
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, p);
        stop = true;
        racer.join();
        int locksLeft = 0;
        for (const QString &m : QDir(r + QLatin1Char('/') + V15).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            locksLeft += QFileInfo::exists(r + QLatin1Char('/') + V15 + QLatin1Char('/') + m + QStringLiteral("/model.hlo_module.pb.lock"));
        QVERIFY(planted > 0);
        QCOMPARE(locksLeft, planted.load());
        QCOMPARE(rep.done + rep.skipped + rep.failed, n);
        QCOMPARE(rep.failed, 0);
    }

    void aSwappedRootIsRefused()
    {
        // The cache root is a link; between the preview and the confirmation its target is swapped.
        QTemporaryDir tmp;
        const QString a = tmp.path() + QStringLiteral("/a"), b = tmp.path() + QStringLiteral("/b");
        const QString link = tmp.path() + QStringLiteral("/cache");
        test::makeModule(a, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        test::makeModule(b, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        QVERIFY(QFile::link(a, link));
        LocalCacheStore previewStore(link);
        CacheSnapshot snap = CacheScanner(previewStore).scan(nullptr);
        MaintenancePlan p = planCleanFailed(snap.modules);
        p.rootIdentity = snap.rootIdentity;
        QVERIFY(!p.rootIdentity.isEmpty());
        QVERIFY(QFile::remove(link));
        QVERIFY(QFile::link(b, link));
        LocalCacheStore store(link);
        const MaintenanceReport rep = executePlan(store, p);
        QVERIFY2(rep.refusal.contains(QStringLiteral("no longer the folder")), qPrintable(rep.refusal));
        QCOMPARE(rep.done, 0);
        QVERIFY(exists(b, V15 + QStringLiteral("/MODULE_1+aa/model.log")));
        QVERIFY(exists(a, V15 + QStringLiteral("/MODULE_1+aa/model.log")));
        // The same plan on the same folder runs.
        QVERIFY(QFile::remove(link));
        QVERIFY(QFile::link(a, link));
        LocalCacheStore again(link);
        QCOMPARE(executePlan(again, p).done, 1);
    }

    void anEntryGoesWholeOrNotAtAll()
    {
        INGOT_RUN_UNPRIVILEGED();
        const QString r = qEnvironmentVariable("INGOT_TEST_DIR", QDir::tempPath()) + QStringLiteral("/whole");
        QDir(r).removeRecursively();
        test::makeModule(r, V15, QStringLiteral("MODULE_1+aa"), FAILED);
        const QString entry = r + QLatin1Char('/') + V15 + QStringLiteral("/MODULE_1+aa");
        test::writeFile(entry + QStringLiteral("/notes.txt"), "someone's notes");
        QDir().mkpath(entry + QStringLiteral("/sub"));
        test::writeFile(entry + QStringLiteral("/sub/kept.bin"), "x");
        QFile::setPermissions(entry + QStringLiteral("/sub"), QFile::ReadOwner | QFile::ExeOwner);  // cannot be emptied
        LocalCacheStore store(r);
        const MaintenanceReport rep = executePlan(store, planCleanFailed(scan(r)));
        QFile::setPermissions(entry + QStringLiteral("/sub"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QCOMPARE(rep.failed, 1);
        QVERIFY2(rep.outcomes.first().message.contains(QStringLiteral("Nothing of it was removed")), qPrintable(rep.outcomes.first().message));
        QVERIFY2(rep.outcomes.first().message.contains(QStringLiteral("sub")), qPrintable(rep.outcomes.first().message));
        // Every file is still there, under the entry's own name: the log, the unknown file, the sub-folder's file.
        QVERIFY(QFileInfo::exists(entry + QStringLiteral("/model.log")));
        QVERIFY(QFileInfo::exists(entry + QStringLiteral("/notes.txt")));
        QVERIFY(QFileInfo::exists(entry + QStringLiteral("/compile_flags.json")));
        QVERIFY(QFileInfo::exists(entry + QStringLiteral("/sub/kept.bin")));
        QCOMPARE(QDir(r + QLatin1Char('/') + V15).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).size(), 1);
        QDir(r).removeRecursively();
    }

    void namesAreBytes()
    {
        QTemporaryDir tmp;
        const QString r = tmp.path();
        const QByteArray v = QFile::encodeName(r + QLatin1Char('/') + V15);
        QDir().mkpath(QFile::decodeName(v));
        auto make = [&](const QByteArray &name, const char *file) {
            const QByteArray d = v + '/' + name;
            QVERIFY(::mkdir(d.constData(), 0755) == 0);
            const QByteArray f = d + '/' + file;
            const int fd = ::open(f.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
            QVERIFY(fd >= 0);
            ::close(fd);
        };
        const QByteArray longName = "MODULE_" + QByteArray(243, '7') + "+aaaa";  // 255 bytes, the limit
        QCOMPARE(longName.size(), 255);
        make(longName, "model.log");
        make("MODULE_a\\b+aa", "model.log");  // a backslash is an ordinary character
        make("MODULE_x\xff", "model.log");     // not UTF-8
        make("MODULE_x\xef\xbf\xbd", "model.neff");  // its U+FFFD twin, a different entry
        LocalCacheStore store(r);
        CacheSnapshot snap = CacheScanner(store).scan(nullptr);
        QCOMPARE(snap.modules.size(), 4);
        for (const ScanWarning &w : snap.warnings)  // odd names are pointed out, never reported as vanished
            QVERIFY2(!w.message.contains(QStringLiteral("exist")) && !w.message.contains(QStringLiteral("vanish")), qPrintable(w.message));
        const MaintenancePlan p = planCleanFailed(snap.modules);
        QCOMPARE(p.entryCount(), 3);
        LocalCacheStore exec(r);
        const MaintenanceReport rep = executePlan(exec, p);
        QCOMPARE(rep.done, 3);
        QCOMPARE(rep.failed, 0);
        QDir dir(QFile::decodeName(v));
        const QStringList left = dir.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        QCOMPARE(left.size(), 1);  // only the twin, which is not a failed entry
        struct stat st {};
        const QByteArray twin = v + "/MODULE_x\xef\xbf\xbd/model.neff";
        QVERIFY(::stat(twin.constData(), &st) == 0);
    }
};

QTEST_GUILESS_MAIN(TestMaintenance)
#include "tst_maintenance.moc"
