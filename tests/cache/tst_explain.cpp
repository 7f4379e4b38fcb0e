// "Why did it compile?" on real caches on disk: one fixture per verdict, each checked for its evidence.
#include "services/cache/cachescanner.h"
#include "services/cache/compilelog.h"
#include "services/cache/explain.h"
#include "services/stores/localcachestore.h"

#include "../support/testsupport.h"

#include <QtTest>

using namespace ingot;
using namespace ingot::test;

namespace {
const QString v15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString v16 = QStringLiteral("neuronxcc-2.16.372.0+4a9b2326");

// A SUCCESS entry with a real HLO and these flags.
void entry(const QString &root, const QString &version, const QString &name, const QStringList &flags,
           int seq = 2048, int tp = 8, const QStringList &extra = {QStringLiteral("model.neff"), QStringLiteral("model.done")})
{
    makeModule(root, version, name, extra);
    const QString dir = root + QLatin1Char('/') + version + QLatin1Char('/') + name;
    QString json = QStringLiteral("[");
    for (int i = 0; i < flags.size(); ++i)
        json += (i ? QStringLiteral(", \"") : QStringLiteral("\"")) + flags[i] + QLatin1Char('"');
    writeFile(dir + QStringLiteral("/compile_flags.json"), (json + QLatin1Char(']')).toUtf8());
    HloSketch h;
    h.name = QStringLiteral("SyncTensorsGraph.%1").arg(seq + tp);
    h.parameters = {QStringLiteral("s64[4,%1]").arg(seq), QStringLiteral("bf16[%1,4096]").arg(32000 / tp)};
    h.parameterNames = {QStringLiteral("input_ids"), QStringLiteral("embed.weight")};
    h.allReduces = 2;
    h.groupSize = tp;
    h.devices = 32;
    writeFile(dir + QStringLiteral("/model.hlo_module.pb"), writeHloModule(h));
}

struct Scanned {
    explicit Scanned(const QString &root) : store(root)
    {
        QString e;
        store.open(&e);
        CacheScanner scanner(store);
        snap = scanner.scan(nullptr);
        snap.reindex();
    }
    ExplainTarget target(bool compilerRunning = false)
    {
        ExplainTarget t;
        t.shown = store.displayRoot();
        t.rule = QStringLiteral("the default (/var/tmp/neuron-compile-cache)");
        t.snapshot = &snap;
        t.store = &store;
        t.compilerRunning = compilerRunning;
        return t;
    }
    LocalCacheStore store;
    CacheSnapshot snap;
};

ModuleKey key(const QString &k)
{
    auto parsed = ModuleKey::parse(k);
    if (!parsed)
        qFatal("bad key %s", qPrintable(k));
    return *parsed;
}

const QStringList baseFlags = {QStringLiteral("--model-type=transformer"), QStringLiteral("-O1")};
const QStringList otherFlags = {QStringLiteral("--model-type=transformer"), QStringLiteral("-O2"),
                                QStringLiteral("--enable-mixed-precision-accumulation")};
}  // namespace

