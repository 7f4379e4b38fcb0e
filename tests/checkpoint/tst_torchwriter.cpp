// Writing pytorch_model.bin (torch.save's zip format): a state dict of several dtypes and shapes, scalars and empty
// tensors included, read back bit for bit by Ingot's own reader and by torch.load (Debian's python3-torch), and a
// disk that fills up (at any stage) giving words and leaving no file behind.
#include "services/checkpoint/formats/torchfile.h"
#include "services/checkpoint/formats/torchwriter.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace ingot;

namespace {
struct Tensor {
    SafetensorInfo info;
    QByteArray bytes;
};

SafetensorInfo info(const char *name, DType dtype, std::vector<std::int64_t> shape)
{
    SafetensorInfo t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    return t;
}

// Bytes that differ from tensor to tensor and from element to element; bools must be 0 or 1 for torch.
QByteArray patternFor(const SafetensorInfo &t, int seed)
{
    QByteArray b(qsizetype(t.numel() * dtypeSize(t.dtype)), Qt::Uninitialized);
    for (qsizetype i = 0; i < b.size(); ++i)
        b[i] = t.dtype == DType::Bool ? char((i + seed) % 2) : char((i * 37 + seed * 11 + 5) & 0xff);
    // Keep floats finite (an exponent of all ones is inf/NaN, whose payloads torch may not keep): clear each
    // element's top exponent bit.
    const int es = dtypeSize(t.dtype);
    if (t.dtype == DType::F32 || t.dtype == DType::F64 || t.dtype == DType::F16 || t.dtype == DType::BF16)
        for (qsizetype i = es - 1; i < b.size(); i += es)
            b[i] = char(b[i] & 0xbf);
    return b;
}

std::vector<Tensor> sampleStateDict()
{
    const std::vector<SafetensorInfo> infos = {
        info("model.embed_tokens.weight", DType::F32, {5, 3}),
        info("model.layers.0.self_attn.q_proj.weight", DType::BF16, {4, 2, 2}),
        info("model.norm.weight", DType::F16, {7}),
        info("model.double", DType::F64, {2, 1}),
        info("step", DType::I64, {}),  // a scalar
        info("ids", DType::I32, {3}),
        info("shorts", DType::I16, {2, 2}),
        info("chars", DType::I8, {6}),
        info("bytes", DType::U8, {1, 1, 9}),
        info("mask", DType::Bool, {4}),
        info("empty", DType::F32, {0, 3}),  // no elements at all
    };
    std::vector<Tensor> out;
    for (std::size_t i = 0; i < infos.size(); ++i)
        out.push_back({infos[i], patternFor(infos[i], int(i))});
    return out;
}

// Writes the tensors with TorchWriter; false with *error as the writer put it.
bool writeAll(const QString &path, const std::vector<Tensor> &tensors, QString *error)
{
    std::vector<SafetensorInfo> infos;
    for (const Tensor &t : tensors)
        infos.push_back(t.info);
    TorchWriter w;
    if (!w.begin(path, infos, error))
        return false;
    for (const Tensor &t : tensors)
        if (!w.write(t.bytes.constData(), size_t(t.bytes.size()), error))
            return false;
    return w.finish(error);
}

bool torchAvailable()
{
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import torch")});
    return py.waitForFinished(60000) && py.exitStatus() == QProcess::NormalExit && py.exitCode() == 0;
}
}  // namespace

class TestTorchWriter : public QObject
{
    Q_OBJECT

