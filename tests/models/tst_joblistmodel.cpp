// The jobs' history as a table, from real job folders: a finished and a failed tiny run.
#include "models/jobs/joblistmodel.h"
#include "services/jobs/jobservice.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QAbstractItemModelTester>
#include <QGuiApplication>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

class TestJobListModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsFromHistory()
    {
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        QString error;
        const QString finished = test::launchJob(
            jobs, {QStringLiteral("--config_name"), QStringLiteral("tiny"), QStringLiteral("--max_steps"),
                   QStringLiteral("3")}, 1, &error);
        QVERIFY2(!finished.isEmpty(), qPrintable(error));
        QFile bad(tmp.path() + QStringLiteral("/bad.txt"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("hello \xff\xfe world\n");
        bad.close();
        const QString failed = test::launchJob(
            jobs, {QStringLiteral("--train_file"), bad.fileName(), QStringLiteral("--max_steps"), QStringLiteral("3")},
            1, &error);
        QVERIFY2(!failed.isEmpty(), qPrintable(error));
        QCOMPARE(test::waitForEnd(jobs, finished).state, JobState::Finished);
        QCOMPARE(test::waitForEnd(jobs, failed).state, JobState::Failed);

        JobService service(runner);
        service.setPollInterval(100);
        QTRY_COMPARE_WITH_TIMEOUT(service.history().size(), 2, 20000);
        JobListModel model(&service);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(JobListModel::ColumnCount));
        QCOMPARE(model.headerData(JobListModel::Layout, Qt::Horizontal).toString(), QStringLiteral("Layout (dp×tp×pp)"));
        // Both launched within a second: their order is the ids' (time, then random).
        QCOMPARE((QSet<QString>{model.jobId(0), model.jobId(1)}), (QSet<QString>{failed, finished}));
        QCOMPARE(model.jobId(2), QString());
        const int f = model.rowOf(finished), x = model.rowOf(failed);
        auto text = [&](int row, int col) { return model.index(row, col).data().toString(); };
        QCOMPARE(text(f, JobListModel::State), jobStateTitle(JobState::Finished));
        QCOMPARE(text(x, JobListModel::State), jobStateTitle(JobState::Failed));
        QCOMPARE(model.index(x, JobListModel::State).data(Qt::ForegroundRole).value<QColor>(),
                 jobStateColor(JobState::Failed));
        QVERIFY(!model.index(f, JobListModel::State).data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(model.index(x, JobListModel::State).data(Qt::ToolTipRole).toString().contains(QStringLiteral("UTF-8")));
        QCOMPARE(text(f, JobListModel::Layout), QStringLiteral("1×1×1"));
        QCOMPARE(text(f, JobListModel::Model), QStringLiteral("tiny"));
        QVERIFY(!text(f, JobListModel::FinalLoss).isEmpty());
        QVERIFY(text(f, JobListModel::FinalLoss).toDouble() > 0);
        QVERIFY(text(x, JobListModel::FinalLoss).isEmpty());
        QCOMPARE(text(f, JobListModel::OutputFolder), jobs.paths(finished).defaultOutputDir());
        QVERIFY(!text(f, JobListModel::Started).isEmpty());
        QVERIFY(!text(f, JobListModel::Duration).isEmpty());
        QCOMPARE(text(f, JobListModel::Where), QStringLiteral("this machine"));
        QCOMPARE(text(f, JobListModel::Queued), QString());  // no queue but Slurm's
        QCOMPARE(model.index(f, 0).data(JobListModel::JobIdRole).toString(), finished);

        // A new job is inserted above; the selection stays on the row it was on, and nothing is reset.
        QItemSelectionModel selection(&model);
        selection.select(model.index(f, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        const QString third = test::launchJob(
            jobs, {QStringLiteral("--max_steps"), QStringLiteral("1")}, 1, &error);
        QVERIFY2(!third.isEmpty(), qPrintable(error));
        service.refreshHistory();
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 3, 20000);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(model.jobId(0), third);
        QCOMPARE(selection.selectedRows().size(), 1);
        QCOMPARE(model.jobId(selection.selectedRows().first().row()), finished);
        // Followed, it shows its live status and ends Finished.
        service.watch(third);
        QTRY_COMPARE_WITH_TIMEOUT(text(model.rowOf(third), JobListModel::State), jobStateTitle(JobState::Finished),
                                  60000);
    }

    void lossAndNames()
    {
        // The loss column holds an ended job's final loss and a running job's latest, said so; runs of the same
        // settings get names that tell them apart (the time they started).
        QTemporaryDir tmp;
        auto runner = makeLocalJobRunner(tmp.path() + QStringLiteral("/jobs"));
        JobManager jobs(runner);
        QString error;
        const QString done = test::launchJob(jobs, {QStringLiteral("--max_steps"), QStringLiteral("2"),
                                                    QStringLiteral("--save_steps"), QStringLiteral("1")},
                                             1, &error);
        QVERIFY2(!done.isEmpty(), qPrintable(error));
        QCOMPARE(test::waitForEnd(jobs, done).state, JobState::Finished);
        // Resumed from its checkpoint as the CLI does (no resumed_from_job in the spec): still linked to it.
        const QString resumed = test::launchJob(
            jobs, {QStringLiteral("--max_steps"), QStringLiteral("2"), QStringLiteral("--resume_from_checkpoint"),
                   jobs.paths(done).defaultOutputDir() + QStringLiteral("/checkpoint-1")},
            1, &error);
        QVERIFY2(!resumed.isEmpty(), qPrintable(error));
        QCOMPARE(test::waitForEnd(jobs, resumed).state, JobState::Finished);
        // (The second job starts seconds after the first: it waited for it to end.)
        const QString running =
            test::launchJob(jobs, {QStringLiteral("--max_steps"), QStringLiteral("100000")}, 1, &error);
        QVERIFY2(!running.isEmpty(), qPrintable(error));

        JobService service(runner);
        service.setPollInterval(100);
        QTRY_COMPARE_WITH_TIMEOUT(service.history().size(), 3, 20000);
        JobListModel model(&service);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto text = [&](const QString &id, int col, int role = Qt::DisplayRole) {
            return model.index(model.rowOf(id), col).data(role).toString();
        };
        QVERIFY2(text(resumed, JobListModel::Name, Qt::ToolTipRole)
                     .endsWith(QStringLiteral("\nResumed from ") + text(done, JobListModel::Name)),
                 qPrintable(text(resumed, JobListModel::Name, Qt::ToolTipRole)));
        QVERIFY(!text(done, JobListModel::Name, Qt::ToolTipRole).contains(QStringLiteral("Resumed")));
        QCOMPARE(model.headerData(JobListModel::FinalLoss, Qt::Horizontal).toString(), QStringLiteral("Loss"));
        QVERIFY(!model.headerData(JobListModel::FinalLoss, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        QVERIFY(text(done, JobListModel::Name) != text(running, JobListModel::Name));
        const QString time = done.section(QLatin1Char('-'), 1, 1);  // yyyyMMdd-HHmmss-rrrr
        QVERIFY2(text(done, JobListModel::Name)
                     .endsWith(QStringLiteral("%1:%2:%3").arg(time.left(2), time.mid(2, 2), time.mid(4, 2))),
                 qPrintable(text(done, JobListModel::Name)));
        QVERIFY(text(done, JobListModel::Name).startsWith(QStringLiteral("tiny 1\u00d71\u00d71")));
        QVERIFY(text(done, JobListModel::FinalLoss).toDouble() > 0);
        QVERIFY(text(done, JobListModel::FinalLoss, Qt::ToolTipRole).contains(QStringLiteral("last step")));

        service.watch(running);
        QTRY_VERIFY_WITH_TIMEOUT(text(running, JobListModel::FinalLoss).endsWith(QStringLiteral(" (latest)")), 60000);
        QVERIFY(text(running, JobListModel::FinalLoss, Qt::ToolTipRole).contains(QStringLiteral("not ended")));
        service.stop(running);
        QTRY_VERIFY_WITH_TIMEOUT(isFinal(model.status(model.rowOf(running)).state), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!model.status(model.rowOf(running)).alive, 60000);
        QVERIFY2(text(running, JobListModel::FinalLoss).toDouble() > 0, qPrintable(text(running, JobListModel::FinalLoss)));
        // A name given in the launcher or with --name is shown as given.
        JobSpec named;
        named.name = QStringLiteral("baseline");
        QCOMPARE(named.displayName(running), QStringLiteral("baseline"));
    }
};

QTEST_MAIN(TestJobListModel)
#include "tst_joblistmodel.moc"