class TestExplain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void keys()
    {
        const auto k = ModuleKey::parse(v15 + QStringLiteral("/MODULE_12486829708343293975+d41d8cd9/"));
        QVERIFY(k);
        QCOMPARE(k->hlo, QStringLiteral("12486829708343293975"));
        QCOMPARE(k->flags, QStringLiteral("d41d8cd9"));
        QCOMPARE(ModuleKey::parse(v15 + QStringLiteral("/MODULE_abc"))->flags, QString());
        for (const char *bad : {"MODULE_1+2", "neuronxcc-1/../MODULE_1", "neuronxcc-1/MODULE_", "x/MODULE_1+2",
                                "neuronxcc-1/MODULE_1+2/model.neff", "neuronxcc-1/.."})
            QVERIFY2(!ModuleKey::parse(QString::fromLatin1(bad)), bad);
        // In a compiler's log line: the neff path of the cache, not the work file beside it.
        const auto f = ModuleKey::find(QStringLiteral("/var/tmp/neuron-compile-cache/") + v15 +
                                       QStringLiteral("/MODULE_d3007680bbf6cce0a595+4497a662/model.neff"));
        QVERIFY(f);
        QCOMPARE(f->key(), v15 + QStringLiteral("/MODULE_d3007680bbf6cce0a595+4497a662"));
        QVERIFY(!ModuleKey::find(QStringLiteral("/tmp/work/model.MODULE_1+2.hlo_module.pb")));
        Verdict v;
        QVERIFY(parseVerdictName(QStringLiteral("other-compiler"), &v));
        QCOMPARE(v, Verdict::OtherCompiler);
        QCOMPARE(verdictName(Verdict::NewGraph), QStringLiteral("new-graph"));
    }

    void hitAndCompiledByTheJob()
    {
        QTemporaryDir d;
        entry(d.path(), v15, QStringLiteral("MODULE_111+aaaa1111"), baseFlags);
        Scanned s(d.path());
        Explanation e = explainModule(key(v15 + QStringLiteral("/MODULE_111+aaaa1111")), s.target(), {});
        QCOMPARE(e.verdict, Verdict::Hit);
        QVERIFY(e.flagsKnown);
        QCOMPARE(e.flags, baseFlags);
        QVERIFY(e.headline().contains(QStringLiteral("SUCCESS")));
        QVERIFY(e.evidence().join(QLatin1Char('\n')).contains(QStringLiteral("Chosen by: the default")));
        QVERIFY(e.fix().isEmpty());
        // The same entry, written by the job being explained: it had to be compiled, so it is a new graph here.
        ExplainOptions o;
        o.compiledByJob = true;
        e = explainModule(key(v15 + QStringLiteral("/MODULE_111+aaaa1111")), s.target(), {}, o);
        QCOMPARE(e.verdict, Verdict::NewGraph);
    }

    // The job's compile activity credits it only with what its log names: an entry that appeared in its cache while
    // it ran without the compiler being called for it (copied in from S3 meanwhile) is not the job's, and is not
    // said to be "written by this job's compile". The log line is the wrapper's (libneuronxla's neuron_cc_wrapper,
    // as in tests/ui/tst_jobmonitor).
    void compileActivityCreditsOnlyWhatTheLogNames()
    {
        QTemporaryDir d;
        const qint64 started = QDateTime::currentMSecsSinceEpoch() - 1000;
        entry(d.path(), v15, QStringLiteral("MODULE_555+aaaa1111"), baseFlags);  // compiled by the job
        entry(d.path(), v15, QStringLiteral("MODULE_666+aaaa1111"), baseFlags);  // copied in while it ran
        Scanned s(d.path());
        CompileLogScanner log;
        log.feed("2024-01-11 05:53:27.000498:  741535  INFO ||NEURON_CC_WRAPPER||: Call compiler with cmd: ['neuronx-cc', "
                 "'compile', '--framework=XLA', '/tmp/work/model.MODULE_555+aaaa1111.hlo_module.pb', '--output', "
                 "'/tmp/work/model.MODULE_555+aaaa1111.neff']\n");
        log.finish();
        const JobGraphs g = explainJobGraphs(log, s.target(), {}, started);
        QCOMPARE(g.graphs.size(), 1);
        QCOMPARE(g.graphs[0].explanation.key.key(), v15 + QStringLiteral("/MODULE_555+aaaa1111"));
        QVERIFY(g.graphs[0].explanation.writtenByJob);
    }

    void blockedByFailureOrLock()
    {
        QTemporaryDir d;
        makeModule(d.path(), v15, QStringLiteral("MODULE_222+aaaa1111"),
                   {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.log")});
        makeModule(d.path(), v15, QStringLiteral("MODULE_333+aaaa1111"),
                   {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.hlo_module.pb.lock")});
        Scanned s(d.path());
        Explanation e = explainModule(key(v15 + QStringLiteral("/MODULE_222+aaaa1111")), s.target(), {});
        QCOMPARE(e.verdict, Verdict::Blocked);
        QCOMPARE(e.state, ModuleState::Failed);
        QVERIFY(e.fix().contains(QStringLiteral("--retry_failed_compilation")));
        e = explainModule(key(v15 + QStringLiteral("/MODULE_333+aaaa1111")), s.target(false), {});
        QCOMPARE(e.verdict, Verdict::Blocked);
        QCOMPARE(e.state, ModuleState::Locked);
        QVERIFY(!e.lockMayBeLive);
        QVERIFY(e.headline().contains(QStringLiteral("stale lock")));
        e = explainModule(key(v15 + QStringLiteral("/MODULE_333+aaaa1111")), s.target(true), {});
        QVERIFY(e.lockMayBeLive);
        QVERIFY(e.headline().contains(QStringLiteral("may be under way")));
    }

    void otherCacheIsNamed()
    {
        QTemporaryDir d, other;
        entry(d.path(), v15, QStringLiteral("MODULE_9+aaaa1111"), baseFlags);
        entry(other.path(), v15, QStringLiteral("MODULE_444+aaaa1111"), baseFlags);
        Scanned s(d.path());
        int asked = 0;
        OtherCache broken{QStringLiteral("host-down:/cache"), [&](const ModuleKey &, QString *error) {
                              ++asked;
                              *error = QStringLiteral("connection refused");
                              return std::optional<ModuleState>();
                          }};
        OtherCache there{other.path(), [&](const ModuleKey &k, QString *) -> std::optional<ModuleState> {
                             ++asked;
                             if (QFileInfo::exists(other.path() + QLatin1Char('/') + k.key() + QStringLiteral("/model.neff")))
                                 return ModuleState::Success;
                             return std::nullopt;
                         }};
        const Explanation e = explainModule(key(v15 + QStringLiteral("/MODULE_444+aaaa1111")), s.target(), {broken, there});
        QCOMPARE(asked, 2);
        QCOMPARE(e.verdict, Verdict::OtherCache);
        QCOMPARE(e.otherCache, other.path());
        QVERIFY(!e.present);
        QVERIFY(e.evidence().join(QLatin1Char('\n')).contains(QStringLiteral("host-down:/cache could not be asked: connection refused")));
        QVERIFY(e.fix().contains(other.path()));
        // The flags of the missing key are known from the entry with the same flags hash.
        QVERIFY(e.flagsKnown);
        QCOMPARE(e.flags, baseFlags);
    }

    void otherFlagsShowTheDifference()
    {
        QTemporaryDir d;
        entry(d.path(), v15, QStringLiteral("MODULE_555+bbbb2222"), otherFlags);  // the graph, other flags
        entry(d.path(), v15, QStringLiteral("MODULE_777+aaaa1111"), baseFlags);   // another graph, these flags
        Scanned s(d.path());
        const Explanation e = explainModule(key(v15 + QStringLiteral("/MODULE_555+aaaa1111")), s.target(), {});
        QCOMPARE(e.verdict, Verdict::OtherFlags);
        QCOMPARE(e.otherKey, v15 + QStringLiteral("/MODULE_555+bbbb2222"));
        QVERIFY(e.flagsKnown);
        QCOMPARE(e.flagsAdded, QStringList{QStringLiteral("-O1")});
        QCOMPARE(e.flagsRemoved, (QStringList{QStringLiteral("-O2"), QStringLiteral("--enable-mixed-precision-accumulation")}));
        const QString ev = e.evidence().join(QLatin1Char('\n'));
        QVERIFY2(ev.contains(QStringLiteral("+ -O1")) && ev.contains(QStringLiteral("- -O2")), qPrintable(ev));

        // Flags hash seen nowhere: the difference cannot be told, and the explanation says so.
        const Explanation u = explainModule(key(v15 + QStringLiteral("/MODULE_555+cccc3333")), s.target(), {});
        QCOMPARE(u.verdict, Verdict::OtherFlags);
        QVERIFY(!u.flagsKnown);
        QVERIFY(u.evidence().join(QLatin1Char('\n')).contains(QStringLiteral("cccc3333")));
    }

    void otherCompilerNamesBothVersions()
    {
        QTemporaryDir d;
        entry(d.path(), v15, QStringLiteral("MODULE_666+aaaa1111"), baseFlags);
        Scanned s(d.path());
        const Explanation e = explainModule(key(v16 + QStringLiteral("/MODULE_666+aaaa1111")), s.target(), {});
        QCOMPARE(e.verdict, Verdict::OtherCompiler);
        QCOMPARE(e.otherKey, v15 + QStringLiteral("/MODULE_666+aaaa1111"));
        QVERIFY(e.headline().contains(v15) && e.headline().contains(v16));
    }

    void newGraphShowsTheNearestAndWhatChanged()
    {
        QTemporaryDir d;
        entry(d.path(), v15, QStringLiteral("MODULE_801+aaaa1111"), baseFlags, 2048, 8);
        entry(d.path(), v15, QStringLiteral("MODULE_802+aaaa1111"), baseFlags, 4096, 32);  // far
        entry(d.path(), v15, QStringLiteral("MODULE_803+aaaa1111"), baseFlags, 4096, 8);   // the job's, compiled now
        // Same sequence, other name: never chosen.
        Scanned s(d.path());
        ExplainOptions o;
        o.compiledByJob = true;
        const Explanation e = explainModule(key(v15 + QStringLiteral("/MODULE_803+aaaa1111")), s.target(), {}, o);
        QCOMPARE(e.verdict, Verdict::NewGraph);
        // Names differ by the number only (SyncTensorsGraph.N): the nearest by signature is the tp=8 one.
        QCOMPARE(e.otherKey, v15 + QStringLiteral("/MODULE_801+aaaa1111"));
        QCOMPARE(e.changes, QStringList{QStringLiteral("parameter 0 (input_ids): s64[4,2048] → s64[4,4096]")});
        // A key nowhere at all: nothing to compare, said so.
        const Explanation n = explainModule(key(v15 + QStringLiteral("/MODULE_999+eeee0000")), s.target(), {});
        QCOMPARE(n.verdict, Verdict::NewGraph);
        QVERIFY(n.otherKey.isEmpty());
        QVERIFY(!n.notes.isEmpty());
    }

    // A planted entry whose HLO is 16 KB of gzip holding a tuple of 8 Mi empty shapes (issue 35: 2.2 GB to read; the
    // fuzzing seed tests/fuzz/seeds/fuzz_hlo/tuple-bomb.pb.gz, built as tst_hlo builds it) is a candidate when another
    // entry is explained: it is refused, within 256 MiB, and the nearest graph is still found.
    void aCraftedCandidateIsRefusedWithinMemory()
    {
        QTemporaryDir d;
        entry(d.path(), v15, QStringLiteral("MODULE_801+aaaa1111"), baseFlags, 2048, 8);
        entry(d.path(), v15, QStringLiteral("MODULE_803+aaaa1111"), baseFlags, 4096, 8);
        entry(d.path(), v15, QStringLiteral("MODULE_804+aaaa1111"), baseFlags, 2048, 8);
        const QByteArray crafted = readFile(QStringLiteral(INGOT_SOURCE_DIR "/tests/fuzz/seeds/fuzz_hlo/tuple-bomb.pb.gz"));
        QVERIFY(crafted.size() > 1000 && crafted.size() < 32 * 1024);
        writeFile(d.path() + QLatin1Char('/') + v15 + QStringLiteral("/MODULE_804+aaaa1111/model.hlo_module.pb"), crafted);
        Scanned s(d.path());
        const CacheModule *planted = s.snap.find(v15 + QStringLiteral("/MODULE_804+aaaa1111"));
        QVERIFY(planted);
        const LimitedRun r = runWithMemoryLimit(
            [&] {
                ExplainOptions o;
                o.compiledByJob = true;
                const Explanation e = explainModule(key(v15 + QStringLiteral("/MODULE_803+aaaa1111")), s.target(), {}, o);
                QString why;
                const bool read = readEntryHlo(s.store, *planted, &why).has_value();
                return (e.otherKey + QLatin1Char('\n') + e.changes.join(QLatin1Char(';')) + QLatin1Char('\n') +
                        (read ? QStringLiteral("read") : why))
                    .toUtf8();
            },
            256);
        QVERIFY2(r.exited, qPrintable(r.status));
        const QList<QByteArray> lines = r.output.split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(QString::fromUtf8(lines[0]), v15 + QStringLiteral("/MODULE_801+aaaa1111"));
        QCOMPARE(QString::fromUtf8(lines[1]), QStringLiteral("parameter 0 (input_ids): s64[4,2048] → s64[4,4096]"));
        QVERIFY2(lines[2].startsWith("model.hlo_module.pb: too complex to read") && lines[2].contains("1048576"),
                 lines[2].constData());
        QVERIFY2(r.growthKb >= 0 && r.growthKb < memoryBoundKb(32 * 1024), qPrintable(QString::number(r.growthKb)));
    }
};

QTEST_GUILESS_MAIN(TestExplain)
#include "tst_explain.moc"
