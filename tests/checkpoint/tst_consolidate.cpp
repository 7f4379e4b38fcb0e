// Consolidation end to end on real checkpoints written by Debian's python3-torch, in all three layouts; the
// output must equal the unsharded original bit for bit (checked by Python), and bad input must leave nothing.
#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/assemble.h"
#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/rangecopy.h"
#include "services/checkpoint/ranknames.h"
#include "services/checkpoint/shardreader.h"
#include "services/checkpoint/verify.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <map>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ingot;

namespace {
const QString kScript = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_sharded_fixtures.py");

bool python(const QStringList &args, QString *out = nullptr, int scale = 1, const QString &partitionDim = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FIXTURE_SCALE"), QString::number(scale));
    if (!partitionDim.isEmpty())
        env.insert(QStringLiteral("FIXTURE_PARTITION_DIM"), partitionDim);
    p.setProcessEnvironment(env);
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

// Every file of an output folder, by name.
std::map<QString, QByteArray> folderContents(const QString &dir)
{
    std::map<QString, QByteArray> out;
    for (const QString &name : QDir(dir).entryList(QDir::Files)) {
        QFile f(dir + QLatin1Char('/') + name);
        if (f.open(QIODevice::ReadOnly))
            out[name] = f.readAll();
    }
    return out;
}

QString said(const ConsolidateReport &rep)
{
    return (rep.problems + rep.verifyProblems + QStringList{rep.error}).join(QLatin1Char('\n'));
}

bool isLink(const QString &path)
{
    struct stat st {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISLNK(st.st_mode);
}

void writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(data), qint64(data.size()));
}

// The files under `dir` with their sizes, relative, sorted.
QStringList listing(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        out << QDir(dir).relativeFilePath(f) + QLatin1Char(' ') + QString::number(QFileInfo(f).size());
    }
    out.sort();
    return out;
}

