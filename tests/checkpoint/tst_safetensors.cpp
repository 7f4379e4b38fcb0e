// safetensors: round trip, Python reads what Ingot writes, and every malformed header is a clear error.
#include "services/checkpoint/formats/safetensors.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>


using namespace ingot;

namespace {
void writeRaw(const QString &path, const QByteArray &header, const QByteArray &data)
{
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    QByteArray len(8, '\0');
    const quint64 n = quint64(header.size());
    for (int k = 0; k < 8; ++k)
        len[k] = char((n >> (8 * k)) & 0xff);
    f.write(len + header + data);
}
}  // namespace

class TestSafetensors : public QObject
{
    Q_OBJECT

    QTemporaryDir dir;

private Q_SLOTS:
    void roundTripAndPythonReadsIt()
    {
        const QString path = dir.path() + QStringLiteral("/model.safetensors");
        std::vector<SafetensorInfo> ts(2);
        ts[0].name = "a.weight";
        ts[0].dtype = DType::BF16;
        ts[0].shape = {2, 3};
        ts[1].name = "b.bias";
        ts[1].dtype = DType::F32;
        ts[1].shape = {3};
        SafetensorsWriter w;
        QString error;
        QVERIFY(w.begin(path, ts, {{"format", "pt"}}, &error));
        const QByteArray a = QByteArray::fromHex("803f0040404080c000410000");  // six bf16 values
        const float b[3] = {1.5f, -2.0f, 0.25f};
        QVERIFY(w.write(a.constData(), size_t(a.size()), &error));
        QVERIFY(w.write(reinterpret_cast<const char *>(b), sizeof b, &error));
        QVERIFY2(w.finish(&error), qPrintable(error));

        SafetensorsReader r;
        QVERIFY2(r.open(path, &error), qPrintable(error));
        QCOMPARE(r.tensors().size(), size_t(2));
        QCOMPARE(r.metadata().at("format"), std::string("pt"));
        const SafetensorInfo *bi = r.find("b.bias");
        QVERIFY(bi);
        QCOMPARE(QByteArray(r.data(*bi), 12), QByteArray(reinterpret_cast<const char *>(b), 12));
        QCOMPARE(QByteArray(r.data(*r.find("a.weight")), 12), a);

        // An independent reader: Python's standard library and torch, as transformers would.
        QProcess py;
        py.setProcessChannelMode(QProcess::MergedChannels);
        py.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral(R"(
import json, struct, sys, torch
raw = open(sys.argv[1], 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]
h = json.loads(raw[8:8 + n])
assert h['__metadata__'] == {'format': 'pt'}, h
e = h['b.bias']
t = torch.frombuffer(bytearray(raw[8 + n + e['data_offsets'][0]: 8 + n + e['data_offsets'][1]]), dtype=torch.float32)
assert t.tolist() == [1.5, -2.0, 0.25], t
a = h['a.weight']
x = torch.frombuffer(bytearray(raw[8 + n + a['data_offsets'][0]: 8 + n + a['data_offsets'][1]]), dtype=torch.bfloat16).reshape(a['shape'])
assert x.shape == (2, 3) and x[0, 0].item() == 1.0, x
assert (8 + n) % 8 == 0
print('ok')
)"), path});
        QVERIFY(py.waitForFinished(60000));
        QVERIFY2(py.exitCode() == 0, py.readAll().constData());
    }

