// The job monitor with real torchrun jobs on CPU: a tp=2 run to the end, a run the backend refuses, and Stop then
// Resume from the checkpoint the stop saved.
#include "services/jobs/jobservice.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/joblogview.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/metricchart.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QTest>
#include <QToolButton>

using namespace ingot;

namespace {

// The INGOT_METRIC lines with a loss in a rank's stdout, as the backend printed them: their steps.
QList<qint64> metricSteps(const QByteArray &stdoutLog)
{
    QList<qint64> steps;
    for (const QByteArray &line : stdoutLog.split('\n')) {
        const qsizetype at = line.indexOf("INGOT_METRIC ");
        if (at < 0)
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line.mid(at + 13)).object();
        if (o.contains(QLatin1String("loss")))
            steps << qint64(o.value(QLatin1String("step")).toDouble());
    }
    return steps;
}

}  // namespace

class TestJobMonitor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tensorParallelRunToTheEnd()
    {
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        QString error;
        const QString id = test::launchJob(jobs,
                                           {QStringLiteral("--config_name"), QStringLiteral("tiny"),
                                            QStringLiteral("--tensor_parallel_size"), QStringLiteral("2"),
                                            QStringLiteral("--max_steps"), QStringLiteral("8")},
                                           2, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        JobService service(runner);
        service.setPollInterval(100);
        JobMonitor monitor(&service);  // before the service's first poll: the view gets every log byte
        QTRY_VERIFY_WITH_TIMEOUT(service.find(id), 20000);
        monitor.resize(1200, 800);
        monitor.setJob(id);
        monitor.show();
        QVERIFY(monitor.launchAgainButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, JobState::Finished, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(!monitor.status().alive, 20000);
        QVERIFY(!monitor.stopButton()->isEnabled());
        QVERIFY(!monitor.reasonBanner()->isVisible());
        QCOMPARE(monitor.stateLabel()->text(), jobStateTitle(JobState::Finished));
        QCOMPARE(monitor.progressBar()->text(), QStringLiteral("step 8 of 8"));
        QVERIFY(monitor.factsLabel()->text().contains(QStringLiteral("1×2×1")));

        // One loss point per logged step, the very steps rank 0 printed.
        const QList<qint64> printed = metricSteps(test::rankStdout(jobs.paths(id), 0));
        QCOMPARE(printed.size(), 8);
        MetricChart *loss = monitor.chart(MetricKind::Loss);
        QTRY_COMPARE_WITH_TIMEOUT(loss->points().size(), printed.size(), 10000);
        for (int i = 0; i < printed.size(); ++i)
            QCOMPARE(loss->points()[i].step, printed[i]);
        loss->refresh();
        QVERIFY(!loss->isEmptyStateShown());
        QVERIFY(monitor.chart(MetricKind::LearningRate)->points().size() == printed.size());

        // Both ranks' logs and torchrun's, each on its own.
        JobLogView *logs = monitor.logView();
        // Rank 1 prints little or nothing (the backend reports from rank 0): it shows exactly its files' lines.
        auto lines = [](const QByteArray &b) { return int(b.count('\n')); };
        const int rank1 = lines(test::rankLog(jobs.paths(id), 1, QStringLiteral("stdout.log")))
            + lines(test::rankLog(jobs.paths(id), 1, QStringLiteral("stderr.log")));
        const int rank0 = lines(test::rankLog(jobs.paths(id), 0, QStringLiteral("stdout.log")))
            + lines(test::rankLog(jobs.paths(id), 0, QStringLiteral("stderr.log")));
        QVERIFY(rank0 > 0);
        QTRY_COMPARE_WITH_TIMEOUT(logs->lineCount(0), rank0, 10000);
        QCOMPARE(logs->lineCount(1), rank1);
        QVERIFY(logs->lineCount(-1) > 0);
        QVERIFY(logs->rankCombo()->findData(1) >= 0);
        QVERIFY(logs->rankCombo()->findData(-1) >= 0);
        logs->showRank(0);
        QVERIFY(logs->text()->toPlainText().contains(QStringLiteral("INGOT_METRIC")));
        logs->showRank(1);
        QCOMPARE(logs->text()->toPlainText().isEmpty() ? 0 : logs->text()->document()->blockCount(), logs->lineCount(1));
        logs->showRank(0);
        logs->searchEdit()->setText(QStringLiteral("INGOT_EVENT"));
        QVERIFY(logs->findNext());
        QVERIFY(logs->text()->textCursor().selectedText() == QStringLiteral("INGOT_EVENT"));

        monitor.tabs()->setCurrentIndex(0);
        test::deliverPostedEvents();
        loss->refresh();
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(monitor.grab().save(shots + QStringLiteral("/jobs-monitor.png")));

        QSignalSpy again(&monitor, &JobMonitor::launchAgainRequested);
        monitor.launchAgainButton()->click();
        QCOMPARE(again.size(), 1);
        const JobSpec spec = again.first().first().value<JobSpec>();
        QCOMPARE(spec.tensorParallel, 2);
        QCOMPARE(spec.nprocPerNode, 2);
        QCOMPARE(spec.maxSteps, 8);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.consolidateButton()->isEnabled(), 10000);
        QSignalSpy consolidate(&monitor, &JobMonitor::consolidateRequested);
        monitor.consolidateButton()->click();
        QCOMPARE(consolidate.size(), 1);
        QCOMPARE(consolidate.first().first().toString(), jobs.paths(id).defaultOutputDir());
    }

    void refusedRunShowsTheBackendsReason()
    {
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        QFile bad(tmp.path() + QStringLiteral("/latin1.txt"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("caf\xe9 cr\xe8me\n");
        bad.close();
        QString error;
        const QString id = test::launchJob(
            jobs, {QStringLiteral("--train_file"), bad.fileName(), QStringLiteral("--max_steps"), QStringLiteral("4")},
            1, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        JobService service(runner);
        service.setPollInterval(100);
        JobMonitor monitor(&service);  // before the service's first poll: the view gets every log byte
        QTRY_VERIFY_WITH_TIMEOUT(service.find(id), 20000);
        monitor.setJob(id);
        monitor.show();
        QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, JobState::Failed, 120000);
        QTRY_VERIFY(monitor.reasonBanner()->isVisible());
        QVERIFY2(monitor.reasonLabel()->text().contains(QStringLiteral("is not UTF-8 text")),
                 qPrintable(monitor.reasonLabel()->text()));
        QCOMPARE(monitor.stateLabel()->text(), jobStateTitle(JobState::Failed));
        QVERIFY(!monitor.resumeButton()->isEnabled());
        // The error line in rank 0's stderr is in the log, and counts as an error line.
        QTRY_VERIFY_WITH_TIMEOUT(monitor.logView()->lineCount(0) > 0, 10000);
        QVERIFY(monitor.logView()->text()->toPlainText().contains(QStringLiteral("ingot_train: error:")));
        QVERIFY(JobLogView::isErrorLine(QStringLiteral("ingot_train: error: x")));
    }

    void logViewIsSafeAndBounded()
    {
        JobLogView view;
        view.setJob(QStringLiteral("j"), QStringLiteral("/jobs/j"));
        view.setMaxLines(100);
        // Hostile bytes: an escape sequence, a bell, invalid UTF-8; tqdm's '\r' redraws one line.
        view.append(QStringLiteral("j"), {{0, false, QByteArray("a\x1b[31mred\x1b[0m\x07 \xff\tTab\n")},
                                          {0, true, QByteArray("10%|#   | 1/10\r20%|##  | 2/10\r")},
                                          {0, true, QByteArray("\n100%|####| 10/10\n")}});
        const QString text = view.text()->toPlainText();
        QCOMPARE(view.lineCount(0), 2);
        QVERIFY(!text.contains(QChar(0x1b)));
        QVERIFY(!text.contains(QChar(0x07)));
        QVERIFY2(text.startsWith(QStringLiteral("ared\\x07 \\xFF\tTab")) || text.startsWith(QStringLiteral("ared\\x07 \\xff\tTab")), qPrintable(text));
        QVERIFY(text.endsWith(QStringLiteral("100%|####| 10/10")));
        QByteArray many;
        for (int i = 0; i < 250; ++i)
            many += "line " + QByteArray::number(i) + '\n';
        view.append(QStringLiteral("j"), {{0, false, many}});
        QCOMPARE(view.lineCount(0), 100);
        QCOMPARE(view.text()->document()->blockCount(), 100);
        QCOMPARE(view.droppedLines(0), 152);
        QVERIFY(view.notice()->isVisibleTo(&view));
        QVERIFY(view.notice()->text().contains(QStringLiteral("/jobs/j/logs")));
        QVERIFY(view.text()->toPlainText().endsWith(QStringLiteral("line 249")));
        // Another job's bytes do not touch the view.
        view.append(QStringLiteral("other"), {{0, false, QByteArray("elsewhere\n")}});
        QVERIFY(!view.text()->toPlainText().contains(QStringLiteral("elsewhere")));
    }

    void compileActivityAndOverlays();
    void aMonitorOpenedLaterShowsTheEarlierLogs();
    void stopThenResumeFromTheCheckpoint()
    {
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        QString error;
        const QString id = test::launchJob(jobs,
                                           {QStringLiteral("--tensor_parallel_size"), QStringLiteral("2"),
                                            QStringLiteral("--max_steps"), QStringLiteral("400")},
                                           2, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        JobService service(runner);
        service.setPollInterval(100);
        JobMonitor monitor(&service);  // before the service's first poll: the view gets every log byte
        QTRY_VERIFY_WITH_TIMEOUT(service.find(id), 20000);
        monitor.setJob(id);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.status().step >= 3, 120000);
        QVERIFY(monitor.status().alive);
        QVERIFY(monitor.stopButton()->isEnabled());
        QVERIFY(!monitor.resumeButton()->isEnabled());
        monitor.stopButton()->click();
        QCOMPARE(monitor.stopButton()->text(), QStringLiteral("Stopping…"));
        QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, JobState::Stopped, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!monitor.latestCheckpoint().isEmpty(), 20000);
        const QString checkpoint = monitor.latestCheckpoint();
        QVERIFY(QFileInfo(checkpoint).isDir());
        const QString name = QFileInfo(checkpoint).fileName();
        QVERIFY(name.startsWith(QStringLiteral("checkpoint-")));
        const qint64 n = name.mid(11).toLongLong();
        QVERIFY(n >= 3);
        QVERIFY(!monitor.stopButton()->isEnabled());
        QTRY_VERIFY(monitor.resumeButton()->isEnabled());

        QSignalSpy resumed(&monitor, &JobMonitor::resumeRequested);
        monitor.resumeButton()->click();
        QCOMPARE(resumed.size(), 1);
        JobSpec spec = resumed.first().first().value<JobSpec>();
        QCOMPARE(spec.resumeFrom, checkpoint);
        QCOMPARE(spec.tensorParallel, 2);
        QCOMPARE(spec.nprocPerNode, 2);

        // Launched, it goes on at step N + 1.
        spec.maxSteps = int(n) + 2;
        const QString next = test::launchSpec(jobs, spec, &error);
        QVERIFY2(!next.isEmpty(), qPrintable(error));
        QCOMPARE(test::waitForEnd(jobs, next).state, JobState::Finished);
        const QList<qint64> steps = metricSteps(test::rankStdout(jobs.paths(next), 0));
        QVERIFY(!steps.isEmpty());
        QCOMPARE(steps.first(), n + 1);
        const QByteArray log = test::rankStdout(jobs.paths(next), 0);
        QVERIFY(log.contains(QByteArray(QByteArray("\"resumed_from\": ") + QByteArray::number(n)))
                || log.contains(QByteArray(QByteArray("\"resumed_from\":") + QByteArray::number(n))));
    }
};

void TestJobMonitor::compileActivityAndOverlays()
{
    // A job's compile cache: a user script writes entries into NEURON_COMPILE_CACHE_URL as the Neuron compiler
    // would (one that failed, one still locked) while it runs; the monitor lists them with their states, and a
    // double-click asks for the Local cache page. An entry older than the job is not listed.
    QTemporaryDir tmp;
    const QString cache = tmp.path() + QStringLiteral("/cache");
    const QString version = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
    test::makeModule(cache, version, QStringLiteral("MODULE_old+1"), {QStringLiteral("model.neff")}, 3);
    // Its ctime (which cannot be set back) more than the monitor's 2 s of slack before the job's start.
    const qint64 made = QFileInfo(cache + QLatin1Char('/') + version + QStringLiteral("/MODULE_old+1")).metadataChangeTime().toMSecsSinceEpoch();
    QVERIFY(made > 0);
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentMSecsSinceEpoch() > made + 2500, 10000);
    const QString script = tmp.path() + QStringLiteral("/compiles.py");
    test::writeFile(script, QStringLiteral(R"(import os, time
root = os.path.join(os.environ["NEURON_COMPILE_CACHE_URL"], "%1")
if int(os.environ.get("RANK", "0")) == 0:
    failed = os.path.join(root, "MODULE_failed+2")
    os.makedirs(failed)
    open(os.path.join(failed, "model.hlo_module.pb"), "w").write("hlo")
    open(os.path.join(failed, "model.log"), "w").write("ERROR: compilation failed")
    locked = os.path.join(root, "MODULE_locked+3")
    os.makedirs(locked)
    open(os.path.join(locked, "model.hlo_module.pb.lock"), "w").write("")
time.sleep(1)
)").arg(version).toUtf8());
    auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
    JobManager jobs(runner);
    JobSpec spec;
    spec.python = QStringLiteral("/usr/bin/python3");
    spec.program = JobProgram::Script;
    spec.script = script;
    spec.passSettings = false;
    spec.compileCacheUrl = cache;
    QString error;
    const QString id = test::launchSpec(jobs, spec, &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    // A finished backend run to compare with.
    const QString other = test::launchJob(jobs, {QStringLiteral("--max_steps"), QStringLiteral("12")}, 1, &error);
    QVERIFY2(!other.isEmpty(), qPrintable(error));
    QCOMPARE(test::waitForEnd(jobs, other).state, JobState::Finished);

    JobService service(runner);
    service.setPollInterval(100);
    JobMonitor monitor(&service);
    QTRY_VERIFY_WITH_TIMEOUT(service.find(id) && service.find(other), 20000);
    monitor.setJob(id);
    QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, JobState::Finished, 120000);
    monitor.rescanCompileCache();
    QTRY_COMPARE_WITH_TIMEOUT(monitor.compileList()->topLevelItemCount(), 2, 20000);
    QStringList rows;
    for (int i = 0; i < monitor.compileList()->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = monitor.compileList()->topLevelItem(i);
        rows << item->text(0) + QLatin1Char(' ') + item->text(1);
    }
    rows.sort();
    QVERIFY2(rows.at(0).startsWith(version + QStringLiteral("/MODULE_failed+2")), qPrintable(rows.join(QLatin1Char('|'))));
    QVERIFY2(rows.at(0).contains(QStringLiteral("FAILED"), Qt::CaseInsensitive), qPrintable(rows.at(0)));
    QVERIFY2(rows.at(1).contains(QStringLiteral("LOCKED"), Qt::CaseInsensitive), qPrintable(rows.at(1)));
    QSignalSpy show(&monitor, &JobMonitor::showCacheEntry);
    Q_EMIT monitor.compileList()->itemActivated(monitor.compileList()->topLevelItem(0), 0);
    QCOMPARE(show.size(), 1);
    QCOMPARE(show.first().at(0).toString(), cache);

    // Another run overlaid on this one's charts: its points, by its name.
    monitor.setJob(other);
    QTRY_COMPARE_WITH_TIMEOUT(monitor.chart(MetricKind::Loss)->points().size(), 12, 20000);
    monitor.setJob(id);
    monitor.setOverlay(other, true);
    QTRY_COMPARE_WITH_TIMEOUT(monitor.chart(MetricKind::Loss)->overlaySeries().size(), 1, 20000);
    QCOMPARE(monitor.overlays(), QStringList{other});
    monitor.setOverlay(other, false);
    QTRY_COMPARE_WITH_TIMEOUT(monitor.chart(MetricKind::Loss)->overlaySeries().size(), 0, 20000);
}

void TestJobMonitor::aMonitorOpenedLaterShowsTheEarlierLogs()
{
    // The service has read a whole job before any monitor existed: a new monitor shows its logs all the same.
    QTemporaryDir tmp;
    auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
    JobManager jobs(runner);
    QString error;
    const QString id = test::launchJob(jobs, {QStringLiteral("--max_steps"), QStringLiteral("4")}, 2, &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    JobService service(runner);
    service.setPollInterval(100);
    QTRY_VERIFY_WITH_TIMEOUT(service.find(id), 20000);
    service.watch(id);
    QTRY_COMPARE_WITH_TIMEOUT(service.status(id).state, JobState::Finished, 120000);
    const QByteArray out0 = test::rankLog(jobs.paths(id), 0, QStringLiteral("stdout.log"));
    const QByteArray err0 = test::rankLog(jobs.paths(id), 0, QStringLiteral("stderr.log"));
    const auto readOfRank0 = [&] {
        qint64 n = 0;
        for (const LogChunk &c : service.recentLogs(id))
            n += c.rank == 0 && !c.isStderr ? c.bytes.size() : 0;
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(readOfRank0(), qint64(out0.size()), 20000);  // the service has read it all
    JobMonitor monitor(&service);
    monitor.setJob(id);
    QVERIFY(out0.count('\n') > 0);
    QCOMPARE(monitor.logView()->lineCount(0), int(out0.count('\n') + err0.count('\n')));
}

QTEST_MAIN(TestJobMonitor)
#include "tst_jobmonitor.moc"