// Starts the real ingot-cli on `args` and waits until its staging folder appears in `parent`.
bool startCliUntilStaging(QProcess &cli, const QStringList &args, const QString &parent)
{
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(QStringLiteral(INGOT_CLI_PATH), args);
    if (!cli.waitForStarted(10000))
        return false;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000 && cli.state() == QProcess::Running) {
        if (!QDir(parent).entryList({QStringLiteral(".ingot-consolidating-*")}, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty())
            return true;
        ::usleep(2000);
    }
    return false;
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
        QTest::addColumn<QStringList>("extra");  // the fixture's options: fused linears as optimum-neuron saves them
        const QStringList none;
        const QStringList gateUp{QStringLiteral("fused")};  // gate_up_proj, partition_stride 2
        const QStringList qkv{QStringLiteral("fused-qkv")};  // MHA qkv_proj, partition_stride 3
        const QStringList both{QStringLiteral("fused"), QStringLiteral("fused-qkv")};
        QTest::addRow("nxd tp4 pp2 fused gate_up (stride 2)") << QStringLiteral("nxd") << 4 << 2 << QStringLiteral("bfloat16") << gateUp;
        QTest::addRow("ingot tp2 fused gate_up (stride 2)") << QStringLiteral("ingot") << 2 << 1 << QStringLiteral("float32") << gateUp;
        QTest::addRow("nxd tp2 fused gate_up, stride 1") << QStringLiteral("nxd") << 2 << 1 << QStringLiteral("float32")
                                                         << QStringList{QStringLiteral("fused"), QStringLiteral("stride1-fused")};
        QTest::addRow("nxd tp2 fused MHA qkv (stride 3)") << QStringLiteral("nxd") << 2 << 1 << QStringLiteral("float32") << qkv;
        QTest::addRow("nxd tp4 pp2 bf16 fused qkv and gate_up") << QStringLiteral("nxd") << 4 << 2 << QStringLiteral("bfloat16") << both;
        QTest::addRow("ingot tp8 fused qkv and gate_up") << QStringLiteral("ingot") << 8 << 1 << QStringLiteral("float32") << both;
        QTest::addRow("nxd tp1 fused qkv and gate_up") << QStringLiteral("nxd") << 1 << 1 << QStringLiteral("float32") << both;
        for (const char *layout : {"docs", "nxd", "ingot"}) {
            QTest::addRow("%s tp1", layout) << QString::fromLatin1(layout) << 1 << 1 << QStringLiteral("float32") << none;
            QTest::addRow("%s tp2 bf16", layout) << QString::fromLatin1(layout) << 2 << 1 << QStringLiteral("bfloat16") << none;
            QTest::addRow("%s tp4 pp2", layout) << QString::fromLatin1(layout) << 4 << 2 << QStringLiteral("float32") << none;
            QTest::addRow("%s tp8 bf16", layout) << QString::fromLatin1(layout) << 8 << 1 << QStringLiteral("bfloat16") << none;
        }
    }
    void bitExact()
    {
        QFETCH(QString, layout);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(QString, dtype);
        QFETCH(QStringList, extra);
        const bool fused = !extra.isEmpty();
        const QString dir = tmp.path() + QStringLiteral("/%1-%2-%3-%4-%5").arg(layout).arg(tp).arg(pp).arg(dtype, extra.join(QLatin1Char('-')));
        QString out;
        const QStringList args = QStringList{dir, layout, QString::number(tp), QString::number(pp), dtype} + extra;
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
        if (!fused)
            return;
        // The fused linears' parts are planned as un-fused from their fused weight, whatever stride was recorded.
        const ConsolidationPlan plan = planConsolidation(c);
        const auto part = std::find_if(plan.entries.begin(), plan.entries.end(), [&](const ConsolidatePlanEntry &e) {
            return e.name == (extra.contains(QStringLiteral("fused-qkv")) ? "model.layers.0.self_attn.k_proj.weight"
                                                                          : "model.layers.0.mlp.up_proj.weight");
        });
        QVERIFY(part != plan.entries.end());
        QCOMPARE(mergeKind(*part, tp), MergeKind::Unfused);
        QCOMPARE(part->stride, 1);
    }

    // optimum-neuron splits a fused linear with stride 1 or the number of its linears; any other stride is no layout
    // it writes, refused with words that say so (the earlier words said a stride that divides did not).
    void aFusedLinearsOtherStrideIsRefusedWithWords()
    {
        const QString dir = tmp.path() + QStringLiteral("/fused-stride-4");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32"), QStringLiteral("fused")}, &out),
                 qPrintable(out));
        QVERIFY2(python({QStringLiteral("--edit-metadata"), dir,
                         QStringLiteral("m['parameters']['model.layers.1.mlp.gate_up_proj.weight']['partition_stride'] = 4")}, &out),
                 qPrintable(out));
        QString error;
        const auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        const ConsolidationPlan plan = planConsolidation(found.first());
        QCOMPARE(plan.problems.size(), 1);
        QCOMPARE(plan.problems.first(), QStringLiteral("model.layers.1.mlp.gate_up_proj.weight: partition_stride 4 for the fusion of "
                                                       "gate_proj, up_proj; optimum-neuron splits a fused linear with stride 1 or the "
                                                       "number of linears it fuses (2)."));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        QVERIFY(!consolidate(found.first(), o).ok());
        QVERIFY(!QFileInfo::exists(o.output));
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
        // Expert parallelism: neuronx-distributed's order, dp, ep, tp, pp; never ep last in a file name.
        const std::optional<RankIds> e = parseNxdShardFileName(QStringLiteral("dp_rank_00_ep_rank_01_tp_rank_03_pp_rank_02.pt"));
        QVERIFY(e);
        QCOMPARE(e->ep, 1);
        QCOMPARE(e->tp, 3);
        QCOMPARE(e->pp, 2);
        QCOMPARE(nxdShardFileName(*e), QStringLiteral("dp_rank_00_ep_rank_01_tp_rank_03_pp_rank_02.pt"));
        QVERIFY(!parseNxdShardFileName(QStringLiteral("dp_rank_00_tp_rank_00_pp_rank_00_ep_rank_01.pt")));
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

    // Item 3: a full disk while the index is written is an error (it was a silent 0-byte or cut index, reported as
    // success and "verified"); --verify reads the index as transformers does.
    void aFullDiskWhileWritingTheIndexIsAnError()
    {
        const QString dir = tmp.path() + QStringLiteral("/index-full");
        QString out, error;
        QVERIFY(python({dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        const CheckpointCandidate c = findCheckpoints(dir, &error).first();
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/sizes");
        o.maxShardBytes = 1;  // one tensor a file: the index is the largest file
        o.verify = true;
        ConsolidateReport rep = consolidate(c, o);
        QVERIFY2(rep.ok(), qPrintable(said(rep)));
        qint64 largest = 0, index = 0;
        for (const QString &f : std::as_const(rep.files)) {
            const qint64 size = QFileInfo(o.output + QLatin1Char('/') + f).size();
            (f.endsWith(QLatin1String(".index.json")) ? index : largest) = std::max(f.endsWith(QLatin1String(".index.json")) ? index : largest, size);
        }
        QVERIFY2(index > largest + 64, qPrintable(QStringLiteral("index %1, largest other %2").arg(index).arg(largest)));
        o.output = dir + QStringLiteral("/out");
        {
            test::FileSizeLimit limit(quint64(largest + (index - largest) / 2));
            rep = consolidate(c, o);
        }
        QVERIFY2(!rep.ok(), "a cut index was reported as a success");
        QVERIFY(!rep.verified);
        QVERIFY2(rep.error.contains(QStringLiteral("index")), qPrintable(said(rep)));
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(dir).isEmpty());
    }

    void verifyReadsTheIndexAsTransformersDoes()
    {
        const QString dir = tmp.path() + QStringLiteral("/index-verify");
        QString out, error;
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.maxShardBytes = 4000;
        const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
        QVERIFY2(rep.ok(), qPrintable(said(rep)));
        const QString name = QStringLiteral("model.safetensors.index.json");
        QFile f(o.output + QLatin1Char('/') + name);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray good = f.readAll();
        f.close();
        QVERIFY(verifyIndex(o.output, name).isEmpty());
        QJsonObject idx = QJsonDocument::fromJson(good).object();
        QJsonObject wm = idx.value(QStringLiteral("weight_map")).toObject();
        const auto withIndex = [&](const QByteArray &bytes) {
            writeFile(o.output + QLatin1Char('/') + name, bytes);
            return verifyIndex(o.output, name).join(QLatin1Char('\n'));
        };
        QVERIFY(withIndex(QByteArray()).contains(QStringLiteral("not valid JSON")));
        QVERIFY(withIndex(good.left(good.size() / 2)).contains(QStringLiteral("not valid JSON")));
        QJsonObject md = idx.value(QStringLiteral("metadata")).toObject();
        md[QStringLiteral("total_size")] = md.value(QStringLiteral("total_size")).toInteger() + 4;
        QJsonObject wrongTotal = idx;
        wrongTotal[QStringLiteral("metadata")] = md;
        QVERIFY(withIndex(QJsonDocument(wrongTotal).toJson()).contains(QStringLiteral("total_size")));
        QJsonObject moved = idx, wm2 = wm;
        const QString first = wm.keys().first();
        wm2[first] = QStringLiteral("model-00001-of-00001.safetensors");  // a file that is not there
        moved[QStringLiteral("weight_map")] = wm2;
        const QString movedSaid = withIndex(QJsonDocument(moved).toJson());
        QVERIFY2(movedSaid.contains(QStringLiteral("not in the output")), qPrintable(movedSaid));
        QVERIFY2(movedSaid.contains(QStringLiteral("does not map there")), qPrintable(movedSaid));
        QJsonObject dropped = idx, wm3 = wm;
        wm3.remove(first);
        dropped[QStringLiteral("weight_map")] = wm3;
        QVERIFY(withIndex(QJsonDocument(dropped).toJson()).contains(QStringLiteral("does not map there")));
    }

    // Item 4: the staging folder was <parent>/.ingot-consolidating-<name>-<pid>, emptied first by a recursive remove
    // that followed a link: links planted for the coming pid made a run empty a folder of the planter's choosing and
    // leave the output as the planter's link.
    void plantedStagingLinksAreNeverFollowed()
    {
        const QString dir = tmp.path() + QStringLiteral("/planted");
        QString out, error;
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        const QString victim = tmp.path() + QStringLiteral("/planted-victim");
        QVERIFY(QDir().mkpath(victim));
        writeFile(victim + QStringLiteral("/precious.txt"), "precious");
        const QString pid = QString::number(QCoreApplication::applicationPid());
        for (const QString &suffix : QStringList{pid, pid + QStringLiteral("-old")})
            QVERIFY(QFile::link(victim, dir + QStringLiteral("/.ingot-consolidating-out-") + suffix));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
        QVERIFY2(rep.ok(), qPrintable(said(rep)));
        QCOMPARE(listing(victim), QStringList{QStringLiteral("precious.txt 8")});
        QVERIFY(!isLink(o.output));
        QVERIFY(QFileInfo(o.output + QStringLiteral("/model.safetensors")).isFile());
    }

    // Item 4: an output that is a link is refused with words (it used to be renamed aside and then removed
    // recursively through the link: its target emptied).
    void aLinkAsOutputIsRefused()
    {
        const QString dir = tmp.path() + QStringLiteral("/linked-out");
        QString out, error;
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        const QString victim = tmp.path() + QStringLiteral("/linked-victim");
        QVERIFY(QDir().mkpath(victim));
        writeFile(victim + QStringLiteral("/precious.txt"), "precious");
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.overwrite = true;
        QVERIFY(QFile::link(victim, o.output));
        const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
        QVERIFY(!rep.ok());
        QVERIFY2(said(rep).contains(QStringLiteral("symbolic link")), qPrintable(said(rep)));
        QCOMPARE(listing(victim), QStringList{QStringLiteral("precious.txt 8")});
        QVERIFY(isLink(o.output));
        QVERIFY(leftovers(dir).isEmpty());
    }

    // Item 4: made by mkdtemp (an unpredictable name, 0700) while the run lasts; the output gets the usual mode.
    void stagingFolderIsPrivateAndUnpredictable()
    {
        const QString dir = tmp.path() + QStringLiteral("/private");
        QString out, error;
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        QStringList seen;
        const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o, [&](const ConsolidateProgress &p) {
            if (p.tensorsDone != 1)
                return;
            for (const QFileInfo &fi : QDir(dir).entryInfoList({QStringLiteral(".ingot-consolidating-out-*")}, QDir::AllEntries | QDir::Hidden)) {
                struct stat st {};
                ::lstat(QFile::encodeName(fi.absoluteFilePath()).constData(), &st);
                seen << QStringLiteral("%1 %2 %3").arg(fi.fileName(), S_ISDIR(st.st_mode) ? QStringLiteral("dir") : QStringLiteral("other"))
                            .arg(st.st_mode & 0777, 0, 8);
            }
        });
        QVERIFY2(rep.ok(), qPrintable(said(rep)));
        QCOMPARE(seen.size(), 1);
        const QStringList parts = seen.first().split(QLatin1Char(' '));
        QVERIFY2(parts[0] != QStringLiteral(".ingot-consolidating-out-%1").arg(QCoreApplication::applicationPid()), qPrintable(parts[0]));
        QCOMPARE(parts[0].size(), QStringLiteral(".ingot-consolidating-out-").size() + 6);
        QCOMPARE(parts[1], QStringLiteral("dir"));
        QCOMPARE(parts[2], QStringLiteral("700"));
        const mode_t mask = ::umask(0);
        ::umask(mask);
        QCOMPARE(int(QFileInfo(o.output).permissions() & (QFile::ReadOther | QFile::ReadGroup)),
                 int(((mask & 004) ? QFile::Permissions() : QFile::ReadOther) | ((mask & 040) ? QFile::Permissions() : QFile::ReadGroup)));
    }

    // Item 6: what killed runs left is removed by the next run for the same output, if it is ours: our naming, a
    // real folder (not a link), our uid, not locked by a run still going.
    void leftoversOfKilledRunsAreRemoved()
    {
        const QString dir = tmp.path() + QStringLiteral("/leftovers");
        QString out, error;
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        const QString victim = tmp.path() + QStringLiteral("/leftovers-victim");
        QVERIFY(QDir().mkpath(victim));
        writeFile(victim + QStringLiteral("/precious.txt"), "precious");
        const QString p = dir + QStringLiteral("/.ingot-consolidating-out-");
        const QStringList ours{p + QStringLiteral("AbC123"), p + QStringLiteral("4242"), p + QStringLiteral("xYz789-old")};
        for (const QString &l : ours) {
            QVERIFY(QDir().mkpath(l + QStringLiteral("/sub/deeper")));
            writeFile(l + QStringLiteral("/model.safetensors"), "partial");
            writeFile(l + QStringLiteral("/sub/deeper/x"), "x");
            QVERIFY(QFile::link(victim, l + QStringLiteral("/sub/link-to-victim")));
        }
        QVERIFY(QFile::link(victim, p + QStringLiteral("Qq1234")));            // a link: not ours to follow
        QVERIFY(QDir().mkpath(p + QStringLiteral("Zz9999")));                  // a run still going holds its lock
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/.ingot-consolidating-other-Ab1234")));  // another output's
        QVERIFY(QDir().mkpath(p + QStringLiteral("notours-by-name")));        // not our naming
        const int lockFd = ::open(QFile::encodeName(p + QStringLiteral("Zz9999")).constData(), O_RDONLY | O_DIRECTORY);
        QVERIFY(lockFd >= 0 && ::flock(lockFd, LOCK_EX) == 0);
        QStringList notOurs{p + QStringLiteral("Qq1234"), p + QStringLiteral("Zz9999"), dir + QStringLiteral("/.ingot-consolidating-other-Ab1234"),
                            p + QStringLiteral("notours-by-name")};
        if (test::isRoot()) {  // another user's
            QVERIFY(QDir().mkpath(p + QStringLiteral("Nb0dy1")));
            QVERIFY(::chown(QFile::encodeName(p + QStringLiteral("Nb0dy1")).constData(), 65534, 65534) == 0);
            notOurs << p + QStringLiteral("Nb0dy1");
        }
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
        ::close(lockFd);
        QVERIFY2(rep.ok(), qPrintable(said(rep)));
        for (const QString &l : ours)
            QVERIFY2(!QFileInfo::exists(l) && !isLink(l), qPrintable(l));
        for (const QString &l : std::as_const(notOurs))
            QVERIFY2(QFileInfo::exists(l) || isLink(l), qPrintable(l));
        QVERIFY(isLink(p + QStringLiteral("Qq1234")));
        QCOMPARE(listing(victim), QStringList{QStringLiteral("precious.txt 8")});
    }

    // Item 6: a run killed half way leaves its staging folder; the next one removes it and succeeds.
    void aKilledRunLeavesNothingNextTime()
    {
        const QString dir = tmp.path() + QStringLiteral("/killed");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("ingot"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, &out, 64), qPrintable(out));
        const QStringList args{QStringLiteral("consolidate"), dir, dir + QStringLiteral("/out"), QStringLiteral("--verify")};
        QProcess cli;
        QVERIFY(startCliUntilStaging(cli, args, dir));
        cli.kill();
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitStatus(), QProcess::CrashExit);
        QVERIFY2(!leftovers(dir).isEmpty(), "the kill came too late to leave anything");
        QProcess again;
        again.setProcessChannelMode(QProcess::MergedChannels);
        again.start(QStringLiteral(INGOT_CLI_PATH), args);
        QVERIFY(again.waitForFinished(120000));
        QVERIFY2(again.exitStatus() == QProcess::NormalExit && again.exitCode() == 0, again.readAll().constData());
        QCOMPARE(leftovers(dir), QStringList());
        QVERIFY(QFileInfo(dir + QStringLiteral("/out/model.safetensors")).isFile());
    }

    // Item 6: Ctrl-C (or TERM) stops the run between tensors and removes the staging folder; exit code 1.
    void ctrlCStopsAndCleansUp()
    {
        const QString dir = tmp.path() + QStringLiteral("/interrupted");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("ingot"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, &out, 64), qPrintable(out));
        for (const int sig : {SIGINT, SIGTERM}) {
            QProcess cli;
            QVERIFY(startCliUntilStaging(cli, {QStringLiteral("consolidate"), dir, dir + QStringLiteral("/out"), QStringLiteral("--verify")}, dir));
            ::kill(pid_t(cli.processId()), sig);
            QVERIFY(cli.waitForFinished(60000));
            const QString text = QString::fromUtf8(cli.readAll());
            QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 1, qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("Stopped")), qPrintable(text));
            QCOMPARE(leftovers(dir), QStringList());
            QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/out")));
        }
    }

    // Item 5: --overwrite with an output that is, holds or lies inside the checkpoint being read deleted the shards
    // (or the whole run). Refused with words, however the path is spelled.
    void outputThatWouldDestroyTheInputIsRefused_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("output");  // relative to the run folder ("run/ckpt" is the checkpoint)
        QTest::addColumn<QString>("words");
        const QString holds = QStringLiteral("holds the checkpoint");
        const QString inside = QStringLiteral("inside the checkpoint's shards");
        const auto row = [](const char *name, const char *layout, const char *output, const QString &words) {
            QTest::newRow(name) << QString::fromLatin1(layout) << QString::fromLatin1(output) << words;
        };
        row("the checkpoint folder", "ingot", "run/ckpt", holds);
        row("the run folder above it", "ingot", "run", holds);
        row("through a link to the run", "ingot", "link-to-run/ckpt", holds);
        row("spelled with dots", "ingot", "run/ckpt/tensor_parallel_shards/../.", holds);
        row("the shards folder", "ingot", "run/ckpt/tensor_parallel_shards", QStringLiteral("shards folder"));
        row("a rank folder", "ingot", "run/ckpt/tensor_parallel_shards/tp_rank_00_pp_rank_00", inside);
        row("a new folder inside the shards", "ingot", "run/ckpt/tensor_parallel_shards/new/out", inside);
        row("nxd: shards/model", "nxd", "run/ckpt/shards/model", inside);
        row("nxd: the shards folder", "nxd", "run/ckpt/shards", QStringLiteral("shards folder"));
        row("nxd: the checkpoint folder", "nxd", "run/ckpt", holds);
    }
    void outputThatWouldDestroyTheInputIsRefused()
    {
        QFETCH(QString, layout);
        QFETCH(QString, output);
        QFETCH(QString, words);
        const QString base = tmp.path() + QStringLiteral("/overwrite-") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')).remove(QLatin1Char(':'));
        const QString dir = base + QStringLiteral("/run/ckpt");
        QString out, error;
        QVERIFY(python({dir, layout, QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        QVERIFY(QFile::link(base + QStringLiteral("/run"), base + QStringLiteral("/link-to-run")));
        const QStringList before = listing(dir);
        ConsolidateOptions o;
        o.output = base + QLatin1Char('/') + output;
        o.overwrite = true;
        const ConsolidateReport rep = consolidate(findCheckpoints(dir, &error).first(), o);
        QVERIFY(!rep.ok());
        QVERIFY2(said(rep).contains(words), qPrintable(said(rep)));
        QCOMPARE(listing(dir), before);
        QVERIFY(leftovers(base).isEmpty());
        QCOMPARE(outputRefusal(findCheckpoints(dir, &error).first(), o.output).isEmpty(), false);
        // Beside the checkpoint is fine.
        o.output = base + QStringLiteral("/run/ckpt/consolidated");
        QVERIFY2(consolidate(findCheckpoints(dir, &error).first(), o).ok(), "a folder beside the shards is refused");
    }

    // Since outputs inside the shards are refused, the default output (CHECKPOINT_DIR/consolidated) moves beside
    // the shards when CHECKPOINT_DIR is the shards folder.
    // Issue 14: tensors go straight from the shard files to the output (copy_file_range, or pread and pwritev);
    // the bytes must be exactly those of the in-memory assembly, with copy_file_range or without, on every layout,
    // for pieces that are one range (dim 0) and pieces that interleave row by row (dim 1), deflated records too.
    void everyIoWayWritesTheSameBytes_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QString>("partitionDim");
        QTest::addColumn<QStringList>("extra");
        const QString f32 = QStringLiteral("float32"), bf16 = QStringLiteral("bfloat16");
        QTest::addRow("nxd tp8 dim 0") << QStringLiteral("nxd") << 8 << 1 << f32 << QString() << QStringList();
        QTest::addRow("nxd tp8 dim 1") << QStringLiteral("nxd") << 8 << 1 << f32 << QStringLiteral("1") << QStringList();
        QTest::addRow("nxd tp4 pp2 bf16 dim 1") << QStringLiteral("nxd") << 4 << 2 << bf16 << QStringLiteral("1") << QStringList();
        QTest::addRow("docs tp4 bf16 dim 0") << QStringLiteral("docs") << 4 << 1 << bf16 << QString() << QStringList();
        QTest::addRow("docs tp2 dim 1") << QStringLiteral("docs") << 2 << 1 << f32 << QStringLiteral("1") << QStringList();
        QTest::addRow("docs tp2 deflated") << QStringLiteral("docs") << 2 << 1 << f32 << QString() << QStringList{QStringLiteral("deflate")};
        QTest::addRow("ingot tp8 bf16 dim 0") << QStringLiteral("ingot") << 8 << 1 << bf16 << QString() << QStringList();
        QTest::addRow("ingot tp2 dim 1") << QStringLiteral("ingot") << 2 << 1 << f32 << QStringLiteral("1") << QStringList();
        QTest::addRow("nxd tp4 fused gqa") << QStringLiteral("nxd") << 4 << 1 << f32 << QString()
                                           << QStringList{QStringLiteral("fused"), QStringLiteral("gqa")};
        QTest::addRow("ingot tp2 fused gqa-separate") << QStringLiteral("ingot") << 2 << 1 << f32 << QString()
                                                      << QStringList{QStringLiteral("fused"), QStringLiteral("gqa-separate")};
    }
    void everyIoWayWritesTheSameBytes()
    {
        QFETCH(QString, layout);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(QString, dtype);
        QFETCH(QString, partitionDim);
        QFETCH(QStringList, extra);
        const QString dir = tmp.path() + QStringLiteral("/io-%1").arg(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QString out, error;
        const bool deflate = extra.removeAll(QStringLiteral("deflate")) > 0;
        QVERIFY2(python(QStringList{dir, layout, QString::number(tp), QString::number(pp), dtype} + extra, &out, 3, partitionDim), qPrintable(out));
        if (deflate) {
            QDirIterator it(dir, {QStringLiteral("checkpoint.pt")}, QDir::Files, QDirIterator::Subdirectories);
            int deflated = 0;
            while (it.hasNext()) {
                QVERIFY2(python({QStringLiteral("--deflate"), it.next()}, &out), qPrintable(out));
                ++deflated;
            }
            QCOMPARE(deflated, tp * pp);
        }
        const auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        const ConsolidationPlan plan = planConsolidation(found.first());
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char(' '))));
        std::map<QString, QByteArray> first;
        for (const auto io : {ConsolidateOptions::Io::Direct, ConsolidateOptions::Io::Pread, ConsolidateOptions::Io::Buffered,
                              ConsolidateOptions::Io::PageCache}) {
            ConsolidateOptions o;
            o.output = dir + QStringLiteral("/out-%1").arg(int(io));
            o.io = io;
            // Several output files for one case: tensors written straight to the second file land at its offsets.
            if (tp == 4 && pp == 2)
                o.maxShardBytes = 20000;
            const ConsolidateReport rep = consolidate(plan, o);
            QVERIFY2(rep.ok(), qPrintable(said(rep)));
            const auto files = folderContents(o.output);
            QVERIFY(files.size() >= 2);  // model.safetensors (or several and the index), config.json
            if (io == ConsolidateOptions::Io::Direct) {
                QVERIFY2(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), o.output}, &out), qPrintable(out));
                first = files;
                continue;
            }
            QCOMPARE(files.size(), first.size());
            for (const auto &[name, bytes] : files) {
                QVERIFY2(first.count(name), qPrintable(name));
                QVERIFY2(first[name] == bytes, qPrintable(name + QStringLiteral(" differs between the ways of writing")));
            }
        }
        // --verify checks the straight write against the in-memory assembly.
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out-verified");
        o.verify = true;
        if (tp == 4 && pp == 2)
            o.maxShardBytes = 20000;
        const ConsolidateReport rep = consolidate(plan, o);
        QVERIFY2(rep.ok() && rep.verified, qPrintable(said(rep)));
        QVERIFY(folderContents(o.output) == first);
        QVERIFY(leftovers(dir).isEmpty());
    }

    // A shard that another process truncates while it is open: every read of the missing bytes is an error with
    // words, never a SIGBUS (which would end this test), whichever way the bytes are read.
    void aShardThatShrinksWhileOpenIsAnError_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("shard");
        QTest::addRow("torch") << QStringLiteral("nxd") << QStringLiteral("/shards/model/dp_rank_00_tp_rank_00_pp_rank_00.pt");
        QTest::addRow("safetensors") << QStringLiteral("ingot") << QStringLiteral("/tensor_parallel_shards/tp_rank_00_pp_rank_00/model.safetensors");
    }
    void aShardThatShrinksWhileOpenIsAnError()
    {
        QFETCH(QString, layout);
        QFETCH(QString, shard);
        const QString dir = tmp.path() + QStringLiteral("/shrinks-") + layout;
        QString out, error;
        QVERIFY2(python({dir, layout, QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, &out, 8), qPrintable(out));
        ShardFile f;
        f.path = dir + shard;
        ShardReader r;
        QVERIFY2(r.open(f, &error), qPrintable(error));
        // The tensor whose bytes end last in the file.
        std::string last;
        ShardReader::Location at;
        for (const std::string &name : r.names()) {
            ShardReader::Location l;
            QVERIFY2(r.locate(name, &l, &error), qPrintable(QString::fromStdString(name) + QStringLiteral(": ") + error));
            if (l.offset + l.size > at.offset + at.size) {
                at = l;
                last = name;
            }
        }
        QVERIFY(at.size > 1000);
        QCOMPARE(::truncate(QFile::encodeName(f.path).constData(), off_t(at.offset + at.size / 2)), 0);
        std::string buf;
        qint64 size = 0;
        QVERIFY(!r.read(last, &buf, &size, &error));
        QVERIFY2(error.contains(QStringLiteral("shorter than it was")), qPrintable(error));
        for (const bool cfr : {true, false}) {
            QFile target(dir + QStringLiteral("/target"));
            QVERIFY(target.open(QIODevice::ReadWrite | QIODevice::Truncate));
            RangeCopier copier(cfr);
            error.clear();
            QVERIFY(!copier.copy({at.fd, at.offset, f.path}, {target.handle(), 0, target.fileName()}, at.size, &error));
            QVERIFY2(error.contains(QStringLiteral("shorter than it was")), qPrintable(error));
            error.clear();
            const qint64 row = at.size / 4;
            QVERIFY(!copier.interleave({{at.fd, at.offset, f.path}, {at.fd, at.offset + 2 * row, f.path}}, 2, row,
                                       {target.handle(), 0, target.fileName()}, &error));
            QVERIFY2(error.contains(QStringLiteral("shorter than it was")), qPrintable(error));
        }
    }

    // Rows that interleave (a tensor concatenated on dim 1) in several batches (the checkpoints above fit in one):
    // the bytes of every row in their places, at an offset in the file, the last batch short; a piece that ends
    // early is an error with words, in the first batch or a later one.
    void interleavedRowsInSeveralBatches()
    {
        const qint64 rowBytes = (1 << 20) + 3;
        const qint64 n = 3;
        const qint64 rowOut = n * rowBytes;
        const qint64 rows = 2 * (RangeCopier::kBufferBytes / rowOut) + 2;  // three batches, the last of 2 rows
        const QByteArray data = test::randomBytes(n * rows * rowBytes + 100, 11);
        const QString src = tmp.path() + QStringLiteral("/interleave-source");
        writeFile(src, data);
        QByteArray expected;
        for (qint64 r = 0; r < rows; ++r)
            for (qint64 k = 0; k < n; ++k)
                expected += data.mid(int(100 + k * rows * rowBytes + r * rowBytes), int(rowBytes));
        const int in = ::open(QFile::encodeName(src).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(in >= 0);
        std::vector<RangeCopier::Source> pieces;
        for (qint64 k = 0; k < n; ++k)
            pieces.push_back({in, 100 + k * rows * rowBytes, src});
        const QByteArray before(12345, 'h');
        const QString target = tmp.path() + QStringLiteral("/interleave-target");
        writeFile(target, before);
        QFile t(target);
        QVERIFY(t.open(QIODevice::ReadWrite));
        RangeCopier copier;
        QString error;
        QVERIFY2(copier.interleave(pieces, rows, rowBytes, {t.handle(), before.size(), target}, &error), qPrintable(error));
        const QByteArray got = test::readFile(target);
        QCOMPARE(got.size(), before.size() + expected.size());
        QVERIFY(got.startsWith(before));
        QVERIFY2(got.mid(before.size()) == expected, "interleaved rows differ");
        // The last piece ends inside the second batch, then inside the first.
        for (const qint64 cut : {rows * rowBytes - 3 * rowBytes, rowBytes / 2}) {
            QCOMPARE(::ftruncate(in, 0), -1);  // read-only: truncated through the path below
            QCOMPARE(::truncate(QFile::encodeName(src).constData(), off_t(100 + 2 * rows * rowBytes + cut)), 0);
            error.clear();
            QVERIFY(!copier.interleave(pieces, rows, rowBytes, {t.handle(), before.size(), target}, &error));
            QVERIFY2(error.contains(QStringLiteral("shorter than it was")), qPrintable(error));
        }
        ::close(in);
    }

    // O_DIRECT windows: every alignment of the output's start and end, rows shorter and longer than a window, a
    // window edge inside a row; the bytes must be those of the page-cache way, and the bytes around untouched.
    void interleavedRowsWithDirectWrites_data()
    {
        QTest::addColumn<qint64>("rowBytes");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("at");
        QTest::addRow("short rows, unaligned start") << qint64(300) << qint64(20000) << qint64(12345);
        QTest::addRow("aligned start") << qint64(4096) << qint64(3000) << qint64(8192);
        QTest::addRow("rows longer than a window") << qint64(RangeCopier::kBufferBytes / 2 + 7) << qint64(3) << qint64(100);
        QTest::addRow("too short for a window") << qint64(300) << qint64(3) << qint64(5);
    }
    void interleavedRowsWithDirectWrites()
    {
        QFETCH(qint64, rowBytes);
        QFETCH(qint64, rows);
        QFETCH(qint64, at);
        const qint64 n = 3;
        const QByteArray data = test::randomBytes(n * rows * rowBytes + 50, 12);
        const QString src = tmp.path() + QStringLiteral("/direct-source");
        writeFile(src, data);
        QByteArray expected;
        for (qint64 r = 0; r < rows; ++r)
            for (qint64 k = 0; k < n; ++k)
                expected += data.mid(int(50 + k * rows * rowBytes + r * rowBytes), int(rowBytes));
        const int in = ::open(QFile::encodeName(src).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(in >= 0);
        std::vector<RangeCopier::Source> pieces;
        for (qint64 k = 0; k < n; ++k)
            pieces.push_back({in, 50 + k * rows * rowBytes, src});
        const QByteArray before = test::randomBytes(int(at), 13), after = test::randomBytes(5000, 14);
        const QString target = tmp.path() + QStringLiteral("/direct-target");
        writeFile(target, before + QByteArray(expected.size(), 'x') + after);
        QFile t(target);
        QVERIFY(t.open(QIODevice::ReadWrite));
        const int direct = RangeCopier::reopenForDirectWrites(t.handle());
        if (direct < 0)
            QSKIP("this file system refuses O_DIRECT");
        RangeCopier copier;
        QString error;
        QVERIFY2(copier.interleave(pieces, rows, rowBytes, {t.handle(), before.size(), target, direct}, &error), qPrintable(error));
        QVERIFY(copier.usesDirectWrites());
        ::close(direct);
        t.close();
        const QByteArray got = test::readFile(target);
        QCOMPARE(got.size(), before.size() + expected.size() + after.size());
        QVERIFY(got.startsWith(before));
        QVERIFY(got.endsWith(after));
        QVERIFY2(got.mid(before.size(), expected.size()) == expected, "interleaved rows differ");
        // A piece cut short is a short read with words, not zeros in the output.
        QCOMPARE(::truncate(QFile::encodeName(src).constData(), off_t(50 + 2 * rows * rowBytes + rowBytes / 2)), 0);
        QVERIFY(t.open(QIODevice::ReadWrite));
        const int direct2 = RangeCopier::reopenForDirectWrites(t.handle());
        QVERIFY(!copier.interleave(pieces, rows, rowBytes, {t.handle(), before.size(), target, direct2}, &error));
        QVERIFY2(error.contains(QStringLiteral("shorter than it was")), qPrintable(error));
        ::close(direct2);
        ::close(in);
    }

    void defaultOutputIsBesideTheShards()
    {
        const QString dir = tmp.path() + QStringLiteral("/default-out");
        QString out;
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        QProcess cli;
        cli.setProcessChannelMode(QProcess::MergedChannels);
        cli.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("consolidate"), dir + QStringLiteral("/tensor_parallel_shards")});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAll().constData());
        QVERIFY(QFileInfo(dir + QStringLiteral("/consolidated/model.safetensors")).isFile());
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/tensor_parallel_shards/consolidated")));
    }

    // Item 3: companion files are copied with every write checked, the last one included.
    void aFullDiskWhileCopyingCompanionFilesIsAnError()
    {
        const QString dir = tmp.path() + QStringLiteral("/companion-full");
        QString out, error;
        QVERIFY(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out));
        writeFile(dir + QStringLiteral("/tokenizer.json"), QByteArray(200000, 'x'));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        ConsolidateReport rep;
        {
            test::FileSizeLimit limit(150000);
            rep = consolidate(findCheckpoints(dir, &error).first(), o);
        }
        QVERIFY2(!rep.ok(), "a cut tokenizer.json was reported as a success");
        QVERIFY2(rep.error.contains(QStringLiteral("tokenizer.json")), qPrintable(said(rep)));
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(dir).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestConsolidate)
#include "tst_consolidate.moc"
