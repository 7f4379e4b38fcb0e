// Monitor benchmark (issue: training jobs): 32 ranks each writing 1,000 log lines per second for 60 s into a job
// folder laid out as torchrun writes it (rank 0's stdout carries INGOT_METRIC lines too), followed by Ingot's
// JobService and shown in the Jobs page's monitor (INGOT_BENCH_WITH_UI). A 5 ms timer on the UI thread measures
// the event loop: the worst stall (its gap minus 5 ms) against the 50 ms goal, the 99th percentile, the lines per
// second read, and the peak resident memory. Figures are printed, never asserted.
//   bench_jobmonitor [SECONDS=60] [RANKS=32] [LINES_PER_SECOND=1000] [metrics|logs: the tab shown (UI build)]
// HISTORY_POINTS=N: the job already holds N points (a 24-hour job at one a second: 86,400) when it is opened.
#include "services/jobs/jobservice.h"
#include "tests/benchmarks/stallmeter.h"

#ifdef INGOT_BENCH_WITH_UI
#include "ui/jobs/jobmonitor.h"
#include <QTabWidget>
#include <QApplication>
#else
#include <QCoreApplication>
#endif

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <atomic>
#include <cstdio>
#include <sys/resource.h>
#include <thread>

using namespace ingot;

namespace {

QByteArray procStat(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

}  // namespace

int main(int argc, char **argv)
{
#ifdef INGOT_BENCH_WITH_UI
    QApplication app(argc, argv);
#else
    QCoreApplication app(argc, argv);
#endif
    const QStringList args = app.arguments();
    const int seconds = args.value(1, QStringLiteral("60")).toInt();
    const int ranks = args.value(2, QStringLiteral("32")).toInt();
    const int rate = args.value(3, QStringLiteral("1000")).toInt();

    QTemporaryDir dir;
    const QString jobsRoot = dir.filePath(QStringLiteral("jobs"));
    JobRecordFile r;
    r.id = newJobId();
    r.createdMs = QDateTime::currentMSecsSinceEpoch();
    r.spec.nprocPerNode = ranks;
    r.spec.maxSteps = seconds * 10;
    r.outputDir = jobsRoot + QLatin1Char('/') + r.id + QStringLiteral("/output");
    const JobPaths paths{jobsRoot + QLatin1Char('/') + r.id};
    QDir().mkpath(paths.logsDir());
    {
        QFile f(paths.jobJson());
        f.open(QIODevice::WriteOnly);
        f.write(r.toJson());
    }
    // A live process stands in for the wrapper and torchrun, so the job reads as running.
    QProcess stand;
    stand.start(QStringLiteral("sleep"), {QString::number(seconds + 60)});
    stand.waitForStarted();
    {
        QFile boot(QStringLiteral("/proc/sys/kernel/random/boot_id"));
        boot.open(QIODevice::ReadOnly);
        QFile f(paths.pidFile());
        f.open(QIODevice::WriteOnly);
        const QByteArray stat = procStat(stand.processId());
        f.write(stat + '\n' + stat + '\n' + boot.readAll());
    }
    QVector<QString> files;
    for (int rank = 0; rank < ranks; ++rank) {
        const QString d = paths.logsDir() + QStringLiteral("/%1_x/attempt_0/%2").arg(r.id).arg(rank);
        QDir().mkpath(d);
        files << d + QStringLiteral("/stdout.log") << d + QStringLiteral("/stderr.log");
    }

    // HISTORY_POINTS=N: the job has already run N seconds at one metric point (and one log line) a second, as a
    // 24-hour job has (86,400) when the monitor is opened on it.
    const qint64 history = qEnvironmentVariableIntValue("HISTORY_POINTS");
    if (history > 0) {
        FILE *out = std::fopen(QFile::encodeName(files[0]).constData(), "ab");
        const double start = double(r.createdMs) / 1000 - double(history);
        for (qint64 step = 1; step <= history; ++step) {
            std::fprintf(out, "[rank 0] step %lld: 12.3 GB in use, all-reduce 4.56 ms\n", (long long)step);
            std::fprintf(out, "INGOT_METRIC {\"type\": \"metric\", \"step\": %lld, \"loss\": %.6f, \"learning_rate\": 0.001, "
                              "\"grad_norm\": 1.0, \"tokens_per_second\": 5000.0, \"step_time\": 1.0, \"time\": %.3f}\n",
                         (long long)step, 5.0 / (1.0 + 0.001 * double(step)), start + double(step));
        }
        std::fclose(out);
    }

    // The writer: every 10 ms, rate/100 lines per rank (alternating stdout/stderr); rank 0 logs a metric each tick.
    std::atomic_bool stop{false};
    std::atomic<qint64> written{0};
    std::thread writer([&] {
        QVector<FILE *> fs;
        for (const QString &f : files)
            fs << std::fopen(QFile::encodeName(f).constData(), "ab");
        QElapsedTimer t;
        t.start();
        qint64 tick = 0, step = history;
        const double t0 = double(r.createdMs) / 1000;
        while (!stop && t.elapsed() < seconds * 1000) {
            for (int rank = 0; rank < ranks; ++rank) {
                for (int i = 0; i < rate / 100; ++i) {
                    FILE *f = fs[2 * rank + (i % 2)];
                    std::fprintf(f, "[rank %d] step %lld: forward/backward of micro-batch %d done, 12.3 GB in use, "
                                    "all-reduce 4.56 ms\n", rank, (long long)tick, i);
                }
            }
            ++step;
            std::fprintf(fs[0], "INGOT_METRIC {\"type\": \"metric\", \"step\": %lld, \"loss\": %.6f, \"learning_rate\": 0.001, "
                                "\"grad_norm\": 1.0, \"tokens_per_second\": 5000.0, \"step_time\": 0.01, \"time\": %.3f}\n",
                         (long long)step, 5.0 / (1.0 + 0.01 * double(step)), t0 + double(t.elapsed()) / 1000);
            for (FILE *f : fs)
                std::fflush(f);
            written += qint64(ranks) * (rate / 100) + 1;
            ++tick;
            const qint64 next = tick * 10;
            if (next > t.elapsed())
                std::this_thread::sleep_for(std::chrono::milliseconds(next - t.elapsed()));
        }
        for (FILE *f : fs)
            std::fclose(f);
    });

    JobService service(makeLocalJobRunner(jobsRoot));
    service.setPollInterval(250);
    qint64 bytesSeen = 0, pointsSeen = 0;
    QObject::connect(&service, &JobService::logsAppended, [&](const QString &, const QVector<LogChunk> &chunks) {
        for (const LogChunk &c : chunks)
            bytesSeen += c.bytes.size();
    });
    QObject::connect(&service, &JobService::metricsAppended,
                     [&](const QString &, const QVector<MetricPoint> &p) { pointsSeen += p.size(); });
#ifdef INGOT_BENCH_WITH_UI
    JobMonitor monitor(&service);
    monitor.resize(1200, 800);
    monitor.show();
    monitor.setJob(r.id);
    const bool logsTab = args.value(4) == QLatin1String("logs");
    if (logsTab)
        monitor.tabs()->setCurrentIndex(1);  // rank 0's log on screen, following
#else
    service.watch(r.id);
#endif

    QVector<qint64> gaps;
    qint64 startup = 0;
    StallMeter tick([&](qint64 now, qint64 gap) {
        if (gap && now > 1000000)
            gaps << gap;
        else if (gap)
            startup = std::max(startup, gap);  // the first show and layout, not the stream
        if (now > qint64(seconds) * 1000000 + 2000000)
            app.quit();
    });
    tick.start();
    app.exec();
    stop = true;
    writer.join();
    stand.kill();
    stand.waitForFinished();

    const double worst = StallMeter::worstMs(gaps), p99 = StallMeter::percentileMs(gaps, 0.99);
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    const double lines = double(written.load());
    std::printf("ranks %d, %d lines/s each, %d s%s\n", ranks, rate, seconds,
#ifdef INGOT_BENCH_WITH_UI
                logsTab ? " (JobService + JobMonitor widget, Logs tab)" : " (JobService + JobMonitor widget, Metrics tab)"
#else
                " (JobService only)"
#endif
    );
    if (history > 0)
        std::printf("history: %lld metric points (one a second) written before the monitor opened\n", (long long)history);
    std::printf("lines written %.0f (%.0f/s), log bytes delivered %lld, metric points %lld\n", lines, lines / seconds,
                (long long)bytesSeen, (long long)pointsSeen);
    std::printf("worst event-loop stall %.1f ms (goal 50 ms: %.2fx the goal), 99th percentile %.1f ms\n", worst,
                worst / 50.0, p99);
    std::printf("(the first second, showing the widget: worst gap %.1f ms, not counted above)\n", double(startup) / 1000.0 - 5);
    std::printf("peak_rss_mb %.1f\n", double(ru.ru_maxrss) / 1024.0);
    return 0;
}
