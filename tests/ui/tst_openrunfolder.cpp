// File ▸ Open a run folder… on the real window (issue 38): the menu's action, the folder dialog, then the run (a
// NeuronTrainer-style folder written by tests/fixtures/make_run_folders.py) in the jobs page's history, selected,
// charted by the monitor, read-only (Resume refused with why); a folder that holds no run said in a message box.
#include "services/jobs/jobservice.h"
#include "services/jobs/metrics.h"
#include "tests/support/testsupport.h"
#include "ui/jobs/jobmonitor.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/metricchart.h"
#include "ui/shell/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

const QString kGenerator = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_run_folders.py");

// Chooses `folder` in the open dialog as a person does: its path typed, then Enter (the dialog's Choose).
void choose(QFileDialog *dialog, const QString &folder)
{
    dialog->setDirectory(QFileInfo(folder).path());
    dialog->selectFile(folder);
    QMetaObject::invokeMethod(dialog, "accept");
}

}  // namespace

class TestOpenRunFolder : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());  // an empty history
        qputenv("HF_HUB_OFFLINE", "1");
        QApplication::setOrganizationName(QStringLiteral("IngotTest"));
        QApplication::setApplicationName(QStringLiteral("ingot-tst-openrunfolder"));
    }

    void aRunFolderOpensInTheHistoryCharted()
    {
        const QString run = m_home.filePath(QStringLiteral("runs/neuron-run"));
        QCOMPARE(test::runProgram(QStringLiteral("/usr/bin/python3"), {kGenerator, QStringLiteral("trainer"), run}).code, 0);
        MainWindow w;
        w.show();
        auto *jobs = w.findChild<JobsPage *>();
        QVERIFY(jobs);
        auto *action = w.findChild<QAction *>(QStringLiteral("openRunFolderAction"));
        QVERIFY(action);
        action->trigger();
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = w.findChild<QFileDialog *>(QStringLiteral("openRunFolderDialog"))));
        choose(dialog, run);

        // Shown: the jobs page, the run selected in the history, its loss charted from trainer_state.json.
        QTRY_COMPARE_WITH_TIMEOUT(jobs->monitor()->chart(MetricKind::Loss)->points().size(), 8, 30000);
        QVERIFY(jobs->isVisible());
        const QString id = jobs->monitor()->jobId();
        QVERIFY(!id.isEmpty());
        QTRY_COMPARE(jobs->historyView()->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(jobs->monitor()->chart(MetricKind::Loss)->points().at(2).loss, 9.25);
        // Read-only: nothing runs to stop, and Resume says why it is refused.
        QVERIFY(!jobs->monitor()->stopButton()->isEnabled());
        QTRY_VERIFY(jobs->monitor()->resumeButton()->toolTip().contains(QLatin1String("did not launch")));
        QVERIFY(!jobs->monitor()->resumeButton()->isEnabled());

        // Its checkpoints offered for consolidation as any job's: the wizard gets the run's folder (it holds checkpoint-N).
        QTRY_VERIFY(jobs->monitor()->consolidateButton()->isEnabled());
        QSignalSpy consolidate(jobs, &JobsPage::consolidateRequested);
        jobs->monitor()->consolidateButton()->click();
        QTRY_COMPARE(consolidate.size(), 1);
        QCOMPARE(consolidate.first().first().toString(), run);

        // The run went on (12 steps now) and is opened again: the same job, not a second one, its chart read again
        // (12 points, not 8 + 12).
        QCOMPARE(test::runProgram(QStringLiteral("/usr/bin/python3"),
                                  {kGenerator, QStringLiteral("trainer"), run, QStringLiteral("--steps"), QStringLiteral("12")}).code, 0);
        action->trigger();
        QTRY_VERIFY((dialog = w.findChild<QFileDialog *>(QStringLiteral("openRunFolderDialog"))));
        const int rows = jobs->historyView()->model()->rowCount();
        choose(dialog, run);
        auto *service = w.findChild<JobService *>();
        QVERIFY(service);
        // Once the service has read the whole job again (its 12 points, the end), the chart holds exactly those.
        QTRY_VERIFY_WITH_TIMEOUT(service->metrics(id).size() == 12 && isFinal(service->status(id).state), 30000);
        QCOMPARE(jobs->monitor()->chart(MetricKind::Loss)->points().size(), 12);
        QCOMPARE(jobs->monitor()->jobId(), id);
        QTRY_COMPARE(jobs->historyView()->model()->rowCount(), rows);
    }

    void aFolderWithoutARunIsSaid()
    {
        const QString empty = m_home.filePath(QStringLiteral("runs/empty"));
        QVERIFY(QDir().mkpath(empty));
        MainWindow w;
        w.show();
        w.findChild<QAction *>(QStringLiteral("openRunFolderAction"))->trigger();
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = w.findChild<QFileDialog *>(QStringLiteral("openRunFolderDialog"))));
        choose(dialog, empty);
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = w.findChild<QMessageBox *>(QStringLiteral("openRunFolderError"))), 20000);
        QVERIFY2(box->informativeText().contains(QLatin1String("no training run")), qPrintable(box->informativeText()));
        box->close();
    }
};

QTEST_MAIN(TestOpenRunFolder)
#include "tst_openrunfolder.moc"
