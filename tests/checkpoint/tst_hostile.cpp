// Hostile checkpoints (issue 10, "Hardening"): shards whose pieces disagree with each other and with the plan,
// metadata of the wrong type or out of range, and torch files built to exhaust memory or the stack. Each must end
// in a clear problem, never a signal, never gigabytes, never an output, and never a wrong output with success.
#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/dcpmetadata.h"
#include "services/checkpoint/formats/pickle.h"
#include "services/checkpoint/formats/safetensors.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>

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

bool copyTree(const QString &from, const QString &to)
{
    QProcess p;
    p.start(QStringLiteral("cp"), {QStringLiteral("-a"), from, to});
    return p.waitForFinished(60000) && p.exitCode() == 0;
}

QStringList leftovers(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, {QStringLiteral(".ingot-*")}, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    return out;
}

// Rewrites tensor `name` of a safetensors shard with another shape (and dtype), its bytes a pattern.
bool reshapeTensor(const QString &file, const std::string &name, const std::vector<std::int64_t> &shape, DType dtype = DType::Unknown)
{
    std::vector<SafetensorInfo> infos;
    std::vector<QByteArray> data;
    {
        SafetensorsReader r;
        QString error;
        if (!r.open(file, &error))
            return false;
        for (const SafetensorInfo &t : r.tensors()) {
            SafetensorInfo i = t;
            QByteArray d(r.data(t), qsizetype(t.end - t.begin));
            if (t.name == name) {
                i.shape = shape;
                if (dtype != DType::Unknown)
                    i.dtype = dtype;
                qint64 n = dtypeSize(i.dtype);
                for (auto s : shape)
                    n *= s;
                d = QByteArray(qsizetype(n), '\0');
                for (qsizetype k = 0; k < d.size(); ++k)
                    d[k] = char(k * 7 % 251);
            }
            infos.push_back(i);
            data.push_back(d);
        }
    }
    SafetensorsWriter w;
    QString error;
    const QString tmpFile = file + QStringLiteral(".new");
    if (!w.begin(tmpFile, infos, {{"format", "pt"}}, &error))
        return false;
    for (const QByteArray &d : data)
        if (!w.write(d.constData(), size_t(d.size()), &error))
            return false;
    return w.finish(&error) && QFile::remove(file) && QFile::rename(tmpFile, file);
}

QString rankFile(const QString &dir, int tp)
{
    return dir + QStringLiteral("/tensor_parallel_shards/tp_rank_%1_pp_rank_00/model.safetensors").arg(tp, 2, 10, QLatin1Char('0'));
}

// Every problem of a report, one a line.
QString said(const ConsolidateReport &rep)
{
    return (rep.problems + rep.verifyProblems + QStringList{rep.error}).join(QLatin1Char('\n'));
}

// Consolidates `dir` (which must be found) into dir/out and checks that nothing came of it.
ConsolidateReport refused(const QString &dir)
{
    QString error;
    const QVector<CheckpointCandidate> found = findCheckpoints(dir, &error);
    if (found.isEmpty()) {
        ConsolidateReport rep;
        rep.problems << QStringLiteral("not found: ") + error;
        return rep;
    }
    ConsolidateOptions o;
    o.output = dir + QStringLiteral("/out");  // not verified: a wrong output must be stopped before it is written
    return consolidate(found.first(), o);
}
}  // namespace

class TestHostile : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;
    std::map<QString, QString> m_bases;  // fixture arguments -> a folder made once, copied for each case
    int m_cases = 0;

    // A fresh copy of the fixture made with these arguments.
    QString fixture(const QStringList &args)
    {
        const QString key = args.join(QLatin1Char(' '));
        if (!m_bases.count(key)) {
            const QString base = tmp.path() + QStringLiteral("/base-%1").arg(m_bases.size());
            QString out;
            if (!python(QStringList{base} + args, &out)) {
                qWarning("%s", qPrintable(out));
                return {};
            }
            m_bases[key] = base;
        }
        const QString dir = tmp.path() + QStringLiteral("/case-%1").arg(++m_cases);
        return copyTree(m_bases[key], dir) ? dir : QString();
    }

