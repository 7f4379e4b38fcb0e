// Transfer queue benchmark (issue 26: the transfer queue with 10,000 small entries; reported, no goal yet).
//   bench_transfers [ENTRIES=10000]
// The test Hub serves a repo of ENTRIES cache entries of two small files each; the real transfer engine pulls all of
// them in ONE transfer into an empty local cache, through the app's TransferQueue, shown in the Transfers page
// (offscreen). A 5 ms timer on the UI thread measures the event loop. Prints: the time to queue it, to pull it, the
// worst event-loop stall and its 99th percentile, the transfer's state file, and the peak resident memory. Figures
// are printed, never asserted.
#include "services/transfer/transferengine.h"
#include "services/transfer/transferqueue.h"
#include "tests/support/testhub.h"
#include "ui/transfers/transferspage.h"
#include "tests/benchmarks/stallmeter.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>

using namespace ingot;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int entries = argc > 1 ? std::max(1, atoi(argv[1])) : 10000;
    QTemporaryDir tmp;
    test::TestHub hub;
    QString error;
    if (!hub.start(&error, 1000)) {
        std::fprintf(stderr, "test Hub: %s\n", qPrintable(error));
        return 1;
    }
    QMap<QString, QByteArray> files;
    QStringList keys;
    for (int i = 0; i < entries; ++i) {
        const QString key = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_%1+d41d8cd9").arg(100000 + i);
        keys << key;
        files.insert(key + QStringLiteral("/compile_flags.json"), QByteArray("[\"--model-type=transformer\"]"));
        files.insert(key + QStringLiteral("/model.neff"), QByteArray(512, char('a' + i % 26)));
    }
    hub.makeRepo(QStringLiteral("bench/many"), false, files);
    qputenv("HF_ENDPOINT", hub.url().toUtf8());
    qputenv("HF_TOKEN", "hf_alice_write");

    QDir().mkpath(tmp.filePath(QStringLiteral("cache")));
    TransferQueue queue(tmp.filePath(QStringLiteral("transfers")), makeTransferEngine(nullptr));
    TransfersPage page(&queue);
    page.resize(1200, 800);
    page.show();

    QVector<qint64> gaps;
    StallMeter tick([&](qint64, qint64 gap) {
        if (gap)
            gaps << gap;
    });
    QElapsedTimer t;
    t.start();
    const QString id = queue.enqueue(TransferKind::Pull, TransferPlace::ofHub(QStringLiteral("bench/many")),
                                     TransferPlace::ofCache(StoreLocation::local(tmp.filePath(QStringLiteral("cache")))),
                                     keys, {}, &error);
    const qint64 queueMs = t.elapsed();
    if (id.isEmpty()) {
        std::fprintf(stderr, "enqueue: %s\n", qPrintable(error));
        return 1;
    }
    tick.start();
    QTimer poll;
    poll.setInterval(100);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (!queue.isRunning(id) && queue.record(id) && queue.record(id)->finished() && !queue.savesPending())
            app.quit();
    });
    poll.start();
    app.exec();
    const qint64 pullMs = t.elapsed();
    const double worst = StallMeter::worstMs(gaps), p99 = StallMeter::percentileMs(gaps, 0.99);
    int done = 0;
    for (const TransferItem &it : queue.record(id)->items)
        done += it.state == TransferItem::State::Done ? 1 : 0;
    for (const TransferItem &it : queue.record(id)->items)
        if (it.state == TransferItem::State::Failed) {
            std::fprintf(stderr, "an item failed: %s\n", qPrintable(it.message));
            break;
        }
    if (!queue.record(id)->error.isEmpty())
        std::fprintf(stderr, "the transfer failed: %s\n", qPrintable(queue.record(id)->error));
    for (const QString &n : queue.notes(id))
        std::fprintf(stderr, "note: %s\n", qPrintable(n));
    qint64 stateBytes = 0;
    for (const QFileInfo &fi : QDir(tmp.filePath(QStringLiteral("transfers"))).entryInfoList(QDir::Files))
        stateBytes += fi.size();
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("one pull of %d entries (%d files of 28-512 bytes) from the test Hub, Transfers page shown\n", entries, entries * 2);
    std::printf("queued in %lld ms; pulled %d entries in %lld ms (%.1f ms an entry)\n", (long long)queueMs, done,
                (long long)pullMs, double(pullMs) / entries);
    std::printf("worst event-loop stall %.1f ms, 99th percentile %.1f ms\n", worst, p99);
    std::printf("state file %.1f KB\n", double(stateBytes) / 1024);
    std::printf("peak_rss_mb %.1f\n", double(ru.ru_maxrss) / 1024.0);
    return 0;
}
