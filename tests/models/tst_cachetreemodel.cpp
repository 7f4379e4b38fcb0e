// The cache tree model: progressive inserts, in-place updates, removals, group totals; checked by
// QAbstractItemModelTester throughout.
#include "services/cache/cachescanner.h"
#include "models/cache/cachetreemodel.h"
#include "services/util/names.h"
#include "services/stores/localcachestore.h"
#include "tests/support/testsupport.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>
#include <QTranslator>

using namespace ingot;

namespace {
CacheModule mod(const QString &version, const QString &name, ModuleState s, qint64 size)
{
    CacheModule m;
    m.version = version;
    m.name = name;
    m.state = s;
    m.size = size;
    m.lastUsedMs = 1'700'000'000'000;
    CacheFile f;
    f.name = QStringLiteral("model.neff");
    f.size = size;
    m.files << f;
    return m;
}
const QString VA = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString VB = QStringLiteral("neuronxcc-2.14.227.0+2d4f85be");

// A language where every state's name is marked: what the GUI shows through it is translated.
class MarkingTranslator final : public QTranslator
{
public:
    QString translate(const char *context, const char *source, const char *, int) const override
    {
        return qstrcmp(context, "ingot::State") == 0 ? QStringLiteral("«%1»").arg(QString::fromUtf8(source)) : QString();
    }
    bool isEmpty() const override { return false; }
};
}  // namespace

class TestCacheTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deltasInsertUpdateRemove()
    {
        CacheTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ScanDelta d1;
        d1.upserts << mod(VA, QStringLiteral("MODULE_1+a"), ModuleState::Success, 100)
                   << mod(VA, QStringLiteral("MODULE_2+a"), ModuleState::Failed, 10)
                   << mod(VB, QStringLiteral("MODULE_3+a"), ModuleState::Locked, 5);
        model.applyDelta(d1);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.entryCount(), 3);
        const QModelIndex ga = model.index(0, 0);
        QCOMPARE(ga.data().toString(), VA);
        QCOMPARE(model.rowCount(ga), 2);
        QCOMPARE(model.index(0, CacheTreeModel::SizeColumn).data(CacheTreeModel::SortRole).toLongLong(), 110);
        QVERIFY(model.index(0, CacheTreeModel::StateColumn).data().toString().contains(QStringLiteral("1 failed")));
        // Update in place: same row, new state.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        ScanDelta d2;
        d2.upserts << mod(VA, QStringLiteral("MODULE_2+a"), ModuleState::Success, 20);
        model.applyDelta(d2);
        QVERIFY(!changed.isEmpty());
        QCOMPARE(model.rowCount(ga), 2);
        const QModelIndex m2 = model.indexForKey(VA + QStringLiteral("/MODULE_2+a"));
        QCOMPARE(m2.data(CacheTreeModel::StateRole).toInt(), int(ModuleState::Success));
        QCOMPARE(model.module(m2)->size, 20);
        QVERIFY(!model.index(0, CacheTreeModel::StateColumn).data().toString().contains(QStringLiteral("failed")));
        // All well: the count; the tooltip has the whole line.
        QCOMPARE(model.index(0, CacheTreeModel::StateColumn).data().toString(), QStringLiteral("2 entries"));
        QCOMPARE(model.index(0, CacheTreeModel::StateColumn).data(Qt::ToolTipRole).toString(), QStringLiteral("2 entries"));
        // Something needs attention: that alone (the whole line did not fit the column), the count in the tooltip.
        QCOMPARE(model.index(1, CacheTreeModel::StateColumn).data().toString(), QStringLiteral("1 locked"));
        QCOMPARE(model.index(1, CacheTreeModel::StateColumn).data(Qt::ToolTipRole).toString(),
                 QCoreApplication::translate("ingot::CacheTreeModel", "%n entries", nullptr, 1) + QStringLiteral(", 1 locked"));
        // Remove: a group that empties disappears.
        ScanDelta d3;
        d3.removed << VB + QStringLiteral("/MODULE_3+a") << VA + QStringLiteral("/MODULE_1+a");
        model.applyDelta(d3);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.entryCount(), 1);
        QVERIFY(!model.indexForKey(VB + QStringLiteral("/MODULE_3+a")).isValid());
        QCOMPARE(model.indexForKey(VA + QStringLiteral("/MODULE_2+a")).row(), 0);
        QCOMPARE(model.modules().size(), 1);
    }

    void namesAreShownEscaped()
    {
        CacheTreeModel model;
        ScanDelta d;
        const QString hostile = nameFromBytes("MODULE_\x1b]0;owned\x07\n\xff+a");
        d.upserts << mod(VA, hostile, ModuleState::Failed, 1);
        model.applyDelta(d);
        const QModelIndex row = model.index(0, CacheTreeModel::NameColumn, model.index(0, 0));
        QCOMPARE(row.data().toString(), QStringLiteral("MODULE_\\x1b]0;owned\\x07\\x0a\\xff+a"));
        QCOMPARE(model.module(row)->name, hostile);  // the name itself is kept, byte for byte
    }

    void manyRemovalsInOneDelta()
    {
        CacheTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ScanDelta d;
        for (int i = 0; i < 500; ++i)
            d.upserts << mod(VA, QStringLiteral("MODULE_%1+a").arg(i, 4, 10, QLatin1Char('0')), ModuleState::Success, i);
        model.applyDelta(d);
        ScanDelta rm;
        for (int i = 0; i < 500; i += 3)
            rm.removed << VA + QStringLiteral("/MODULE_%1+a").arg(i, 4, 10, QLatin1Char('0'));
        rm.removed << QStringLiteral("unknown/key");
        model.applyDelta(rm);
        QCOMPARE(model.entryCount(), 500 - 167);
        for (int r = 0; r < model.rowCount(model.index(0, 0)); ++r) {
            const QString name = model.index(r, 0, model.index(0, 0)).data().toString();
            QVERIFY(name.mid(7, 4).toInt() % 3 != 0);
            QCOMPARE(model.indexForKey(VA + QLatin1Char('/') + name).row(), r);
        }
    }

    // Issue 21: unknown folders and files and linked folders showed "unknown-folder" (the CLI's word) in Chinese too.
    void statesOfItemsThatAreNotModulesAreTranslated()
    {
        CacheModule dir = mod(QString(), QStringLiteral("notes"), ModuleState::Unknown, 0);
        dir.kind = EntryKind::UnknownDir;
        CacheModule file = mod(QString(), QStringLiteral("README"), ModuleState::Unknown, 3);
        file.kind = EntryKind::UnknownFile;
        CacheModule link = mod(QString(), QStringLiteral("elsewhere"), ModuleState::Unknown, 0);
        link.kind = EntryKind::LinkedDir;
        ScanDelta d;
        d.upserts << dir << file << link << mod(VA, QStringLiteral("MODULE_1+a"), ModuleState::Failed, 1);
        CacheTreeModel model;
        model.applyDelta(d);
        auto stateOf = [&](const CacheModule &m) {
            return model.indexForKey(m.key()).siblingAtColumn(CacheTreeModel::StateColumn).data().toString();
        };
        QCOMPARE(stateOf(dir), QStringLiteral("Unknown folder"));
        QCOMPARE(stateOf(file), QStringLiteral("Unknown file"));
        QCOMPARE(stateOf(link), QStringLiteral("Linked folder"));
        MarkingTranslator marking;
        QVERIFY(QCoreApplication::installTranslator(&marking));
        QCOMPARE(stateOf(dir), QStringLiteral("«Unknown folder»"));
        QCOMPARE(stateOf(file), QStringLiteral("«Unknown file»"));
        QCOMPARE(stateOf(link), QStringLiteral("«Linked folder»"));
        QCOMPARE(stateOf(mod(VA, QStringLiteral("MODULE_1+a"), ModuleState::Failed, 1)), QStringLiteral("«Failed»"));
        QCoreApplication::removeTranslator(&marking);
        // What is written for machines stays English.
        QCOMPARE(kindName(EntryKind::UnknownDir), QStringLiteral("unknown-folder"));
    }

    void fromARealScan()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 100);
        CacheTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        LocalCacheStore store(root);
        CacheScanner scanner(store);
        scanner.setBatchInterval(0);
        const CacheSnapshot snap = scanner.scan(nullptr, [&](ScanDelta &&d) { model.applyDelta(d); });
        QCOMPARE(model.entryCount(), snap.modules.size());
        const CacheStats a = model.stats(1'800'000'000'000), b = computeStats(snap.modules, 1'800'000'000'000);
        QCOMPARE(a.size, b.size);
        QCOMPARE(a.perState, b.perState);
        QCOMPARE(model.rowCount(), 4);  // three versions and the root's other items
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestCacheTreeModel)
#include "tst_cachetreemodel.moc"
