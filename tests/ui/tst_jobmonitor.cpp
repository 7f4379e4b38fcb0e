// The job monitor with real torchrun jobs on CPU: a tp=2 run to the end, a run the backend refuses, and Stop then
// Resume from the checkpoint the stop saved; a stalled job's banner and its stacks per rank (issue 38).
#include "services/jobs/jobservice.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"
#include "ui/common/flagtext.h"
#include "ui/jobs/joblogview.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/joblauncher.h"
#include "services/util/appsettings.h"
#include "ui/jobs/metricchart.h"
#include "ui/jobs/neuroncoresview.h"
#include "ui/jobs/stallbanner.h"

#include <QApplication>
#include <QGroupBox>
#include <QInputDialog>
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
#include <QScopeGuard>
#include <QScrollBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
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

namespace {
void showTab(JobMonitor &monitor, const QString &title)
{
    for (int t = 0; t < monitor.tabs()->count(); ++t)
        if (monitor.tabs()->tabText(t) == title)
            monitor.tabs()->setCurrentIndex(t);
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
        QVERIFY(!logs->text()->toPlainText().contains(QStringLiteral("INGOT_METRIC")));  // read as short lines
        QVERIFY(logs->text()->toPlainText().contains(QStringLiteral("\u25B8 step ")));
        logs->showRank(1);
        QCOMPARE(logs->text()->toPlainText().isEmpty() ? 0 : logs->text()->document()->blockCount(), logs->lineCount(1));
        logs->showRank(0);
        logs->searchEdit()->setText(QStringLiteral("loss"));
        QVERIFY(logs->findNext());
        QVERIFY(logs->text()->textCursor().selectedText() == QStringLiteral("loss"));

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

    // Issue 38: a rank made to hang (the backend's test-only INGOT_TRAIN_TEST_HANG) after step 2, its threshold set to
    // 3 s in the monitor while it runs: the state says Stalled, the banner says since when and which ranks logged
    // last, Dump stacks shows a tab per rank naming where each waits; the hang ends and the banner says it is over.
    void aStalledJobShowsItsBannerAndStacks()
    {
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        const QString release = tmp.filePath(QStringLiteral("release"));
        JobSpec spec;
        spec.python = QStringLiteral("/usr/bin/python3");
        spec.nprocPerNode = 2;
        spec.maxSteps = 4;
        spec.env << qMakePair(QStringLiteral("INGOT_TRAIN_TEST_HANG"), QStringLiteral("1:2:") + release);
        QString error;
        const QString id = test::launchSpec(jobs, spec, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        auto cleanup = qScopeGuard([&] { QFile(release).open(QIODevice::WriteOnly); });
        JobService service(runner);
        service.setPollInterval(100);
        JobMonitor monitor(&service);
        QTRY_VERIFY_WITH_TIMEOUT(service.find(id), 20000);
        monitor.setJob(id);
        monitor.show();
        StallBanner *banner = monitor.stallBanner();
        QVERIFY(!banner->isVisible());
        // The default threshold (at least 5 minutes) set to 3 s in the monitor while the job runs.
        QTRY_VERIFY_WITH_TIMEOUT(banner->thresholdButton()->isVisible(), 60000);
        QSignalSpy set(banner, &StallBanner::thresholdSet);
        QInputDialog *dialog = banner->askThreshold();
        QVERIFY(dialog);
        QVERIFY(dialog->textValue().isEmpty());
        dialog->setTextValue(QStringLiteral("3s"));
        dialog->accept();
        QTRY_COMPARE(set.size(), 1);
        QCOMPARE(set.first().first().toString(), QString());
        JobRecordFile record;
        QVERIFY(jobs.load(id, &record, &error));
        QCOMPARE(record.spec.stallAfterSeconds, 3.0);  // stored with the job: job status and a later Ingot use it
        QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, JobState::Stalled, 120000);
        QCOMPARE(monitor.status().stall.thresholdSeconds, 3.0);
        QCOMPARE(monitor.stateLabel()->text(), jobStateTitle(JobState::Stalled));
        QTRY_VERIFY(banner->isVisible());
        QVERIFY2(banner->textLabel()->text().contains(QStringLiteral("at step 2")), qPrintable(banner->textLabel()->text()));
        QVERIFY2(banner->textLabel()->text().contains(QStringLiteral("rank ")), qPrintable(banner->textLabel()->text()));
        QVERIFY(!monitor.reasonBanner()->isVisible());
        QTRY_VERIFY(banner->dumpButton()->isEnabled());
        QSignalSpy shown(banner, &StallBanner::stacksShown);
        QTest::mouseClick(banner->dumpButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(shown.size(), 1, 30000);
        QCOMPARE(banner->stacksView()->count(), 2);
        QCOMPARE(banner->stacksView()->tabText(1), QStringLiteral("Rank 1"));
        const auto *rank1 = qobject_cast<QPlainTextEdit *>(banner->stacksView()->widget(1));
        QVERIFY(rank1);
        QVERIFY2(rank1->toPlainText().contains(QStringLiteral("in test_hang")), qPrintable(rank1->toPlainText()));
        QVERIFY(!banner->answerLabel()->isVisible());
        QVERIFY(QFile(release).open(QIODevice::WriteOnly));
        QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, JobState::Finished, 60000);
        QVERIFY(!banner->dumpButton()->isVisible());
        QVERIFY(banner->textLabel()->text().contains(QStringLiteral("no longer stalled")));
    }

    // The backend's report lines read as short lines, not raw JSON; long lines wrap, and Follow keeps the left
    // edge (the Logs tab scrolled sideways and was mostly INGOT_METRIC JSON).
    void logViewReadsReportLinesAndWraps()
    {
        JobLogView view;
        view.resize(520, 300);
        view.setJob(QStringLiteral("j"), QStringLiteral("/jobs/j"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QByteArray out = "INGOT_EVENT {\"event\": \"started\", \"world_size\": 2, \"device\": \"cpu\"}\n";
        for (int step = 1; step <= 40; ++step)
            out += "INGOT_METRIC {\"step\": " + QByteArray::number(step) + ", \"loss\": 2.3456, \"learning_rate\": 0.0002, "
                   "\"grad_norm\": 1.25, \"tokens_per_second\": 12345.6, \"time\": 1700000000.5}\n";
        out += "INGOT_METRIC not json\n";
        out += "W " + QByteArray(400, 'x') + " the end of a long warning\n";
        view.append(QStringLiteral("j"), {{0, false, out}});
        const QString text = view.text()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("\u25B8 started: device cpu, world_size 2")), qPrintable(text.left(300)));
        QVERIFY2(text.contains(QStringLiteral("\u25B8 step 40: loss 2.346, learning rate 0.0002, gradient norm 1.25, 12,346 tokens/s")),
                 qPrintable(text.left(300)));
        QVERIFY(!text.contains(QStringLiteral("\"learning_rate\"")));
        QVERIFY(text.contains(QStringLiteral("INGOT_METRIC not json")));  // not a report: shown as it is
        test::deliverPostedEvents();
        QCOMPARE(view.text()->lineWrapMode(), QPlainTextEdit::WidgetWidth);
        QScrollBar *across = view.text()->horizontalScrollBar();
        QCOMPARE(across->maximum(), 0);
        QCOMPARE(across->value(), 0);
        QScrollBar *down = view.text()->verticalScrollBar();
        QVERIFY(down->maximum() > 0);
        QCOMPARE(down->value(), down->maximum());  // Follow: the newest line in view
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
        // A delivery's chunks are shown in one step: the same text as chunk by chunk, tqdm redraws across chunks
        // included.
        const QVector<LogChunk> burst = {{0, true, QByteArray("x\n50%\r")}, {0, true, QByteArray("60%\r")},
                                         {0, false, QByteArray("out\n")}, {0, true, QByteArray("70%\r80%\n")}};
        JobLogView one, each;
        for (JobLogView *v : {&one, &each}) {
            v->setJob(QStringLiteral("j"), QStringLiteral("/jobs/j"));
            v->setMaxLines(100);
        }
        one.append(QStringLiteral("j"), burst);
        for (const LogChunk &c : burst)
            each.append(QStringLiteral("j"), {c});
        QCOMPARE(one.text()->toPlainText(), each.text()->toPlainText());
        QCOMPARE(one.lineCount(0), each.lineCount(0));
        // Another job's bytes do not touch the view.
        view.append(QStringLiteral("other"), {{0, false, QByteArray("elsewhere\n")}});
        QVERIFY(!view.text()->toPlainText().contains(QStringLiteral("elsewhere")));
    }

    void compileActivityAndOverlays();
    void aTorchTitanRunOffersItsNewestStep();
    void aMonitorOpenedLaterShowsTheEarlierLogs();
    void precompilePhase();
    void neuronCoresTab();
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
    // A job's compile cache and output, as the Neuron compiler wrapper makes them: the monitor lists every graph of
    // the job with why it compiled. Before the job: a compiled entry (the log says it was used), a failed one (the
    // log says it blocked), the job's graph with other flags, one under another compiler, one unrelated entry. The
    // job writes those graphs with its flags, one that another cache Ingot knows holds, and a new one.
    qputenv("HF_HUB_OFFLINE", "1");  // the Hub cache repo in use is not asked over the network here
    QTemporaryDir tmp;
    const QString cache = tmp.path() + QStringLiteral("/cache"), team = tmp.path() + QStringLiteral("/team");
    const QString version = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86"), older = QStringLiteral("neuronxcc-2.14.227.0+2d4f85be");
    const QStringList ok = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"), QStringLiteral("model.neff"),
                            QStringLiteral("model.done")};
    test::makeModule(cache, version, QStringLiteral("MODULE_hit+aaaa1111"), ok, 3);
    test::makeModule(cache, version, QStringLiteral("MODULE_bad+aaaa1111"), {QStringLiteral("model.hlo_module.pb"), QStringLiteral("model.log")}, 3);
    test::makeModule(cache, version, QStringLiteral("MODULE_777+bbbb2222"), ok, 3);
    test::writeFile(cache + QLatin1Char('/') + version + QStringLiteral("/MODULE_777+bbbb2222/compile_flags.json"), "[\"-O2\"]");
    test::makeModule(cache, older, QStringLiteral("MODULE_888+aaaa1111"), ok, 3);
    test::makeModule(cache, version, QStringLiteral("MODULE_old+1"), {QStringLiteral("model.neff")}, 3);
    test::makeModule(team, version, QStringLiteral("MODULE_999+aaaa1111"), ok, 3);
    AppSettings::addCacheRoot(team);
    // Their ctimes (which cannot be set back) more than the monitor's 2 s of slack before the job's start.
    const qint64 made = QFileInfo(cache + QLatin1Char('/') + version + QStringLiteral("/MODULE_old+1")).metadataChangeTime().toMSecsSinceEpoch();
    QVERIFY(made > 0);
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentMSecsSinceEpoch() > made + 2500, 10000);
    const QString script = tmp.path() + QStringLiteral("/compiles.py");
    test::writeFile(script, QStringLiteral(R"(import os, time
cache = os.environ["NEURON_COMPILE_CACHE_URL"]
root = os.path.join(cache, "%1")
if int(os.environ.get("RANK", "0")) == 0:
    w = "2024-01-11 05:53:27.000498:  741535  INFO ||NEURON_CC_WRAPPER||: "
    print(w + "Compile cache path: " + cache, flush=True)
    print(w + "Using a cached neff at " + root + "/MODULE_hit+aaaa1111/model.neff. Exiting with a successfully compiled graph.", flush=True)
    print(w.replace("INFO", "ERROR") + "Got a cached failed neff at " + root + "/MODULE_bad+aaaa1111/model.neff. Will skip compilation, please set --retry_failed_compilation for recompilation:", flush=True)
    for name in ["MODULE_777+aaaa1111", "MODULE_888+aaaa1111", "MODULE_999+aaaa1111", "MODULE_555+aaaa1111"]:
        print(w + "Call compiler with cmd: ['neuronx-cc', 'compile', '--framework=XLA', '/tmp/work/model." + name + ".hlo_module.pb', '--output', '/tmp/work/model." + name + ".neff']", flush=True)
        d = os.path.join(root, name)
        os.makedirs(d)
        open(os.path.join(d, "model.hlo_module.pb"), "w").write("hlo")
        open(os.path.join(d, "compile_flags.json"), "w").write('["--model-type=transformer"]')
        open(os.path.join(d, "model.neff"), "w").write("neff")
        open(os.path.join(d, "model.done"), "w").write("")
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
    monitor.resize(1000, 640);
    QTRY_VERIFY_WITH_TIMEOUT(service.find(id) && service.find(other), 20000);
    monitor.setJob(id);
    QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, JobState::Finished, 120000);
    monitor.rescanCompileCache();
    QTRY_COMPARE_WITH_TIMEOUT(monitor.compileList()->topLevelItemCount(), 6, 20000);
    QMap<QString, QString> why;
    for (int i = 0; i < monitor.compileList()->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = monitor.compileList()->topLevelItem(i);
        why.insert(item->text(0).section(QLatin1Char('/'), 1), item->data(1, Qt::UserRole).toString());
    }
    const QMap<QString, QString> expected = {
        {QStringLiteral("MODULE_hit+aaaa1111"), QStringLiteral("hit")},
        {QStringLiteral("MODULE_bad+aaaa1111"), QStringLiteral("blocked")},
        {QStringLiteral("MODULE_777+aaaa1111"), QStringLiteral("other-flags")},
        {QStringLiteral("MODULE_888+aaaa1111"), QStringLiteral("other-compiler")},
        {QStringLiteral("MODULE_999+aaaa1111"), QStringLiteral("other-cache")},
        {QStringLiteral("MODULE_555+aaaa1111"), QStringLiteral("new-graph")},
    };
    QCOMPARE(why, expected);
    const QString summary = monitor.compileLabel()->text();
    QVERIFY2(summary.startsWith(QStringLiteral("6 graph")), qPrintable(summary));
    for (const char *part : {"1 hit", "1 new", "1 other flags", "1 other compiler", "1 in another cache", "1 blocked"})
        QVERIFY2(summary.contains(QLatin1String(part)), qPrintable(summary));
    // The evidence is one hover away: the flag difference of the other-flags graph.
    for (int i = 0; i < monitor.compileList()->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = monitor.compileList()->topLevelItem(i);
        if (item->data(1, Qt::UserRole).toString() == QLatin1String("other-flags")) {
            const QString tip = flagsAsWritten(item->toolTip(1));  // shown with joiners: no line break in a flag
            QVERIFY2(tip.contains(QStringLiteral("+ --model-type=transformer")), qPrintable(tip));
            QVERIFY(tip.contains(QStringLiteral("- -O2")));
            QVERIFY(item->toolTip(1).contains(keepFlagsWhole(QStringLiteral("--model-type=transformer"))));
            monitor.compileList()->setCurrentItem(const_cast<QTreeWidgetItem *>(item));
            QCOMPARE(monitor.graphDetail()->text(), item->toolTip(1));
        }
    }
    const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
    monitor.show();
    showTab(monitor, QStringLiteral("Compile activity"));
    test::deliverPostedEvents();  // laid out before it is grabbed
    QVERIFY(monitor.grab().save(shots + QStringLiteral("/job-compile-activity.png")));
    AppSettings::setCacheRoots({});

    // Before launching the same settings again, the launcher says what the cache holds of that run's graphs now.
    {
        JobLauncher launcher(&service);
        QSignalSpy checked(&launcher, &JobLauncher::priorGraphsChecked);
        launcher.show();
        launcher.setSpec(spec);
        QTRY_VERIFY_WITH_TIMEOUT(launcher.priorGraphsLabel()->isVisible(), 20000);
        const QString prior = launcher.priorGraphsLabel()->text();
        QVERIFY2(prior.contains(id), qPrintable(prior));
        QVERIFY2(prior.contains(QStringLiteral("6 graph")) && prior.contains(QStringLiteral("5 compiled in")), qPrintable(prior));
        QVERIFY2(prior.contains(QStringLiteral("1 blocked")) && prior.contains(QStringLiteral("MODULE_bad+aaaa1111")), qPrintable(prior));
        // Other settings (another sequence length): no run to compare with.
        JobSpec other = spec;
        other.blockSize = 128;
        checked.clear();
        launcher.setSpec(other);
        QTRY_VERIFY_WITH_TIMEOUT(!checked.isEmpty(), 20000);
        QVERIFY(!launcher.priorGraphsLabel()->isVisible());
    }
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

void TestJobMonitor::precompilePhase()
{
    // Precompile first, as a user sets it: the launcher's option is disabled with why where the Neuron SDK's tool is
    // missing, enabled beside a Python that has it (a stand-in printing the documented formats). The monitor shows the
    // phase's graphs while it runs, then its results; a failed graph stops the job with the tool's last lines.
    qputenv("HF_HUB_OFFLINE", "1");
    QTemporaryDir tmp;
    const QString bin = test::neuronStandIns(tmp.path());
    test::writeFile(bin + QStringLiteral("/slow"), "");
    auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
    JobService service(runner);
    service.setPollInterval(100);
    JobSpec spec;
    QString error;
    spec.parseTrainingArguments({QStringLiteral("--max_steps"), QStringLiteral("3")}, &error);
    spec.compileCacheUrl = tmp.path() + QStringLiteral("/cache");
    {
        JobLauncher launcher(&service);
        launcher.show();
        spec.python = QStringLiteral("/usr/bin/python3");
        QSignalSpy checked(&launcher, &JobLauncher::checked);
        launcher.setSpec(spec);
        QTRY_VERIFY_WITH_TIMEOUT(!checked.isEmpty(), 20000);
        QVERIFY(!launcher.precompileCheck()->isEnabled());
        QVERIFY2(launcher.precompileReason()->text().contains(QStringLiteral("neuron_parallel_compile")),
                 qPrintable(launcher.precompileReason()->text()));  // why, shown under it
        spec.python = bin + QStringLiteral("/python3");
        checked.clear();
        launcher.setSpec(spec);
        QTRY_VERIFY_WITH_TIMEOUT(launcher.precompileCheck()->isEnabled(), 20000);
        launcher.precompileCheck()->setChecked(true);
        QVERIFY(launcher.spec().precompile);
    }
    spec.precompile = true;
    JobManager jobs(runner);
    const QString id = test::launchSpec(jobs, spec, &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    JobMonitor monitor(&service);
    monitor.resize(1000, 700);
    monitor.show();
    showTab(monitor, QStringLiteral("Compile activity"));
    QTRY_VERIFY_WITH_TIMEOUT(service.find(id), 20000);
    monitor.setJob(id);
    // While it runs: its graphs with their states in the cache (one compiling: its lock).
    QTRY_VERIFY_WITH_TIMEOUT(monitor.precompileBox()->isVisible() && monitor.precompileList()->topLevelItemCount() == 3, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.precompileLabel()->text().startsWith(QStringLiteral("Precompile running: 3 graph")), 60000);
    QCOMPARE(monitor.status().state, JobState::Compiling);
    const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
    QVERIFY(monitor.grab().save(shots + QStringLiteral("/job-precompile.png")));
    QTRY_COMPARE_WITH_TIMEOUT(monitor.status().state, JobState::Finished, 180000);
    monitor.rescanCompileCache();
    QTRY_VERIFY_WITH_TIMEOUT(monitor.precompileLabel()->text().startsWith(QStringLiteral("Precompile finished: 3 graph")), 30000);
    for (int i = 0; i < 3; ++i) {
        const QTreeWidgetItem *item = monitor.precompileList()->topLevelItem(i);
        QCOMPARE(item->text(2), QStringLiteral("compiled"));
        QCOMPARE(item->text(4), QStringLiteral("1 s"));
    }
    QSignalSpy show(&monitor, &JobMonitor::showCacheEntry);
    Q_EMIT monitor.precompileList()->itemActivated(monitor.precompileList()->topLevelItem(0), 0);
    QCOMPARE(show.size(), 1);
    QVERIFY(show.first().at(1).toString().startsWith(QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_300")));
}

void TestJobMonitor::neuronCoresTab()
{
    // A job on a Neuron host: neuron-monitor (a stand-in printing the documented reports) is asked while the job
    // runs; the tab shows its cores over time, memory and ECC events, and stops with the job. Without the SDK, the
    // tab says so.
    QTemporaryDir tmp;
    const QByteArray path = qgetenv("PATH");
    const QString bin = test::neuronStandIns(tmp.path());
    qputenv("PATH", bin.toUtf8() + ':' + path);
    // The job runs until the test has seen its samples (a fixed 24 s left room for only 4 on a loaded machine).
    const QString script = tmp.path() + QStringLiteral("/runs.py");
    const QString release = tmp.path() + QStringLiteral("/release");
    test::writeFile(script, "import os, time\nwhile not os.path.exists('" + QFile::encodeName(release) + "'):\n    time.sleep(0.1)\n");
    auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
    JobManager jobs(runner);
    JobSpec spec;
    spec.python = QStringLiteral("/usr/bin/python3");
    spec.program = JobProgram::Script;
    spec.script = script;
    spec.passSettings = false;
    QString error;
    const QString id = test::launchSpec(jobs, spec, &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    JobService service(runner);
    service.setPollInterval(200);
    JobMonitor monitor(&service);
    monitor.resize(1000, 600);
    monitor.show();
    showTab(monitor, QStringLiteral("NeuronCores"));
    QTRY_VERIFY_WITH_TIMEOUT(service.find(id), 20000);
    monitor.setJob(id);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.neuronCores()->history().samples().size() >= 6, 120000);  // a sample a second; a loaded machine starts the job late
    const QString summary = monitor.neuronCores()->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("trn1.2xlarge")) && summary.contains(QStringLiteral("4 core")), qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("device memory 11.7 GiB")));
    QVERIFY(summary.contains(QStringLiteral("ECC events: 1 corrected, 0 uncorrected")));
    QVERIFY(monitor.neuronCores()->devicesText().contains(QStringLiteral("2 NeuronCores")));
    QCOMPARE(monitor.neuronCores()->history().cores(), (QList<int>{0, 1, 2, 3}));  // not the other process's
    const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
    QVERIFY(monitor.grab().save(shots + QStringLiteral("/job-neuroncores.png")));
    test::writeFile(release, {});
    QTRY_VERIFY_WITH_TIMEOUT(!monitor.status().alive && isFinal(monitor.status().state), 60000);
    // Stopped with the job: nothing more is planned once a sample on its way (at most one) has come.
    const qsizetype after = monitor.neuronCores()->history().samples().size();
    QTRY_VERIFY_WITH_TIMEOUT(!monitor.samplesNeuronCores(), 20000);
    QVERIFY(monitor.neuronCores()->history().samples().size() <= after + 1);

    // Without the SDK where the job runs: the tab says why, and asks no more.
    qputenv("PATH", path);
    QVERIFY(QFile::remove(release));
    const QString other = test::launchSpec(jobs, spec, &error);
    QVERIFY2(!other.isEmpty(), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(service.find(other), 20000);
    QSignalSpy sampled(&monitor, &JobMonitor::neuronCoresSampled);
    monitor.setJob(other);
    QVERIFY(sampled.wait(20000));
    QVERIFY2(monitor.neuronCores()->unavailableText().contains(QStringLiteral("neuron-monitor is not installed")),
             qPrintable(monitor.neuronCores()->unavailableText()));
    QTRY_VERIFY_WITH_TIMEOUT(!monitor.samplesNeuronCores(), 20000);  // and asks no more while the job runs
    QVERIFY(monitor.status().alive);
    jobs.stop(other, false, &error);
}

void TestJobMonitor::aTorchTitanRunOffersItsNewestStep()
{
    // TorchTitan run as a command (the stand-in, real torchrun and PyTorch 2): its step lines charted, and Consolidate
    // hands the wizard its newest DCP step-N, not the job's output folder, which holds none of its checkpoints.
    QTemporaryDir tmp;
    auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
    JobManager jobs(runner);
    const QString config = tmp.filePath(QStringLiteral("debug_model.toml"));
    test::writeFile(config, "[job]\ndump_folder = \"./outputs\"\n[training]\nsteps = 4\n"
                            "[checkpoint]\nenable = true\nfolder = \"checkpoint\"\ninterval = 2\n");
    QString error;
    const QString id = test::launchTorchTitanStandIn(jobs, *runner, QStringLiteral(INGOT_TORCH2_PYTHON),
                                                     QStringLiteral(INGOT_TORCHTITAN_STANDIN), config, &error);
    QVERIFY2(!id.isEmpty(), qPrintable(error));
    JobService service(runner);
    service.setPollInterval(100);
    QTRY_VERIFY_WITH_TIMEOUT(service.find(id), 20000);
    JobMonitor monitor(&service);
    monitor.setJob(id);
    QTRY_COMPARE_WITH_TIMEOUT(service.status(id).state, JobState::Finished, 240000);
    QTRY_COMPARE_WITH_TIMEOUT(service.metrics(id).size(), qsizetype(4), 20000);
    QCOMPARE(service.metrics(id).last().loss, 8.0);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.consolidateButton()->isEnabled(), 20000);
    QSignalSpy consolidate(&monitor, &JobMonitor::consolidateRequested);
    monitor.consolidateButton()->click();
    QCOMPARE(consolidate.size(), 1);
    QCOMPARE(consolidate.first().first().toString(), jobs.paths(id).root + QStringLiteral("/outputs/checkpoint/step-4"));
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
