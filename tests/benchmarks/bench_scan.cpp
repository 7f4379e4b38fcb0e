// bench_scan ROOT [--sync]: scans ROOT the way the GUI does (CacheSession off the UI thread, deltas applied to
// the tree model) and prints, one per line: total_ms, first_rows_ms, entries, files, peak_rss_kb.
// --sync: the plain CacheScanner on this thread with no model (what ingot-cli does).
// --rescan PERMILLE: after that first scan, changes PERMILLE of every 1000 module folders (a file added to each) and
// times the incremental rescan F5 and the watcher run (rescan_ms, modules_reused), the GUI path only.
#include "services/cache/cachescanner.h"
#include "services/cache/cachesession.h"
#include "services/stores/localcachestore.h"
#ifdef INGOT_BENCH_WITH_MODEL
#include "models/cache/cachetreemodel.h"
#endif

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include <cstdio>

static long peakRssKb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench_scan ROOT [--sync]\n");
        return 2;
    }
    const QString root = args.at(1);
    QElapsedTimer t;
    long files = 0;
    int entries = 0;
    qint64 firstRows = -1, total = -1;
    if (args.contains(QStringLiteral("--sync"))) {
        t.start();
        ingot::LocalCacheStore store(root);
        ingot::CacheScanner scanner(store);
        ingot::ScanStats st;
        const ingot::CacheSnapshot snap = scanner.scan(nullptr, [&](ingot::ScanDelta &&d) {
            if (firstRows < 0 && !d.upserts.isEmpty())
                firstRows = t.elapsed();
        }, nullptr, &st);
        total = t.elapsed();
        entries = int(snap.modules.size());
        for (const auto &m : snap.modules)
            files += m.fileCount();
    } else {
        ingot::CacheSession session;
        session.setWatching(false);
#ifdef INGOT_BENCH_WITH_MODEL
        ingot::CacheTreeModel model;
        QObject::connect(&session, &ingot::CacheSession::delta, &model, [&](const ingot::ScanDelta &d) {
            model.applyDelta(d);
            if (firstRows < 0 && model.rowCount() > 0)
                firstRows = t.elapsed();
        });
#else
        QObject::connect(&session, &ingot::CacheSession::delta, &app, [&](const ingot::ScanDelta &d) {
            if (firstRows < 0 && !d.upserts.isEmpty())
                firstRows = t.elapsed();
        });
#endif
        const int rescanAt = args.indexOf(QStringLiteral("--rescan"));
        const int permille = rescanAt > 0 ? args.value(rescanAt + 1).toInt() : -1;
        const int repeatAt = args.indexOf(QStringLiteral("--repeat"));
        int rescansLeft = repeatAt > 0 ? std::max(1, args.value(repeatAt + 1).toInt()) : 1;
        qint64 rescanMs = -1;
        int reused = -1;
        QObject::connect(&session, &ingot::CacheSession::scanFinished, &app, [&](const ingot::ScanStats &st) {
            if (total < 0) {
                total = t.elapsed();
                if (permille < 0) {
                    app.quit();
                    return;
                }
                // Change PERMILLE of every 1000 module folders (a new file: their mtime and ctime move), then rescan.
                const auto &modules = session.snapshot().modules;
                for (int i = 0; i < int(modules.size()); ++i)
                    if (i % 1000 < permille) {
                        // Created, or removed when an earlier run created it: either way the folder's mtime moves.
                        QFile f(root + QLatin1Char('/') + modules[i].key() + QStringLiteral("/bench-touch"));
                        if (!f.remove() && f.open(QIODevice::WriteOnly))
                            f.write("x");
                    }
                t.restart();
                session.rescan(false);
                return;
            }
            rescanMs = t.elapsed();
            reused = st.modulesReused;
            if (--rescansLeft > 0) {  // --repeat N: rescan again (for profiles); the last one is reported
                t.restart();
                session.rescan(false);
                return;
            }
            app.quit();
        });
        t.start();
        session.setRoot(root);
        app.exec();
        if (permille >= 0)
            std::printf("rescan_ms %lld\nmodules_reused %d\n", (long long)rescanMs, reused);
        entries = int(session.snapshot().modules.size());
        for (const auto &m : session.snapshot().modules)
            files += m.fileCount();
    }
    std::printf("total_ms %lld\nfirst_rows_ms %lld\nentries %d\nfiles %ld\npeak_rss_kb %ld\n", (long long)total,
                (long long)firstRows, entries, files, peakRssKb());
    return 0;
}
