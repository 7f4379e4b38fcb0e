// The HLO behind a cache entry: modules built with Ingot's .proto (hlo_subset.proto, XLA's field numbers) are read
// back whole, plain, gzip-compressed and padded; hostile bytes give words, never a crash or unbounded memory.
#include "services/cache/hlo.h"

#include "hlo_subset.pb.h"
#include "tests/support/testsupport.h"

#include <QtTest>

#include <zlib.h>

using namespace ingot;

namespace {
HloSketch llama(int seq, int tp)
{
    HloSketch h;
    h.name = QStringLiteral("SyncTensorsGraph.412");
    h.parameters = {QStringLiteral("s64[4,%1]").arg(seq), QStringLiteral("bf16[%1,4096]").arg(32000 / tp)};
    h.parameterNames = {QStringLiteral("input_ids"), QStringLiteral("embed_tokens.weight")};
    h.result = QStringLiteral("(f32[], bf16[%1,4096])").arg(32000 / tp);
    h.instructions = 20;
    h.allReduces = 3;
    h.groupSize = tp;
    h.devices = 32;
    return h;
}

QByteArray serialized(const hlo::HloModuleProto &m)
{
    std::string s;
    m.SerializeToString(&s);
    return QByteArray(s.data(), qsizetype(s.size()));
}

QByteArray gzipped(const QByteArray &raw)
{
    QByteArray gz(int(compressBound(uLong(raw.size()))) + 64, '\0');
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.constData()));
    z.avail_in = uInt(raw.size());
    z.next_out = reinterpret_cast<Bytef *>(gz.data());
    z.avail_out = uInt(gz.size());
    const int rc = deflate(&z, Z_FINISH);
    gz.resize(rc == Z_STREAM_END ? qsizetype(z.total_out) : 0);
    deflateEnd(&z);
    return gz;
}

// Protobuf's wire format written by hand (protobuf.dev, "Encoding"): the crafted modules below hold millions of empty
// messages, which the test cannot build as objects without the memory the reader must not take. Field numbers are
// XLA's (xla/service/hlo.proto, xla/xla_data.proto; hlo_subset.proto).
QByteArray varint(quint64 v)
{
    QByteArray b;
    for (; v >= 0x80; v >>= 7)
        b.append(char(0x80 | (v & 0x7f)));
    b.append(char(v));
    return b;
}
QByteArray tag(int field, int wire)
{
    return varint((quint64(field) << 3) | quint64(wire));
}
QByteArray lengthDelimited(int field, const QByteArray &payload)
{
    return tag(field, 2) + varint(quint64(payload.size())) + payload;
}
QByteArray varintField(int field, quint64 v)
{
    return tag(field, 0) + varint(v);
}
// n empty messages of a repeated field: two or three bytes each on disk, an object each in memory.
QByteArray emptyMessages(int field, qint64 n)
{
    return tag(field, 2).append(char(0)).repeated(n);
}
// One packed repeated varint field of n zeros: a byte each on disk, eight in a RepeatedField<int64>.
QByteArray packedZeros(int field, qint64 n)
{
    return lengthDelimited(field, QByteArray(n, '\0'));
}
QByteArray moduleWith(const QByteArray &instruction, const QByteArray &programShape = {})
{
    QByteArray computation = lengthDelimited(1, "main") + lengthDelimited(2, instruction);
    if (!programShape.isNull())
        computation += lengthDelimited(4, programShape);
    return lengthDelimited(1, "SyncTensorsGraph.1") + lengthDelimited(2, "main") + lengthDelimited(3, computation);
}

}  // namespace

