// DCP checkpoints (issue 37): written by real torch 2 (the Debian 13 root, tests/support/torch2/python3, running
// tests/fixtures/make_dcp_fixtures.py under torchrun with two gloo ranks): a DTensor tp=2 state dict, an FSDP1
// sharded state dict nested under "model" beside the optimizer's, and a TorchTitan step-N folder. Consolidated by
// Ingot through the one use case (ConsolidationRequest) and the CLI, each output must equal torch's own
// dcp_to_torch_save exactly (bytes of every tensor, loaded with safetensors in the root). Edited .metadata files and
// links must be refused with words, writing nothing.
#include "services/checkpoint/consolidationrequest.h"
#include "services/checkpoint/dcpconsolidate.h"
#include "services/checkpoint/formats/safetensors.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace ingot;

namespace {
const QString kGenerator = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_dcp_fixtures.py");
const QString kPython = QStringLiteral(INGOT_TORCH2_PYTHON);
const QStringList kHostile = {QStringLiteral("overlap"), QStringLiteral("hole"), QStringLiteral("outside"), QStringLiteral("past-end"),
                              QStringLiteral("many-chunks"), QStringLiteral("huge-size"), QStringLiteral("bad-path"),
                              QStringLiteral("wrong-dtype")};

// The generator in the torch 2 root; under torchrun with two ranks when `ranks` is 2.
bool torch2(const QStringList &args, QString *out, int ranks = 0)
{
    QStringList a;
    if (ranks > 0)
        a << QStringLiteral("-m") << QStringLiteral("torch.distributed.run") << QStringLiteral("--standalone")
          << QStringLiteral("--nproc-per-node") << QString::number(ranks);
    const test::ProgramRun r = test::runProgram(kPython, a + QStringList{kGenerator} + args, 240000);
    *out = QString::fromUtf8(r.out + r.err).right(4000);
    return r.code == 0;
}

bool copyTree(const QString &from, const QString &to)
{
    return test::runProgram(QStringLiteral("cp"), {QStringLiteral("-a"), from, to}).code == 0;
}

QString said(const ConsolidationResult &r)
{
    return (r.report.problems + r.report.verifyProblems + QStringList{r.report.error}).join(QLatin1Char('\n'));
}

// Consolidates `folder` through the use case, as the wizard and the CLI do; with `optimizer`, its optimizer state too.
ConsolidationResult consolidateThrough(const QString &folder, const QString &output, bool verify, bool optimizer = false)
{
    ConsolidationRequest req;
    QString error;
    if (!req.findIn(folder, &error)) {
        ConsolidationResult r;
        r.report.problems << error;
        return r;
    }
    req.options.output = output;
    req.options.verify = verify;
    req.options.optimizer = optimizer;
    req.plan();
    return req.run();
}
}  // namespace