    QTemporaryDir dir;

private Q_SLOTS:
    void readsBackBitExact()
    {
        const QString path = dir.path() + QStringLiteral("/model.bin");
        const std::vector<Tensor> tensors = sampleStateDict();
        QString error;
        QVERIFY2(writeAll(path, tensors, &error), qPrintable(error));
        QVERIFY(!QFile::exists(path + QStringLiteral(".blob")));

        TorchFile f;
        QVERIFY2(f.open(path, &error), qPrintable(error));
        const auto read = stateDictTensors(f.root());
        QCOMPARE(read.size(), tensors.size());
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            const auto &[name, ref] = read[i];
            QCOMPARE(name, tensors[i].info.name);  // in the order written
            QCOMPARE(ref.dtype, tensors[i].info.dtype);
            QCOMPARE(ref.shape, tensors[i].info.shape);
            std::string bytes;
            QVERIFY2(f.readTensor(ref, &bytes, &error), qPrintable(error));
            QCOMPARE(QByteArray::fromStdString(bytes), tensors[i].bytes);
        }
    }

    void torchLoadReadsItBitExact()
    {
        if (!torchAvailable())
            QSKIP("/usr/bin/python3 has no torch here");
        const QString path = dir.path() + QStringLiteral("/for-torch.bin");
        const std::vector<Tensor> tensors = sampleStateDict();
        QString error;
        QVERIFY2(writeAll(path, tensors, &error), qPrintable(error));
        // torch.load as transformers calls it; each tensor's dtype, shape and raw bytes (as hex) back as JSON.
        QProcess py;
        py.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral(R"(
import json, sys, torch
sd = torch.load(sys.argv[1], map_location='cpu')
out = {'keys': list(sd.keys()), 'tensors': {}}
for name, t in sd.items():
    flat = t.contiguous().reshape(-1)
    raw = flat.to(torch.uint8) if t.dtype == torch.bool else flat.view(torch.uint8)
    out['tensors'][name] = {'dtype': str(t.dtype), 'shape': list(t.shape), 'hex': raw.numpy().tobytes().hex()}
print(json.dumps(out))
)"), path});
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        const QJsonObject all = QJsonDocument::fromJson(py.readAllStandardOutput()).object();
        const QJsonObject got = all.value(QStringLiteral("tensors")).toObject();
        const std::map<DType, QString> torchName = {
            {DType::F32, QStringLiteral("torch.float32")}, {DType::BF16, QStringLiteral("torch.bfloat16")},
            {DType::F16, QStringLiteral("torch.float16")}, {DType::F64, QStringLiteral("torch.float64")},
            {DType::I64, QStringLiteral("torch.int64")},   {DType::I32, QStringLiteral("torch.int32")},
            {DType::I16, QStringLiteral("torch.int16")},   {DType::I8, QStringLiteral("torch.int8")},
            {DType::U8, QStringLiteral("torch.uint8")},    {DType::Bool, QStringLiteral("torch.bool")}};
        QCOMPARE(got.size(), qsizetype(tensors.size()));
        for (const Tensor &t : tensors) {
            const QJsonObject e = got.value(QString::fromStdString(t.info.name)).toObject();
            QVERIFY2(!e.isEmpty(), t.info.name.c_str());
            QCOMPARE(e.value(QStringLiteral("dtype")).toString(), torchName.at(t.info.dtype));
            QJsonArray shape;
            for (auto d : t.info.shape)
                shape << qint64(d);
            QCOMPARE(e.value(QStringLiteral("shape")).toArray(), shape);
            QCOMPARE(e.value(QStringLiteral("hex")).toString().toLatin1(), t.bytes.toHex());
        }
        // The keys come back in the order they were written.
        QJsonArray order;
        for (const Tensor &t : tensors)
            order << QString::fromStdString(t.info.name);
        QCOMPARE(all.value(QStringLiteral("keys")).toArray(), order);
    }

    void aFullDiskLeavesNoFile_data()
    {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<QString>("stage");
        // The tensor data is 64,000 bytes: a smaller limit stops the scratch blob, a slightly larger one the zip.
        QTest::newRow("while streaming the tensors") << qint64(4096) << QStringLiteral("write");
        QTest::newRow("while assembling the zip") << qint64(64000 + 100) << QStringLiteral("finish");
    }
    void aFullDiskLeavesNoFile()
    {
        QFETCH(qint64, limit);
        QFETCH(QString, stage);
        QTemporaryDir out;
        const QString path = out.path() + QStringLiteral("/pytorch_model.bin");
        const std::vector<SafetensorInfo> infos = {info("big", DType::F32, {16000})};
        const QByteArray data(64000, '\x01');
        QString error;
        bool wrote = false, finished = false;
        {
            TorchWriter w;
            test::FileSizeLimit full(static_cast<unsigned long long>(limit));
            QVERIFY2(w.begin(path, infos, &error), qPrintable(error));
            wrote = w.write(data.constData(), size_t(data.size()), &error);
            finished = wrote && w.finish(&error);
        }
        QVERIFY(!finished);
        QCOMPARE(wrote, stage == QLatin1String("finish"));
        QVERIFY2(error.contains(path), qPrintable(error));  // names the output, not the scratch blob
        QVERIFY2(!error.contains(QStringLiteral(".blob")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("Cannot write")) || error.contains(QStringLiteral("disk is full")), qPrintable(error));
        const QStringList left = QDir(out.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
    }
};

QTEST_GUILESS_MAIN(TestTorchWriter)
#include "tst_torchwriter.moc"
