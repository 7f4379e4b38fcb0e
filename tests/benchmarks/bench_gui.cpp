// GUI benchmark (issue 26: the full tree shown): the Local cache page (offscreen, 1400x900) opens ROOT and shows it.
//   bench_gui ROOT
// A 10 ms timer on the UI thread notes when the first rows are in the view, how many modules the view has at 1 s
// and 2 s, and the worst event-loop stall; once the scan has finished, the page is laid out and painted (grab) and
// every module row counted through the view's model (the filter proxy): that moment is "the full tree shown".
// Prints: first_rows_ms, rows_at_1s, rows_at_2s, full_tree_ms, rows, worst_stall_ms, peak_rss_kb. The baseline
// (bench_scan's model path, the same scan and tree model without a view) is run beside it by run-gui.sh.
#include "ui/localcache/localcachepage.h"
#include "models/cache/cachefilterproxy.h"
#include "services/cache/cachesession.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <QTreeView>

#include <cstdio>
#include <sys/resource.h>

using namespace ingot;

namespace {
int moduleRows(const QAbstractItemModel *m)
{
    int n = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        const int children = m->rowCount(m->index(r, 0));
        n += children > 0 ? children : 1;
    }
    return n;
}
}  // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_gui ROOT\n");
        return 2;
    }
    LocalCachePage page;
    page.resize(1400, 900);
    page.show();
    QElapsedTimer t, gap;
    qint64 firstRows = -1, fullTree = -1, worst = 0;
    int at1 = -1, at2 = -1, rows = 0;
    bool finished = false;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(10);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        worst = std::max(worst, gap.restart() - 10);
        const qint64 now = t.elapsed();
        if (firstRows < 0 && page.proxy()->rowCount() > 0)
            firstRows = now;
        if (at1 < 0 && now >= 1000)
            at1 = moduleRows(page.proxy());
        if (at2 < 0 && now >= 2000)
            at2 = moduleRows(page.proxy());
        if (finished && fullTree < 0) {
            page.grab();  // laid out and painted
            rows = moduleRows(page.proxy());
            fullTree = t.elapsed();
            app.quit();
        }
    });
    QObject::connect(page.session(), &CacheSession::scanFinished, &app, [&] { finished = true; });
    t.start();
    gap.start();
    tick.start();
    page.openRoot(QString::fromLocal8Bit(argv[1]));
    app.exec();
    if (at1 < 0)  // all shown before then
        at1 = rows;
    if (at2 < 0)
        at2 = rows;
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("first_rows_ms %lld\nrows_at_1s %d\nrows_at_2s %d\nfull_tree_ms %lld\nrows %d\nworst_stall_ms %lld\npeak_rss_kb %ld\n",
                (long long)firstRows, at1, at2, (long long)fullTree, rows, (long long)worst, ru.ru_maxrss);
    return 0;
}
