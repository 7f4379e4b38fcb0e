// Lookup across every registry layout, against the test Hub; filters, de-duplication, raw entries, the table.
#include "services/hub/lookup.h"
#include "tests/support/testhub.h"

#include <QTest>

using namespace ingot;

class TestCacheLookup : public QObject
{
    Q_OBJECT

    test::TestHub *hub = nullptr;
    const QString model = QStringLiteral("meta-llama/Llama-2-7b-hf");

    HubClient client() const { return HubClient(hub->url(), QStringLiteral("hf_alice_write")); }

private Q_SLOTS:
    void initTestCase()
    {
        hub = new test::TestHub;
        QString error;
        QVERIFY2(hub->start(&error, 5), qPrintable(error));
        hub->makeRepo(QStringLiteral("alice/cache"), true, test::registryFixture(model, 6));
    }
    void cleanupTestCase() { delete hub; }

    void parseEveryShape()
    {
        LookupEntry e = parseRegistryEntry(R"({"neuron":{"batch_size":4,"sequence_length":4096,"tp_degree":8,"torch_dtype":"torch.bfloat16","target":"trn2","neuronxcc_version":"2.15"}})", QStringLiteral("a.json"));
        QVERIFY(e.known);
        QCOMPARE(e.batchSize, 4);
        QCOMPARE(e.tensorParallel, 8);
        QCOMPARE(e.dtype, QStringLiteral("bfloat16"));
        QCOMPARE(e.instanceType, QStringLiteral("trn2"));
        e = parseRegistryEntry(R"({"neuron":{"batch_size":"2","sequence_length":2048,"num_cores":24,"auto_cast_type":"fp16","compiler_version":"2.12"}})", QString());
        QVERIFY(e.known);
        QCOMPARE(e.batchSize, 2);
        QCOMPARE(e.tensorParallel, 24);
        QCOMPARE(e.dtype, QStringLiteral("float16"));
        e = parseRegistryEntry(R"({"neuron":{"static_batch_size":1,"static_sequence_length":128,"tensor_parallel_size":2}})", QString());
        QVERIFY(e.known);
        QCOMPARE(e.sequenceLength, 128);
        for (const char *bad : {"", "[]", "{\"neuron\": 3}", "{\"truncated\": ", "null", "{\"neuron\":{\"batch_size\":[1]}}"})
            QVERIFY(!parseRegistryEntry(QByteArray(bad), QString()).known);
    }

    void allLayoutsFound()
    {
        const LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        QVERIFY2(r.error.ok(), qPrintable(r.error.message));
        // 6 current (the duplicate folded in), 2 legacy, 1 traced, 1 from registry.json.
        QCOMPARE(r.entries.size(), 10);
        QCOMPARE(r.unknown.size(), 1);
        QStringList layouts;
        for (const auto &e : r.entries) {
            if (!layouts.contains(e.registryLayout))
                layouts << e.registryLayout;
            QVERIFY(e.modelId.isEmpty() || e.modelId == model);
            QVERIFY(e.batchSize != 64 && e.batchSize != 9);  // never the other model's
        }
        layouts.sort();
        QCOMPARE(layouts, (QStringList{QStringLiteral("0.1 (training/inference)"), QStringLiteral("0.2-0.4"),
                                       QStringLiteral("current"), QStringLiteral("registry.json")}));
        // Sorted by tensor parallel, then batch size.
        for (int i = 1; i < r.entries.size(); ++i)
            QVERIFY(std::tie(r.entries[i - 1].tensorParallel, r.entries[i - 1].batchSize) <=
                    std::tie(r.entries[i].tensorParallel, r.entries[i].batchSize));
    }

    void filters()
    {
        LookupFilters f;
        f.instanceType = QStringLiteral("trn1");
        f.batchSize = 4;
        LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), model, f);
        QCOMPARE(r.entries.size(), 1);
        QCOMPARE(r.entries[0].sequenceLength, 1024);
        f = LookupFilters();
        f.dtype = QStringLiteral("fp16");
        r = lookupModel(client(), QStringLiteral("alice/cache"), model, f);
        QCOMPARE(r.entries.size(), 2);  // the two legacy fp16 entries
        f = LookupFilters();
        f.tensorParallel = 24;
        f.sequenceLength = 2048;
        QCOMPARE(lookupModel(client(), QStringLiteral("alice/cache"), model, f).entries.size(), 2);
    }

    void sequentialEqualsParallel()
    {
        LookupOptions seq;
        seq.parallel = 1;
        const LookupResult a = lookupModel(client(), QStringLiteral("alice/cache"), model, {}, seq);
        const LookupResult b = lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        QCOMPARE(a.entries.size(), b.entries.size());
        QCOMPARE(a.fetched, b.fetched);
        QCOMPARE(formatLookupTable(model, a.entries), formatLookupTable(model, b.entries));
    }

    void tableLooksLikeOptimumCli()
    {
        const LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        const QStringList lines = formatLookupTable(model, r.entries).split(QLatin1Char('\n'));
        QCOMPARE(lines[0], QStringLiteral("Cached entries for meta-llama/Llama-2-7b-hf"));
        QVERIFY(lines[1].contains(QStringLiteral("batch size")) && lines[1].contains(QStringLiteral("instance type")));
        QCOMPARE(lines.size(), 2 + r.entries.size());
        QCOMPARE(formatLookupTable(QStringLiteral("x/y"), {}), QStringLiteral("No cached entries found for x/y."));
    }

    void missingModelRepoAndBadIds()
    {
        LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), QStringLiteral("nobody/nothing"), {});
        QVERIFY(r.error.ok());
        QCOMPARE(r.entries.size(), 0);
        r = lookupModel(client(), QStringLiteral("alice/missing"), model, {});
        QCOMPARE(r.error.kind, HubError::Kind::NotFound);
        r = lookupModel(client(), QStringLiteral("alice/cache"), QStringLiteral("../etc"), {});
        QVERIFY(!r.error.ok());
    }
};

QTEST_GUILESS_MAIN(TestCacheLookup)
#include "tst_lookup.moc"
