// Reading torch.save checkpoints without running them: real files written by Debian's python3-torch, a pickle
// that would run os.system, truncated and foreign files; and the restricted unpickler on hand-made bytes.
#include "services/checkpoint/formats/torchfile.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {
// Bytes with NULs in them, exactly as written.
template<std::size_t N>
QByteArray raw(const char (&s)[N])
{
    return QByteArray(s, qsizetype(N - 1));
}

// A pickled tensor as torch writes it: _rebuild_tensor_v2(storage of 4 floats, offset, size, stride, False, ()),
// with the offset, size and stride given as pickle opcodes.
QByteArray tensorPickle(const QByteArray &offset, const QByteArray &size, const QByteArray &stride)
{
    return raw("\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\n" "((X\x07\x00\x00\x00" "storage" "ctorch\nFloatStorage\n"
               "X\x01\x00\x00\x00" "0" "X\x03\x00\x00\x00" "cpu" "K\x04tQ") +
           offset + '(' + size + raw("t(") + stride + raw("t\x89)tR.");
}
}  // namespace

class TestTorchFile : public QObject
{
    Q_OBJECT

    QTemporaryDir dir;

private Q_SLOTS:
    void initTestCase()
    {
        QProcess py;
        py.setProcessChannelMode(QProcess::MergedChannels);
        py.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_torch_fixtures.py"), dir.path()});
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAll().constData());
    }

    void tensorsEqualWhatTorchSaved()
    {
        TorchFile f;
        QString error;
        QVERIFY2(f.open(dir.path() + QStringLiteral("/plain.pt"), &error), qPrintable(error));
        const auto tensors = stateDictTensors(f.root());
        QFile ef(dir.path() + QStringLiteral("/expected.json"));
        QVERIFY(ef.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(ef.readAll()).object();
        QCOMPARE(int(tensors.size()), expected.size());
        const QHash<QString, DType> dtypes{{QStringLiteral("float32"), DType::F32}, {QStringLiteral("bfloat16"), DType::BF16},
                                           {QStringLiteral("float16"), DType::F16}, {QStringLiteral("int64"), DType::I64},
                                           {QStringLiteral("bool"), DType::Bool}};
        for (const auto &[name, t] : tensors) {
            const QJsonObject e = expected.value(QString::fromStdString(name)).toObject();
            QVERIFY2(!e.isEmpty(), name.c_str());
            QCOMPARE(t.dtype, dtypes.value(e.value(QStringLiteral("dtype")).toString()));
            QJsonArray shape;
            for (auto d : t.shape)
                shape << qint64(d);
            QCOMPARE(shape, e.value(QStringLiteral("shape")).toArray());
            std::string bytes;
            QVERIFY2(f.readTensor(t, &bytes, &error), qPrintable(error));
            QCOMPARE(QCryptographicHash::hash(QByteArray::fromStdString(bytes), QCryptographicHash::Sha256).toHex(),
                     e.value(QStringLiteral("sha256")).toString().toLatin1());
        }
        // Two names, one storage: the tie is visible.
        const PickleValue *sd = nullptr;
        stateDictTensors(f.root(), &sd);
        QCOMPARE(sd->get("embed_tokens.weight")->tensor().storage.key, sd->get("lm_head.weight")->tensor().storage.key);
        // The rest of the checkpoint reads as plain values.
        const PickleValue *extra = f.root()->get("extra");
        QVERIFY(extra);
        QCOMPARE(extra->get("blob")->s, std::string("\x00\x01\xfe\xff" "bytes", 9));
        QCOMPARE(extra->get("big")->i, qint64(1) << 40);
        QCOMPARE(extra->get("neg")->i, qint64(-5));
        QCOMPARE(extra->get("f")->f, 0.25);
        QCOMPARE(extra->get("shape")->items.size(), size_t(2));
        QCOMPARE(extra->get("dtype")->s, std::string("torch.bfloat16"));
        QCOMPARE(f.root()->get("sharded_metadata")->get("embed_tokens.weight")->get("partition_dim")->i, 0);
    }

    void refusesAPickleThatWouldRunCode()
    {
        TorchFile f;
        QString error;
        QVERIFY(!f.open(dir.path() + QStringLiteral("/evil.pt"), &error));
        QVERIFY2(error.contains(QStringLiteral("refused")) && error.contains(QStringLiteral("system")), qPrintable(error));
        QVERIFY(!QFile::exists(dir.path() + QStringLiteral("/PWNED")));
    }

    void brokenFiles()
    {
        TorchFile f;
        QString error;
        QVERIFY(!f.open(dir.path() + QStringLiteral("/truncated.pt"), &error));
        QVERIFY(!error.isEmpty());
        QFile junk(dir.path() + QStringLiteral("/junk.pt"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(4096, 'x'));
        junk.close();
        QVERIFY(!f.open(junk.fileName(), &error));
        QVERIFY(error.contains(QStringLiteral("not a readable torch checkpoint")));
        QVERIFY(!f.open(dir.path() + QStringLiteral("/missing.pt"), &error));
    }

    void unpicklerOnHandMadeBytes_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("error");
        QTest::newRow("os.system via GLOBAL") << raw("\x80\x02" "cos\nsystem\n" "X\x02\x00\x00\x00" "ls" "\x85R.") << QStringLiteral("refused");
        QTest::newRow("builtins.eval via STACK_GLOBAL") << raw("\x80\x04\x8c\x08" "builtins" "\x8c\x04" "eval" "\x93)R.") << QStringLiteral("refused");
        QTest::newRow("truncated") << raw("\x80\x02}q\x00(X\x05\x00\x00\x00ab") << QStringLiteral("truncated");
        QTest::newRow("no STOP") << raw("\x80\x02N") << QStringLiteral("without STOP");
        QTest::newRow("stack underflow") << raw("\x80\x02s.") << QStringLiteral("malformed");
        QTest::newRow("unknown memo") << raw("\x80\x02h\x07.") << QStringLiteral("memo");
        QTest::newRow("huge LONG1") << raw("\x80\x02\x8a\x09" "123456789.") << QStringLiteral("too large");
        QTest::newRow("unsupported opcode") << raw("\x80\x02\xff.") << QStringLiteral("opcode");
        QTest::newRow("object state") << raw("\x80\x02N}b.") << QStringLiteral("refused");
        // Tensors: the negative, huge and wrong-type versions of a valid one (see handMadeTensorIsRead).
        const QByteArray k1 = raw("K\x01"), k2 = raw("K\x02"), two32 = raw("\x8a\x05\x00\x00\x00\x00\x01");
        QTest::newRow("negative storage offset") << tensorPickle(raw("J\xff\xff\xff\xff"), k2, k1) << QStringLiteral("negative storage offset");
        QTest::newRow("negative stride") << tensorPickle(raw("K\x00"), k2, raw("J\xff\xff\xff\xff")) << QStringLiteral("negative");
        QTest::newRow("65 dims") << tensorPickle(raw("K\x00"), k1.repeated(65), k1.repeated(65)) << QStringLiteral("64 dims");
        QTest::newRow("2**64 elements") << tensorPickle(raw("K\x00"), two32 + two32, raw("K\x00K\x00")) << QStringLiteral("64 bits");
        QTest::newRow("a size that is a string") << tensorPickle(raw("K\x00"), raw("X\x01\x00\x00\x00" "2"), k1) << QStringLiteral("malformed tensor shape");
        QTest::newRow("sizes and strides that disagree") << tensorPickle(raw("K\x00"), k2 + k2, k1) << QStringLiteral("malformed tensor shape");
    }
    void unpicklerOnHandMadeBytes()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, error);
        const PickleResult r = unpickle(std::string_view(pickle.constData(), size_t(pickle.size())));
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error).contains(error), r.error.c_str());
    }

    void unpicklerLimits()
    {
        // A list that appends itself over and over stays bounded.
        QByteArray bomb("\x80\x02]q\x00", 5);
        for (int i = 0; i < 2000; ++i)
            bomb += QByteArray("(h\x00h\x00h\x00h\x00" "e", 10);
        bomb += '.';
        const PickleResult r = unpickle(std::string_view(bomb.constData(), size_t(bomb.size())), 1000);
        QVERIFY(r.ok() || QString::fromStdString(r.error).contains(QStringLiteral("too large")));
        const PickleResult small = unpickle(std::string_view("\x80\x02K\x07.", 5));
        QVERIFY(small.ok());
        QCOMPARE(small.value->i, 7);
    }

    // Found by fuzz_torchzip: a stored record whose compressed size (0) disagrees with its size (32) made libzip
    // 1.7's zip_fseek crash. Such records are refused, and reading never seeks.
    void storedRecordWhoseSizesDisagree()
    {
        TorchFile f;
        QString error;
        QVERIFY2(f.open(QStringLiteral(INGOT_SOURCE_DIR "/tests/fuzz/seeds/fuzz_torchzip/crash-stored-record-sizes-disagree.pt"), &error), qPrintable(error));
        int read = 0, refused = 0;
        std::string bytes;
        for (const auto &[name, t] : stateDictTensors(f.root())) {
            if (f.readTensor(t, &bytes, &error)) {
                ++read;
                QCOMPARE(qint64(bytes.size()), t.numel() * dtypeSize(t.dtype));
            } else {
                ++refused;
                QVERIFY2(!error.isEmpty(), name.c_str());
            }
        }
        QVERIFY(read > 0);
        QVERIFY(refused > 0);
    }

    void handMadeTensorIsRead()
    {
        const QByteArray p = tensorPickle(raw("K\x01"), raw("K\x02"), raw("K\x01"));
        const PickleResult r = unpickle(std::string_view(p.constData(), size_t(p.size())));
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.value->kind, PickleValue::Kind::Tensor);
        QCOMPARE(r.value->tensor().storageOffset, qint64(1));
        QCOMPARE(r.value->tensor().shape, std::vector<std::int64_t>{2});
        QCOMPARE(r.value->tensor().storage.numel, qint64(4));
    }

    // Issue 10, item 2: nesting a million levels deep is legal pickle; releasing it recursed once per level and
    // overflowed the stack (whoever held the last reference to the outermost container).
    void deepNestingIsReleasedWithoutRecursion()
    {
        const int n = 1000000;
        QByteArray lists("\x80\x02", 2);
        lists += QByteArray(n + 1, ']') + QByteArray(n, 'a') + '.';
        QByteArray dicts("\x80\x02", 2);
        for (int i = 0; i < n; ++i)
            dicts += raw("}X\x01\x00\x00\x00" "d");
        dicts += '}' + QByteArray(n, 's') + '.';
        for (const QByteArray &p : {lists, dicts}) {
            PV keep;
            {
                const PickleResult r = unpickle(std::string_view(p.constData(), size_t(p.size())), std::size_t(1) << 31);
                QVERIFY2(r.ok(), r.error.c_str());
                keep = r.value;
                // The state dict walk is bounded too.
                QVERIFY(stateDictTensors(r.value).empty());
            }
            keep.reset();
        }
    }

    // A dict inside itself walked forever; 40 levels of dicts each shared twice walked 2**40 paths.
    void sharedAndSelfContainingDictsAreWalkedOnce()
    {
        const QByteArray self = raw("\x80\x02}q\x00X\x04\x00\x00\x00selfq\x01h\x00s.");
        QByteArray shared = raw("\x80\x02}q\x00");
        for (int i = 1; i <= 40; ++i) {
            const char prev = char(i - 1);
            shared += raw("}X\x01\x00\x00\x00" "ah") + prev + raw("sX\x01\x00\x00\x00" "bh") + prev + 's';
            shared += 'q';
            shared += char(i);
        }
        shared += '.';
        for (const QByteArray &p : {self, shared}) {
            QElapsedTimer clock;
            clock.start();
            const PickleResult r = unpickle(std::string_view(p.constData(), size_t(p.size())));
            QVERIFY2(r.ok(), r.error.c_str());
            QVERIFY(stateDictTensors(r.value).empty());
            QVERIFY(clock.elapsed() < 5000);
        }
    }

    // Shared references cost a pointer, never a copy: calls that copy what a memo entry holds (a 1 MB string
    // latin1-encoded again and again, a 100,000-item list made a torch.Size again and again) claimed gigabytes.
    void memoryIsBoundedByTheInput()
    {
        QByteArray codecs = raw("\x80\x02" "c_codecs\nencode\nq\x00");
        codecs += raw("X\x00\x00\x10\x00") + QByteArray(1 << 20, 'x') + raw("q\x01");
        codecs += raw("X\x06\x00\x00\x00latin1q\x02(");
        for (int i = 0; i < 4000; ++i)
            codecs += raw("h\x00h\x01h\x02\x86R");
        codecs += raw("l.");
        QByteArray sizes = raw("\x80\x02" "ctorch\nSize\nq\x00]q\x01(");
        for (int i = 0; i < 100000; ++i)
            sizes += "N";
        sizes += raw("eh\x01\x85q\x02(");
        for (int i = 0; i < 20000; ++i)
            sizes += raw("h\x00h\x02R");
        sizes += raw("l.");
        for (const QByteArray &p : {codecs, sizes}) {
            const PickleResult r = unpickle(std::string_view(p.constData(), size_t(p.size())));
            QVERIFY(!r.ok());
            QVERIFY2(QString::fromStdString(r.error).contains(QStringLiteral("too large")), r.error.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestTorchFile)
#include "tst_torchfile.moc"
