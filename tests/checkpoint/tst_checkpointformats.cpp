// The checkpoint layouts issue 25 added to consolidation, written by Debian's python3-torch
// (tests/fixtures/make_checkpoint_formats.py): partition_stride > 1, GQA attention with biases (fused or not), older
// optimum-neuron's mp_metadata .pt, and xser. Each output must equal the unsharded original bit for bit (checked in
// Python), whichever way its bytes are written; hostile variants must be refused with words and write nothing.
#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/consolidationrequest.h"
#include "services/checkpoint/formats/pickle.h"
#include "services/checkpoint/formats/torchfile.h"
#include "services/checkpoint/loramerge.h"
#include "services/checkpoint/metadata.h"
#include "services/checkpoint/plan.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ingot;
using namespace std::string_literals;

namespace {
const QString kFormats = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_checkpoint_formats.py");
const QString kSharded = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_sharded_fixtures.py");

bool python(const QString &script, const QStringList &args, QString *out, int scale = 1)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FIXTURE_SCALE"), QString::number(scale));
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{script} + args);
    p.waitForFinished(300000);
    *out = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

QString said(const ConsolidateReport &rep)
{
    return (rep.problems + rep.verifyProblems + QStringList{rep.error}).join(QLatin1Char('\n'));
}

const ConsolidatePlanEntry *entry(const ConsolidationPlan &plan, const std::string &name)
{
    for (const ConsolidatePlanEntry &e : plan.entries)
        if (e.name == name)
            return &e;
    return nullptr;
}
}  // namespace

class TestCheckpointFormats : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;

