// Runs side by side on the Jobs page (issue 38), driven like a user: two real backend runs (torchrun on CPU, the
// stand-in compiler wrapper: tests/support/comparesupport.h) selected in the history, Compare, and the comparison
// shows their settings with both differences marked, one line per run on each chart, and their graphs with the
// explanation rule's verdicts. Its picture at the default size is jobs-compare.png.
#include "models/jobs/joblistmodel.h"
#include "services/jobs/jobservice.h"
#include "tests/support/comparesupport.h"
#include "ui/common/flagtext.h"
#include "ui/jobs/comparisonchart.h"
#include "ui/jobs/jobspage.h"
#include "ui/jobs/runcomparison.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

class TestRunComparison : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compareTwoRunsFromTheHistory()
    {
        qputenv("HF_HUB_OFFLINE", "1");  // the Hub cache repos Ingot knows are not asked over the network here
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        test::ComparedPair pair;
        {
            JobManager jobs(runner);
            QString error;
            QVERIFY2(test::runComparedPair(jobs, tmp.path(), &pair, &error), qPrintable(error));
        }
        JobService service(runner);
        JobsPage page(&service);
        page.resize(1200, 900);
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 2, 20000);

        // One run selected: nothing to compare.
        auto *proxy = static_cast<QSortFilterProxyModel *>(page.historyView()->model());
        auto indexOf = [&](const QString &id) { return proxy->mapFromSource(page.model()->index(page.model()->rowOf(id), 0)); };
        QTest::mouseClick(page.historyView()->viewport(), Qt::LeftButton, {}, page.historyView()->visualRect(indexOf(pair.b)).center());
        QCOMPARE(page.historyView()->selectionModel()->selectedRows().size(), 1);
        QVERIFY(!page.compareButton()->isEnabled());
        QVERIFY(page.removeButton()->isEnabled());
        // Ctrl+click the other: two runs, Compare (and no Remove of one of them).
        QTest::mouseClick(page.historyView()->viewport(), Qt::LeftButton, Qt::ControlModifier,
                          page.historyView()->visualRect(indexOf(pair.a)).center());
        QCOMPARE(page.historyView()->selectionModel()->selectedRows().size(), 2);
        QVERIFY(page.compareButton()->isEnabled());
        QVERIFY(!page.removeButton()->isEnabled());
        QCOMPARE(page.selectedJobs(), (QStringList{pair.a, pair.b}));  // the older first: the one compared with

        page.compareButton()->click();
        auto *dialog = page.findChild<RunComparisonDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), 60000);
        QCOMPARE(dialog->jobIds(), (QStringList{pair.a, pair.b}));

        // The settings: exactly the flag and the sequence length marked, with each run's value.
        QTableWidget *settings = dialog->settingsTable();
        QStringList marked;
        for (int row = 0; row < settings->rowCount(); ++row)
            if (settings->item(row, 0)->data(RunComparisonDialog::DiffersRole).toBool())
                marked << settings->item(row, 0)->text();
        QCOMPARE(marked, (QStringList{QStringLiteral("≠ Sequence length"), QStringLiteral("≠ NEURON_CC_FLAGS")}));
        for (int row = 0; row < settings->rowCount(); ++row)
            if (settings->item(row, 0)->text() == QLatin1String("≠ Sequence length")) {
                QCOMPARE(settings->item(row, 1)->text(), QStringLiteral("32"));
                QCOMPARE(settings->item(row, 2)->text(), QStringLiteral("64"));
                QVERIFY(settings->item(row, 1)->font().bold());
            }
        dialog->onlyDifferencesCheck()->click();
        int shown = 0;
        for (int row = 0; row < settings->rowCount(); ++row)
            shown += settings->isRowHidden(row) ? 0 : 1;
        QCOMPARE(shown, 2);
        dialog->onlyDifferencesCheck()->click();

        // Above every tab: what differs.
        const QString head = flagsAsWritten(dialog->runsLabel()->text());
        QVERIFY2(head.contains(QStringLiteral("Settings that differ: Sequence length, NEURON_CC_FLAGS")), qPrintable(head));
        QVERIFY2(head.contains(QStringLiteral("B compiled 2 graph")), qPrintable(head));

        // The curves: one line per run, each named for its run, by step and by wall time.
        for (const MetricKind k : {MetricKind::Loss, MetricKind::LearningRate, MetricKind::Throughput, MetricKind::GradNorm})
            QCOMPARE(dialog->chart(k)->series().size(), 2);
        const QVector<QLineSeries *> loss = dialog->chart(MetricKind::Loss)->series();
        QVERIFY(loss[0]->name().startsWith(QStringLiteral("A ")) && loss[1]->name().startsWith(QStringLiteral("B ")));
        QCOMPARE(loss[0]->count(), 3);
        QCOMPARE(loss[0]->at(2).x(), 3.0);  // by step
        dialog->xAxisChoice()->setCurrentIndex(1);
        QCOMPARE(dialog->chart(MetricKind::Loss)->series().size(), 2);
        QVERIFY(dialog->chart(MetricKind::Loss)->series()[0]->at(2).x() < 600);  // seconds since the run started
        dialog->xAxisChoice()->setCurrentIndex(0);
        QCOMPARE(dialog->curvesTable()->item(1, 1)->text(), QStringLiteral("3"));

        // The graphs: matched across runs, with B's verdicts; the summary says what B compiled that A had.
        QTableWidget *graphs = dialog->graphsTable();
        QCOMPARE(graphs->rowCount(), 2);
        QStringList verdictsOfB;
        for (int row = 0; row < graphs->rowCount(); ++row)
            verdictsOfB << graphs->item(row, 2)->data(RunComparisonDialog::VerdictRole).toString();
        verdictsOfB.sort();
        QCOMPARE(verdictsOfB, (QStringList{QStringLiteral("new-graph"), QStringLiteral("other-flags")}));
        const QString summary = flagsAsWritten(dialog->graphsSummary()->text());
        QVERIFY2(summary.contains(QStringLiteral("compiled 2 graph")) && summary.contains(QStringLiteral("-O1 → -O2"))
                     && summary.contains(QStringLiteral("s64[2,32] → s64[2,64]")),
                 qPrintable(summary));

        // Refresh reads the runs again (while it reads, it cannot be asked twice).
        dialog->refreshButton()->click();
        QVERIFY(!dialog->isReady());
        QVERIFY(!dialog->refreshButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), 60000);
        QVERIFY(dialog->refreshButton()->isEnabled());
        QCOMPARE(dialog->graphsTable()->rowCount(), 2);
        QCOMPARE(dialog->chart(MetricKind::Loss)->series().size(), 2);

        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QApplication::processEvents();  // laid out before it is grabbed
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/jobs-compare.png")));
        dialog->tabs()->setCurrentIndex(1);
        QApplication::processEvents();
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/jobs-compare-settings.png")));
        dialog->tabs()->setCurrentIndex(2);
        QApplication::processEvents();
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/jobs-compare-graphs.png")));
    }
};

QTEST_MAIN(TestRunComparison)
#include "tst_runcomparison.moc"
