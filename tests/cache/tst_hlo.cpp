// The HLO behind a cache entry: modules built with Ingot's .proto (hlo_subset.proto, XLA's field numbers) are read
// back whole, plain, gzip-compressed and padded; hostile bytes give words, never a crash or unbounded memory.
#include "services/cache/hlo.h"

#include "hlo_subset.pb.h"

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
        QByteArray gz(int(compressBound(uLong(raw.size()))) + 64, '\0');
        z_stream z{};
        deflateInit2(&z, 9, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY);
        z.next_in = reinterpret_cast<Bytef *>(raw.data());
        z.avail_in = uInt(raw.size());
        z.next_out = reinterpret_cast<Bytef *>(gz.data());
        z.avail_out = uInt(gz.size());
        QCOMPARE(deflate(&z, Z_FINISH), Z_STREAM_END);
        gz.resize(qsizetype(z.total_out));
        deflateEnd(&z);
        QVERIFY(gz.size() < 1 << 20);
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