private Q_SLOTS:
    // Item 1: in a GQA attention every piece of every rank is checked against the plan before a byte is copied. A
    // rank with a larger piece overflowed a heap buffer; a smaller one was read past its end, or a rank's rows
    // quietly became another head's, with exit 0 and "verified".
    void gqaPiecesOfEveryRankAreChecked_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<bool>("bf16");
        const QString q = QStringLiteral("qkv_proj.weight_q"), k = QStringLiteral("qkv_proj.weight_k"),
                      v = QStringLiteral("qkv_proj.weight_v"), qkv = QStringLiteral("qkv_proj.weight_qkv"),
                      o = QStringLiteral("o_proj.weight");
        const QString sep = QStringLiteral("gqa-separate"), fused = QStringLiteral("gqa");
        QTest::newRow("separate: rank 1 weight_q longer") << sep << 4 << 1 << q << QList<qint64>{8, 16} << false;
        QTest::newRow("separate: rank 1 weight_q shorter") << sep << 4 << 1 << q << QList<qint64>{2, 16} << false;
        QTest::newRow("separate: rank 3 weight_q wider") << sep << 4 << 3 << q << QList<qint64>{4, 32} << false;
        QTest::newRow("separate: rank 2 weight_k longer") << sep << 4 << 2 << k << QList<qint64>{8, 16} << false;
        QTest::newRow("separate: rank 2 weight_k shorter") << sep << 4 << 2 << k << QList<qint64>{2, 16} << false;
        QTest::newRow("separate: rank 3 weight_v longer") << sep << 4 << 3 << v << QList<qint64>{6, 16} << false;
        QTest::newRow("separate: rank 1 weight_v in bf16") << sep << 4 << 1 << v << QList<qint64>{4, 16} << true;
        QTest::newRow("separate: rank 0 weight_k shorter") << sep << 4 << 0 << k << QList<qint64>{2, 16} << false;
        QTest::newRow("separate: rank 1 weight_q in 3-D") << sep << 4 << 1 << q << QList<qint64>{4, 16, 1} << false;
        QTest::newRow("separate: rank 1 o_proj wider") << sep << 4 << 1 << o << QList<qint64>{16, 8} << false;
        QTest::newRow("separate: rank 2 o_proj shorter") << sep << 4 << 2 << o << QList<qint64>{8, 4} << false;
        QTest::newRow("fused: rank 1 weight_qkv longer") << fused << 2 << 1 << qkv << QList<qint64>{24, 16} << false;
        QTest::newRow("fused: rank 1 weight_qkv shorter") << fused << 2 << 1 << qkv << QList<qint64>{12, 16} << false;
        QTest::newRow("fused: rank 1 weight_qkv wider") << fused << 2 << 1 << qkv << QList<qint64>{16, 32} << false;
        QTest::newRow("fused: rank 1 o_proj longer") << fused << 2 << 1 << o << QList<qint64>{32, 8} << false;
        QTest::newRow("fused: rank 0 weight_qkv longer") << fused << 2 << 0 << qkv << QList<qint64>{24, 16} << false;
    }
    void gqaPiecesOfEveryRankAreChecked()
    {
        QFETCH(QString, mode);
        QFETCH(int, tp);
        QFETCH(int, rank);
        QFETCH(QString, tensor);
        QFETCH(QList<qint64>, shape);
        QFETCH(bool, bf16);
        const QString dir = fixture({QStringLiteral("ingot"), QString::number(tp), QStringLiteral("1"), QStringLiteral("float32"), mode});
        QVERIFY(!dir.isEmpty());
        const std::string name = "model.layers.0.self_attn." + tensor.toStdString();
        QVERIFY(reshapeTensor(rankFile(dir, rank), name, std::vector<std::int64_t>(shape.begin(), shape.end()),
                              bf16 ? DType::BF16 : DType::Unknown));
        QString error;
        const ConsolidationPlan plan = planConsolidation(findCheckpoints(dir, &error).first());
        const QString all = plan.problems.join(QLatin1Char('\n'));
        QVERIFY2(!plan.ok(), "planned without a problem");
        QVERIFY2(all.contains(QString::fromStdString(name)) && all.contains(QStringLiteral("tp rank %1").arg(rank)), qPrintable(all));
        const ConsolidateReport rep = refused(dir);
        QVERIFY(!rep.ok());
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/out")));
        QVERIFY(leftovers(dir).isEmpty());
    }

    // Item 1: fused-linear metadata with a negative, huge, fractional or foreign fuse_axis or original_dims read out
    // of bounds or aborted; "diagonal" was taken for "column". Every field is checked, and named.
    void fusedSpecsAreChecked_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("words");
        const QString s = QStringLiteral("s = m['model_weight_transformation_specs'][0]['specs'][0][1]; ");
        const auto row = [&](const char *name, const char *edit, const char *words) {
            QTest::newRow(name) << s + QLatin1String(edit) << QString::fromLatin1(words);
        };
        row("fuse_axis -1", "s['fuse_axis'] = -1", "\"fuse_axis\"");
        row("fuse_axis -2", "s['fuse_axis'] = -2", "\"fuse_axis\"");
        row("fuse_axis 2", "s['fuse_axis'] = 2", "\"fuse_axis\"");
        row("fuse_axis 2**64", "s['fuse_axis'] = 2**64", "\"fuse_axis\"");
        row("fuse_axis diagonal", "s['fuse_axis'] = 'diagonal'", "\"fuse_axis\"");
        row("original_dims negative", "s['original_dims'] = [-32, 96]", "\"original_dims\"");
        row("original_dims 2**62", "s['original_dims'] = [2**62, -(2**62) + 64]", "\"original_dims\"");
        row("original_dims 2**63-1", "s['original_dims'] = [2**63 - 1, 2**63 - 1]", "\"original_dims\"");
        row("original_dims 2**64", "s['original_dims'] = [2**64, 32]", "\"original_dims\"");
        row("original_dims fractional", "s['original_dims'] = [32.5, 32]", "\"original_dims\"");
        row("original_dims a string", "s['original_dims'] = ['32', 32]", "\"original_dims\"");
        row("original_dims not a list", "s['original_dims'] = 64", "\"original_dims\"");
        row("original_dims not divisible", "s['original_dims'] = [33, 31]", "multiple of tp");
        row("original_dims too few", "s['original_dims'] = [64]", "original_dims");
        row("linear_names numbers", "s['linear_names'] = [1, 2]", "\"linear_names\"");
        row("linear_names a string", "s['linear_names'] = 'gate_proj'", "\"linear_names\"");
        row("fused_linear_name a number", "s['fused_linear_name'] = 5", "\"fused_linear_name\"");
        row("tp_size 2**40", "s['tp_size'] = 2**40", "\"tp_size\"");
        row("tp_size a string", "s['tp_size'] = '2'", "\"tp_size\"");
        row("bias a string", "s['bias'] = 'no'", "\"bias\"");
    }
    void fusedSpecsAreChecked()
    {
        QFETCH(QString, edit);
        QFETCH(QString, words);
        const QString dir = fixture({QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32"), QStringLiteral("fused")});
        QVERIFY(!dir.isEmpty());
        QString out;
        QVERIFY2(python({QStringLiteral("--edit-metadata"), dir, edit}, &out), qPrintable(out));
        const ConsolidateReport rep = refused(dir);
        QVERIFY(!rep.ok());
        QVERIFY2(said(rep).contains(words), qPrintable(said(rep)));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/out")));
        QVERIFY(leftovers(dir).isEmpty());
    }

    // Item 2: parameter metadata of the wrong JSON type or out of range: a clear problem naming the field (not an
    // exception's text), never a silently truncated value (partition_dim 2**32 was read as 0), never gigabytes
    // (num_partitions 300000000 made discovery list 300 million missing ranks).
    void parameterMetadataIsChecked_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("words");
        const QString p = QStringLiteral("p = m['parameters']['model.layers.0.mlp.gate_proj.weight']; ");
        const auto row = [&](const char *name, const QString &edit, const char *words) {
            QTest::newRow(name) << edit << QString::fromLatin1(words);
        };
        row("tensor_model_parallel yes", p + QStringLiteral("p['tensor_model_parallel'] = 'yes'"), "\"tensor_model_parallel\"");
        row("tensor_model_parallel 1", p + QStringLiteral("p['tensor_model_parallel'] = 1"), "\"tensor_model_parallel\"");
        row("partition_dim a string", p + QStringLiteral("p['partition_dim'] = '0'"), "\"partition_dim\"");
        row("partition_dim 1e30", p + QStringLiteral("p['partition_dim'] = 1e30"), "\"partition_dim\"");
        row("partition_dim 2**32", p + QStringLiteral("p['partition_dim'] = 2**32"), "\"partition_dim\"");
        row("partition_dim 2**31+1", p + QStringLiteral("p['partition_dim'] = 2**31 + 1"), "\"partition_dim\"");
        row("partition_dim -5", p + QStringLiteral("p['partition_dim'] = -5"), "\"partition_dim\"");
        row("partition_dim missing", p + QStringLiteral("del p['partition_dim']"), "\"partition_dim\"");
        row("partition_stride 2**33+1", p + QStringLiteral("p['partition_stride'] = 2**33 + 1"), "\"partition_stride\"");
        row("num_partitions a string", p + QStringLiteral("p['num_partitions'] = 'x'"), "\"num_partitions\"");
        row("num_partitions 1e30", p + QStringLiteral("p['num_partitions'] = 1e30"), "\"num_partitions\"");
        row("num_partitions 300000000", p + QStringLiteral("p['num_partitions'] = 300000000"), "\"num_partitions\"");
        row("num_partitions 2**64", p + QStringLiteral("p['num_partitions'] = 2**64"), "\"num_partitions\"");
        row("a parameter that is a number", QStringLiteral("m['parameters']['x'] = 5"), "not an object");
        row("parameters a list", QStringLiteral("m['parameters'] = []"), "\"parameters\"");
        row("specs a number", QStringLiteral("m['model_weight_transformation_specs'] = 5"), "\"model_weight_transformation_specs\"");
        row("a spec group that is a string", QStringLiteral("m['model_weight_transformation_specs'] = ['x']"), "spec group");
        row("a module name that is a number",
            QStringLiteral("m['model_weight_transformation_specs'] = [{'module_fully_qualified_name': 7, 'specs': []}]"),
            "\"module_fully_qualified_name\"");
        const QString gqa = QStringLiteral(
            "g = {'gqa_qkv_projection_name': 'qkv_proj', 'query_projection_name': 'q_proj', 'key_projection_name': 'k_proj', "
            "'value_projection_name': 'v_proj', 'output_projection_name': 'o_proj', 'num_attention_heads': 4, "
            "'num_key_value_heads': 2, 'kv_size_multiplier': 1, 'q_output_size_per_partition': 8, "
            "'kv_output_size_per_partition': 4, 'fuse_qkv': True, 'bias': False, 'tp_size': 2, 'peft_type': None}; "
            "m['model_weight_transformation_specs'] = [{'module_fully_qualified_name': 'model.layers.0.self_attn', "
            "'specs': [['GQAQKVColumnParallelLinearSpec', g]]}]; ");
        row("GQA heads a string", gqa + QStringLiteral("g['num_attention_heads'] = '4'"), "\"num_attention_heads\"");
        row("GQA heads 2**40", gqa + QStringLiteral("g['num_attention_heads'] = 2**40"), "\"num_attention_heads\"");
        row("GQA kv multiplier 0", gqa + QStringLiteral("g['kv_size_multiplier'] = 0"), "\"kv_size_multiplier\"");
        row("GQA a name that is a number", gqa + QStringLiteral("g['query_projection_name'] = 5"), "\"query_projection_name\"");
        row("GQA heads that do not divide", gqa + QStringLiteral("g['num_attention_heads'] = 3"), "do not divide");
    }
    void parameterMetadataIsChecked()
    {
        QFETCH(QString, edit);
        QFETCH(QString, words);
        const QString dir = fixture({QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")});
        QVERIFY(!dir.isEmpty());
        QString out;
        QVERIFY2(python({QStringLiteral("--edit-metadata"), dir, edit}, &out), qPrintable(out));
        const ConsolidateReport rep = refused(dir);
        QVERIFY(!rep.ok());
        QVERIFY2(said(rep).contains(words), qPrintable(said(rep)));
        QVERIFY2(rep.problems.size() < 40, "one problem per field, not one per rank claimed");
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/out")));
        QVERIFY(leftovers(dir).isEmpty());
    }

    // Item 2: rank numbers in folder names bound the work too: tp 60001 is a few dozen lines of problems, and
    // tp 60001 x pp 60001 one line, not 3.6 billion.
    void absurdRankNumbersAreBounded()
    {
        const QString dir = fixture({QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")});
        QVERIFY(!dir.isEmpty());
        const QString shards = dir + QStringLiteral("/tensor_parallel_shards/");
        QVERIFY(copyTree(shards + QStringLiteral("tp_rank_01_pp_rank_00"), shards + QStringLiteral("tp_rank_60000_pp_rank_00")));
        QElapsedTimer clock;
        clock.start();
        ConsolidateReport rep = refused(dir);
        QVERIFY(!rep.ok());
        QVERIFY2(rep.problems.size() < 40, qPrintable(QString::number(rep.problems.size())));
        QVERIFY2(said(rep).contains(QStringLiteral("more shards are missing")), qPrintable(said(rep)));
        QVERIFY(copyTree(shards + QStringLiteral("tp_rank_01_pp_rank_00"), shards + QStringLiteral("tp_rank_00_pp_rank_60000")));
        rep = refused(dir);
        QVERIFY(!rep.ok());
        QVERIFY2(rep.problems.size() < 40, qPrintable(QString::number(rep.problems.size())));
        QVERIFY2(said(rep).contains(QStringLiteral("more than the 65536")), qPrintable(said(rep)));
        QVERIFY(clock.elapsed() < 60000);
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/out")));
    }

    // Items 2 and 3: torch files built to multiply their data, overflow sizes, smuggle the safetensors header's own
    // key, or walk forever (dicts inside themselves, shared 40 levels deep, nested a million levels).
    void hostileTorchFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("words");
        QTest::newRow("stride 0: 1 GiB from 16 bytes") << QStringLiteral("stride0") << QStringLiteral("overlapping");
        QTest::newRow("stride 0, 2-D") << QStringLiteral("stride0-2d") << QStringLiteral("overlapping");
        QTest::newRow("2**62 elements") << QStringLiteral("huge") << QStringLiteral("4611686018427387904 elements");
        QTest::newRow("a tensor named __metadata__") << QStringLiteral("metadata-name") << QStringLiteral("__metadata__");
        QTest::newRow("one storage under 100 names") << QStringLiteral("shared-storage") << QStringLiteral("times the file's size");
        QTest::newRow("a dict inside itself") << QStringLiteral("self-dict") << QStringLiteral("twice");
        QTest::newRow("dicts shared 40 levels deep") << QStringLiteral("shared-dicts") << QStringLiteral("twice");
        QTest::newRow("dicts a million levels deep") << QStringLiteral("deep-dicts") << QStringLiteral("deeper than");
        QTest::newRow("lists a million levels deep") << QStringLiteral("deep-lists") << QStringLiteral("too large");
        QTest::newRow("a name that is not UTF-8") << QStringLiteral("not-utf8") << QStringLiteral("UTF-8");
    }
    void hostileTorchFiles()
    {
        QFETCH(QString, kind);
        QFETCH(QString, words);
        const QString dir = tmp.path() + QStringLiteral("/hostile-") + kind;
        QString out;
        QVERIFY2(python({QStringLiteral("--hostile"), dir, kind}, &out), qPrintable(out));
        QElapsedTimer clock;
        clock.start();
        const ConsolidateReport rep = refused(dir);
        QVERIFY(!rep.ok());
        QVERIFY2(said(rep).contains(words), qPrintable(said(rep)));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/out")));
        QVERIFY(leftovers(dir).isEmpty());
        QVERIFY2(clock.elapsed() < 60000, "bounded work");
    }

    // Issue 37: a DCP .metadata is a pickle. Its unpickler allows torch.distributed.checkpoint's dataclasses and
    // nothing else: a pickle that calls code, another class (even one in the same module), a state set twice are
    // refused with words; and torch.save's unpickler never allows the DCP classes.
    void dcpMetadataPickles_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<bool>("dcp");
        QTest::addColumn<QString>("words");
        const QByteArray md = QByteArrayLiteral("\x80\x04\x8c%" "torch.distributed.checkpoint.metadata\x94");
        QTest::newRow("os.system") << QByteArrayLiteral("\x80\x02" "cos\nsystem\nX\x02\x00\x00\x00" "id\x85R.") << true
                                   << QStringLiteral("refused: the checkpoint's pickle references os.system");
        QTest::newRow("builtins.eval by STACK_GLOBAL") << QByteArrayLiteral("\x80\x04\x8c\x08" "builtins\x8c\x04" "eval\x93\x8c\x01" "1\x85R.")
                                                       << true << QStringLiteral("builtins.eval");
        QTest::newRow("another class of the module") << md + QByteArrayLiteral("\x8c\x04" "Evil\x93)\x81.") << true
                                                     << QStringLiteral("torch.distributed.checkpoint.metadata.Evil");
        QTest::newRow("a DCP class called, not made") << md + QByteArrayLiteral("\x8c\x08" "Metadata\x93)R.") << true
                                                      << QStringLiteral("Ingot does not run");
        QTest::newRow("a state set twice") << md + QByteArrayLiteral("\x8c\x0b" "StorageMeta\x93)\x81}b}b.") << true
                                           << QStringLiteral("set twice");
        QTest::newRow("a DCP class in a torch.save pickle") << md + QByteArrayLiteral("\x8c\x08" "Metadata\x93)\x81.") << false
                                                            << QStringLiteral("torch.distributed.checkpoint.metadata.Metadata");
        QTest::newRow("a Metadata without its fields") << md + QByteArrayLiteral("\x8c\x08" "Metadata\x93)\x81}b.") << true
                                                       << QStringLiteral("no state_dict_metadata");
    }
    void dcpMetadataPickles()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(bool, dcp);
        QFETCH(QString, words);
        const std::string_view data(pickle.constData(), std::size_t(pickle.size()));
        QString error;
        if (dcp) {
            DcpMetadata md;
            QVERIFY(!parseDcpMetadata(data, QStringLiteral("x/.metadata"), &md, &error));
            QVERIFY(md.tensors.empty());
        } else {
            const PickleResult r = unpickle(data);
            QVERIFY(!r.ok());
            error = QString::fromStdString(r.error);
        }
        QVERIFY2(error.contains(words), qPrintable(error));
    }

    // Issue 14: tensor records are read straight from the file at the offset the zip's headers give; a record
    // whose data would lie past the end of the file is a clear error, whichever way the bytes are read, never a
    // read past the end or a signal.
    void aRecordPastTheEndOfTheFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("io");
        for (const char *kind : {"offset", "size"})
            for (const auto io : {ConsolidateOptions::Io::Direct, ConsolidateOptions::Io::Pread, ConsolidateOptions::Io::Buffered})
                QTest::addRow("%s, io %d", kind, int(io)) << QString::fromLatin1(kind) << int(io);
    }
    void aRecordPastTheEndOfTheFile()
    {
        QFETCH(QString, kind);
        QFETCH(int, io);
        const QString dir = tmp.path() + QStringLiteral("/past-end-%1-%2").arg(kind).arg(io);
        QString out, error;
        QVERIFY2(python({dir, QStringLiteral("docs"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, &out), qPrintable(out));
        const QString pt = dir + QStringLiteral("/tensor_parallel_shards/tp_rank_00_pp_rank_00/checkpoint.pt");
        QVERIFY2(python({QStringLiteral("--record-past-end"), pt, kind}, &out), qPrintable(out));
        const QVector<CheckpointCandidate> found = findCheckpoints(dir, &error);
        QCOMPARE(found.size(), 1);
        ConsolidateOptions o;
        o.output = dir + QStringLiteral("/out");
        o.io = ConsolidateOptions::Io(io);
        const ConsolidateReport rep = consolidate(found.first(), o);
        QVERIFY(!rep.ok());
        QVERIFY2(said(rep).contains(QStringLiteral("lies outside the file")), qPrintable(said(rep)));
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(leftovers(dir).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHostile)
#include "tst_hostile.moc"
