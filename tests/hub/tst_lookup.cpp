// Lookup across every registry layout, against the test Hub; filters, de-duplication, raw entries; what could not
// be read named at every level; bad ids; cancelling.
#include "services/hub/lookup.h"
#include "tests/support/testhub.h"

#include <QTest>

#include <thread>

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
    void cleanup() { QVERIFY(hub->clearFaults()); }

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

    // What a hostile repo may store: numbers no shape has, and JSON nested so deep that writing it out again
    // (registry.json items are) would exhaust the stack. Neither crashes nor passes for a shape.
    void hostileEntriesAreBounded()
    {
        for (const char *n : {"1e300", "-1e300", "4294967297", "18446744073709551615", "-3", "2147483648"}) {
            const LookupEntry e = parseRegistryEntry(QByteArray(R"({"neuron":{"batch_size":)") + n + R"(,"sequence_length":128}})", QString());
            QVERIFY2(!e.known, n);
            QCOMPARE(e.batchSize, -1);
        }
        QCOMPARE(parseRegistryEntry(R"({"neuron":{"batch_size":2147483647,"sequence_length":1.5e3}})", QString()).sequenceLength, 1500);
        const QByteArray deep = QByteArray(200000, '[') + QByteArray(200000, ']');
        const QVector<LookupEntry> items = parseRegistryJson("[{\"_model_id\":\"" + model.toUtf8() + "\",\"a\":" + deep + "}]",
                                                             QStringLiteral("registry.json"), model);
        QCOMPARE(items.size(), 1);
        QVERIFY(!items.first().known);  // shown raw, as an unknown shape
        QVERIFY(!parseRegistryEntry("{\"neuron\":" + deep + "}", QString()).known);
        // Ordinary nesting still reads.
        QVERIFY(parseRegistryEntry(R"({"x":[[[[[[[[1]]]]]]]],"neuron":{"batch_size":1,"sequence_length":2}})", QString()).known);
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
        for (int i = 0; i < a.entries.size(); ++i) {
            QCOMPARE(a.entries[i].path, b.entries[i].path);
            QCOMPARE(a.entries[i].raw, b.entries[i].raw);
        }
    }

    void missingModelRepoAndBadIds()
    {
        LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), QStringLiteral("nobody/nothing"), {});
        QVERIFY(r.error.ok());
        QCOMPARE(r.entries.size(), 0);
        r = lookupModel(client(), QStringLiteral("alice/missing"), model, {});
        QCOMPARE(r.error.kind, HubError::Kind::NotFound);
        QVERIFY(r.failed());
    }

    // A malformed id is the caller's mistake, said as such: never "not found" or "bad response", and nothing is sent.
    void badIdsAreInvalidArguments_data()
    {
        QTest::addColumn<QString>("repo");
        QTest::addColumn<QString>("modelId");
        QTest::addColumn<QString>("named");
        QTest::newRow("model id with ..") << QStringLiteral("alice/cache") << QStringLiteral("../etc") << QStringLiteral("\"../etc\" is not a model id");
        QTest::newRow("model id without org") << QStringLiteral("alice/cache") << QStringLiteral("llama") << QStringLiteral("\"llama\" is not a model id");
        QTest::newRow("repo id with a space") << QStringLiteral("alice/my cache") << model << QStringLiteral("\"alice/my cache\" is not a repo id");
        QTest::newRow("repo id without org") << QStringLiteral("cache") << model << QStringLiteral("\"cache\" is not a repo id");
    }
    void badIdsAreInvalidArguments()
    {
        QFETCH(QString, repo);
        QFETCH(QString, modelId);
        QFETCH(QString, named);
        hub->clearLog();
        const LookupResult r = lookupModel(client(), repo, modelId, {});
        QCOMPARE(r.error.kind, HubError::Kind::InvalidArgument);
        QVERIFY2(r.error.message.contains(named), qPrintable(r.error.message));
        QVERIFY(r.error.message.contains(QStringLiteral("org/name")));  // and what to write instead
        QCOMPARE(hub->requestLog().size(), size_t(0));
    }

    // A registry folder or file that keeps failing is named, with the entries that could be read: never a table
    // that passes for complete. Each level of the walk, in turn.
    void unreadablePartsAreNamed_data()
    {
        QTest::addColumn<QString>("fault");       // part of the failing request's path
        QTest::addColumn<QStringList>("named");   // the failures' paths
        QTest::addColumn<int>("entries");         // what could still be read
        const QString root = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/0_REGISTRY");
        QTest::newRow("a registry root") << QStringLiteral("tree/main/neuronxcc-2.15.128.0%2B56dc5a86/0_REGISTRY?")
                                         << QStringList{root} << 4;
        QTest::newRow("a version folder") << QStringLiteral("tree/main/0_REGISTRY/0.0.18?")
                                          << QStringList{QStringLiteral("0_REGISTRY/0.0.18")} << 8;
        QTest::newRow("a training/inference folder") << QStringLiteral("tree/main/0_REGISTRY/0.0.10/inference?")
                                                     << QStringList{QStringLiteral("0_REGISTRY/0.0.10/inference")} << 9;
        QTest::newRow("a model folder") << QStringLiteral("tree/main/0_REGISTRY/0.0.18/llama/meta-llama/Llama-2-7b-hf?")
                                        << QStringList{QStringLiteral("0_REGISTRY/0.0.18/llama/meta-llama/Llama-2-7b-hf")} << 8;
        QTest::newRow("an entry file") << QStringLiteral("resolve/main/registry.json")
                                       << QStringList{QStringLiteral("registry.json")} << 9;
    }
    void unreadablePartsAreNamed()
    {
        QFETCH(QString, fault);
        QFETCH(QStringList, named);
        QFETCH(int, entries);
        QVERIFY(hub->failPersistently(fault));
        const LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        QCOMPARE(r.error.kind, HubError::Kind::Incomplete);
        QVERIFY(!r.failed());
        QCOMPARE(r.entries.size(), entries);
        QStringList paths;
        for (const LookupFailure &f : r.failures) {
            paths << f.path;
            QCOMPARE(f.error.kind, HubError::Kind::Server);
            QCOMPARE(f.error.status, 503);
        }
        QCOMPARE(paths, named);
        for (const QString &p : named)
            QVERIFY2(r.error.message.contains(p), qPrintable(r.error.message));
        QVERIFY(r.error.message.contains(QStringLiteral("alice/cache")));
        QVERIFY(r.error.message.contains(QStringLiteral("Run the lookup again")));
        // The same lookup without the fault is complete again.
        QVERIFY(hub->clearFaults());
        const LookupResult again = lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        QVERIFY(again.error.ok());
        QCOMPARE(again.entries.size(), 10);
    }

    // A registry folder whose listing never ends is cut at the walk's own, tighter limits and named; the rest is read.
    void endlessRegistryFoldersAreCutShort()
    {
        QVERIFY(hub->fault({{"kind", "endlesspages"}, {"entries", 1000}, {"path", "tree/main/0_REGISTRY/0.0.18?"}, {"count", 1000000000}}));
        hub->clearLog();
        const LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        QCOMPARE(r.error.kind, HubError::Kind::Incomplete);
        QCOMPARE(r.entries.size(), 8);
        QCOMPARE(r.failures.size(), 1);
        QCOMPARE(r.failures.first().path, QStringLiteral("0_REGISTRY/0.0.18"));
        QCOMPARE(r.failures.first().error.kind, HubError::Kind::TooLarge);
        QVERIFY2(r.error.message.contains(QStringLiteral("kept sending pages")), qPrintable(r.error.message));
        int pages = 0;
        for (const auto &req : hub->requestLog())
            pages += QString::fromStdString(req["path"].get<std::string>()).contains(QStringLiteral("0_REGISTRY/0.0.18?")) ? 1 : 0;
        QCOMPARE(pages, LookupOptions().listing.maxEntries / 1000 + 1);
    }

    // paths-info asks about many folders at once: when it fails, the model-type folders it asked about are named.
    void unreadablePathsInfoNamesTheFoldersAskedAbout()
    {
        QVERIFY(hub->failPersistently(QStringLiteral("/paths-info/")));
        const LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        QCOMPARE(r.error.kind, HubError::Kind::Incomplete);
        QCOMPARE(r.entries.size(), 1);  // registry.json's, which needs no paths-info
        QStringList paths;
        for (const LookupFailure &f : r.failures)
            paths << f.path;
        paths.sort();
        const QString v15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/0_REGISTRY/");
        QCOMPARE(paths, (QStringList{QStringLiteral("0_REGISTRY/0.0.10/inference/llama"), QStringLiteral("0_REGISTRY/0.0.18/llama"),
                                     v15 + QStringLiteral("0.0.24/llama"), v15 + QStringLiteral("0.0.25/5f3b1c0ad6e2e9a1b7c4"),
                                     v15 + QStringLiteral("0.0.25/llama")}));
        for (const QString &p : std::as_const(paths))
            QVERIFY2(r.error.message.contains(p), qPrintable(r.error.message));
    }

    // The repo's root is the one thing without which nothing can be said: its failure fails the lookup.
    void unreadableRootFailsTheLookup()
    {
        QVERIFY(hub->failPersistently(QStringLiteral("/tree/main?")));
        const LookupResult r = lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        QVERIFY(r.failed());
        QCOMPARE(r.error.kind, HubError::Kind::Server);
        QCOMPARE(r.entries.size(), 0);
    }

    void cancelStopsTheLookup()
    {
        // Every request is slow; the flag is set once the walk has started.
        QVERIFY(hub->fault({{"kind", "latency"}, {"ms", 100}, {"count", 1000000000}}));
        hub->clearLog();
        std::atomic_bool cancel{false};
        LookupResult r;
        std::thread walk([&] { r = lookupModel(client(), QStringLiteral("alice/cache"), model, {}, {}, &cancel); });
        QTRY_VERIFY_WITH_TIMEOUT(hub->requestLog().size() >= 2, 10000);
        cancel = true;
        walk.join();
        QCOMPARE(r.error.kind, HubError::Kind::Cancelled);
        QVERIFY(r.failures.isEmpty());  // what a cancel interrupted is not "could not be read"
        QVERIFY(r.entries.isEmpty());
        const size_t sent = hub->requestLog().size();
        QVERIFY(hub->clearFaults());
        hub->clearLog();
        lookupModel(client(), QStringLiteral("alice/cache"), model, {});
        QVERIFY2(sent < hub->requestLog().size(), "a cancelled lookup sends fewer requests than a whole one");
    }
};

QTEST_GUILESS_MAIN(TestCacheLookup)
#include "tst_lookup.moc"