class TestHlo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsWhatWasWritten()
    {
        QString error;
        const auto h = parseHloModule(writeHloModule(llama(2048, 8)), &error);
        QVERIFY2(h, qPrintable(error));
        QCOMPARE(h->moduleName, QStringLiteral("SyncTensorsGraph.412"));
        QCOMPARE(h->parameters, (QStringList{QStringLiteral("s64[4,2048]"), QStringLiteral("bf16[4000,4096]")}));
        QCOMPARE(h->parameterNames, (QStringList{QStringLiteral("input_ids"), QStringLiteral("embed_tokens.weight")}));
        QCOMPARE(h->result, QStringLiteral("(f32[], bf16[4000,4096])"));
        QCOMPARE(h->computationCount, 2);
        // 3 in the reduction, 2 parameters + 20 fillers + 3 all-reduces in the entry.
        QCOMPARE(h->instructionCount, 28);
        QCOMPARE(h->entryInstructionCount, 25);
        QVERIFY(!h->gzip);
        QCOMPARE(h->collectives.size(), 1);
        QCOMPARE(h->collectives[0].opcode, QStringLiteral("all-reduce"));
        QCOMPARE(h->collectives[0].count, 3);
        QCOMPARE(h->collectives[0].groupCount, 4);  // 32 devices in groups of 8
        QCOMPARE(h->collectives[0].groupSize, 8);
        QVERIFY2(h->collectives[0].groups.startsWith(QStringLiteral("{{0,1,2,3,4,5,6,7},{8,")), qPrintable(h->collectives[0].groups));
        QCOMPARE(h->largestGroup(), 8);
        // The fillers hold 5 adds and 5 dots, the reduction one more add.
        QCOMPARE(h->opcodes.first(), qMakePair(QStringLiteral("add"), qint64(6)));
        QVERIFY(h->collectiveLines().first().contains(QStringLiteral("all-reduce ×3 over 4 group")));
    }

    void tellsTensorParallelDegreesApart()
    {
        const auto a = parseHloModule(writeHloModule(llama(2048, 8)), nullptr);
        const auto b = parseHloModule(writeHloModule(llama(4096, 32)), nullptr);
        QVERIFY(a && b);
        QCOMPARE(b->largestGroup(), 32);
        const QStringList d = hloDifferences(*a, *b);
        QVERIFY2(d.contains(QStringLiteral("parameter 0 (input_ids): s64[4,2048] → s64[4,4096]")), qPrintable(d.join(QLatin1Char('|'))));
        QVERIFY2(d.contains(QStringLiteral("replica groups of 8 → 32")), qPrintable(d.join(QLatin1Char('|'))));
        QVERIFY(hloDifferences(*a, *a).isEmpty());
    }

    void gzipAndPaddedFiles()
    {
        HloSketch s = llama(1024, 8);
        s.gzip = true;
        const QByteArray gz = writeHloModule(s);
        QCOMPARE(quint8(gz[0]), quint8(0x1f));
        const auto g = parseHloModule(gz, nullptr);
        QVERIFY(g);
        QVERIFY(g->gzip);
        QCOMPARE(g->parameters.first(), QStringLiteral("s64[4,1024]"));

        // The sample cache's files: the module, then a field of zeros up to the file's size.
        QByteArray padded = writeHloModule(llama(1024, 8), 300000);
        padded.append(QByteArray(300000 - padded.size(), '\0'));
        QCOMPARE(padded.size(), 300000);
        const auto p = parseHloModule(padded, nullptr);
        QVERIFY(p);
        QCOMPARE(p->instructionCount, 28);
    }

    void collectiveDeviceListsAndPermutes()
    {
        hlo::HloModuleProto m;
        m.set_name("m");
        auto *c = m.add_computations();
        c->set_name("main");
        auto *ar = c->add_instructions();
        ar->set_opcode("all-gather-start");
        auto *iota = ar->mutable_collective_device_list()->mutable_iota_replica_group_list();
        iota->set_num_replica_groups(2);
        iota->set_num_devices_per_group(16);
        c->add_instructions()->set_opcode("all-gather-done");
        auto *rs = c->add_instructions();
        rs->set_opcode("reduce-scatter");
        auto *g = rs->mutable_collective_device_list()->add_replica_groups();
        for (int i = 0; i < 4; ++i)
            g->add_replica_ids(i);
        HloSketch s;
        s.groupSize = 4;
        s.collectivePermute = true;
        const auto sk = parseHloModule(writeHloModule(s), nullptr);
        QVERIFY(sk);
        QCOMPARE(sk->collectives.size(), 1);
        QCOMPARE(sk->collectives[0].groups, QStringLiteral("{0→1,1→2,2→3,3→0}"));

        const auto h = parseHloModule(serialized(m), nullptr);
        QVERIFY(h);
        QCOMPARE(h->collectives.size(), 2);
        QCOMPARE(h->collectives[0].opcode, QStringLiteral("all-gather"));  // "-start" folded, "-done" not counted
        QCOMPARE(h->collectives[0].groups, QStringLiteral("[2,16]<=[32]"));
        QCOMPARE(h->collectives[0].count, 1);
        QCOMPARE(h->collectives[1].groups, QStringLiteral("{{0,1,2,3}}"));
        QCOMPARE(h->largestGroup(), 16);
        QCOMPARE(h->instructionCount, 3);
        QVERIFY(h->parameters.isEmpty());  // no program shape: nothing made up
    }

    void hostileBytesGiveWords()
    {
        QString error;
        QVERIFY(!parseHloModule(QByteArray(), &error));
        QVERIFY(error.contains(QStringLiteral("no computations")));
        const QByteArray good = writeHloModule(llama(2048, 8));
        for (int cut : {1, 5, int(good.size() / 2), int(good.size() - 1)}) {
            error.clear();
            QVERIFY2(!parseHloModule(good.left(cut), &error), qPrintable(QString::number(cut)));
            QVERIFY(!error.isEmpty());
        }
        error.clear();
        QVERIFY(!parseHloModule(QByteArray("{\"not\": \"a proto\"}"), &error));
        QVERIFY(!error.isEmpty());
        // A field claiming 2 GiB: refused from its length, nothing allocated for it.
        QVERIFY(!parseHloModule(QByteArray::fromHex("1a ffffffff07 00"), &error));

        // Tuples nested far deeper than any real shape: refused at the depth limit.
        hlo::ShapeProto deep;
        hlo::ShapeProto *at = &deep;
        for (int i = 0; i < 200; ++i) {
            at->set_element_type(13);
            at = at->add_tuple_shapes();
        }
        hlo::HloModuleProto m;
        auto *c = m.add_computations();
        *c->add_instructions()->mutable_shape() = deep;
        error.clear();
        QVERIFY(!parseHloModule(serialized(m), &error));
        QVERIFY2(error.contains(QStringLiteral("deeper")), qPrintable(error));

        // A gzip bomb: 64 MiB of one name field compresses to ~64 KiB; over a 16 MiB limit it stops there.
        hlo::HloModuleProto big;
        big.set_name(std::string(64 << 20, 'a'));
        big.add_computations()->set_name("main");
        std::string raw;
        big.SerializeToString(&raw);
        const QByteArray gz = gzipped(QByteArray(raw.data(), qsizetype(raw.size())));
        QVERIFY(gz.size() > 0 && gz.size() < 1 << 20);
        HloLimits small;
        small.maxBytes = 16 << 20;
        error.clear();
        QVERIFY(!parseHloModule(gz, &error, small));
        QVERIFY2(error.contains(QStringLiteral("limit")), qPrintable(error));
        // Under the default limit the same file is read, its name cut to a bounded length.
        const auto ok = parseHloModule(gz, &error);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(ok->moduleName.size(), 4096);
        // A damaged gzip stream.
        QByteArray broken = gz;
        broken[broken.size() / 2] = char(broken[broken.size() / 2] ^ 0x5a);
        QVERIFY(!parseHloModule(broken, &error));
    }

    // A few KB of gzip that decode to millions of empty shapes, groups or pairs, or tens of millions of packed
    // dimensions or replica ids: what protobuf would make an object each of (issue 35: 16 KB took 2.2 GB). Each is
    // read in a child limited to 256 MiB more address space: it ends normally with the limit in words, its memory
    // grows by a few MiB, and the 16 KB one is a fuzzing seed (tests/fuzz/seeds/fuzz_hlo/tuple-bomb.pb.gz).
    void craftedModulesStayWithinMemory_data()
    {
        QTest::addColumn<QByteArray>("raw");
        const qint64 many = 8 << 20, packed = 48 << 20;
        QTest::newRow("instruction tuple of empty shapes")
            << moduleWith(lengthDelimited(2, "tuple") + lengthDelimited(3, varintField(2, 13) + emptyMessages(4, many)));
        QTest::newRow("entry parameters of empty shapes")
            << moduleWith(lengthDelimited(2, "parameter"), emptyMessages(1, many));
        QTest::newRow("empty replica groups") << moduleWith(lengthDelimited(2, "all-reduce") + emptyMessages(49, many));
        QTest::newRow("empty device-list groups")
            << moduleWith(lengthDelimited(2, "all-gather") + lengthDelimited(87, emptyMessages(1, many)));
        QTest::newRow("empty source-target pairs")
            << moduleWith(lengthDelimited(2, "collective-permute") + emptyMessages(52, many));
        QTest::newRow("packed dimensions")
            << moduleWith(lengthDelimited(2, "broadcast") + lengthDelimited(3, varintField(2, 11) + packedZeros(3, packed)));
        QTest::newRow("packed replica ids")
            << moduleWith(lengthDelimited(2, "all-reduce") + lengthDelimited(49, packedZeros(1, packed)));
    }
    void craftedModulesStayWithinMemory()
    {
        QFETCH(QByteArray, raw);
        const QByteArray gz = gzipped(raw);
        raw = QByteArray();
        QVERIFY2(gz.size() > 0 && gz.size() < 64 * 1024, qPrintable(QString::number(gz.size())));
        const test::LimitedRun r = test::runWithMemoryLimit(
            [&gz] {
                QString error;
                return parseHloModule(gz, &error) ? QByteArray("read") : error.toUtf8();
            },
            256);
        QVERIFY2(r.exited, qPrintable(r.status));
        qInfo("%lld bytes of gzip; the reader's memory grew by %lld KiB", qint64(gz.size()), r.growthKb);
        QVERIFY2(r.output.contains("too complex to read") && r.output.contains("1048576"), r.output.constData());
        QVERIFY2(r.growthKb >= 0 && r.growthKb < test::memoryBoundKb(32 * 1024),
                 qPrintable(QStringLiteral("grew by %1 KiB").arg(r.growthKb)));
    }

    // What a real module may hold past what is shown is read and cut, not refused; past a limit, words with it.
    void limitsCutOrRefuse()
    {
        hlo::HloModuleProto m;
        m.set_entry_computation_name("main");
        auto *c = m.add_computations();
        c->set_name("main");
        auto *ps = c->mutable_program_shape();
        for (int i = 0; i < 5000; ++i) {
            auto *p = ps->add_parameters();
            p->set_element_type(16);
            p->add_dimensions(i);
            ps->add_parameter_names("p" + std::to_string(i));
        }
        ps->mutable_result()->set_element_type(13);
        for (int i = 0; i < 100; ++i)
            ps->mutable_result()->add_tuple_shapes()->set_element_type(11);
        auto *wide = c->add_instructions()->mutable_shape();  // 3000 dimensions: counted, not kept
        wide->set_element_type(11);
        for (int i = 0; i < 3000; ++i)
            wide->add_dimensions(1);
        for (int i = 0; i < 199; ++i)
            c->add_instructions()->set_opcode("add");
        QString error;
        const auto h = parseHloModule(serialized(m), &error);
        QVERIFY2(h, qPrintable(error));
        QCOMPARE(h->parameters.size(), 4096);
        QCOMPARE(h->parameters[4095], QStringLiteral("bf16[4095]"));
        QCOMPARE(h->parameterNames.size(), 4096);
        QCOMPARE(h->result, QStringLiteral("(") + QStringList(64, QStringLiteral("f32[]")).join(QStringLiteral(", ")) +
                                QStringLiteral(", … 36 more)"));
        QCOMPARE(h->instructionCount, 200);

        HloLimits l;
        l.maxShapeText = 20;
        const auto cut = parseHloModule(serialized(m), &error, l);
        QVERIFY(cut);
        QCOMPARE(cut->result, QStringLiteral("(f32[], f32[], f32[]…"));
        l = HloLimits();
        l.maxInstructions = 199;
        error.clear();
        QVERIFY(!parseHloModule(serialized(m), &error, l));
        QVERIFY2(error.contains(QStringLiteral("too large to read")) && error.contains(QStringLiteral("199")), qPrintable(error));
        hlo::HloModuleProto many;  // empty computations: nothing kept, counted all the same
        for (int i = 0; i < 300; ++i)
            many.add_computations();
        error.clear();
        QVERIFY(!parseHloModule(serialized(many), &error, l));
        QVERIFY2(error.contains(QStringLiteral("more than 199 computations")), qPrintable(error));
        QCOMPARE(parseHloModule(serialized(many), &error)->computationCount, 300);
        l = HloLimits();
        l.maxObjects = 2999;  // the instruction's shape holds 3001
        error.clear();
        QVERIFY(!parseHloModule(serialized(m), &error, l));
        QVERIFY2(error.contains(QStringLiteral("too complex to read")) && error.contains(QStringLiteral("2999")), qPrintable(error));
    }

    void namesAreBytes()
    {
        // A name or opcode that is not UTF-8 (XLA's proto says string; a hostile file says anything) is read, not refused.
        hlo::HloModuleProto m;
        m.set_name("graph\xff\xfe\x1b[2J");
        auto *c = m.add_computations();
        c->add_instructions()->set_opcode("\xc3\x28op");
        c->mutable_program_shape()->add_parameter_names("\x80");
        c->mutable_program_shape()->add_parameters()->set_element_type(11);
        const auto h = parseHloModule(serialized(m), nullptr);
        QVERIFY(h);
        QVERIFY(h->moduleName.startsWith(QStringLiteral("graph")));
        QCOMPARE(h->opcodes.size(), 1);
        QCOMPARE(h->parameters, QStringList{QStringLiteral("f32[]")});
        QCOMPARE(h->parameterNames.size(), 1);
    }

    void opcodeAndCollectiveKindsAreBounded()
    {
        hlo::HloModuleProto m;
        auto *c = m.add_computations();
        for (int i = 0; i < 2000; ++i)
            c->add_instructions()->set_opcode("op" + std::to_string(i));
        for (int i = 0; i < 200; ++i) {
            auto *ar = c->add_instructions();
            ar->set_opcode("all-reduce");
            ar->add_replica_groups()->add_replica_ids(i);
        }
        HloLimits l;
        l.maxOpcodeKinds = 100;
        l.maxCollectiveKinds = 10;
        const auto h = parseHloModule(serialized(m), nullptr, l);
        QVERIFY(h);
        QCOMPARE(h->instructionCount, 2200);
        QVERIFY(h->opcodes.size() <= 101);
        QCOMPARE(h->opcodes.first().first, QStringLiteral("(other)"));
        QCOMPARE(h->collectives.size(), 10);
        QCOMPARE(h->otherCollectives, 190);
    }

    void typesAndFlags()
    {
        QCOMPARE(primitiveTypeName(16), QStringLiteral("bf16"));
        QCOMPARE(primitiveTypeName(5), QStringLiteral("s64"));
        QCOMPARE(primitiveTypeName(99), QStringLiteral("type99"));
        QCOMPARE(hloFileOf({QStringLiteral("model.neff"), QStringLiteral("model.hlo.pb")}), QStringLiteral("model.hlo.pb"));
        QCOMPARE(hloFileOf({QStringLiteral("model.hlo_module.pb.gz")}), QStringLiteral("model.hlo_module.pb.gz"));
        QVERIFY(hloFileOf({QStringLiteral("model.neff")}).isEmpty());
        QCOMPARE(*parseCompileFlags("[\"--model-type=transformer\", \"-O1\"]", true),
                 (QStringList{QStringLiteral("--model-type=transformer"), QStringLiteral("-O1")}));
        QCOMPARE(*parseCompileFlags("--a  --b\n", false), (QStringList{QStringLiteral("--a"), QStringLiteral("--b")}));
        QString error;
        QVERIFY(!parseCompileFlags("{\"a\": 1}", true, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!parseCompileFlags("[1, 2]", true, &error));
    }
};

QTEST_GUILESS_MAIN(TestHlo)
#include "tst_hlo.moc"