    void malformedHeaders_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("words");
        QTest::newRow("not json") << QByteArray("{nope") << QByteArray() << QStringLiteral("not valid JSON");
        QTest::newRow("offsets past end") << QByteArray(R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})") << QByteArray(8, 'x') << QStringLiteral("past the end");
        QTest::newRow("shape mismatch") << QByteArray(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})") << QByteArray(8, 'x') << QStringLiteral("does not match");
        QTest::newRow("overlap") << QByteArray(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"b":{"dtype":"U8","shape":[4],"data_offsets":[2,6]}})") << QByteArray(8, 'x') << QStringLiteral("overlap");
        QTest::newRow("unknown dtype") << QByteArray(R"({"w":{"dtype":"F128","shape":[1],"data_offsets":[0,16]}})") << QByteArray(16, 'x') << QStringLiteral("unknown dtype");
        QTest::newRow("negative shape") << QByteArray(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})") << QByteArray(4, 'x') << QStringLiteral("malformed shape");
        QTest::newRow("reversed offsets") << QByteArray(R"({"w":{"dtype":"U8","shape":[0],"data_offsets":[4,0]}})") << QByteArray(4, 'x') << QStringLiteral("past the end");
        QTest::newRow("array header") << QByteArray("[1,2]") << QByteArray() << QStringLiteral("not a JSON object");
    }
    void malformedHeaders()
    {
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, data);
        QFETCH(QString, words);
        const QString path = dir.path() + QStringLiteral("/bad.safetensors");
        writeRaw(path, header, data);
        SafetensorsReader r;
        QString error;
        QVERIFY(!r.open(path, &error));
        QVERIFY2(error.contains(words), qPrintable(error));
    }

    void absurdHeaderLength()
    {
        const QString path = dir.path() + QStringLiteral("/absurd.safetensors");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\xff\xff\xff\xff\xff\xff\xff\x7f", 8) + QByteArray(100, ' '));
        f.close();
        SafetensorsReader r;
        QString error;
        QVERIFY(!r.open(path, &error));
        QVERIFY(error.contains(QStringLiteral("cannot hold")));
    }

    void aFullDiskIsAClearError()
    {
        // A size limit on files stands in for a full disk: writes past it fail (EFBIG) instead of killing us.
        std::vector<SafetensorInfo> ts(1);
        ts[0].name = "big";
        ts[0].dtype = DType::F32;
        ts[0].shape = {100000};
        SafetensorsWriter w;
        QString error;
        const QByteArray chunk(400000, 'z');
        bool ok;
        {
            test::FileSizeLimit limit(4096);
            ok = w.begin(dir.path() + QStringLiteral("/full.safetensors"), ts, {}, &error) &&
                 w.write(chunk.constData(), size_t(chunk.size()), &error);
        }
        QVERIFY(!ok);
        QVERIFY2(error.contains(QStringLiteral("Cannot write")) || error.contains(QStringLiteral("disk is full")), qPrintable(error));
    }

    // Issue 10, item 3: the writer made files that read back as something else: a shape of 2**62 F32 got
    // data_offsets [0, 0] (the byte size wrapped), a tensor named __metadata__ replaced the header's metadata, and
    // a name given twice left one tensor's bytes without a header entry.
    void writerRefusesWhatWouldReadBackAsSomethingElse_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<qint64>("dim");
        QTest::newRow("2**62 elements") << QStringLiteral("a") << QStringLiteral("b") << (qint64(1) << 62);
        QTest::newRow("2**61 elements") << QStringLiteral("a") << QStringLiteral("b") << (qint64(1) << 61);
        QTest::newRow("__metadata__") << QStringLiteral("a") << QStringLiteral("__metadata__") << qint64(2);
        QTest::newRow("a name given twice") << QStringLiteral("a") << QStringLiteral("a") << qint64(2);
    }
    void writerRefusesWhatWouldReadBackAsSomethingElse()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(qint64, dim);
        std::vector<SafetensorInfo> ts(2);
        ts[0].name = first.toStdString();
        ts[0].dtype = DType::F32;
        ts[0].shape = {2};
        ts[1].name = second.toStdString();
        ts[1].dtype = DType::F32;
        ts[1].shape = {dim};
        SafetensorsWriter w;
        QString error;
        const QString path = dir.path() + QStringLiteral("/refused.safetensors");
        QVERIFY2(!w.begin(path, ts, {{"format", "pt"}}, &error), "begun");
        QVERIFY(!error.isEmpty());
    }

    // Dims are counted, and sizes must fit in 63 bits.
    void readerLimits_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QString>("words");
        QByteArray manyDims = "[";
        for (int k = 0; k < 100; ++k)
            manyDims += k ? ",1" : "1";
        manyDims += "]";
        QTest::newRow("100 dims") << QByteArray(R"({"w":{"dtype":"U8","shape":)" + manyDims + R"(,"data_offsets":[0,1]}})") << QStringLiteral("dims");
        QTest::newRow("2**63") << QByteArray(R"({"w":{"dtype":"U8","shape":[9223372036854775808],"data_offsets":[0,0]}})") << QStringLiteral("malformed shape");
        QTest::newRow("2**62 x 4 bytes") << QByteArray(R"({"w":{"dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,0]}})") << QStringLiteral("does not match");
        QTest::newRow("2**32 x 2**32") << QByteArray(R"({"w":{"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,0]}})") << QStringLiteral("does not match");
    }
    void readerLimits()
    {
        QFETCH(QByteArray, header);
        QFETCH(QString, words);
        const QString path = dir.path() + QStringLiteral("/limits.safetensors");
        writeRaw(path, header, QByteArray(8, 'x'));
        SafetensorsReader r;
        QString error;
        QVERIFY(!r.open(path, &error));
        QVERIFY2(error.contains(words), qPrintable(error));
    }

    // A FIFO (or a device) named like a shard made the open block forever.
    void aFifoIsNotAFile()
    {
        const QString path = dir.path() + QStringLiteral("/fifo.safetensors");
        QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
        QElapsedTimer clock;
        clock.start();
        SafetensorsReader r;
        QString error;
        QVERIFY(!r.open(path, &error));
        QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));
        QVERIFY(clock.elapsed() < 5000);
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
