// The Jobs page with real jobs: re-attaching to a job that runs while the page is gone, removing with a preview,
// and the history's screenshot.
#include "models/jobs/joblistmodel.h"
#include "services/jobs/jobservice.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/joblauncher.h"
#include "ui/jobs/metricchart.h"
#include "ui/jobs/slurmqueuesection.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QProgressBar>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

void select(JobsPage &page, const QString &id)
{
    const int row = page.model()->rowOf(id);
    QVERIFY(row >= 0);
    auto *proxy = static_cast<QSortFilterProxyModel *>(page.historyView()->model());
    page.historyView()->selectionModel()->select(proxy->mapFromSource(page.model()->index(row, 0)),
                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QString stateText(JobsPage &page, const QString &id)
{
    const int row = page.model()->rowOf(id);
    return row < 0 ? QString() : page.model()->index(row, JobListModel::State).data().toString();
}

}  // namespace

class TestJobsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void launchFromTheFormLikeAUser()
    {
        // The whole path: fill the launcher (tiny config, 2 processes, tp=2, 6 steps), Launch, the page shows the
        // new job's monitor, the loss chart gets one point per logged step (the backend's metrics.jsonl), the job
        // finishes and the history lists it. The command that ran is the one the preview showed.
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobService service(runner);
        service.setPollInterval(100);
        JobsPage page(&service);
        auto *launcher = new JobLauncher(&service);
        page.setLauncher(launcher);
        page.resize(1200, 900);
        page.show();
        page.newJob();
        QVERIFY(!page.showsMonitor());
        auto *nproc = qobject_cast<QSpinBox *>(launcher->fieldWidget(QStringLiteral("nproc_per_node")));
        auto *tp = qobject_cast<QSpinBox *>(launcher->fieldWidget(QStringLiteral("tensor_parallel_size")));
        auto *steps = qobject_cast<QSpinBox *>(launcher->fieldWidget(QStringLiteral("max_steps")));
        QVERIFY(nproc && tp && steps);
        nproc->setValue(2);
        tp->setValue(2);
        for (QRadioButton *r : launcher->findChildren<QRadioButton *>())
            if (r->text().contains(QStringLiteral("steps")))
                r->click();
        steps->setValue(6);
        QTRY_VERIFY_WITH_TIMEOUT(launcher->launchButton()->isEnabled() && launcher->hasPlan(), 60000);
        const LaunchPlan plan = launcher->currentPlan();
        QCOMPARE(launcher->preview()->toPlainText(), plan.commandLine);
        QVERIFY(plan.commandLine.contains(QStringLiteral("--tensor_parallel_size 2")));
        QVERIFY(plan.commandLine.contains(QStringLiteral("--max_steps 6")));
        QSignalSpy launched(&service, &JobService::launched);
        QTest::mouseClick(launcher->launchButton(), Qt::LeftButton);
        QVERIFY(launched.wait(30000));
        const QString id = launched.first().first().toString();
        QCOMPARE(id, plan.record.id);
        QTRY_VERIFY_WITH_TIMEOUT(page.showsMonitor() && page.monitor()->jobId() == id, 20000);
        // What runs is what was shown.
        JobRecordFile ran;
        QString error;
        QVERIFY(JobManager(runner).load(id, &ran, &error));
        QCOMPARE(commandLine(ran.env, ran.argv), plan.commandLine);

        QTRY_COMPARE_WITH_TIMEOUT(page.monitor()->status().state, JobState::Finished, 180000);
        int metricLines = 0;
        QFile metrics(ran.outputDir + QStringLiteral("/metrics.jsonl"));
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        while (!metrics.atEnd())
            metricLines += metrics.readLine().contains("\"type\": \"metric\"") ? 1 : 0;
        QCOMPARE(metricLines, 6);
        QTRY_COMPARE_WITH_TIMEOUT(page.monitor()->chart(MetricKind::Loss)->points().size(), metricLines, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowOf(id) >= 0, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->status(page.model()->rowOf(id)).state, JobState::Finished, 20000);
    }

    void reattachesToARunningJob()
    {
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        QString error;
        const QString id = test::launchJob(jobs, {QStringLiteral("--max_steps"), QStringLiteral("300")}, 1, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        {
            JobService service(runner);
            service.setPollInterval(100);
            JobsPage page(&service);
            QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowOf(id) >= 0, 20000);
            QTRY_VERIFY_WITH_TIMEOUT(page.model()->status(page.model()->rowOf(id)).alive, 20000);
            QVERIFY(!isFinal(page.model()->status(page.model()->rowOf(id)).state));
            select(page, id);
            QVERIFY(page.showsMonitor());
            QCOMPARE(page.monitor()->jobId(), id);
            // Removing is refused while it runs: the button is off, and the dialog says why.
            QVERIFY(!page.removeButton()->isEnabled());
            JobRemoveDialog *dlg = page.removeSelected();
            QVERIFY(dlg);
            QTRY_VERIFY_WITH_TIMEOUT(dlg->isReady(), 20000);
            QVERIFY2(dlg->summary()->text().contains(QStringLiteral("running")), qPrintable(dlg->summary()->text()));
            QVERIFY(!dlg->removeButton()->isEnabled());
            dlg->reject();
        }
        QVERIFY(!isFinal(jobs.summary(id, false, &error).status.state));  // still running with nobody watching
        JobService service(runner);
        service.setPollInterval(100);
        JobsPage page(&service);
        page.resize(1200, 800);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowOf(id) >= 0, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->status(page.model()->rowOf(id)).alive, 20000);
        page.showJob(id);
        QTRY_COMPARE_WITH_TIMEOUT(page.historyView()->selectionModel()->selectedRows().size(), 1, 10000);
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        // The README's picture of a running job (when this machine is not too slow to catch it running).
        QTRY_VERIFY_WITH_TIMEOUT(page.monitor()->chart(MetricKind::Loss)->points().size() >= 80, 120000);
        if (!isFinal(page.monitor()->status().state)) {
            for (MetricKind k : {MetricKind::Loss, MetricKind::LearningRate, MetricKind::GradNorm, MetricKind::Throughput})
                page.monitor()->chart(k)->refresh();  // drawn up to the last point read, as a moment later
            QApplication::processEvents();  // the charts' layouts for their new labels, as before a paint
            QVERIFY(page.grab().save(shots + QStringLiteral("/jobs-running.png")));
        }
        QTRY_COMPARE_WITH_TIMEOUT(stateText(page, id), jobStateTitle(JobState::Finished), 180000);
        // Re-attached from the start: the monitor has every step.
        QTRY_COMPARE_WITH_TIMEOUT(page.monitor()->chart(MetricKind::Loss)->points().size(), 300, 20000);

        test::deliverPostedEvents();
        QVERIFY(page.grab().save(shots + QStringLiteral("/jobs-history.png")));
    }

    void removePreviewKeepsOutputsUnlessAsked()
    {
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        QString error;
        const QString out = tmp.path() + QStringLiteral("/outputs/run-a");
        const QString id =
            test::launchJob(jobs, {QStringLiteral("--max_steps"), QStringLiteral("2")}, 1, &error, out);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        QCOMPARE(test::waitForEnd(jobs, id).state, JobState::Finished);
        QVERIFY(QFileInfo(out).isDir());

        JobService service(runner);
        service.setPollInterval(100);
        JobsPage page(&service);
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowOf(id) >= 0, 20000);
        QVERIFY(!page.showsMonitor());  // nothing selected yet: the launcher's place
        QTRY_VERIFY(page.emptyStateLabel()->text().startsWith(QStringLiteral("Select a job")));
        select(page, id);
        QVERIFY(page.showsMonitor());
        QTRY_VERIFY(page.removeButton()->isEnabled());
        JobRemoveDialog *dlg = page.removeSelected();
        QVERIFY(dlg);
        QTRY_VERIFY_WITH_TIMEOUT(dlg->isReady(), 20000);
        QVERIFY(dlg->summary()->text().contains(jobs.paths(id).root));
        QVERIFY(dlg->withOutputsCheck()->isVisibleTo(dlg));
        QVERIFY(!dlg->withOutputsCheck()->isChecked());
        QVERIFY(dlg->withOutputsCheck()->text().contains(out));
        QVERIFY(dlg->removeButton()->isEnabled());
        QSignalSpy removed(&service, &JobService::removed);
        dlg->removeButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(removed.size(), 1, 20000);
        QCOMPARE(removed.first().at(1).toString(), QString());
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowOf(id), -1, 20000);
        // The job shown went: the page says what to do, not a monitor of a job that is no more.
        QCOMPARE(page.detailStack()->currentWidget(), page.emptyState());
        QVERIFY(page.monitor()->jobId().isEmpty());
        QVERIFY(page.emptyStateLabel()->text().contains(QStringLiteral("New job")));
        QVERIFY(!QFileInfo::exists(jobs.paths(id).root));
        QVERIFY(QFileInfo(out).isDir());  // the outputs stay
    }

    void emptyPageSaysWhatToDo()
    {
        // No job yet: no "step 0" bar and no blank charts, but what to do and a button that does it.
        QTemporaryDir tmp;
        JobService service(makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs")));
        JobsPage page(&service);
        auto *launcher = new JobLauncher(&service);
        page.setLauncher(launcher);
        page.resize(1126, 760);  // the page in a 1280×820 window
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.detailStack()->currentWidget(), page.emptyState());
        QVERIFY(!page.showsMonitor());
        QVERIFY(!page.monitor()->progressBar()->isVisible());
        QVERIFY(!page.monitor()->chart(MetricKind::Loss)->isVisible());
        QVERIFY(page.emptyState()->isVisible());
        QVERIFY2(page.emptyStateLabel()->text().contains(QStringLiteral("New job")),
                 qPrintable(page.emptyStateLabel()->text()));
        QVERIFY(page.emptyStateLabel()->text().contains(QStringLiteral("ingot-cli job launch")));
        // The history has room for seven rows or more at the default window size (it had 2.5).
        QTableView *view = page.historyView();
        QVERIFY(!page.otherSlurmJobs()->isVisible());  // no Slurm job in the history: no queue to show
        QVERIFY(view->isColumnHidden(JobListModel::Queued));
        QVERIFY2(view->viewport()->height() >= 7 * view->verticalHeader()->defaultSectionSize(),
                 qPrintable(QStringLiteral("%1 px for rows of %2 px")
                                .arg(view->viewport()->height())
                                .arg(view->verticalHeader()->defaultSectionSize())));
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(page.grab().save(shots + QStringLiteral("/jobs-empty.png")));
        page.emptyStateNewButton()->click();
        QCOMPARE(page.detailStack()->currentWidget(), launcher);
    }

    void resumedJobLinksToTheJobItResumed()
    {
        // A finished job with checkpoints; Resume fills the launcher; the resumed job records where it came from,
        // and its monitor and the history say so, with a link back.
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        QString error;
        const QString first = test::launchJob(jobs, {QStringLiteral("--max_steps"), QStringLiteral("4"),
                                                     QStringLiteral("--save_steps"), QStringLiteral("2")},
                                              1, &error);
        QVERIFY2(!first.isEmpty(), qPrintable(error));
        QCOMPARE(test::waitForEnd(jobs, first).state, JobState::Finished);

        JobService service(runner);
        service.setPollInterval(100);
        JobsPage page(&service);
        auto *launcher = new JobLauncher(&service);
        page.setLauncher(launcher);
        connect(&page, &JobsPage::launcherSpecRequested, launcher, &JobLauncher::setSpec);
        page.resize(1200, 900);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowOf(first) >= 0, 20000);
        page.showJob(first);
        QVERIFY(!page.monitor()->resumedFromLabel()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(page.monitor()->resumeButton()->isEnabled(), 20000);
        page.monitor()->resumeButton()->click();
        QVERIFY(!page.showsMonitor());
        QCOMPARE(launcher->spec().resumedFromJob, first);
        QVERIFY(launcher->spec().resumeFrom.endsWith(QStringLiteral("/checkpoint-2")));
        QTRY_VERIFY_WITH_TIMEOUT(launcher->launchButton()->isEnabled() && launcher->hasPlan(), 60000);
        QSignalSpy launched(&service, &JobService::launched);
        launcher->launchButton()->click();
        QVERIFY(launched.wait(30000));
        const QString second = launched.first().first().toString();
        QTRY_VERIFY_WITH_TIMEOUT(page.showsMonitor() && page.monitor()->jobId() == second, 20000);
        JobRecordFile record;
        QVERIFY(JobManager(runner).load(second, &record, &error));
        QCOMPARE(record.spec.resumedFromJob, first);  // in job.json

        QTRY_VERIFY_WITH_TIMEOUT(page.monitor()->resumedFromLabel()->isVisible(), 20000);
        const JobSummary *origin = service.find(first);
        QVERIFY(origin);
        const QString firstName = origin->record.spec.displayName(first, origin->record.createdMs);
        QVERIFY2(page.monitor()->resumedFromLabel()->text().contains(firstName),
                 qPrintable(page.monitor()->resumedFromLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(page.model()->rowOf(second) >= 0, 20000);
        const QString tip = page.model()->index(page.model()->rowOf(second), JobListModel::Name)
                                .data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("Resumed from ") + firstName), qPrintable(tip));
        // The two runs have different names, though their settings are the same but for the checkpoint.
        QVERIFY(page.model()->index(page.model()->rowOf(second), JobListModel::Name).data().toString()
                != page.model()->index(page.model()->rowOf(first), JobListModel::Name).data().toString());
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QTRY_COMPARE_WITH_TIMEOUT(page.monitor()->status().state, JobState::Finished, 120000);
        QVERIFY(page.grab().save(shots + QStringLiteral("/jobs-resumed.png")));

        // The link shows the job it resumed.
        Q_EMIT page.monitor()->resumedFromLabel()->linkActivated(QStringLiteral("job:") + first);
        QCOMPARE(page.monitor()->jobId(), first);
        QTRY_COMPARE_WITH_TIMEOUT(page.currentJob(), first, 10000);
    }

    void newJobShowsTheLauncher()
    {
        QTemporaryDir tmp;
        JobService service(makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs")));
        JobsPage page(&service);
        auto *launcher = new QLabel(QStringLiteral("launcher"));
        page.setLauncher(launcher);
        QCOMPARE(page.launcher(), launcher);
        QCOMPARE(page.detailStack()->indexOf(launcher) >= 0, true);
        page.newJobButton()->click();
        QCOMPARE(page.detailStack()->currentWidget(), launcher);
        QSignalSpy spec(&page, &JobsPage::launcherSpecRequested);
        Q_EMIT page.monitor()->launchAgainRequested(JobSpec());
        QCOMPARE(spec.size(), 1);
    }
};

QTEST_MAIN(TestJobsPage)
#include "tst_jobspage.moc"