private Q_SLOTS:
    void bitExact_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("tp");
        QTest::addColumn<QString>("dtype");
        // tp 4 with 2 key/value heads: kv_size_multiplier 2, so the query heads are permuted on every rank.
        for (const char *kind : {"gqa-bias", "gqa-bias-fused", "pt-metadata"})
            QTest::addRow("%s tp4", kind) << QString::fromLatin1(kind) << 4 << QStringLiteral("float32");
        QTest::addRow("stride tp2") << QStringLiteral("stride") << 2 << QStringLiteral("float32");
        QTest::addRow("stride tp4 bf16") << QStringLiteral("stride") << 4 << QStringLiteral("bfloat16");
        QTest::addRow("xser tp2") << QStringLiteral("xser") << 2 << QStringLiteral("float32");
        QTest::addRow("xser tp4 bf16") << QStringLiteral("xser") << 4 << QStringLiteral("bfloat16");
        QTest::addRow("xser in {model: ...} tp2") << QStringLiteral("xser-wrapped") << 2 << QStringLiteral("float32");
        QTest::addRow("ep2 tp2") << QStringLiteral("ep2") << 2 << QStringLiteral("float32");
        QTest::addRow("ep2 xser tp2 bf16") << QStringLiteral("ep2-xser") << 2 << QStringLiteral("bfloat16");
    }
    void bitExact()
    {
        QFETCH(QString, kind);
        QFETCH(int, tp);
        QFETCH(QString, dtype);
        const QString dir = tmp.path() + QStringLiteral("/%1-%2-%3").arg(kind).arg(tp).arg(dtype);
        QString out, error;
        QVERIFY2(python(kFormats, {dir, kind, QString::number(tp), dtype}, &out), qPrintable(out));
        const auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().tpSize, tp);
        const ConsolidationPlan plan = planConsolidation(found.first());
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        if (kind.startsWith(QLatin1String("ep2"))) {
            QCOMPARE(found.first().epSize, 2);
            const ConsolidatePlanEntry *gu = entry(plan, "model.layers.1.mlp.expert_mlps.mlp_op.gate_up_proj.weight");
            QVERIFY(gu);
            QCOMPARE(gu->epSize, 2);
            QCOMPARE(gu->shape, (std::vector<std::int64_t>{4, 16, 64}));
            QCOMPARE(mergeText(*gu, tp), QStringLiteral("experts of 2 ep ranks stacked on dim 0, each concatenated on dim 2 in 2 strided blocks"));
            const ConsolidatePlanEntry *router = entry(plan, "model.layers.1.mlp.router.linear_router.weight");
            QVERIFY(router);
            QCOMPARE(router->epSize, 1);
        } else if (kind == QLatin1String("stride")) {
            const ConsolidatePlanEntry *qkv = entry(plan, "model.layers.0.self_attn.qkv_proj.weight");
            QVERIFY(qkv);
            QCOMPARE(qkv->stride, 3);
            QCOMPARE(mergeText(*qkv, tp), QStringLiteral("concatenated on dim 0 in 3 strided blocks"));
        } else {
            // The q/k/v biases come out under their original names, heads in order, replication dropped.
            const ConsolidatePlanEntry *kb = entry(plan, "model.layers.1.self_attn.k_proj.bias");
            QVERIFY(kb);
            QCOMPARE(kb->gqaRole, 1);
            QCOMPARE(kb->shape, std::vector<std::int64_t>{8});
            QVERIFY(entry(plan, "model.layers.1.self_attn.o_proj.bias"));
        }
        // Python compares the first output with the original; the other ways of writing must give the same bytes.
        QByteArray first;
        for (const auto io : {ConsolidateOptions::Io::Direct, ConsolidateOptions::Io::PageCache, ConsolidateOptions::Io::Buffered}) {
            ConsolidateOptions o;
            o.output = dir + QStringLiteral("/out-%1").arg(int(io));
            o.verify = true;
            o.io = io;
            const ConsolidateReport rep = consolidate(plan, o);
            QVERIFY2(rep.ok() && rep.verified, qPrintable(said(rep)));
            const QByteArray bytes = test::readFile(o.output + QStringLiteral("/model.safetensors"));
            QVERIFY(!bytes.isEmpty());
            if (io != ConsolidateOptions::Io::Direct) {
                QVERIFY2(bytes == first, "the ways of writing differ");
                continue;
            }
            first = bytes;
            QVERIFY2(python(kSharded, {QStringLiteral("--compare"), dir + QStringLiteral("/full.pt"), o.output}, &out), qPrintable(out));
        }
    }

    void strideThatDoesNotDivideIsAProblem()
    {
        const QString dir = tmp.path() + QStringLiteral("/stride-bad");
        QString out, error;
        QVERIFY2(python(kFormats, {dir, QStringLiteral("stride"), QStringLiteral("2")}, &out), qPrintable(out));
        // 5 does not divide the qkv piece (48 rows per rank).
        QVERIFY2(python(kSharded, {QStringLiteral("--edit-metadata"), dir,
                                   QStringLiteral("m['parameters']['model.layers.0.self_attn.qkv_proj.weight']['partition_stride'] = 5")}, &out),
                 qPrintable(out));
        const ConsolidationPlan plan = planConsolidation(findCheckpoints(dir, &error).first());
        QVERIFY(!plan.ok());
        QVERIFY2(plan.problems.join(QLatin1Char(' ')).contains(QStringLiteral("partition_stride 5 does not divide")),
                 qPrintable(plan.problems.join(QLatin1Char(' '))));
    }

    // A missing ep rank is named; experts that do not agree between ep ranks are a problem, not a guess.
    void expertParallelProblems()
    {
        const QString dir = tmp.path() + QStringLiteral("/ep-bad");
        QString out, error;
        QVERIFY2(python(kFormats, {dir, QStringLiteral("ep2"), QStringLiteral("2")}, &out), qPrintable(out));
        const QString model = dir + QStringLiteral("/shards/model/");
        QVERIFY(QFile::rename(model + QStringLiteral("dp_rank_00_ep_rank_01_tp_rank_01_pp_rank_00.pt"), dir + QStringLiteral("/aside.pt")));
        auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        QVERIFY(!found.first().complete);
        QVERIFY2(found.first().problems.join(QLatin1Char(' ')).contains(QStringLiteral("tp rank 1, pp rank 0, ep rank 1 is missing")),
                 qPrintable(found.first().problems.join(QLatin1Char(' '))));
        // Put back in place of ep rank 1, tp rank 1: ep rank 0's file (the same shapes, other experts) is not caught
        // by shapes, so take one with other shapes: tp rank 0 of a tp=1 save of the same model.
        const QString other = tmp.path() + QStringLiteral("/ep-other");
        QVERIFY2(python(kFormats, {other, QStringLiteral("ep2"), QStringLiteral("1")}, &out), qPrintable(out));
        QVERIFY(QFile::copy(other + QStringLiteral("/shards/model/dp_rank_00_ep_rank_01_tp_rank_00_pp_rank_00.pt"),
                            model + QStringLiteral("dp_rank_00_ep_rank_01_tp_rank_01_pp_rank_00.pt")));
        found = findCheckpoints(dir, &error);
        QVERIFY(found.first().complete);
        const ConsolidationPlan plan = planConsolidation(found.first());
        QVERIFY(!plan.ok());
        QVERIFY2(plan.problems.join(QLatin1Char(' ')).contains(QStringLiteral("expert_mlps")), qPrintable(plan.problems.join(QLatin1Char('\n'))));
    }

    // LoRA adapters as optimum-neuron saves them: each becomes a PEFT folder (adapter_model.safetensors with PEFT's
    // names, its adapter_config.json), the default one at the output, the others below it; the values those of the
    // adapter before it was sharded (lora_A shared by fused parts copied to each, lora_B's GQA heads in order).
    void loraAdapters_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("tp");
        QTest::addColumn<QString>("dtype");
        QTest::addRow("lora tp2") << QStringLiteral("lora") << 2 << QStringLiteral("float32");
        QTest::addRow("lora tp4 bf16") << QStringLiteral("lora") << 4 << QStringLiteral("bfloat16");
        QTest::addRow("lora fused qkv tp4") << QStringLiteral("lora-fused-qkv") << 4 << QStringLiteral("float32");
        QTest::addRow("older layout tp2") << QStringLiteral("lora-old") << 2 << QStringLiteral("float32");
    }
    void loraAdapters()
    {
        QFETCH(QString, kind);
        QFETCH(int, tp);
        QFETCH(QString, dtype);
        const QString dir = tmp.path() + QStringLiteral("/%1-%2-%3").arg(kind).arg(tp).arg(dtype);
        QString out, error;
        QVERIFY2(python(kFormats, {dir, kind, QString::number(tp), dtype}, &out), qPrintable(out));
        // Where each adapter's folder is: adapter_<name> (current releases), or the checkpoint itself for the default
        // one and <name> for the others (earlier releases).
        const auto folderOf = [&](const QString &name) -> QString {
            if (kind != QLatin1String("lora-old"))
                return dir + QStringLiteral("/adapter_") + name;
            return name == QLatin1String("default") ? dir : dir + QLatin1Char('/') + name;
        };
        const auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 2);
        QCOMPARE(found[0].adapter, QStringLiteral("default"));
        QCOMPARE(found[1].adapter, QStringLiteral("second"));
        QVERIFY2(found[0].complete, qPrintable(found[0].problems.join(QLatin1Char(' '))));
        const ConsolidationPlan plan = planConsolidation(found[0]);
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        const ConsolidatePlanEntry *kA = entry(plan, "base_model.model.model.layers.0.self_attn.k_proj.lora_A.weight");
        QVERIFY(kA);
        QCOMPARE(kA->source, std::string("base_model.model.model.layers.0.self_attn.qkv_proj.lora_A.weight"));
        const ConsolidatePlanEntry *upB = entry(plan, "base_model.model.model.layers.1.mlp.up_proj.lora_B.weight");
        QVERIFY(upB);
        QCOMPARE(upB->fuseAxis, 0);
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.verify = true;
        int started = 0;
        ConsolidationRequest req;
        req.setSource(dir, found);
        req.options = o;
        const auto done = req.run({}, nullptr, [&](const ConsolidatedOutput &) { ++started; }).outputs;
        QCOMPARE(done.size(), 2);
        QCOMPARE(started, 2);
        QCOMPARE(done[1].options.output, o.output + QStringLiteral("/second"));
        for (const ConsolidatedOutput &x : done) {
            QVERIFY2(x.report.ok() && x.report.verified, qPrintable(said(x.report)));
            QCOMPARE(QDir(x.options.output).entryList(QDir::Files),
                     (QStringList{QStringLiteral("adapter_config.json"), QStringLiteral("adapter_model.safetensors")}));
            QCOMPARE(test::readFile(x.options.output + QStringLiteral("/adapter_config.json")),
                     test::readFile(folderOf(x.checkpoint->adapter) + QStringLiteral("/adapter_config.json")));
            QVERIFY2(python(kSharded, {QStringLiteral("--compare"), dir + QStringLiteral("/full-%1.pt").arg(x.checkpoint->adapter),
                                       x.options.output}, &out), qPrintable(out));
        }
        // An adapter without its adapter_config.json is incomplete: PEFT could not load what it would give.
        QVERIFY(QFile::remove(folderOf(QStringLiteral("second")) + QStringLiteral("/adapter_config.json")));
        const auto again = findCheckpoints(dir, &error);
        QVERIFY(!again[1].complete);
        QVERIFY(again[1].problems.join(QLatin1Char(' ')).contains(QStringLiteral("adapter_config.json")));
    }

    // A PEFT adapter merged into its base model: what PEFT's merge_and_unload gives (checked by torch, within the
    // rounding of a float32 sum), from one base file or an index of two, every targeted weight and the embedding.
    void mergeAdapter_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("dtype");
        QTest::addRow("f32") << QStringLiteral("lora-merge") << QStringLiteral("float32");
        QTest::addRow("bf16, two base files") << QStringLiteral("lora-merge-sharded") << QStringLiteral("bfloat16");
        QTest::addRow("f16") << QStringLiteral("lora-merge") << QStringLiteral("float16");
    }
    void mergeAdapter()
    {
        QFETCH(QString, kind);
        QFETCH(QString, dtype);
        const QString dir = tmp.path() + QStringLiteral("/merge-%1-%2").arg(kind, dtype);
        QString out;
        QVERIFY2(python(kFormats, {dir, kind, dtype}, &out), qPrintable(out));
        const ConsolidationPlan plan = planAdapterMerge(dir + QStringLiteral("/base"), dir + QStringLiteral("/adapter"));
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        const ConsolidatePlanEntry *q = entry(plan, "model.layers.1.self_attn.q_proj.weight");
        QVERIFY(q);
        QCOMPARE(mergeKind(*q, 1), MergeKind::LoraMerged);
        QCOMPARE(mergeText(*q, 1), QStringLiteral("LoRA merged: W + 2 · B·A"));
        QVERIFY(entry(plan, "model.embed_tokens.weight")->loraEmbedding);
        QCOMPARE(mergeKind(*entry(plan, "model.norm.weight"), 1), MergeKind::Copied);
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.verify = true;
        const ConsolidateReport rep = consolidate(plan, o);
        QVERIFY2(rep.ok() && rep.verified, qPrintable(said(rep)));
        QVERIFY(rep.files.contains(QStringLiteral("config.json")));
        QVERIFY2(python(kFormats, {QStringLiteral("--compare-close"), dir + QStringLiteral("/full.pt"), o.output}, &out), qPrintable(out));
    }

    // optimum-neuron's LoRA run end to end: its adapter shards (the metadata recording the fused base layer's stride 2)
    // consolidated, then merged into the base model as PEFT's merge_and_unload does; checked by torch.
    void shardedAdapterMergedIntoItsBase()
    {
        const QString dir = tmp.path() + QStringLiteral("/lora-sharded-merge");
        QString out, error;
        QVERIFY2(python(kFormats, {dir, QStringLiteral("lora-sharded-merge"), QStringLiteral("2"), QStringLiteral("bfloat16")}, &out),
                 qPrintable(out));
        const auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 2);
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/adapters");
        o.verify = true;
        ConsolidationRequest req;
        req.setSource(dir, found);
        req.options = o;
        const auto done = req.run().outputs;
        QCOMPARE(done.size(), 2);
        QVERIFY2(done[0].report.ok(), qPrintable(said(done[0].report)));
        const ConsolidationPlan plan = planAdapterMerge(dir + QStringLiteral("/base"), done[0].options.output);
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        QCOMPARE(mergeKind(*entry(plan, "model.layers.1.mlp.up_proj.weight"), 1), MergeKind::LoraMerged);
        ConsolidateOptions m;
        m.output = mergedModelFolder(done[0].options.output);
        m.verify = true;
        const ConsolidateReport rep = consolidate(plan, m);
        QVERIFY2(rep.ok() && rep.verified, qPrintable(said(rep)));
        QVERIFY2(python(kFormats, {QStringLiteral("--compare-close"), dir + QStringLiteral("/full-merged.pt"), m.output}, &out), qPrintable(out));
    }

    void mergeAdapterProblems()
    {
        const QString dir = tmp.path() + QStringLiteral("/merge-bad");
        QString out;
        QVERIFY2(python(kFormats, {dir, QStringLiteral("lora-merge"), QStringLiteral("float32")}, &out), qPrintable(out));
        const QString cfg = dir + QStringLiteral("/adapter/adapter_config.json");
        const QByteArray good = test::readFile(cfg);
        // The base model an adapter names is offered only when it is a folder here holding a model.
        QVERIFY(localBaseModelOf(dir + QStringLiteral("/adapter")).isEmpty());  // "test/tiny-llama": a Hub id
        QCOMPARE(safetensorsModelFile(dir + QStringLiteral("/base")), dir + QStringLiteral("/base/model.safetensors"));
        QVERIFY(safetensorsModelFile(dir + QStringLiteral("/adapter")).isEmpty());
        {
            QByteArray named = good;
            named.replace("test/tiny-llama", QFile::encodeName(dir + QStringLiteral("/base")));
            QFile f(cfg);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(named);
        }
        QCOMPARE(localBaseModelOf(dir + QStringLiteral("/adapter")), dir + QStringLiteral("/base"));
        // DoRA and replicated layers are not merged by this arithmetic: refused, not guessed.
        QByteArray dora = good;
        dora.replace("\"use_rslora\": false", "\"use_rslora\": false, \"use_dora\": true, \"layer_replication\": [[0, 1]]");
        {
            QFile f(cfg);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(dora);
        }
        ConsolidationPlan plan = planAdapterMerge(dir + QStringLiteral("/base"), dir + QStringLiteral("/adapter"));
        QVERIFY(!plan.ok());
        QVERIFY2(plan.problems.join(QLatin1Char(' ')).contains(QStringLiteral("use_dora is set")), qPrintable(plan.problems.join(QLatin1Char(' '))));
        QVERIFY(plan.problems.join(QLatin1Char(' ')).contains(QStringLiteral("layer_replication is set")));
        {
            QFile f(cfg);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(good);
        }
        // A base model of other shapes (the adapter of a bigger model): every weight that does not fit is named.
        const QString other = tmp.path() + QStringLiteral("/merge-other");
        QVERIFY2(python(kSharded, {other, QStringLiteral("ingot"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, &out, 2),
                 qPrintable(out));
        QDir().mkpath(other + QStringLiteral("/base"));
        QVERIFY(QFile::copy(other + QStringLiteral("/tensor_parallel_shards/tp_rank_00_pp_rank_00/model.safetensors"),
                            other + QStringLiteral("/base/model.safetensors")));
        plan = planAdapterMerge(other + QStringLiteral("/base"), dir + QStringLiteral("/adapter"));
        QVERIFY(!plan.ok());
        QVERIFY2(plan.problems.join(QLatin1Char(' ')).contains(QStringLiteral("do not fit it")), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        // No base model at all.
        plan = planAdapterMerge(dir + QStringLiteral("/adapter"), dir + QStringLiteral("/adapter"));
        QVERIFY(plan.problems.join(QLatin1Char(' ')).contains(QStringLiteral("holds no model.safetensors")));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        QVERIFY(!consolidate(plan, o).ok());
        QVERIFY(!QFileInfo::exists(o.output));
    }

    // Rounding to bfloat16 and float16 as torch does: to nearest, ties to even, infinities and NaN kept.
    void floatConversions()
    {
        QCOMPARE(floatToBf16(1.0f), std::uint16_t(0x3f80));
        QCOMPARE(floatToBf16(bf16ToFloat(0x3f81)), std::uint16_t(0x3f81));
        QCOMPARE(floatToBf16(1.00390625f), std::uint16_t(0x3f80));  // halfway between 0x3f80 and 0x3f81: even
        QCOMPARE(floatToBf16(1.01171875f), std::uint16_t(0x3f82));  // halfway between 0x3f81 and 0x3f82: even
        QCOMPARE(floatToF16(1.0f), std::uint16_t(0x3c00));
        QCOMPARE(floatToF16(65504.0f), std::uint16_t(0x7bff));
        QCOMPARE(floatToF16(1e6f), std::uint16_t(0x7c00));
        QCOMPARE(floatToF16(5.9604645e-08f), std::uint16_t(0x0001));  // the smallest subnormal
        QCOMPARE(f16ToFloat(0x0001), 5.9604645e-08f);
        QCOMPARE(f16ToFloat(0xc000), -2.0f);
        QVERIFY(std::isnan(f16ToFloat(floatToF16(std::nanf("")))));
        QVERIFY(std::isnan(bf16ToFloat(floatToBf16(std::nanf("")))));
        for (std::uint32_t h = 0; h < 0x10000; ++h)  // every finite half survives the round trip
            if ((h & 0x7c00) != 0x7c00)
                QCOMPARE(floatToF16(f16ToFloat(std::uint16_t(h))), std::uint16_t(h));
    }

    // The adapter's name is taken out of the metadata's names only where optimum-neuron put it.
    void adapterNamesInMetadata()
    {
        QCOMPARE(withoutAdapterName("m.qkv_proj.lora_A.default.weight", "default"), std::string("m.qkv_proj.lora_A.weight"));
        QCOMPARE(withoutAdapterName("m.qkv_proj.lora_B.second.weight_q", "second"), std::string("m.qkv_proj.lora_B.weight_q"));
        QCOMPARE(withoutAdapterName("m.qkv_proj.lora_B.second.weight_q", "default"), std::string());
        QCOMPARE(withoutAdapterName("m.embed_tokens.lora_embedding_A.default", "default"), std::string("m.embed_tokens.lora_embedding_A"));
        QCOMPARE(withoutAdapterName("m.qkv_proj.lora_A.weight", "default"), std::string("m.qkv_proj.lora_A.weight"));
        QCOMPARE(withoutAdapterName("m.qkv_proj.base_layer.weight_q", "default"), std::string("m.qkv_proj.base_layer.weight_q"));
    }

    // Hostile names: an ep rank claiming a huge ep size is bounded before anything is looked for; files with and
    // without an ep rank mixed are a problem; a LoRA adapter folder that is a link to elsewhere is not followed.
    void hostileExpertAndAdapterLayouts()
    {
        const QString dir = tmp.path() + QStringLiteral("/ep-hostile");
        QString out, error;
        QVERIFY2(python(kFormats, {dir, QStringLiteral("ep2"), QStringLiteral("2")}, &out), qPrintable(out));
        const QString model = dir + QStringLiteral("/shards/model/");
        QVERIFY(QFile::copy(model + QStringLiteral("dp_rank_00_ep_rank_00_tp_rank_00_pp_rank_00.pt"),
                            model + QStringLiteral("dp_rank_00_ep_rank_65535_tp_rank_00_pp_rank_00.pt")));
        QElapsedTimer clock;
        clock.start();
        auto found = findCheckpoints(dir, &error);
        QVERIFY(clock.elapsed() < 5000);
        QCOMPARE(found.size(), 1);
        QVERIFY(!found.first().complete);
        QVERIFY2(found.first().problems.join(QLatin1Char(' ')).contains(QStringLiteral("more than the 65536 Ingot reads")),
                 qPrintable(found.first().problems.join(QLatin1Char(' '))));
        QVERIFY(QFile::remove(model + QStringLiteral("dp_rank_00_ep_rank_65535_tp_rank_00_pp_rank_00.pt")));
        QVERIFY(QFile::copy(model + QStringLiteral("dp_rank_00_ep_rank_00_tp_rank_00_pp_rank_00.pt"),
                            model + QStringLiteral("dp_rank_00_tp_rank_00_pp_rank_00.pt")));
        found = findCheckpoints(dir, &error);
        QVERIFY(found.first().problems.join(QLatin1Char(' ')).contains(QStringLiteral("some shard files name an ep rank and some do not")));

        const QString lora = tmp.path() + QStringLiteral("/lora-hostile");
        QVERIFY2(python(kFormats, {lora, QStringLiteral("lora"), QStringLiteral("2")}, &out), qPrintable(out));
        QVERIFY(QFile::rename(lora + QStringLiteral("/adapter_second"), tmp.path() + QStringLiteral("/elsewhere")));
        QVERIFY(QFile::link(tmp.path() + QStringLiteral("/elsewhere"), lora + QStringLiteral("/adapter_second")));
        found = findCheckpoints(lora, &error);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().adapter, QStringLiteral("default"));
    }

    void hostileXser_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("words");
        QTest::addRow("missing folder") << QStringLiteral("missing-folder") << QStringLiteral("the folder of its tensors");
        QTest::addRow("missing tensor") << QStringLiteral("missing-tensor") << QStringLiteral("is missing");
        QTest::addRow("not a tensor") << QStringLiteral("not-a-tensor") << QStringLiteral("does not hold one tensor");
        QTest::addRow("fifo") << QStringLiteral("fifo") << QStringLiteral("not a regular file");
        QTest::addRow("huge tid") << QStringLiteral("huge-tid") << QStringLiteral("tensor_2147483647.pt, is missing");
        QTest::addRow("stride 0") << QStringLiteral("stride0") << QStringLiteral("overlapping (stride 0) view");
    }
    void hostileXser()
    {
        QFETCH(QString, kind);
        QFETCH(QString, words);
        const QString dir = tmp.path() + QStringLiteral("/xser-hostile-") + kind;
        QString out, error;
        QVERIFY2(python(kFormats, {dir, QStringLiteral("xser"), QStringLiteral("2")}, &out), qPrintable(out));
        QVERIFY2(python(kFormats, {QStringLiteral("--hostile-xser"), dir, kind}, &out), qPrintable(out));
        const auto found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        const ConsolidationPlan plan = planConsolidation(found.first());
        QVERIFY(!plan.ok());
        QVERIFY2(plan.problems.join(QLatin1Char(' ')).contains(words), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        QVERIFY(!consolidate(plan, o).ok());
        QVERIFY(!QFileInfo::exists(o.output));
    }

    // The pickle side of the new formats: a set is a list of its items, a TensorReference gets its tid once, and
    // anything else about them is refused.
    void picklesOfTheNewFormats()
    {
        // Protocol 2, as torch.save writes them: set(["a", "b"]) and TensorReference(7) (built by hand).
        const std::string head = "\x80\x02"s;
        const std::string cls = "ctorch_xla.utils.serialization\nTensorReference\n)\x81"s;
        const std::string tid = "}X\x03\x00\x00\x00tid"s;
        const std::string set = head + "c__builtin__\nset\n]q\x00(X\x01\x00\x00\x00"s + "aX\x01\x00\x00\x00"s + "be\x85R."s;
        const PickleResult s = unpickle(set);
        QVERIFY2(s.ok(), s.error.c_str());
        QCOMPARE(int(s.value->kind), int(PickleValue::Kind::List));
        QCOMPARE(s.value->items.size(), std::size_t(2));
        const PickleResult r = unpickle(head + cls + tid + "K\x07sb."s);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(int(r.value->kind), int(PickleValue::Kind::Reference));
        QCOMPARE(r.value->i, std::int64_t(7));
        // A negative tid, a state set twice, a tid that is not a number.
        for (const std::string &bad : {head + cls + tid + "J\xff\xff\xff\xffsb."s, head + cls + tid + "K\x01sb"s + tid + "K\x02sb."s,
                                       head + cls + tid + "X\x01\x00\x00\x00"s + "1sb."s}) {
            const PickleResult b = unpickle(bad);
            QVERIFY(!b.ok());
            QVERIFY2(QString::fromStdString(b.error).contains(QStringLiteral("tid")), b.error.c_str());
        }
        // Other classes of torch_xla stay refused.
        const PickleResult other = unpickle("\x80\x02"s + "ctorch_xla.utils.serialization\nsave\n)R."s);
        QVERIFY(!other.ok());
        QVERIFY(QString::fromStdString(other.error).contains(QStringLiteral("refused")));
    }

    void legacyMetadataWithoutGqaNamesIsAProblem()
    {
        const QString dir = tmp.path() + QStringLiteral("/ptmeta-bad");
        QString out, error;
        QVERIFY2(python(kFormats, {dir, QStringLiteral("pt-metadata"), QStringLiteral("2")}, &out), qPrintable(out));
        // A metadata file whose pickle names a global Ingot does not run.
        QFile f(dir + QStringLiteral("/shards/mp_metadata_pp_rank_0.pt"));
        QVERIFY(f.remove());
        QVERIFY2(python(kSharded, {QStringLiteral("--hostile"), dir + QStringLiteral("/h"), QStringLiteral("stride0")}, &out), qPrintable(out));
        QVERIFY(QFile::copy(dir + QStringLiteral("/h/tensor_parallel_shards/tp_rank_00_pp_rank_00/checkpoint.pt"), f.fileName()));
        PartitionMetadata md;
        QStringList problems;
        QVERIFY(!loadLegacyMpMetadata(f.fileName(), 2, &md, &problems));
        QVERIFY2(problems.join(QLatin1Char(' ')).contains(QStringLiteral("no sharded_metadata")), qPrintable(problems.join(QLatin1Char(' '))));
        const ConsolidationPlan plan = planConsolidation(findCheckpoints(dir, &error).first());
        QVERIFY(!plan.ok());
    }
};

QTEST_GUILESS_MAIN(TestCheckpointFormats)
#include "tst_checkpointformats.moc"
