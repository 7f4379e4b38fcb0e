// Re-sharding on real checkpoints written by Debian's python3-torch: every source layout re-split for other tp/pp
// sizes must consolidate back to the original bit for bit (checked by Python), the backend's optimizer state must
// follow its weights, and bad input or a bad layout must be refused with words and leave nothing. (Resuming the
// bundled backend from a re-shard, against an uninterrupted run: tests/backend/test_train.py.)
#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/reshard.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <unistd.h>

using namespace ingot;

namespace {
const QString kScript = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_sharded_fixtures.py");

bool python(const QStringList &args, QString *out)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{kScript} + args);
    p.waitForFinished(300000);
    *out = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

bool hasLeftovers(const QString &dir)
{
    QDirIterator it(dir, {QStringLiteral(".ingot-*")}, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    return it.hasNext();
}

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

ReshardPlan planFor(const QString &dir, const ReshardOptions &o)
{
    QString error;
    const QVector<CheckpointCandidate> found = findCheckpoints(dir, &error);
    if (found.isEmpty())
        return ReshardPlan{};
    return planReshard(found.first(), o);
}

QString rank(const QString &out, int tp, int pp)
{
    return out + QStringLiteral("/tensor_parallel_shards/tp_rank_%1_pp_rank_%2").arg(tp, 2, 10, QLatin1Char('0')).arg(pp, 2, 10, QLatin1Char('0'));
}
}  // namespace

class TestReshard : public QObject
{
    Q_OBJECT

private slots:
    void backendRules()
    {
        bool known = false;
        QCOMPARE(backendSplitDim("model.layers.3.self_attn.k_proj.weight", true, &known), 0);
        QVERIFY(known);
        QCOMPARE(backendSplitDim("model.layers.0.mlp.down_proj.weight", true, &known), 1);
        QCOMPARE(backendSplitDim("model.embed_tokens.weight", true, &known), 0);
        QCOMPARE(backendSplitDim("lm_head.weight", false, &known), -1);
        QVERIFY(known);
        QCOMPARE(backendSplitDim("model.layers.0.input_layernorm.weight", true, &known), -1);
        QVERIFY(known);
        backendSplitDim("model.layers.0.self_attn.q_proj.bias", true, &known);
        QVERIFY(!known);
        backendSplitDim("x.self_attn.q_proj.weight", true, &known);  // not under model.layers
        QVERIFY(!known);
        // 5 layers on 2 stages: 3 then 2 (earlier stages take one more), as the backend's Layout.stage_layers.
        QCOMPARE(backendStage("model.layers.2.mlp.up_proj.weight", 5, 2), 0);
        QCOMPARE(backendStage("model.layers.3.mlp.up_proj.weight", 5, 2), 1);
        QCOMPARE(backendStage("model.layers.5.mlp.up_proj.weight", 5, 2), -1);
        QCOMPARE(backendStage("model.layers.01.mlp.up_proj.weight", 5, 2), -1);  // not how the model names layers
        QCOMPARE(backendStage("model.embed_tokens.weight", 5, 2), 0);
        QCOMPARE(backendStage("lm_head.weight", 5, 3), 2);
    }

    void splitParts()
    {
        // A [2, 4] tensor of bytes 0..7: dim 0 in 2 gives rows; dim 1 in 2 gives column pairs of every row.
        const char data[] = {0, 1, 2, 3, 4, 5, 6, 7};
        std::string part;
        splitPart(data, {2, 4}, 1, 0, 2, 1, &part);
        QCOMPARE(QByteArray::fromStdString(part), QByteArray("\x04\x05\x06\x07", 4));
        splitPart(data, {2, 4}, 1, 1, 2, 1, &part);
        QCOMPARE(QByteArray::fromStdString(part), QByteArray("\x02\x03\x06\x07", 4));
        splitPart(data, {2, 4}, 1, -1, 2, 1, &part);
        QCOMPARE(part.size(), size_t(8));
        splitPart(data, {2, 2}, 2, 1, 2, 0, &part);  // 2-byte elements
        QCOMPARE(QByteArray::fromStdString(part), QByteArray("\x00\x01\x04\x05", 4));
    }

