// Runs side by side (issue 38): two real backend runs (torchrun on CPU) that differ in one compiler flag and in
// sequence length, their compile activity from the stand-in compiler wrapper (tests/support/compile_standin). The
// service (services/neuron/runcompare.h) marks both differences in the settings and matches their graphs with the
// explanation rule's verdicts; `ingot-cli job compare` prints the same, and its --json says it to machines.
#include "services/jobs/jobfolder.h"
#include "services/neuron/runcompare.h"
#include "tests/support/comparesupport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ingot;

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

const QString version = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");

QStringList differing(const QVector<ComparedSetting> &settings)
{
    QStringList keys;
    for (const ComparedSetting &s : settings)
        if (s.differs)
            keys << s.key;
    return keys;
}

const ComparedSetting *setting(const QVector<ComparedSetting> &settings, const QString &key)
{
    for (const ComparedSetting &s : settings)
        if (s.key == key)
            return &s;
    return nullptr;
}

}  // namespace

class TestRunCompare : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<JobRunner> m_runner;
    test::ComparedPair m_pair;

    QString jobsRoot() const { return m_dir.path() + QStringLiteral("/data/Ingot/ingot/jobs"); }

    Run cli(const QStringList &args) const
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.path() + QStringLiteral("/data"));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.path() + QStringLiteral("/config"));
        e.insert(QStringLiteral("HF_HUB_OFFLINE"), QStringLiteral("1"));
        e.remove(QStringLiteral("INGOT_LANGUAGE"));
        p.setProcessEnvironment(e);
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(QStringLiteral(INGOT_CLI_PATH), args);
        Run r;
        if (!p.waitForFinished(120000))
            p.kill(), p.waitForFinished(10000);
        r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("HF_HUB_OFFLINE", "1");  // the Hub cache repos Ingot knows are not asked over the network here
        QVERIFY(m_dir.isValid());
        m_runner = makeLocalJobRunner(jobsRoot());
        JobManager jobs(m_runner);
        QString error;
        QVERIFY2(test::runComparedPair(jobs, m_dir.path(), &m_pair, &error), qPrintable(error));
    }

    void settingsMarkTheFlagAndTheSequenceLength()
    {
        const RunComparison c = compareRuns({{m_runner, {}, m_pair.a, {}}, {m_runner, {}, m_pair.b, {}}});
        QCOMPARE(c.runs.size(), 2);
        for (const ComparedRun &r : c.runs) {
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QVERIFY2(r.graphsError.isEmpty(), qPrintable(r.graphsError));
            QCOMPARE(r.status.state, JobState::Finished);
            QCOMPARE(r.steps(), 3);
            QVERIFY(std::isfinite(r.lastLoss()) && r.minLoss() <= r.lastLoss());
            QVERIFY(!r.trainingArgs.isEmpty());  // the backend's training_args.json, read where the run wrote it
        }
        // Only what differs is marked: the flag and the sequence length (not the output folder, the port, the id).
        QCOMPARE(differing(c.settings), (QStringList{QStringLiteral("sequence_length"), QStringLiteral("env.NEURON_CC_FLAGS")}));
        QCOMPARE(setting(c.settings, QStringLiteral("sequence_length"))->values, (QStringList{QStringLiteral("32"), QStringLiteral("64")}));
        QCOMPARE(setting(c.settings, QStringLiteral("env.NEURON_CC_FLAGS"))->values,
                 (QStringList{QStringLiteral("--model-type=transformer -O1"), QStringLiteral("--model-type=transformer -O2")}));
        QCOMPARE(setting(c.settings, QStringLiteral("compiler"))->values, (QStringList{version, version}));
        QCOMPARE(setting(c.settings, QStringLiteral("engine"))->values.first(), QStringLiteral("xla"));
        QVERIFY(c.anyDifference());
    }

    void graphsAreMatchedWithTheRulesVerdicts()
    {
        const RunComparison c = compareRuns({{m_runner, {}, m_pair.a, {}}, {m_runner, {}, m_pair.b, {}}});
        QCOMPARE(c.graphs.size(), 2);  // the optimizer step and the training step, each in both runs
        QMap<QString, QString> verdictOfB;
        for (const GraphMatch &m : c.graphs) {
            QVERIFY(m.graph[0] >= 0 && m.graph[1] >= 0);
            const Explanation &b = c.runs[1].graphs.graphs[m.graph[1]].explanation;
            QCOMPARE(b.otherKey, c.runs[0].graphs.graphs[m.graph[0]].explanation.key.key());
            verdictOfB.insert(b.key.name.section(QLatin1Char('+'), 0, 0), verdictName(b.verdict));
        }
        const QMap<QString, QString> expected{{QStringLiteral("MODULE_1001"), QStringLiteral("other-flags")},
                                              {QStringLiteral("MODULE_2064"), QStringLiteral("new-graph")}};
        QCOMPARE(verdictOfB, expected);
        QCOMPARE(c.differences.size(), 1);
        const GraphDifference &d = c.differences.first();
        QCOMPARE(d.compiled, 2);
        QCOMPARE(d.otherFlags, 1);
        QCOMPARE(d.newGraphs, 1);
        QCOMPARE(d.flagChanges, QStringList{QStringLiteral("-O1 → -O2")});
        QCOMPARE(d.shapeChanges, QStringList{QStringLiteral("parameter 0 (input_ids): s64[2,32] → s64[2,64]")});
        // ("graph(s)" here: the English plural forms are in translations/ingot_en.ts, which this test does not load.)
        QVERIFY2(d.text.startsWith(QStringLiteral("B compiled 2 graph")) && d.text.contains(QStringLiteral("1 other flags (-O1 → -O2)"))
                     && d.text.contains(QStringLiteral("1 new (parameter 0 (input_ids): s64[2,32] → s64[2,64])")),
                 qPrintable(d.text));
    }

    // The matching alone (no I/O): three runs, a graph the same in all by key, one matched through the rule's
    // comparison (B's other-flags graph names A's; C's new graph names B's), one only C has, and a hit.
    void matchingAcrossThreeRuns()
    {
        auto graph = [](const QString &name, Verdict v, const QString &other = {}) {
            JobGraph g;
            g.explanation.key = *ModuleKey::parse(version + QStringLiteral("/") + name);
            g.explanation.verdict = v;
            g.explanation.otherKey = other.isEmpty() ? QString() : version + QStringLiteral("/") + other;
            return g;
        };
        QVector<ComparedRun> runs(3);
        for (int i = 0; i < 3; ++i)
            runs[i].id = runs[i].name = QStringLiteral("run%1").arg(i);
        runs[0].graphs.graphs = {graph(QStringLiteral("MODULE_1+a"), Verdict::NewGraph), graph(QStringLiteral("MODULE_2+a"), Verdict::NewGraph)};
        runs[1].graphs.graphs = {graph(QStringLiteral("MODULE_1+a"), Verdict::Hit),
                                 graph(QStringLiteral("MODULE_2+b"), Verdict::OtherFlags, QStringLiteral("MODULE_2+a"))};
        runs[2].graphs.graphs = {graph(QStringLiteral("MODULE_9+b"), Verdict::NewGraph, QStringLiteral("MODULE_2+b")),
                                 graph(QStringLiteral("MODULE_7+b"), Verdict::NewGraph), graph(QStringLiteral("MODULE_1+a"), Verdict::Hit)};
        const RunComparison c = compareReadRuns(runs);
        QCOMPARE(c.graphs.size(), 3);
        QCOMPARE(c.graphs[0].graph, (QVector<int>{0, 0, 2}));  // MODULE_1+a everywhere
        QCOMPARE(c.graphs[1].graph, (QVector<int>{1, 1, 0}));  // A's 2+a, B's 2+b (other flags), C's 9+b (nearest 2+b)
        QCOMPARE(c.graphs[2].graph, (QVector<int>{-1, -1, 1}));  // only C's
        QCOMPARE(c.differences.size(), 2);
        QCOMPARE(c.differences[0].hits, 1);
        QCOMPARE(c.differences[0].otherFlags, 1);
        QCOMPARE(c.differences[1].newGraphs, 1);
        QCOMPARE(c.differences[1].onlyHere, 1);
        QCOMPARE(c.differences[1].hits, 1);
        QVERIFY(c.differences[1].text.startsWith(QStringLiteral("C compiled 1 graph")));
    }

    // A run that is not in the history: said for that run, the others still read.
    void aMissingRunIsSaid()
    {
        const RunComparison c = compareRuns({{m_runner, {}, m_pair.a, {}}, {m_runner, {}, QStringLiteral("20200101-000000-dead"), {}}});
        QCOMPARE(c.runs.size(), 2);
        QVERIFY(c.runs[0].error.isEmpty());
        QVERIFY(!c.runs[1].error.isEmpty());
        QCOMPARE(setting(c.settings, QStringLiteral("sequence_length"))->values, (QStringList{QStringLiteral("32"), QString()}));
    }

    void cliJson()
    {
        const Run r = cli({QStringLiteral("job"), QStringLiteral("compare"), m_pair.a, m_pair.b, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("runs")).toArray().size(), 2);
        QCOMPARE(o.value(QLatin1String("runs")).toArray().at(1).toObject().value(QLatin1String("id")).toString(), m_pair.b);
        QCOMPARE(o.value(QLatin1String("runs")).toArray().at(0).toObject().value(QLatin1String("steps")).toInt(), 3);
        QStringList differs;
        for (const QJsonValue &s : o.value(QLatin1String("settings")).toArray())
            if (s.toObject().value(QLatin1String("differs")).toBool())
                differs << s.toObject().value(QLatin1String("key")).toString();
        QCOMPARE(differs, (QStringList{QStringLiteral("sequence_length"), QStringLiteral("env.NEURON_CC_FLAGS")}));
        QMap<QString, QString> verdicts;  // B's entry -> verdict
        for (const QJsonValue &g : o.value(QLatin1String("graphs")).toArray()) {
            const QJsonArray runs = g.toObject().value(QLatin1String("runs")).toArray();
            QCOMPARE(runs.size(), 2);
            verdicts.insert(runs.at(1).toObject().value(QLatin1String("entry")).toString().section(QLatin1Char('+'), 0, 1),
                            runs.at(1).toObject().value(QLatin1String("verdict")).toString());
        }
        QCOMPARE(verdicts, (QMap<QString, QString>{{version + QStringLiteral("/MODULE_1001"), QStringLiteral("other-flags")},
                                                   {version + QStringLiteral("/MODULE_2064"), QStringLiteral("new-graph")}}));
        const QJsonObject d = o.value(QLatin1String("differences")).toArray().at(0).toObject();
        QCOMPARE(d.value(QLatin1String("flag_changes")).toArray().at(0).toString(), QStringLiteral("-O1 → -O2"));
        QCOMPARE(d.value(QLatin1String("new_graph")).toInt(), 1);
    }

    void cliText()
    {
        Run r = cli({QStringLiteral("job"), QStringLiteral("compare"), m_pair.a, m_pair.b});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'));
        auto lineOf = [&](const QString &label) {
            for (const QString &l : lines)
                if (l.contains(label))
                    return l;
            return QString();
        };
        QVERIFY2(lineOf(QStringLiteral("Sequence length")).startsWith(QLatin1Char('*')), qPrintable(r.out));
        QVERIFY2(lineOf(QStringLiteral("NEURON_CC_FLAGS")).startsWith(QLatin1Char('*')), qPrintable(r.out));
        QVERIFY2(!lineOf(QStringLiteral("Tensor parallel")).startsWith(QLatin1Char('*')), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("compiled 2 graph")) && r.out.contains(QStringLiteral("-O1 → -O2")), qPrintable(r.out));
        // One id is not a comparison: a usage error.
        r = cli({QStringLiteral("job"), QStringLiteral("compare"), m_pair.a});
        QCOMPARE(r.code, 2);
        // An id not in the history: said, exit 1, the other run still printed.
        r = cli({QStringLiteral("job"), QStringLiteral("compare"), m_pair.a, QStringLiteral("20200101-000000-dead")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("20200101-000000-dead")), qPrintable(r.err));
        QVERIFY(r.out.contains(m_pair.a));
    }

    // A training_args.json that is not what the backend writes (another type, or larger than any it writes: 2 MiB)
    // is not read: the settings come from the job's own record, and what only that file said is "not recorded".
    // (Last: it spoils run A's file.)
    void hostileTrainingArgsAreNotRead()
    {
        JobManager jobs(m_runner);
        JobRecordFile record;
        QString error;
        QVERIFY2(jobs.load(m_pair.a, &record, &error), qPrintable(error));
        const QString file = record.outputDir + QStringLiteral("/training_args.json");
        QVERIFY(QFileInfo::exists(file));
        for (const QByteArray &bad : QList<QByteArray>{QByteArray("[\"block_size\", 4096]"), QByteArray("{\"block_size\": 4096, \"pad\": \"")
                                                                               + QByteArray(2 << 20, 'x') + QByteArray("\"}")}) {
            test::writeFile(file, bad);
            const ComparedRun r = readComparedRun(jobs, m_pair.a);
            QVERIFY(r.error.isEmpty());
            QVERIFY(r.trainingArgs.isEmpty());
            const RunComparison c = compareReadRuns({r});
            QCOMPARE(setting(c.settings, QStringLiteral("sequence_length"))->values, QStringList{QStringLiteral("32")});
            QCOMPARE(setting(c.settings, QStringLiteral("engine"))->values, QStringList{QString()});  // the spec said "auto"
        }
    }
};

QTEST_GUILESS_MAIN(TestRunCompare)
#include "tst_runcompare.moc"
