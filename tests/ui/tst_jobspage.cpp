// The Jobs page with real jobs: re-attaching to a job that runs while the page is gone, removing with a preview,
// and the history's screenshot.
#include "models/jobs/joblistmodel.h"
#include "services/jobs/jobservice.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/jobmonitorwidget.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/metricchart.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
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
        if (!isFinal(page.monitor()->status().state))
            QVERIFY(page.grab().save(shots + QStringLiteral("/jobs-running.png")));
        QTRY_COMPARE_WITH_TIMEOUT(stateText(page, id), jobStateTitle(JobState::Finished), 180000);
        // Re-attached from the start: the monitor has every step.
        QTRY_COMPARE_WITH_TIMEOUT(page.monitor()->chart(MetricKind::Loss)->points().size(), 300, 20000);

        QTest::qWait(200);
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
        QVERIFY(!QFileInfo::exists(jobs.paths(id).root));
        QVERIFY(QFileInfo(out).isDir());  // the outputs stay
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
