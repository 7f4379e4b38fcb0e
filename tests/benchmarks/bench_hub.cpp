// bench_hub: Hub benchmarks against the test Hub (a stand-in for huggingface.co), each with its baseline in the
// same run:
//   1. lookup of a model with 300 registry entries, fetched in parallel vs one after another (target >= 5x);
//   2. listing a 100,000-file repo tree in pages of 1000: Ingot's client vs @huggingface/hub listFiles on the same
//      server (target: no slower).
// Prints the figures; never asserts them.
#include "services/hub/lookup.h"
#include "tests/support/testhub.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>

#include <cstdio>

using namespace ingot;

static double medianOf(QVector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int runs = qEnvironmentVariableIntValue("RUNS") > 0 ? qEnvironmentVariableIntValue("RUNS") : 3;
    const int files = qEnvironmentVariableIntValue("TREE_FILES") > 0 ? qEnvironmentVariableIntValue("TREE_FILES") : 100000;
    test::TestHub hub;
    QString error;
    if (!hub.start(&error, 1000)) {
        std::fprintf(stderr, "test Hub: %s\n", qPrintable(error));
        return 1;
    }
    const QString model = QStringLiteral("meta-llama/Llama-3.1-8B-Instruct");
    hub.makeRepo(QStringLiteral("bench/registry"), false, test::registryFixture(model, 300));
    HubClient client(hub.url(), QStringLiteral("hf_alice_write"));

    // 1. Lookup: parallel against sequential, same entries, same server.
    LookupOptions par, seq;
    seq.parallel = 1;
    lookupModel(client, QStringLiteral("bench/registry"), model, {}, par);  // warm the server's index
    QVector<double> tPar, tSeq;
    int entries = 0, fetched = 0;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        const LookupResult a = lookupModel(client, QStringLiteral("bench/registry"), model, {}, seq);
        tSeq << double(t.nsecsElapsed()) / 1e6;
        t.restart();
        const LookupResult b = lookupModel(client, QStringLiteral("bench/registry"), model, {}, par);
        tPar << double(t.nsecsElapsed()) / 1e6;
        entries = int(b.entries.size());
        fetched = b.fetched;
        if (a.entries.size() != b.entries.size())
            std::fprintf(stderr, "warning: sequential and parallel lookups disagree\n");
        if (!a.error.ok() || !b.error.ok())
            std::fprintf(stderr, "warning: a lookup did not complete: %s\n", qPrintable(a.error.ok() ? b.error.message : a.error.message));
    }
    std::printf("lookup (%d registry files, %d distinct entries), median of %d runs:\n", fetched, entries, runs);
    std::printf("  loopback, no added latency:\n");
    std::printf("    sequential fetch (baseline)   %8.0f ms\n", medianOf(tSeq));
    std::printf("    ingot, %2d in parallel         %8.0f ms   speed-up %.1fx (target >= 5x)\n", par.parallel,
                medianOf(tPar), medianOf(tSeq) / medianOf(tPar));
    // The same with a round trip like huggingface.co's from a trn host (the test Hub's latency fault, every request);
    // RTT_MS: a comma-separated list (default 50 and 200).
    const QStringList rtts = qEnvironmentVariable("RTT_MS", QStringLiteral("50,200")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &rtt : rtts) {
        const int rttMs = std::max(1, rtt.toInt());
        hub.fault({{"kind", "latency"}, {"ms", rttMs}, {"count", 1000000000}});
        tPar.clear();
        tSeq.clear();
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer t;
            t.start();
            lookupModel(client, QStringLiteral("bench/registry"), model, {}, seq);
            tSeq << double(t.nsecsElapsed()) / 1e6;
            t.restart();
            lookupModel(client, QStringLiteral("bench/registry"), model, {}, par);
            tPar << double(t.nsecsElapsed()) / 1e6;
        }
        hub.fault({{"kind", "none"}, {"count", 0}});
        std::printf("  with %d ms added to every request:\n", rttMs);
        std::printf("    sequential fetch (baseline)   %8.0f ms\n", medianOf(tSeq));
        std::printf("    ingot, %2d in parallel         %8.0f ms   speed-up %.1fx (target >= 5x)\n", par.parallel,
                    medianOf(tPar), medianOf(tSeq) / medianOf(tPar));
    }
    if (qEnvironmentVariableIntValue("LOOKUP_ONLY"))
        return 0;

    // 2. A 100,000-file tree.
    const QString base = hub.dataDir() + QStringLiteral("/models/bench/big-tree/files");
    hub.makeRepo(QStringLiteral("bench/big-tree"), false, {});
    for (int i = 0; i < files; ++i) {
        const QString dir = base + QStringLiteral("/neuronxcc-2.15.128.0+56dc5a86/MODULE_%1+d41d8cd9").arg(i / 4);
        if (i % 4 == 0)
            QDir().mkpath(dir);
        QFile f(dir + QStringLiteral("/file_%1.json").arg(i % 4));
        f.open(QIODevice::WriteOnly);
        f.write("[]");
    }
    HubError e;
    client.listTree(QStringLiteral("bench/big-tree"), QStringLiteral("main"), QString(), true, &e);  // warm: index built
    if (!e.ok()) {
        std::fprintf(stderr, "listing failed: %s\n", qPrintable(e.message));
        return 1;
    }
    QVector<double> tIngot, tJs;
    qint64 count = 0, jsCount = 0;
    const QString script = QStringLiteral(INGOT_SOURCE_DIR "/tests/hub/conformance/listfiles.mjs");
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        const QVector<TreeEntry> all = client.listTree(QStringLiteral("bench/big-tree"), QStringLiteral("main"), QString(), true, &e);
        tIngot << double(t.nsecsElapsed()) / 1e6;
        count = all.size();
        QProcess node;
        node.setWorkingDirectory(QStringLiteral(INGOT_SOURCE_DIR "/tests/hub/conformance"));
        node.start(QStringLiteral("node"), {script, hub.url(), QStringLiteral("hf_alice_write"), QStringLiteral("bench/big-tree")});
        node.waitForFinished(600000);
        const QList<QByteArray> out = node.readAllStandardOutput().trimmed().split(' ');
        if (node.exitCode() != 0 || out.size() != 2) {
            std::fprintf(stderr, "node listFiles failed: %s\n", node.readAllStandardError().constData());
            return 1;
        }
        jsCount = out[0].toLongLong();
        tJs << out[1].toDouble();
    }
    std::printf("tree listing (%lld entries, pages of 1000; @huggingface/hub saw %lld), median of %d runs:\n",
                (long long)count, (long long)jsCount, runs);
    std::printf("  @huggingface/hub listFiles (baseline)  %8.0f ms\n", medianOf(tJs));
    std::printf("  ingot HubClient::listTree              %8.0f ms   ratio %.2fx of the baseline's time (target <= 1.0x)\n",
                medianOf(tIngot), medianOf(tIngot) / medianOf(tJs));
    return 0;
}
