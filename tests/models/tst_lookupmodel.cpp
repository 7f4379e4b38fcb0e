// Lookup results as a table: the columns, entries of an unknown shape, the raw entry on demand, numeric sorting,
// and rows copied as tab-separated text.
#include "models/hub/lookupmodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace ingot;

namespace {
const QString kRevision = QStringLiteral("01c7f73d771dfac7d292323805ebc428287df4f9");

LookupEntry known(int batch, int seq, int tp, const QString &path)
{
    LookupEntry e;
    e.known = true;
    e.path = path;
    e.raw = QByteArray(R"({"neuron":{"batch_size":)") + QByteArray::number(batch) + "}}";
    e.batchSize = batch;
    e.sequenceLength = seq;
    e.tensorParallel = tp;
    e.dtype = QStringLiteral("bfloat16");
    e.instanceType = QStringLiteral("trn1");
    e.compilerVersion = QStringLiteral("2.15.128.0+56dc5a86");
    e.checkpointRevision = kRevision;
    e.registryLayout = QStringLiteral("current");
    return e;
}

LookupEntry unknownShape()
{
    LookupEntry e;
    e.path = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/0_REGISTRY/0.0.25/llama/org/model/weird.json");
    e.raw = R"({"hello": "world"})";
    e.registryLayout = QStringLiteral("current");
    return e;
}
}  // namespace

class TestLookupModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void columnsAndRoles()
    {
        LookupModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        LookupEntry noTp = known(1, 128, -1, QStringLiteral("b.json"));
        m.setEntries({known(16, 2048, 8, QStringLiteral("a.json")), noTp, unknownShape()});
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.columnCount(), int(LookupModel::ColumnCount));
        QCOMPARE(m.rowCount(m.index(0, 0)), 0);  // a table
        QCOMPARE(m.index(0, LookupModel::BatchColumn).data().toInt(), 16);
        QCOMPARE(m.index(0, LookupModel::SequenceColumn).data().toInt(), 2048);
        QCOMPARE(m.index(0, LookupModel::TensorParallelColumn).data().toInt(), 8);
        QCOMPARE(m.index(0, LookupModel::DtypeColumn).data().toString(), QStringLiteral("bfloat16"));
        QCOMPARE(m.index(0, LookupModel::InstanceColumn).data().toString(), QStringLiteral("trn1"));
        QCOMPARE(m.index(0, LookupModel::CompilerColumn).data().toString(), QStringLiteral("2.15.128.0+56dc5a86"));
        // The revision is shortened for the eye, whole for sorting and copying.
        QCOMPARE(m.index(0, LookupModel::RevisionColumn).data().toString(), kRevision.left(12));
        QCOMPARE(m.index(0, LookupModel::RevisionColumn).data(LookupModel::SortRole).toString(), kRevision);
        QVERIFY(!m.index(1, LookupModel::TensorParallelColumn).data().isValid());  // not recorded: blank, not -1
        QCOMPARE(m.index(0, 0).data(LookupModel::PathRole).toString(), QStringLiteral("a.json"));
        QVERIFY(m.index(0, 0).data(LookupModel::RawRole).toString().contains(QStringLiteral("batch_size")));
        const QString tip = m.index(0, 0).data(Qt::ToolTipRole).toString();
        QVERIFY(tip.contains(QStringLiteral("a.json")) && tip.contains(QStringLiteral("current")));
        QCOMPARE(m.headerData(LookupModel::BatchColumn, Qt::Horizontal).toString(), QStringLiteral("batch size"));
        QCOMPARE(m.headerData(LookupModel::RevisionColumn, Qt::Horizontal).toString(), QStringLiteral("checkpoint revision"));
    }

    void unknownShapesAreListedRaw()
    {
        LookupModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setEntries({unknownShape()});
        QCOMPARE(m.index(0, LookupModel::InstanceColumn).data().toString(), QStringLiteral("(unknown shape)"));
        QCOMPARE(m.index(0, LookupModel::CompilerColumn).data().toString(), QStringLiteral("weird.json"));
        QVERIFY(!m.index(0, LookupModel::BatchColumn).data().isValid());
        QCOMPARE(m.index(0, LookupModel::BatchColumn).data(LookupModel::SortRole).toInt(), -1);
        QCOMPARE(m.index(0, 0).data(LookupModel::RawRole).toString(), QStringLiteral(R"({"hello": "world"})"));
        m.setEntries({});
        QCOMPARE(m.rowCount(), 0);
    }

    void sortsNumbersAsNumbers()
    {
        LookupModel m;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(LookupModel::SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setEntries({known(16, 2048, 8, QStringLiteral("a.json")), known(4, 4096, 2, QStringLiteral("b.json")),
                      unknownShape(), known(32, 1024, 24, QStringLiteral("c.json"))});
        proxy.sort(LookupModel::BatchColumn, Qt::AscendingOrder);
        QList<int> batches;
        for (int r = 0; r < proxy.rowCount(); ++r)
            batches << proxy.index(r, LookupModel::BatchColumn).data(LookupModel::SortRole).toInt();
        QCOMPARE(batches, (QList<int>{-1, 4, 16, 32}));  // "16" < "4" as text; not here
        proxy.sort(LookupModel::SequenceColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, LookupModel::SequenceColumn).data().toInt(), 4096);
    }

    void rowsCopyAsTabSeparatedText()
    {
        LookupModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setEntries({known(16, 2048, 8, QStringLiteral("a.json")), known(4, 4096, 2, QStringLiteral("b.json")), unknownShape()});
        const QStringList lines = m.rowsAsText({1, 2}).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QStringLiteral("batch size\tsequence length\ttensor parallel\tdtype\tinstance type\tcompiler version\tcheckpoint revision"));
        QCOMPARE(lines[1], QStringLiteral("4\t4096\t2\tbfloat16\ttrn1\t2.15.128.0+56dc5a86\t") + kRevision);
        QCOMPARE(lines[2].split(QLatin1Char('\t')).size(), 7);
        QVERIFY(lines[2].contains(QStringLiteral("(unknown shape)")));
        QCOMPARE(m.rowsAsText({}), lines[0]);  // nothing selected: the header alone
    }

    // A registry entry's values are the server's text: shown and copied escaped, one row per line, and the tooltip
    // reads them as text, not markup.
    void hostileValuesAreShownEscaped()
    {
        LookupModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        LookupEntry e = known(1, 128, 2, QStringLiteral("evil\n<b>x</b>.json"));
        e.dtype = QStringLiteral("bf16\n\x1b[2Jfake\trow");
        e.instanceType = QStringLiteral("\u202Etrn1");
        e.compilerVersion = QStringLiteral("2.0\x07");
        e.checkpointRevision = QStringLiteral("abc\x1b]0;t\x07");
        m.setEntries({e, known(4, 128, 2, QStringLiteral("b.json"))});
        auto clean = [](const QString &s) {
            for (const QChar c : s)
                if (c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() <= 0x9f) || c.unicode() == 0x202E)
                    return false;
            return true;
        };
        for (int c = 0; c < LookupModel::ColumnCount; ++c)
            for (int role : {int(Qt::DisplayRole), int(LookupModel::SortRole)}) {
                const QString v = m.index(0, c).data(role).toString();
                QVERIFY2(clean(v), qPrintable(v));
            }
        QCOMPARE(m.index(0, LookupModel::DtypeColumn).data().toString(), QStringLiteral("bf16\\x0a\\x1b[2Jfake\\x09row"));
        QCOMPARE(m.index(0, LookupModel::InstanceColumn).data().toString(), QStringLiteral("\\u{202e}trn1"));
        const QStringList lines = m.rowsAsText({0, 1}).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        for (const QString &l : lines)
            QCOMPARE(l.count(QLatin1Char('\t')), LookupModel::ColumnCount - 1);
        const QString tip = m.index(0, 0).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("evil\\x0a&lt;b&gt;x&lt;/b&gt;.json")), qPrintable(tip));
    }
};

QTEST_MAIN(TestLookupModel)
#include "tst_lookupmodel.moc"
