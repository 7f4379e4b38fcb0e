// The Transfers page driven like a user: the buttons pause, resume, cancel and retry a transfer; the table shows
// progress, state and each entry's reason. A scripted engine (a test engine: it moves no bytes, it reports them at
// a pace the test sets and fails the keys it is told to) stands in for the pull/push/copy engines, which have their
// own tests against the test Hub and sshd; the whole app pulling from the test Hub is in tst_transfersgui.
#include "models/transfer/transfersmodel.h"
#include "ui/transfers/transferspage.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QLabel>
#include <QMutex>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace ingot;

namespace {
struct Script {
    QMutex mutex;
    QSet<QString> failOnce;
    std::atomic_bool hold{false};
    std::atomic_int stepMs{2};
};

TransferEngine scripted(const std::shared_ptr<Script> &s)
{
    return [s](const TransferRecord &, QVector<TransferItem> &items, TransferReporter &rep, const std::atomic_bool *stop) {
        for (int i = 0; i < items.size(); ++i) {
            rep.itemStarted(i, 4'000'000);
            items[i].bytesTotal = 4'000'000;
            for (int step = 1; step <= 20; ++step) {
                while (s->hold && !*stop)
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                if (*stop)
                    return QString();
                std::this_thread::sleep_for(std::chrono::milliseconds(s->stepMs));
                items[i].bytesDone = step * 200'000;
                rep.itemProgress(i, items[i].bytesDone);
            }
            bool fail;
            {
                QMutexLocker l(&s->mutex);
                fail = s->failOnce.remove(items[i].key);
            }
            items[i].state = fail ? TransferItem::State::Failed : TransferItem::State::Done;
            items[i].message = fail ? QStringLiteral("model.neff: sha256 differs from the Hub's (the download was corrupted); nothing was written") : QString();
            rep.itemFinished(i, items[i].state, items[i].message);
        }
        return QString();
    };
}

QStringList keys(int n, int from = 0)
{
    QStringList k;
    for (int i = from; i < from + n; ++i)
        k << QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_%1+d41d8cd9").arg(12486829708343293975ULL - i);
    return k;
}

TransferPlace cachePlace()
{
    return TransferPlace::ofCache(StoreLocation::local(QStringLiteral("/var/tmp/neuron-compile-cache")));
}

QString stateText(TransfersPage &page, const QString &id)
{
    const int row = page.model()->rowOf(id);
    return page.model()->index(row, TransfersModel::StateColumn).data().toString();
}
}  // namespace

class TestTransfersPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void buttonsDriveTheQueue()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        TransferQueue q(dir.path(), scripted(s));
        TransfersPage page(&q);
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.resize(1000, 600);
        page.show();
        QVERIFY(page.findChildren<QLabel *>().size() > 0);
        QCOMPARE(page.model()->rowCount(), 0);

        s->hold = true;
        s->failOnce = {keys(1, 1).first()};
        const QString id = q.enqueue(TransferKind::Pull, TransferPlace::ofHub(QStringLiteral("neuronorg/cache")), cachePlace(),
                                     keys(3), {}, nullptr);
        QCOMPARE(page.model()->rowCount(), 1);
        QCOMPARE(page.selected(), id);
        QVERIFY(QTest::qWaitFor([&] { return stateText(page, id) == QStringLiteral("Running"); }, 5000));
        QVERIFY(page.pauseButton()->isEnabled());
        QVERIFY(!page.resumeButton()->isEnabled());
        QVERIFY(!page.retryButton()->isEnabled());
        QCOMPARE(page.model()->index(0, TransfersModel::WhatColumn).data().toString(),
                 QStringLiteral("Pull 3 entries from hub:neuronorg/cache to /var/tmp/neuron-compile-cache"));

        QTest::mouseClick(page.pauseButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return stateText(page, id) == QStringLiteral("Paused"); }, 5000));
        QVERIFY(page.resumeButton()->isEnabled());
        QVERIFY(!page.pauseButton()->isEnabled());
        s->hold = false;
        QTest::mouseClick(page.resumeButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return q.record(id)->finished() && !q.isRunning(id); }, 10000));
        QCOMPARE(stateText(page, id), QStringLiteral("1 failed"));
        // The failed entry says why, in the entries table.
        QAbstractItemModel *items = page.itemsView()->model();
        QCOMPARE(items->rowCount(), 3);
        bool sawReason = false;
        for (int r = 0; r < items->rowCount(); ++r)
            sawReason |= items->index(r, TransferItemsModel::MessageColumn).data().toString().contains(QStringLiteral("sha256 differs"));
        QVERIFY(sawReason);
        QVERIFY(page.detailsLabel()->text().contains(QStringLiteral("2 done, 0 skipped, 1 failed")));
        QVERIFY(page.retryButton()->isEnabled());
        QTest::mouseClick(page.retryButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return q.record(id)->finished() && !q.isRunning(id); }, 10000));
        QCOMPARE(stateText(page, id), QStringLiteral("Done"));
        QCOMPARE(page.model()->index(0, TransfersModel::ProgressColumn).data(TransfersModel::FractionRole).toDouble(), 1.0);
    }

    void cancelThenRemove()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        s->hold = true;
        TransferQueue q(dir.path(), scripted(s));
        TransfersPage page(&q);
        const QString id = q.enqueue(TransferKind::Copy, cachePlace(),
                                     TransferPlace::ofCache(StoreLocation{QStringLiteral("ssh"), QStringLiteral("trn1"), QStringLiteral("/var/tmp/neuron-compile-cache")}),
                                     keys(2), {}, nullptr);
        QVERIFY(QTest::qWaitFor([&] { return q.isRunning(id); }, 5000));
        QVERIFY(page.cancelButton()->isEnabled());
        QTest::mouseClick(page.cancelButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return stateText(page, id) == QStringLiteral("Cancelled"); }, 5000));
        QVERIFY(q.activeKeys(cachePlace()).isEmpty());
        QVERIFY(page.retryButton()->isEnabled());  // a cancelled transfer can start again
        const QList<QPushButton *> buttons = page.findChildren<QPushButton *>();
        QPushButton *remove = nullptr;
        for (QPushButton *b : buttons)
            if (b->text().remove(QLatin1Char('&')) == QStringLiteral("Remove"))
                remove = b;
        QVERIFY(remove && remove->isEnabled());
        QTest::mouseClick(remove, Qt::LeftButton);
        QCOMPARE(page.model()->rowCount(), 0);
        QVERIFY(!QFile::exists(dir.filePath(id + QStringLiteral(".json"))));
    }

    // A transfer whose state cannot be written (the folder replaced by a file): the page says so, naming the folder.
    void aFailedSaveIsShown()
    {
        QTemporaryDir dir;
        const QString state = dir.filePath(QStringLiteral("transfers"));
        auto s = std::make_shared<Script>();
        TransferQueue q(state, scripted(s));
        TransfersPage page(&q);
        page.show();
        QVERIFY(!page.saveErrorLabel()->isVisible());
        QVERIFY(QDir(state).removeRecursively());
        QFile blocker(state);
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        q.enqueue(TransferKind::Pull, TransferPlace::ofHub(QStringLiteral("neuronorg/cache")), cachePlace(), keys(1), {}, nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(page.saveErrorLabel()->isVisible(), 20000);
        QVERIFY2(page.saveErrorLabel()->text().contains(state), qPrintable(page.saveErrorLabel()->text()));
    }

    // The README picture: one transfer running, one with a failed entry, one done.
    void screenshot()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        s->failOnce = {keys(1, 10).first()};
        TransferQueue q(dir.path(), scripted(s));
        TransfersPage page(&q);
        page.resize(1180, 560);
        page.show();
        const QString done = q.enqueue(TransferKind::Copy, cachePlace(),
                                       TransferPlace::ofCache(StoreLocation{QStringLiteral("ssh"), QStringLiteral("trn1-dev"), QStringLiteral("/var/tmp/neuron-compile-cache")}),
                                       keys(4, 20), {}, nullptr);
        QVERIFY(QTest::qWaitFor([&] { return q.record(done)->finished() && !q.isRunning(done); }, 10000));
        const QString failed = q.enqueue(TransferKind::Push, cachePlace(), TransferPlace::ofHub(QStringLiteral("neuronorg/optimum-neuron-cache")),
                                         keys(3, 9), {}, nullptr);
        QVERIFY(QTest::qWaitFor([&] { return q.record(failed)->finished() && !q.isRunning(failed); }, 10000));
        s->stepMs = 40;
        const QString running = q.enqueue(TransferKind::Pull, TransferPlace::ofHub(QStringLiteral("aws-neuron/optimum-neuron-cache")),
                                          cachePlace(), keys(6), {}, nullptr);
        QVERIFY(QTest::qWaitFor([&] { return q.record(running)->count(TransferItem::State::Done) >= 2 && q.rate(running) > 0; }, 20000));
        page.select(running);
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->index(page.model()->rowOf(running), TransfersModel::SpeedColumn).data().toString().isEmpty(), 10000);
        const QString shots = qEnvironmentVariable("INGOT_SCREENSHOT_DIR", QDir::tempPath());
        QDir().mkpath(shots);
        QVERIFY(page.grab().save(shots + QStringLiteral("/transfers.png")));
        q.cancel(running);
        QVERIFY(QTest::qWaitFor([&] { return !q.isRunning(running); }, 5000));
    }
};

QTEST_MAIN(TestTransfersPage)
#include "tst_transferspage.moc"
