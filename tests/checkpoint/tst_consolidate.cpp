// Consolidation end to end on real checkpoints written by Debian's python3-torch, in all three layouts; the
// output must equal the unsharded original bit for bit (checked by Python), and bad input must leave nothing.
#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/assemble.h"
#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/ranknames.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {
const QString kScript = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_sharded_fixtures.py");

bool python(const QStringList &args, QString *out = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{kScript} + args);
    p.waitForFinished(300000);
    if (out)
        *out = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

QStringList leftovers(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, {QStringLiteral(".ingot-*")}, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    return out;
}
}  // namespace

class TestConsolidate : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;

private Q_SLOTS:
    void bitExact_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<bool>("fused");
        QTest::addRow("nxd tp4 pp2 fused gate_up") << QStringLiteral("nxd") << 4 << 2 << QStringLiteral("bfloat16") << true;
        QTest::addRow("ingot tp2 fused gate_up") << QStringLiteral("ingot") << 2 << 1 << QStringLiteral("float32") << true;
        for (const char *layout : {"docs", "nxd", "ingot"}) {
            QTest::addRow("%s tp1", layout) << QString::fromLatin1(layout) << 1 << 1 << QStringLiteral("float32") << false;
            QTest::addRow("%s tp2 bf16", layout) << QString::fromLatin1(layout) << 2 << 1 << QStringLiteral("bfloat16") << false;
            QTest::addRow("%s tp4 pp2", layout) << QString::fromLatin1(layout) << 4 << 2 << QStringLiteral("float32") << false;
            QTest::addRow("%s tp8 bf16", layout) << QString::fromLatin1(layout) << 8 << 1 << QStringLiteral("bfloat16") << false;
        }
    }
    void bitExact()
    {
        QFETCH(QString, layout);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(QString, dtype);
        QFETCH(bool, fused);
        const QString dir = tmp.path() + QStringLiteral("/%1-%2-%3-%4%5").arg(layout).arg(tp).arg(pp).arg(dtype, fused ? QStringLiteral("-fused") : QString());
        QString out;
        QStringList args{dir, layout, QString::number(tp), QString::number(pp), dtype};
        if (fused)
            args << QStringLiteral("fused");
        QVERIFY2(python(args, &out), qPrintable(out));
        QString error;
        const auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        const CheckpointCandidate &c = found.first();
        QVERIFY2(c.complete, qPrintable(c.problems.join(QLatin1Char(' '))));
        QCOMPARE(c.tpSize, tp);
        QCOMPARE(c.ppSize, pp);
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.verify = true;
        // Small output shards for one case, to exercise the index.
        if (tp == 4 && !fused)
            o.maxShardBytes = 2000;
        int progressCalls = 0;
        const ConsolidateReport rep = consolidate(c, o, [&](const ConsolidateProgress &) { ++progressCalls; });
        QVERIFY2(rep.ok(), qPrintable(rep.problems.join(QLatin1Char(' ')) + rep.error + rep.verifyProblems.join(QLatin1Char(' '))));
        QVERIFY(rep.verified);
        QCOMPARE(progressCalls, rep.tensors);
        QVERIFY(rep.files.contains(QStringLiteral("config.json")));
        if (tp == 4 && !fused) {
            QVERIFY(rep.files.contains(QStringLiteral("model.safetensors.index.json")));
            QVERIFY(rep.files.contains(QStringLiteral("model-00001-of-%1.safetensors").arg(rep.files.size() - 2, 5, 10, QLatin1Char('0'))));
        } else {
            QVERIFY(rep.files.contains(QStringLiteral("model.safetensors")));
        }
        QVERIFY2(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), o.output}, &out), qPrintable(out));
        QVERIFY(leftovers(dir).isEmpty());
    }

    void rankNamesRoundTrip()
    {
        QCOMPARE(rankName({3, 1}), QStringLiteral("tp_rank_03_pp_rank_01"));
        QCOMPARE(rankName({3, 1, 2}), QStringLiteral("tp_rank_03_pp_rank_01_ep_rank_02"));
        QCOMPARE(nxdShardFileName({12, 0}), QStringLiteral("dp_rank_00_tp_rank_12_pp_rank_00.pt"));
        const std::optional<RankIds> r = parseRankName(QStringLiteral("tp_rank_07_pp_rank_03_ep_rank_01"));
        QVERIFY(r);
        QCOMPARE(r->tp, 7);
        QCOMPARE(r->pp, 3);
        QCOMPARE(r->ep, 1);
        const std::optional<RankIds> n = parseNxdShardFileName(QStringLiteral("dp_rank_02_tp_rank_05_pp_rank_00.pt"));
        QVERIFY(n);
        QCOMPARE(n->dp, 2);
        QCOMPARE(n->tp, 5);
        QCOMPARE(n->ep, -1);
        QCOMPARE(nxdShardFileName(*n), QStringLiteral("dp_rank_02_tp_rank_05_pp_rank_00.pt"));
        // Names that are not ranks: suffixes, other orders, missing parts.
        for (const char *bad : {"tp_rank_00_pp_rank_00_dp_rank_01", "tp_rank_00", "pp_rank_00_tp_rank_00", "tp_rank_x_pp_rank_0"})
            QVERIFY2(!parseRankName(QString::fromLatin1(bad)), bad);
        QVERIFY(!parseNxdShardFileName(QStringLiteral("dp_rank_00_ep_rank_01_tp_rank_00_pp_rank_00.pt")));
        QVERIFY(!parseNxdShardFileName(QStringLiteral("dp_rank_00_tp_rank_00_pp_rank_00.pt.tmp")));
        QCOMPARE(rankNamePattern(), QStringLiteral("tp_rank_XX_pp_rank_YY"));
    }

    void consolidatesAPlanMadeBefore()
    {
        const QString dir = tmp.path() + QStringLiteral("/planned");
        QString out, error;
        QVERIFY2(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("2"), QStringLiteral("float32")}, &out), qPrintable(out));
        const ConsolidationPlan plan = planConsolidation(findCheckpoints(dir, &error).first());
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char(' '))));
        QVERIFY(!plan.entries.isEmpty());
        qint64 bytes = 0;
        for (const auto &e : plan.entries)
            bytes += e.bytes;
        QCOMPARE(plan.bytes(), bytes);
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.verify = true;
        const ConsolidateReport rep = consolidate(plan, o);
        QVERIFY2(rep.ok(), qPrintable(rep.error + rep.problems.join(QLatin1Char(' ')) + rep.verifyProblems.join(QLatin1Char(' '))));
        QCOMPARE(rep.tensors, int(plan.entries.size()));
        QCOMPARE(rep.bytes, plan.bytes());
        QVERIFY2(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), o.output}, &out), qPrintable(out));

        // A plan with problems writes nothing and hands its problems back.
        ConsolidationPlan bad = plan;
        bad.problems << QStringLiteral("a problem found while checking");
        o.output = dir + QStringLiteral("/out-bad");
        const ConsolidateReport refused = consolidate(bad, o);
        QCOMPARE(refused.problems, bad.problems);
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(dir).isEmpty());
    }

    void shardsChangedSinceThePlanAreCaught()
    {
        // The wizard plans on its Check page and writes later: a shard replaced in between (here by tp rank 1 of a
        // tp=4 run, whose pieces are half the size) must stop the run with words, not be read past its end.
        const QString dir = tmp.path() + QStringLiteral("/changed");
        const QString other = tmp.path() + QStringLiteral("/changed-other");
        QString out, error;
        QVERIFY2(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out), qPrintable(out));
        QVERIFY2(python({other, QStringLiteral("nxd"), QStringLiteral("4"), QStringLiteral("1"), QStringLiteral("float32")}, &out), qPrintable(out));
        const ConsolidationPlan plan = planConsolidation(findCheckpoints(dir, &error).first());
        QVERIFY(plan.ok());
        const QString rank1 = QStringLiteral("/shards/model/dp_rank_00_tp_rank_01_pp_rank_00.pt");
        QVERIFY(QFile::remove(dir + rank1));
        QVERIFY(QFile::copy(other + rank1, dir + rank1));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        const ConsolidateReport rep = consolidate(plan, o);
        QVERIFY(!rep.ok());
        QVERIFY2(rep.error.contains(QStringLiteral("changed since")), qPrintable(rep.error));
        QVERIFY2(rep.error.contains(QStringLiteral("tp rank 1")), qPrintable(rep.error));
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(dir).isEmpty());
    }

    void problemsAreListedAndNothingIsWritten()
    {
        const QString dir = tmp.path() + QStringLiteral("/broken");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out), qPrintable(out));
        // A rank from a tp=4 run in place of tp rank 1: its pieces do not fit.
        const QString other = tmp.path() + QStringLiteral("/other");
        QVERIFY(python({other, QStringLiteral("nxd"), QStringLiteral("4"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        QFile::remove(dir + QStringLiteral("/shards/model/dp_rank_00_tp_rank_01_pp_rank_00.pt"));
        QVERIFY(QFile::copy(other + QStringLiteral("/shards/model/dp_rank_00_tp_rank_01_pp_rank_00.pt"),
                            dir + QStringLiteral("/shards/model/dp_rank_00_tp_rank_01_pp_rank_00.pt")));
        QString error;
        auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        // Replicated parameters still agree; split ones do not add up to the same shapes across ranks.
        ConsolidateReport rep = consolidate(found.first(), o);
        QVERIFY(!rep.ok());
        QVERIFY2(rep.problems.join(QLatin1Char(' ')).contains(QStringLiteral("do not add up")), qPrintable(rep.problems.join(QLatin1Char('\n'))));
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(dir).isEmpty());

        // A missing rank.
        QFile::remove(dir + QStringLiteral("/shards/model/dp_rank_00_tp_rank_01_pp_rank_00.pt"));
        found = findCheckpoints(dir, &error);
        QVERIFY(!found.first().complete);
        rep = consolidate(found.first(), o);
        QVERIFY(rep.problems.join(QLatin1Char(' ')).contains(QStringLiteral("tp rank 1, pp rank 0 is missing")));
        QVERIFY(!QFileInfo::exists(o.output));
    }

    void refusesForeignPicklesAndExistingOutput()
    {
        const QString dir = tmp.path() + QStringLiteral("/evil");
        QString out;
        QVERIFY(python({dir, QStringLiteral("docs"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        const QString victim = dir + QStringLiteral("/tensor_parallel_shards/tp_rank_01_pp_rank_00/checkpoint.pt");
        QProcess p;
        p.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral(
            "import os, sys, torch\n"
            "class E:\n"
            "    def __reduce__(self): return (os.system, ('touch ' + sys.argv[2],))\n"
            "torch.save({'model': {}, 'x': E()}, sys.argv[1])\n"), victim, dir + QStringLiteral("/PWNED")});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        QString error;
        const auto found = findCheckpoints(dir, &error);
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        const ConsolidateReport rep = consolidate(found.first(), o);
        QVERIFY(rep.problems.join(QLatin1Char(' ')).contains(QStringLiteral("refused")));
        QVERIFY(!QFile::exists(dir + QStringLiteral("/PWNED")));
        QVERIFY(!QFileInfo::exists(o.output));

        // An existing output folder is not replaced unless asked.
        const QString good = tmp.path() + QStringLiteral("/good");
        QVERIFY(python({good, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        QDir().mkpath(good + QStringLiteral("/out"));
        QFile keep(good + QStringLiteral("/out/mine.txt"));
        QVERIFY(keep.open(QIODevice::WriteOnly));
        keep.write("mine");
        keep.close();
        const auto g = findCheckpoints(good, &error);
        o.output = good + QStringLiteral("/out");
        ConsolidateReport r2 = consolidate(g.first(), o);
        QVERIFY(r2.problems.join(QLatin1Char(' ')).contains(QStringLiteral("already exists")));
        QVERIFY(QFile::exists(good + QStringLiteral("/out/mine.txt")));
        o.overwrite = true;
        r2 = consolidate(g.first(), o);
        QVERIFY(r2.ok());
        QVERIFY(!QFile::exists(good + QStringLiteral("/out/mine.txt")));
        QVERIFY(QFile::exists(good + QStringLiteral("/out/model.safetensors")));
        QVERIFY(leftovers(good).isEmpty());
    }

    void pytorchFormatLoadsWithTorchLoad()
    {
        for (const qint64 shard : {qint64(5) * 1000 * 1000 * 1000, qint64(3000)}) {
            const QString dir = tmp.path() + QStringLiteral("/pt-%1").arg(shard);
            QString out;
            QVERIFY(python({dir, QStringLiteral("docs"), QStringLiteral("4"), QStringLiteral("2"), QStringLiteral("bfloat16")}, &out));
            QString error;
            ConsolidateOptions o;
            o.output = dir + QStringLiteral("/out");
            o.format = ConsolidateOptions::Format::PyTorch;
            o.verify = true;
            o.maxShardBytes = shard;
            const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
            QVERIFY2(rep.ok(), qPrintable(rep.error + rep.problems.join(QLatin1Char(' ')) + rep.verifyProblems.join(QLatin1Char(' '))));
            QVERIFY(rep.files.contains(shard > 10000 ? QStringLiteral("pytorch_model.bin") : QStringLiteral("pytorch_model.bin.index.json")));
            QVERIFY2(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), o.output}, &out), qPrintable(out));
            QVERIFY(leftovers(dir).isEmpty());
            QVERIFY(QDir(o.output).entryList({QStringLiteral("*.blob")}, QDir::Files).isEmpty());
        }
    }

    void gqaAttention_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("tp");
        QTest::addColumn<QString>("mode");
        QTest::newRow("nxd tp2 fused qkv") << QStringLiteral("nxd") << 2 << QStringLiteral("gqa");
        QTest::newRow("nxd tp4 fused qkv, kv replicated x2") << QStringLiteral("nxd") << 4 << QStringLiteral("gqa");
        QTest::newRow("ingot tp4 separate q/k/v") << QStringLiteral("ingot") << 4 << QStringLiteral("gqa-separate");
    }
    void gqaAttention()
    {
        QFETCH(QString, layout);
        QFETCH(int, tp);
        QFETCH(QString, mode);
        const QString dir = tmp.path() + QStringLiteral("/gqa-%1-%2-%3").arg(layout).arg(tp).arg(mode);
        QString out;
        QVERIFY2(python({dir, layout, QString::number(tp), QStringLiteral("2"), QStringLiteral("bfloat16"), mode}, &out), qPrintable(out));
        QString error;
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.verify = true;
        const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
        QVERIFY2(rep.ok(), qPrintable(rep.error + rep.problems.join(QLatin1Char(' ')) + rep.verifyProblems.join(QLatin1Char(' '))));
        QVERIFY2(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), o.output}, &out), qPrintable(out));
    }

    void gqaHeadOrderIsAPermutation()
    {
        for (const auto &[tp, heads, kv, mult] : std::vector<std::array<int, 4>>{{2, 4, 2, 1}, {4, 4, 2, 2}, {8, 32, 8, 1}, {32, 32, 8, 4}, {8, 64, 8, 1}}) {
            std::vector<bool> seen(size_t(heads), false);
            for (int r = 0; r < tp; ++r)
                for (auto h : gqaQueryHeadsForRank(tp, r, heads, kv, mult)) {
                    QVERIFY(h >= 0 && h < heads);
                    QVERIFY2(!seen[size_t(h)], qPrintable(QStringLiteral("tp %1 heads %2 kv %3").arg(tp).arg(heads).arg(kv)));
                    seen[size_t(h)] = true;
                }
            QVERIFY(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
        }
    }

    void tiedHeadReplicaCheckAndFullDisk()
    {
        // A tied LM head: no lm_head in the shards, none in the output, and the output equals the original.
        const QString dir = tmp.path() + QStringLiteral("/tied");
        QString out, error;
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32"), QStringLiteral("tied")}, &out));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.verify = true;
        o.checkReplicas = true;
        ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
        QVERIFY2(rep.ok(), qPrintable(rep.error + rep.problems.join(QLatin1Char(' '))));
        QVERIFY2(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), o.output}, &out), qPrintable(out));

        // A replicated norm that differs on tp rank 1 is caught when asked.
        const QString rank1 = dir + QStringLiteral("/tensor_parallel_shards/tp_rank_01_pp_rank_00/model.safetensors");
        qint64 at = -1;
        {
            SafetensorsReader r;
            QVERIFY(r.open(rank1, &error));
            const SafetensorInfo *norm = r.find("model.norm.weight");
            QVERIFY(norm);
            QFile raw(rank1);
            QVERIFY(raw.open(QIODevice::ReadOnly));
            const QByteArray head = raw.read(8);
            quint64 n = 0;
            for (int k = 0; k < 8; ++k)
                n |= quint64(quint8(head[k])) << (8 * k);
            at = qint64(8 + n + norm->begin);
        }
        QFile f(rank1);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(at);
        f.write("\x7f");
        f.close();
        o.output = dir + QStringLiteral("/out2");
        rep = consolidate(findCheckpoints(dir, &error).first(), o);
        QVERIFY(rep.error.contains(QStringLiteral("should be replicated")));
        QVERIFY(!QFileInfo::exists(o.output));

        // A disk that fills up (a file size limit stands in for it): a clear error and nothing left behind.
        const QString big = tmp.path() + QStringLiteral("/full-disk");
        QVERIFY(python({big, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        o = ConsolidateOptions();
        o.output = big + QStringLiteral("/out");
        {
            test::FileSizeLimit limit(8192);
            rep = consolidate(findCheckpoints(big, &error).first(), o);
        }
        QVERIFY(!rep.ok());
        QVERIFY2(rep.error.contains(QStringLiteral("Cannot write")) || rep.error.contains(QStringLiteral("disk is full")), qPrintable(rep.error));
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(big).isEmpty());
    }

    void verifyChecksShapesAgainstConfig()
    {
        const QString dir = tmp.path() + QStringLiteral("/cfg");
        QString out;
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        // A config that does not belong to these weights: 8 heads instead of 4, 6 layers instead of 4.
        QFile f(dir + QStringLiteral("/config.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject cfg = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        cfg[QStringLiteral("num_attention_heads")] = 8;
        cfg[QStringLiteral("num_hidden_layers")] = 6;
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(cfg).toJson());
        f.close();
        QString error;
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.verify = true;
        const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
        QVERIFY(!rep.ok());
        const QString all = rep.verifyProblems.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("4 layers but config.json says 6")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("k_proj.weight has shape")), qPrintable(all));
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(dir).isEmpty());
    }

    void newestCompleteCheckpointByDefaultAndCancel()
    {
        const QString dir = tmp.path() + QStringLiteral("/run");
        QString out;
        QVERIFY(python({dir + QStringLiteral("/checkpoint-10"), QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        QVERIFY(python({dir + QStringLiteral("/checkpoint-20"), QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        QFile::remove(dir + QStringLiteral("/checkpoint-20/shards/done"));  // a save that did not finish
        QString error;
        const auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 2);
        QCOMPARE(found[0].label, QStringLiteral("checkpoint-20"));
        QVERIFY(!found[0].complete);
        const CheckpointCandidate *pick = pickDefault(found);
        QVERIFY(pick);
        QCOMPARE(pick->label, QStringLiteral("checkpoint-10"));
        std::atomic_bool cancel{false};
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        const ConsolidateReport rep = consolidate(*pick, o, [&](const ConsolidateProgress &p) {
            if (p.tensorsDone == 5)
                cancel = true;
        }, &cancel);
        QVERIFY(rep.cancelled);
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(dir).isEmpty());
        QVERIFY(findCheckpoints(tmp.path() + QStringLiteral("/nothing-here"), &error).isEmpty());
        QVERIFY(error.contains(QStringLiteral("does not exist")));
    }
};

QTEST_GUILESS_MAIN(TestConsolidate)
#include "tst_consolidate.moc"