class TestDcp : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp{QStringLiteral("/tmp/tst_dcp-XXXXXX")};
    QString dir(const QString &kind) const { return tmp.path() + QLatin1Char('/') + kind; }
    // The DCP folder of each fixture.
    QString dcp(const QString &kind) const
    {
        return kind == QLatin1String("titan") ? dir(kind) + QStringLiteral("/checkpoint/step-10") : dir(kind) + QStringLiteral("/dcp");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp.isValid());
        // Python in the root starts slowly (seconds): one torchrun writes every fixture and torch's references, one
        // run makes every hostile copy.
        qputenv("INGOT_TORCH2_BIND", QFile::encodeName(QFileInfo(kGenerator).absolutePath()));
        QString out;
        QVERIFY2(torch2({tmp.path(), QStringLiteral("dtensor"), QStringLiteral("fsdp"), QStringLiteral("titan")}, &out, 2), qPrintable(out));
        QVERIFY2(torch2(QStringList{QStringLiteral("--hostile"), dcp(QStringLiteral("dtensor")), dir(QStringLiteral("hostile"))} + kHostile, &out),
                 qPrintable(out));
        QVERIFY2(torch2({QStringLiteral("--hostile"), dcp(QStringLiteral("fsdp")), dir(QStringLiteral("hostile")), QStringLiteral("optim-past-end"),
                         QStringLiteral("optim-evil-value")},
                        &out),
                 qPrintable(out));
    }

    // Each kind through the direct copy and through memory (--verify), every output compared in one run; the fsdp
    // (FSDP1's sharded optimizer state, "optim") and titan (tensor parallel 2, "optimizer") kinds with their optimizer
    // state too, compared with torch's own "optim" / "optimizer" entries.
    void equalsTorchsOwnConsolidation()
    {
        QStringList compare{QStringLiteral("--compare")};
        for (const QString &kind : {QStringLiteral("dtensor"), QStringLiteral("fsdp"), QStringLiteral("titan")})
            for (const bool verify : {false, true}) {
                const QString out = dir(kind) + (verify ? QStringLiteral("/verified") : QStringLiteral("/direct"));
                const bool optimizer = kind != QLatin1String("dtensor");
                // TorchTitan's from its dump folder (the step-N folders under checkpoint/ are found), the others from theirs.
                const ConsolidationResult r = consolidateThrough(kind == QLatin1String("titan") ? dir(kind) : dcp(kind), out, verify, optimizer);
                QVERIFY2(r.report.ok(), qPrintable(kind + QLatin1String(": ") + said(r)));
                QCOMPARE(r.report.verified, verify);
                // TorchTitan's output is a transformers model folder: the config.json of its dump folder comes along.
                QCOMPARE(QFile::exists(out + QStringLiteral("/config.json")), kind == QLatin1String("titan"));
                QCOMPARE(r.report.files.contains(QStringLiteral("optimizer.safetensors")), optimizer);
                QCOMPARE(r.report.files.contains(QStringLiteral("optimizer_param_groups.json")), optimizer);
                compare << dir(kind) + QStringLiteral("/reference.pt") << out << kind;
            }
        QString said;
        QVERIFY2(torch2(compare, &said), qPrintable(said));
        for (int k = 2; k < compare.size(); k += 3) {
            QVERIFY2(said.contains(QStringLiteral("equal: 21 tensors in %1\n").arg(compare[k])), qPrintable(said));
            // AdamW's exp_avg, exp_avg_sq and step of 21 parameters (TorchTitan's wq / wk moments permuted as their weights).
            const int optimizerTensors = compare[k + 1] == QLatin1String("dtensor") ? 0 : 63;
            if (optimizerTensors > 0)
                QVERIFY2(said.contains(QStringLiteral("equal optimizer: %1 tensors, 1 param group(s) in %2\n").arg(optimizerTensors).arg(compare[k])),
                         qPrintable(said));
        }
    }

    // The plan names each optimizer tensor after its parameter's output name, and says how each is made: a tensor
    // split over the ranks is assembled from its chunks, not "copied"; TorchTitan's wq / wk reordered.
    void thePlanListsTheOptimizerStateTruly()
    {
        QString error;
        QVector<CheckpointCandidate> found = findCheckpoints(dcp(QStringLiteral("titan")), &error);
        QCOMPARE(found.size(), 1);
        ConsolidationPlan plan = planConsolidation(found[0]);
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        std::map<std::string, QString> how;
        for (const ConsolidatePlanEntry &e : plan.entries + plan.optimizerEntries)
            how[e.name] = mergeText(e, 1);
        QCOMPARE(plan.optimizerEntries.size(), 63);
        QCOMPARE(plan.optimizerValues.size(), 11);  // lr, betas, eps, weight_decay, ..., params of group 0
        QCOMPARE(how["model.embed_tokens.weight.exp_avg"], QStringLiteral("assembled from 2 chunk(s)"));
        QCOMPARE(how["model.norm.weight.step"], QStringLiteral("copied as it is"));
        QCOMPARE(how["model.layers.1.self_attn.k_proj.weight.exp_avg_sq"],
                 QStringLiteral("assembled from 2 chunk(s), rows reordered from TorchTitan's RoPE order (2 head(s))"));
        QCOMPARE(how["model.embed_tokens.weight"], QStringLiteral("assembled from 2 chunk(s)"));
        QCOMPARE(how["model.layers.0.self_attn.q_proj.weight"], QStringLiteral("assembled from 2 chunk(s), rows reordered from TorchTitan's RoPE order (4 head(s))"));
        QCOMPARE(how["model.norm.weight"], QStringLiteral("copied as it is"));
        found = findCheckpoints(dcp(QStringLiteral("fsdp")), &error);
        plan = planConsolidation(found[0]);
        QCOMPARE(plan.optimizerEntries.size(), 63);
        QVERIFY(std::any_of(plan.optimizerEntries.begin(), plan.optimizerEntries.end(),
                            [](const ConsolidatePlanEntry &e) { return e.name == "model.layers.1.mlp.up_proj.weight.exp_avg_sq"; }));
    }

    // --optimizer: the optimizer state split like the model above --max-shard-size (an index), every tensor verified,
    // the files in the JSON report. A checkpoint without optimizer state: refused before anything is written.
    void theCliWritesTheOptimizerStateOnRequest()
    {
        const QString out = dir(QStringLiteral("cli-optimizer"));
        test::ProgramRun r = test::runProgram(QStringLiteral(INGOT_CLI_PATH),
                                              {QStringLiteral("consolidate"), QStringLiteral("--optimizer"), QStringLiteral("--verify"),
                                               QStringLiteral("--max-shard-size"), QStringLiteral("20KB"), QStringLiteral("--json"),
                                               dcp(QStringLiteral("fsdp")), out});
        QVERIFY2(r.code == 0, QByteArray(r.out + r.err).constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(j.value(QStringLiteral("verified")).toBool(), r.out.constData());
        QVERIFY2(j.value(QStringLiteral("optimizer")).toBool(), r.out.constData());
        const QStringList files = j.value(QStringLiteral("files")).toVariant().toStringList();
        QVERIFY2(files.contains(QStringLiteral("optimizer.safetensors.index.json")), r.out.constData());
        QVERIFY2(files.filter(QRegularExpression(QStringLiteral("^optimizer-0000[1-9]-of-0000[2-9]\\.safetensors$"))).size() > 1, r.out.constData());
        QVERIFY2(files.contains(QStringLiteral("optimizer_param_groups.json")), r.out.constData());
        QVERIFY2(files.contains(QStringLiteral("model.safetensors.index.json")), r.out.constData());
        QCOMPARE(j.value(QStringLiteral("tensors")).toInt(), 21 + 63);
        QFile groups(out + QStringLiteral("/optimizer_param_groups.json"));
        QVERIFY(groups.open(QIODevice::ReadOnly));
        const QJsonObject g = QJsonDocument::fromJson(groups.readAll()).object().value(QStringLiteral("param_groups")).toArray().at(0).toObject();
        QCOMPARE(g.value(QStringLiteral("lr")).toDouble(), 1e-3);
        QCOMPARE(g.value(QStringLiteral("betas")).toArray().at(1).toDouble(), 0.999);
        QCOMPARE(g.value(QStringLiteral("params")).toArray().size(), 21);

        const QString none = dir(QStringLiteral("cli-no-optimizer"));
        r = test::runProgram(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("consolidate"), QStringLiteral("--optimizer"), dcp(QStringLiteral("dtensor")), none});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("holds no optimizer state"), r.err.constData());
        QVERIFY(!QFileInfo::exists(none));
    }

    // A param group's value whose pickle calls code (os.system): refused by the restricted unpickler, never run,
    // nothing written. Without --optimizer the value is not read and the weights are written.
    void aHostileOptimizerValueIsRefused()
    {
        const QString copy = dir(QStringLiteral("hostile-optim-evil-value"));
        QFile::remove(QStringLiteral("/tmp/ingot-dcp-evil-value-ran"));
        ConsolidationResult r = consolidateThrough(copy, copy + QStringLiteral("-out"), false, true);
        QVERIFY(!r.report.ok());
        QVERIFY2(said(r).contains(QLatin1String("optim.param_groups.0.lr")) && said(r).contains(QLatin1String("refused")) &&
                     said(r).contains(QLatin1String("system")),
                 qPrintable(said(r)));
        QVERIFY(!QFileInfo::exists(copy + QStringLiteral("-out")));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/ingot-dcp-evil-value-ran")));
        r = consolidateThrough(copy, copy + QStringLiteral("-weights"), false, false);
        QVERIFY2(r.report.ok(), qPrintable(said(r)));
    }

    // An optimizer tensor's chunk reaching past the end of its .distcp file: refused with words, nothing written.
    void aHostileOptimizerChunkIsRefused()
    {
        const QString copy = dir(QStringLiteral("hostile-optim-past-end"));
        const ConsolidationResult r = consolidateThrough(copy, copy + QStringLiteral("-out"), false, true);
        QVERIFY(!r.report.ok());
        QVERIFY2(said(r).contains(QLatin1String("past the end of its file")), qPrintable(said(r)));
        QVERIFY2(said(r).contains(QLatin1String("__")), qPrintable(said(r)));
        QVERIFY(!QFileInfo::exists(copy + QStringLiteral("-out")));
    }

    // Weights only: the optimizer's state (fsdp: "optim", titan: "optimizer") and the trainer's are left out, and
    // TorchTitan's names are transformers'.
    void writesTheModelOnlyWithTransformersNames()
    {
        for (const QString &kind : {QStringLiteral("fsdp"), QStringLiteral("titan")}) {
            QString error;
            const QVector<CheckpointCandidate> found = findCheckpoints(dcp(kind), &error);
            QCOMPARE(found.size(), 1);
            QCOMPARE(found[0].layout, ShardLayout::Dcp);
            const ConsolidationPlan plan = planConsolidation(found[0]);
            QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
            QCOMPARE(plan.entries.size(), 21);
            std::set<std::string> names;
            for (const ConsolidatePlanEntry &e : plan.entries)
                names.insert(e.name);
            QVERIFY(names.count("model.embed_tokens.weight"));
            QVERIFY(names.count("model.layers.1.self_attn.q_proj.weight"));
            QVERIFY(names.count("lm_head.weight"));
            for (const std::string &n : names)
                QVERIFY2(n.find("optim") == std::string::npos && n.find("step") == std::string::npos, n.c_str());
        }
    }

    // The default output goes beside the DCP folder, never into it (the folder is its own shards folder).
    void theDefaultOutputIsBesideTheFolder()
    {
        ConsolidationRequest req;
        QString error;
        QVERIFY2(req.findIn(dcp(QStringLiteral("dtensor")), &error), qPrintable(error));
        QCOMPARE(req.defaultOutput(), dir(QStringLiteral("dtensor")) + QStringLiteral("/consolidated"));
        QVERIFY(outputRefusal(*req.checkpoint(), req.defaultOutput()).isEmpty());
    }

    // The CLI takes the DCP folder too: the same use case.
    void theCliConsolidatesADcpFolder()
    {
        const QString out = dir(QStringLiteral("cli"));
        const test::ProgramRun r = test::runProgram(QStringLiteral(INGOT_CLI_PATH),
                                                    {QStringLiteral("consolidate"), QStringLiteral("--verify"), dcp(QStringLiteral("dtensor")), out});
        const QByteArray all = r.out + r.err;
        QVERIFY2(r.code == 0, all.constData());
        QVERIFY2(all.contains("PyTorch Distributed Checkpoint"), all.constData());
        SafetensorsReader st;
        QString error;
        QVERIFY2(st.open(out + QStringLiteral("/model.safetensors"), &error), qPrintable(error));
        QCOMPARE(int(st.tensors().size()), 21);
    }

    // TorchTitan's wq / wk need the head counts: without a config.json, a problem that says so, nothing written.
    void torchTitanWithoutConfigIsAProblem()
    {
        const QString copy = dir(QStringLiteral("titan-noconfig"));
        QVERIFY(QDir().mkpath(copy + QStringLiteral("/checkpoint")));
        QVERIFY(copyTree(dcp(QStringLiteral("titan")), copy + QStringLiteral("/checkpoint/step-10")));
        const ConsolidationResult r = consolidateThrough(copy, copy + QStringLiteral("/out"), false);
        QVERIFY(!r.report.ok());
        QVERIFY2(said(r).contains(QLatin1String("config.json")), qPrintable(said(r)));
        QVERIFY(!QFileInfo::exists(copy + QStringLiteral("/out")));
    }

    void hostileMetadataIsRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("words");
        QTest::addRow("overlapping chunks") << QStringLiteral("overlap") << QStringLiteral("overlap");
        QTest::addRow("a hole") << QStringLiteral("hole") << QStringLiteral("leave a hole");
        QTest::addRow("a chunk outside its tensor") << QStringLiteral("outside") << QStringLiteral("lies outside it");
        QTest::addRow("an item past the end") << QStringLiteral("past-end") << QStringLiteral("past the end of its file");
        QTest::addRow("20000 chunks") << QStringLiteral("many-chunks") << QStringLiteral("more than Ingot reads");
        QTest::addRow("2^72 elements") << QStringLiteral("huge-size") << QStringLiteral("does not fit in 64 bits");
        QTest::addRow("an item in ../") << QStringLiteral("bad-path") << QStringLiteral("not a file name in the checkpoint folder");
        QTest::addRow("the wrong dtype") << QStringLiteral("wrong-dtype") << QStringLiteral("not the piece of");
    }
    void hostileMetadataIsRefused()
    {
        QFETCH(QString, kind);
        QFETCH(QString, words);
        const QString copy = dir(QStringLiteral("hostile-") + kind);
        const ConsolidationResult r = consolidateThrough(copy, copy + QStringLiteral("-out"), false);
        QVERIFY(!r.report.ok());
        QVERIFY2(said(r).contains(words), qPrintable(said(r)));
        QVERIFY(!QFileInfo::exists(copy + QStringLiteral("-out")));
    }

    // A data file or the .metadata replaced by a link (to a copy of itself): refused, never followed.
    void linksAreRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addRow("a .distcp") << QStringLiteral("__1_0.distcp");
        QTest::addRow(".metadata") << QStringLiteral(".metadata");
    }
    void linksAreRefused()
    {
        QFETCH(QString, file);
        const QString copy = dir(QStringLiteral("link-") + file);
        QVERIFY(copyTree(dcp(QStringLiteral("dtensor")), copy));
        QVERIFY(QFile::rename(copy + QLatin1Char('/') + file, dir(QStringLiteral("moved-")) + file));
        QVERIFY(QFile::link(dir(QStringLiteral("moved-")) + file, copy + QLatin1Char('/') + file));
        const ConsolidationResult r = consolidateThrough(copy, copy + QStringLiteral("-out"), false);
        QVERIFY(!r.report.ok());
        QVERIFY2(said(r).contains(QLatin1String("is a link")), qPrintable(said(r)));
        QVERIFY(!QFileInfo::exists(copy + QStringLiteral("-out")));
    }
};

QTEST_GUILESS_MAIN(TestDcp)
#include "tst_dcp.moc"
