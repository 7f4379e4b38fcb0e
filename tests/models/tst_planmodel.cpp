// PlanModel over a plan made by hand (no shards needed): every kind of merge in words, the source ranks, sizes and
// shapes that sort as numbers, names from disk escaped, and QAbstractItemModelTester over all of it.
#include "models/checkpoint/planmodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace ingot;

namespace {
ConsolidatePlanEntry entry(const std::string &name, std::vector<std::int64_t> shape, int partitionDim, int pp, qint64 bytes)
{
    ConsolidatePlanEntry e;
    e.name = e.source = name;
    e.dtype = DType::BF16;
    e.shape = std::move(shape);
    e.partitionDim = partitionDim;
    e.pp = pp;
    e.bytes = bytes;
    return e;
}

ConsolidationPlan plan()
{
    ConsolidationPlan p;
    p.checkpoint.tpSize = 8;
    p.checkpoint.ppSize = 2;
    p.entries << entry("model.embed_tokens.weight", {32000, 4096}, 0, 0, 262144000)
              << entry("model.norm.weight", {4096}, -1, 1, 8192);
    ConsolidatePlanEntry gate = entry("model.layers.0.mlp.gate_proj.weight", {11008, 4096}, 0, 0, 90177536);
    gate.source = "model.layers.0.mlp.gate_up_proj.weight";
    gate.fuseAxis = 0;
    gate.fuseLength = 1376;
    gate.fuseTotal = 2752;
    p.entries << gate;
    ConsolidatePlanEntry k = entry("model.layers.0.self_attn.k_proj.weight", {1024, 4096}, 0, 0, 8388608);
    k.source = "model.layers.0.self_attn.qkv_proj.weight_qkv";
    k.gqaRole = 1;
    k.heads = 32;
    k.kvHeads = 8;
    k.kvMultiplier = 2;
    k.tpSize = 8;
    p.entries << k;
    p.entries << entry(std::string("bad\x1b[31mname\xff", 13), {2}, -1, 0, 4);
    return p;
}
}  // namespace

class TestPlanModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tester()
    {
        PlanModel m;
        QAbstractItemModelTester t(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setPlan(plan());
        QCOMPARE(m.rowCount(), 5);
        m.clear();
        QCOMPARE(m.rowCount(), 0);
        m.setPlan(plan());
    }

    void wordsAndRanks()
    {
        PlanModel m;
        m.setPlan(plan());
        const auto cell = [&](int r, int c) { return m.index(r, c).data().toString(); };
        QCOMPARE(cell(0, PlanModel::ShapeColumn), QStringLiteral("[32000, 4096]"));
        QCOMPARE(cell(0, PlanModel::DTypeColumn), QStringLiteral("BF16"));
        QCOMPARE(cell(0, PlanModel::MergeColumn), QStringLiteral("concatenated on dim 0"));
        QCOMPARE(cell(0, PlanModel::RanksColumn), QStringLiteral("0–7 (pp 0)"));
        QCOMPARE(cell(1, PlanModel::MergeColumn), QStringLiteral("replicated (from tp rank 0)"));
        QCOMPARE(cell(1, PlanModel::RanksColumn), QStringLiteral("0 (pp 1)"));
        QCOMPARE(cell(2, PlanModel::MergeColumn), QStringLiteral("un-fused from gate_up_proj, concatenated on dim 0"));
        QCOMPARE(m.index(2, PlanModel::NameColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("From model.layers.0.mlp.gate_up_proj.weight in the shards"));
        QVERIFY2(cell(3, PlanModel::MergeColumn).startsWith(QStringLiteral("GQA key")), qPrintable(cell(3, PlanModel::MergeColumn)));
        QVERIFY(cell(3, PlanModel::MergeColumn).contains(QStringLiteral("×2 replication dropped")));
        QCOMPARE(m.index(3, 0).data(PlanModel::MergeKindRole).toInt(), int(MergeKind::Gqa));
        // A name from disk is shown escaped: no terminal escape, no invalid byte.
        const QString bad = cell(4, PlanModel::NameColumn);
        QVERIFY2(!bad.contains(QChar(0x1b)), qPrintable(bad));
        QVERIFY(bad.startsWith(QStringLiteral("bad")));
        // One pipeline stage: ranks without the stage.
        QCOMPARE(PlanModel::ranksText(SourceRanks{0, 0, 3}, 1), QStringLiteral("0–3"));
        QCOMPARE(PlanModel::ranksText(SourceRanks{0, 0, 0}, 1), QStringLiteral("0"));
        // tp 1: nothing is replicated, it is copied as it is.
        ConsolidationPlan one = plan();
        one.checkpoint.tpSize = 1;
        one.checkpoint.ppSize = 1;
        one.entries.resize(2);
        one.entries[1].partitionDim = -1;
        m.setPlan(one);
        QCOMPARE(cell(1, PlanModel::MergeColumn), QStringLiteral("copied as it is"));
        QCOMPARE(cell(1, PlanModel::RanksColumn), QStringLiteral("0"));
    }

    void sortsAsNumbers()
    {
        PlanModel m;
        m.setPlan(plan());
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(PlanModel::SortRole);
        proxy.sort(PlanModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, PlanModel::NameColumn).data().toString(), QStringLiteral("model.embed_tokens.weight"));
        QCOMPARE(proxy.index(4, PlanModel::SizeColumn).data(PlanModel::SortRole).toLongLong(), 4);
        proxy.sort(PlanModel::ShapeColumn, Qt::AscendingOrder);  // by element count, not by text ("[2]" < "[1024, …]")
        QCOMPARE(proxy.index(0, PlanModel::ShapeColumn).data().toString(), QStringLiteral("[2]"));
        QCOMPARE(proxy.index(1, PlanModel::ShapeColumn).data().toString(), QStringLiteral("[4096]"));
        proxy.setFilterKeyColumn(-1);
        proxy.setFilterFixedString(QStringLiteral("replicated"));
        QCOMPARE(proxy.rowCount(), 2);  // model.norm.weight and the odd name
    }
};

QTEST_GUILESS_MAIN(TestPlanModel)
#include "tst_planmodel.moc"