    // Every source layout, re-split for other sizes: the output consolidates back to the original bit for bit.
    void everyLayoutRoundTrips_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("newTp");
        QTest::addColumn<int>("newPp");
        QTest::newRow("docs tp2 -> tp1 pp4") << "docs" << 2 << 1 << "float32" << "" << 1 << 4;
        QTest::newRow("nxd gqa tp2 pp2 -> tp2 pp1") << "nxd" << 2 << 2 << "bfloat16" << "gqa" << 2 << 1;
        QTest::newRow("ingot fused tp2 -> tp2 pp3") << "ingot" << 2 << 1 << "float32" << "fused" << 2 << 3;
        // optimum-neuron's own fused linears: gate_up_proj with partition_stride 2, MHA qkv_proj with stride 3.
        QTest::newRow("nxd fused gate_up stride 2, tp4 pp2 -> tp2 pp1") << "nxd" << 4 << 2 << "bfloat16" << "fused" << 2 << 1;
        QTest::newRow("nxd fused qkv stride 3 and gate_up, tp2 -> tp4 pp2") << "nxd" << 2 << 1 << "float32" << "fused fused-qkv" << 4 << 2;
        QTest::newRow("nxd fused qkv stride 3, tp1 -> tp2") << "nxd" << 1 << 1 << "float32" << "fused-qkv" << 2 << 1;
        QTest::newRow("ingot tied tp1 pp2 -> tp2 pp2") << "ingot" << 1 << 2 << "bfloat16" << "tied" << 2 << 2;
    }
    void everyLayoutRoundTrips()
    {
        QFETCH(QString, layout);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(QString, dtype);
        QFETCH(QString, mode);
        QFETCH(int, newTp);
        QFETCH(int, newPp);
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        const QStringList args = QStringList{dir, layout, QString::number(tp), QString::number(pp), dtype} +
                                 mode.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QVERIFY2(python(args, &out), qPrintable(out));
        ReshardOptions o;
        o.output = tmp.path() + QStringLiteral("/resharded");
        o.tpSize = newTp;
        o.ppSize = newPp;
        o.verify = true;
        const ReshardPlan plan = planFor(dir, o);
        QVERIFY2(plan.problems.isEmpty(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        QVERIFY(!plan.optimizer);  // no backend optimizer state in these sources: weights only, said so
        QVERIFY(!plan.notes.isEmpty());
        const ConsolidateReport rep = reshard(plan, o);
        QVERIFY2(rep.ok(), qPrintable(rep.error + rep.problems.join(QLatin1Char(' ')) + rep.verifyProblems.join(QLatin1Char(' '))));
        QVERIFY(rep.verified);
        // One folder per new rank, each with its metadata; the layout the backend checks on resuming.
        QCOMPARE(QDir(o.output + QStringLiteral("/tensor_parallel_shards")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), newTp * newPp);
        const QJsonObject meta = readJson(rank(o.output, newTp - 1, newPp - 1) + QStringLiteral("/mp_metadata.json"));
        const QJsonObject down = meta[QStringLiteral("parameters")].toObject()[QStringLiteral("model.layers.3.mlp.down_proj.weight")].toObject();
        QCOMPARE(down[QStringLiteral("tensor_model_parallel")].toBool(), newTp > 1);
        if (newTp > 1)
            QCOMPARE(down[QStringLiteral("partition_dim")].toInt(), 1);
        const QJsonObject targs = readJson(o.output + QStringLiteral("/training_args.json"));
        QCOMPARE(targs[QStringLiteral("tensor_parallel_size")].toInt(), newTp);
        QCOMPARE(targs[QStringLiteral("pipeline_parallel_size")].toInt(), newPp);
        QVERIFY(!targs.contains(QStringLiteral("world_size")));
        QCOMPARE(targs[QStringLiteral("resharded_from")].toObject()[QStringLiteral("tensor_parallel_size")].toInt(), tp);
        QVERIFY(QFile::exists(o.output + QStringLiteral("/config.json")));
        QVERIFY(!hasLeftovers(tmp.path()));
        // Consolidated again by Ingot, it is the original model bit for bit.
        ConsolidateOptions c;
        c.output = tmp.path() + QStringLiteral("/consolidated");
        QString error;
        const QVector<CheckpointCandidate> back = findCheckpoints(o.output, &error);
        QCOMPARE(back.size(), 1);
        QCOMPARE(back.first().tpSize, newTp);
        QCOMPARE(back.first().ppSize, newPp);
        const ConsolidateReport crep = consolidate(back.first(), c);
        QVERIFY2(crep.ok(), qPrintable(crep.error + crep.problems.join(QLatin1Char(' '))));
        QVERIFY2(python({QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), c.output}, &out), qPrintable(out));
    }

    // The backend's optimizer state follows its weights: each new rank's exp_avg is 2w and exp_avg_sq |w| of that
    // rank's own weight part (as the fixture made them), at the source's step.
    void optimizerStateFollowsTheWeights()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("2"), QStringLiteral("float32"), QStringLiteral("optimizer")}, &out),
                 qPrintable(out));
        ReshardOptions o;
        o.output = tmp.path() + QStringLiteral("/resharded");
        o.tpSize = 1;
        o.ppSize = 3;
        o.verify = true;
        const ReshardPlan plan = planFor(dir, o);
        QVERIFY2(plan.problems.isEmpty(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        QVERIFY(plan.optimizer);
        QCOMPARE(plan.optimizerStep, std::int64_t(7));
        const ConsolidateReport rep = reshard(plan, o);
        QVERIFY2(rep.ok(), qPrintable(rep.error + rep.verifyProblems.join(QLatin1Char(' '))));
        int checked = 0;
        for (int pp = 0; pp < 3; ++pp) {
            SafetensorsReader w, m;
            QString error;
            QVERIFY2(w.open(rank(o.output, 0, pp) + QStringLiteral("/model.safetensors"), &error), qPrintable(error));
            QVERIFY2(m.open(rank(o.output, 0, pp) + QStringLiteral("/optimizer.safetensors"), &error), qPrintable(error));
            QCOMPARE(m.metadata().at("step"), std::string("7"));
            QCOMPARE(m.tensors().size(), 2 * w.tensors().size());
            for (const SafetensorInfo &t : w.tensors()) {
                const SafetensorInfo *a = m.find(t.name + ".exp_avg");
                const SafetensorInfo *s = m.find(t.name + ".exp_avg_sq");
                QVERIFY(a && s && a->shape == t.shape && s->shape == t.shape);
                const float *wv = reinterpret_cast<const float *>(w.data(t));
                const float *av = reinterpret_cast<const float *>(m.data(*a));
                const float *sv = reinterpret_cast<const float *>(m.data(*s));
                for (std::int64_t i = 0; i < t.numel(); ++i) {
                    QCOMPARE(av[i], wv[i] * 2);
                    QCOMPARE(sv[i], std::fabs(wv[i]));
                }
                ++checked;
            }
        }
        QCOMPARE(checked, 1 + 4 * 9 + 2);  // every tensor of the model
    }

    // Layouts the model cannot take, and sources that cannot be re-sharded, are refused with words; nothing is written.
    void refusals()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32"), QStringLiteral("optimizer")}, &out),
                 qPrintable(out));
        const auto refused = [&](ReshardOptions o, const QString &words) {
            if (o.output.isEmpty())
                o.output = tmp.path() + QStringLiteral("/out");
            const ReshardPlan plan = planFor(dir, o);
            const ConsolidateReport rep = reshard(plan, o);
            const QString all = rep.problems.join(QLatin1Char('\n'));
            if (rep.ok() || !all.contains(words))
                qWarning() << all;
            return !rep.ok() && all.contains(words) && !QFileInfo::exists(tmp.path() + QStringLiteral("/out")) && !hasLeftovers(tmp.path());
        };
        ReshardOptions o;
        o.tpSize = 3;
        QVERIFY(refused(o, QStringLiteral("do not split over 3 tensor-parallel ranks")));
        o.tpSize = 4;  // 4 query heads but 2 key/value heads
        QVERIFY(refused(o, QStringLiteral("2 key/value heads do not split over 4")));
        o.tpSize = 1;
        o.ppSize = 5;
        QVERIFY(refused(o, QStringLiteral("4 layers, fewer than 5 pipeline stages")));
        o.ppSize = 1;
        o.kvMultiplier = 2;
        QVERIFY(refused(o, QStringLiteral("does not replicate")));
        o.kvMultiplier = 1;
        o.output = dir + QStringLiteral("/tensor_parallel_shards/inside");
        QVERIFY(!reshard(planFor(dir, o), o).ok());
        QVERIFY(!QFileInfo::exists(o.output));
        // An existing output is kept unless overwriting is asked for.
        o.output = tmp.path() + QStringLiteral("/taken");
        QVERIFY(QDir().mkpath(o.output));
        QFile keep(o.output + QStringLiteral("/keep"));
        QVERIFY(keep.open(QIODevice::WriteOnly));
        keep.close();
        QVERIFY(reshard(planFor(dir, o), o).problems.join(QLatin1Char(' ')).contains(QStringLiteral("already exists")));
        QVERIFY(QFile::exists(o.output + QStringLiteral("/keep")));
        o.output.clear();
        // Optimizer state in only one rank folder: incomplete, unless weights only are asked for.
        const QString other = rank(dir, 1, 0) + QStringLiteral("/optimizer.safetensors");
        QVERIFY(QFile::rename(other, other + QStringLiteral(".away")));
        QVERIFY(refused(o, QStringLiteral("Only some rank folders hold optimizer state")));
        o.weightsOnly = true;
        QVERIFY(planFor(dir, o).problems.isEmpty());
        o.weightsOnly = false;
        QVERIFY(QFile::rename(other + QStringLiteral(".away"), other));
        // Optimizer state of another kind under the backend's name.
        QString e;
        {
            SafetensorsReader r;
            QVERIFY(r.open(other, &e));
        }
        QFile f(other);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        const int at = int(bytes.indexOf("ingot-adamw-1"));
        QVERIFY(at > 0);
        bytes[at] = 'X';
        f.seek(0);
        f.write(bytes);
        f.close();
        QVERIFY(refused(o, QStringLiteral("is not optimizer state the bundled backend wrote")));
        // Training arguments that are not an object.
        QFile args(dir + QStringLiteral("/training_args.json"));
        QVERIFY(args.open(QIODevice::WriteOnly));
        args.write("[1, 2]");
        args.close();
        QVERIFY(refused(o, QStringLiteral("training_args.json is not a JSON object")));
    }

    // A layout the model cannot take is said first and alone: tp 3 of a model with 4 heads and 2 key/value heads
    // listed 39 problems, the cause among them and several false ("model.embed_tokens.weight is missing").
    void aLayoutTheModelCannotTakeIsTheOneProblem()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32"), QStringLiteral("optimizer")}, &out),
                 qPrintable(out));
        ReshardOptions o;
        o.output = tmp.path() + QStringLiteral("/out");
        o.tpSize = 3;
        ReshardPlan plan = planFor(dir, o);
        QCOMPARE(plan.problems, QStringList{QStringLiteral("The model's 4 attention heads and 2 key/value heads do not split over 3 "
                                                           "tensor-parallel ranks (each rank holds whole heads).")});
        // Two causes, both said; still nothing about single tensors.
        o.ppSize = 5;
        plan = planFor(dir, o);
        QCOMPARE(plan.problems.size(), 2);
        QVERIFY2(plan.problems.at(1).contains(QStringLiteral("4 layers, fewer than 5 pipeline stages")), qPrintable(plan.problems.at(1)));
        // What the run reports (the CLI prints it) is the same short list, and nothing is written.
        const ConsolidateReport rep = reshard(plan, o);
        QVERIFY(!rep.ok());
        QCOMPARE(rep.problems, plan.problems);
        QVERIFY(!QFileInfo::exists(o.output));
    }

    // A tensor the backend's model has no parameter for, or one it needs and the source lacks: refused.
    void foreignModels()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("ingot"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, &out), qPrintable(out));
        // Through a model folder: Ingot's consolidation of the fixture, with a tensor renamed in its header.
        ConsolidateOptions c;
        c.output = tmp.path() + QStringLiteral("/model");
        QString error;
        QVERIFY(consolidate(findCheckpoints(dir, &error).first(), c).ok());
        QVERIFY(isModelFolder(c.output));
        QVERIFY(!isModelFolder(dir));
        ReshardOptions o;
        o.output = tmp.path() + QStringLiteral("/out");
        o.tpSize = 2;
        ReshardPlan plan = planReshardFromModel(c.output, o);
        QVERIFY2(plan.problems.isEmpty(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        QVERIFY(!plan.optimizer);
        QFile f(c.output + QStringLiteral("/model.safetensors"));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        const int at = int(bytes.indexOf("lm_head.weight"));
        QVERIFY(at > 0);
        bytes.replace(at, 14, "lm_hexd.weight");
        f.seek(0);
        f.write(bytes);
        f.close();
        plan = planReshardFromModel(c.output, o);
        const QString all = plan.problems.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("lm_hexd.weight is not a parameter of the bundled backend's Llama model")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("lm_head.weight is missing")), qPrintable(all));
        QVERIFY(!reshard(plan, o).ok());
        QVERIFY(!QFileInfo::exists(o.output));
    }

    // Shards that change between planning and writing: the run fails with words and leaves nothing behind.
    void changedMidway()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python({dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32"), QStringLiteral("optimizer")}, &out),
                 qPrintable(out));
        ReshardOptions o;
        o.output = tmp.path() + QStringLiteral("/out");
        const ReshardPlan plan = planFor(dir, o);
        QVERIFY(plan.problems.isEmpty());
        const QString opt = rank(dir, 1, 0) + QStringLiteral("/optimizer.safetensors");
        QVERIFY(::truncate(QFile::encodeName(opt).constData(), QFileInfo(opt).size() / 2) == 0);
        const ConsolidateReport rep = reshard(plan, o);
        QVERIFY(!rep.ok());
        QVERIFY(!rep.error.isEmpty());
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(!hasLeftovers(tmp.path()));
        // Asked to stop: nothing left either.
        std::atomic_bool stop{true};
        o.weightsOnly = true;
        const ConsolidateReport stopped = reshard(planFor(dir, o), o, {}, &stop);
        QVERIFY(stopped.cancelled);
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(!hasLeftovers(tmp.path()));
    }
};

QTEST_GUILESS_MAIN(TestReshard)
#include "tst_reshard.moc"
