// The transfer queue with a scripted engine (a test engine that moves nothing: it reports bytes for each item at a
// pace the test sets, fails the keys it is told to, and stops when asked — the queue's rules are what is tested here;
// the real engines are tested with the test Hub and sshd in their own tests). Saved state survives a restart.
#include "services/transfer/transferqueue.h"
#include "tests/support/testsupport.h"

#include <QMutex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace ingot;

namespace {
struct Script {
    QMutex mutex;
    QSet<QString> failOnce;      // keys that fail the first time they run
    QStringList seen;            // keys the engine was given, in order
    std::atomic_int stepMs{1};   // per 10% of an item
    std::atomic_bool holdFirst{false};  // the first item waits until stopped
    QString wholeError;          // returned as the transfer's error
};

TransferEngine scripted(const std::shared_ptr<Script> &s)
{
    return [s](const TransferRecord &, QVector<TransferItem> &items, TransferReporter &rep,
               const std::atomic_bool *stop) -> QString {
        {
            QMutexLocker l(&s->mutex);
            if (!s->wholeError.isEmpty())
                return s->wholeError;
        }
        for (int i = 0; i < items.size(); ++i) {
            {
                QMutexLocker l(&s->mutex);
                s->seen.append(items[i].key);
            }
            rep.itemStarted(i, 1000);
            items[i].state = TransferItem::State::Running;
            items[i].bytesTotal = 1000;
            for (int step = 1; step <= 10; ++step) {
                while (s->holdFirst && !*stop)
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                if (*stop)
                    return QString();
                std::this_thread::sleep_for(std::chrono::milliseconds(s->stepMs));
                items[i].bytesDone = step * 100;
                rep.itemProgress(i, step * 100);
            }
            bool fail = false;
            {
                QMutexLocker l(&s->mutex);
                fail = s->failOnce.remove(items[i].key);
            }
            items[i].state = fail ? TransferItem::State::Failed : TransferItem::State::Done;
            items[i].message = fail ? QStringLiteral("sha256 mismatch") : QString();
            rep.itemFinished(i, items[i].state, items[i].message);
        }
        return QString();
    };
}

const TransferPlace kHub = TransferPlace::ofHub(QStringLiteral("org/cache"));
TransferPlace localPlace()
{
    return TransferPlace::ofCache(StoreLocation::local(QStringLiteral("/var/tmp/neuron-compile-cache")));
}
QStringList keys(int n, int from = 0)
{
    QStringList k;
    for (int i = from; i < from + n; ++i)
        k << QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_%1+d41d8cd9").arg(i);
    return k;
}

// Finished, and its last state written (saves go to disk off the UI thread).
bool waitFinished(TransferQueue &q, const QString &id, int ms = 10000)
{
    return QTest::qWaitFor([&] { return q.record(id) && q.record(id)->finished() && !q.isRunning(id) && !q.savesPending(); }, ms);
}
}  // namespace

class TestTransferQueue : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsToTheEndAndSaves()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        TransferQueue q(dir.path(), scripted(s));
        QSignalSpy ended(&q, &TransferQueue::ended);
        QString error;
        const QString id = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(3), {}, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        QCOMPARE(q.activeKeys(localPlace()).size(), 3);
        QVERIFY(waitFinished(q, id));
        QCOMPARE(ended.size(), 1);
        const TransferRecord *r = q.record(id);
        QCOMPARE(r->count(TransferItem::State::Done), 3);
        QCOMPARE(r->bytesDone(), 3000);
        QVERIFY(q.activeKeys(localPlace()).isEmpty());
        QVERIFY(QFile::exists(dir.filePath(id + QStringLiteral(".json"))));
        QCOMPARE(QFile::permissions(dir.filePath(id + QStringLiteral(".json"))) & QFileDevice::ReadOther, 0);
        // A new queue reads it back finished and does not run it again.
        TransferQueue again(dir.path(), scripted(s));
        QCOMPARE(again.records().size(), 1);
        QVERIFY(again.records().first().finished());
        test::deliverPostedEvents();  // its first scheduling has run
        QVERIFY(!again.isRunning(id));
        QCOMPARE(s->seen.size(), 3);
    }

    void survivesARestartAndResumesWhatIsLeft()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        QString id;
        {
            TransferQueue q(dir.path(), scripted(s));
            s->stepMs = 30;
            id = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(4), {}, nullptr);
            QVERIFY(QTest::qWaitFor([&] { return q.record(id)->count(TransferItem::State::Done) >= 1; }, 10000));
        }  // Ingot quits mid-transfer
        const int doneBefore = [&] {
            QFile f(dir.filePath(id + QStringLiteral(".json")));
            f.open(QIODevice::ReadOnly);
            return int(f.readAll().count("\"done\""));
        }();
        QVERIFY(doneBefore >= 1);
        QVERIFY(doneBefore < 4);
        const int seenBefore = int(s->seen.size());
        s->stepMs = 1;
        TransferQueue q(dir.path(), scripted(s));
        QVERIFY(waitFinished(q, id));
        QCOMPARE(q.record(id)->count(TransferItem::State::Done), 4);
        // Only what was not done ran again.
        QCOMPARE(int(s->seen.size()) - seenBefore, 4 - doneBefore);
    }

    // The state folder replaced by a file (as good as read-only, for root too): the failed write is reported with
    // the transfer's id and the folder, and the transfer itself still runs to its end.
    void aSaveThatFailsIsReported()
    {
        QTemporaryDir dir;
        const QString state = dir.filePath(QStringLiteral("transfers"));
        auto s = std::make_shared<Script>();
        TransferQueue q(state, scripted(s));
        QSignalSpy failed(&q, &TransferQueue::saveFailed);
        QVERIFY(QDir(state).removeRecursively());
        QFile blocker(state);
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        QString error;
        const QString id = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(2), {}, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 20000);
        QCOMPARE(failed.first().at(0).toString(), id);
        const QString message = failed.first().at(1).toString();
        QVERIFY2(message.contains(id) && message.contains(state), qPrintable(message));
        QVERIFY(waitFinished(q, id, 20000));
        QCOMPARE(q.record(id)->count(TransferItem::State::Done), 2);
    }

    void pauseResumeAndPausedStaysPausedAfterARestart()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        s->holdFirst = true;
        QString id;
        {
            TransferQueue q(dir.path(), scripted(s));
            id = q.enqueue(TransferKind::Copy, localPlace(), TransferPlace::ofCache(StoreLocation::local(QStringLiteral("/other"))),
                           keys(2), {}, nullptr);
            QVERIFY(QTest::qWaitFor([&] { return q.isRunning(id); }, 5000));
            q.pause(id);
            QVERIFY(QTest::qWaitFor([&] { return !q.isRunning(id); }, 5000));
            QVERIFY(q.record(id)->paused);
            QCOMPARE(q.record(id)->count(TransferItem::State::Pending), 2);
        }
        s->holdFirst = false;
        TransferQueue q(dir.path(), scripted(s));
        test::deliverPostedEvents();  // its first scheduling has run
        QVERIFY(!q.isRunning(id));
        QVERIFY(q.record(id)->paused);
        q.resume(id);
        QVERIFY(waitFinished(q, id));
        QCOMPARE(q.record(id)->count(TransferItem::State::Done), 2);
    }

    void neverTwoTransfersIntoOneEntry()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        s->holdFirst = true;
        TransferQueue q(dir.path(), scripted(s));
        const QString a = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(3), {}, nullptr);
        QStringList skipped;
        QString error;
        const QString b = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(3, 2), {}, &error, &skipped);
        QVERIFY(!b.isEmpty());
        QCOMPARE(skipped, keys(1, 2));  // MODULE_2 is already on its way
        QCOMPARE(q.record(b)->items.size(), 2);
        // The same keys, everything already queued: refused with words.
        QVERIFY(q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(2), {}, &error).isEmpty());
        QVERIFY(error.contains(localPlace().display()));
        // To another place the same keys are fine.
        QVERIFY(!q.enqueue(TransferKind::Pull, kHub, TransferPlace::ofCache(StoreLocation::local(QStringLiteral("/x"))), keys(2), {}, nullptr).isEmpty());
        q.cancel(a);
        q.cancel(b);
        QVERIFY(QTest::qWaitFor([&] { return !q.isRunning(a) && !q.isRunning(b); }, 5000));
        QVERIFY(q.record(a)->cancelled);
        QVERIFY(q.activeKeys(localPlace()).isEmpty());
        // Once cancelled, the keys may be queued again.
        s->holdFirst = false;
        const QString c = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(1), {}, nullptr);
        QVERIFY(!c.isEmpty());
        QVERIFY(waitFinished(q, c));
    }

    void retryFailedRunsOnlyTheFailed()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        s->failOnce = {keys(1, 1).first()};
        TransferQueue q(dir.path(), scripted(s));
        const QString id = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(3), {}, nullptr);
        QVERIFY(waitFinished(q, id));
        QCOMPARE(q.record(id)->count(TransferItem::State::Failed), 1);
        QCOMPARE(q.record(id)->items[1].message, QStringLiteral("sha256 mismatch"));
        s->seen.clear();
        q.retryFailed(id);
        QVERIFY(waitFinished(q, id));
        QCOMPARE(q.record(id)->count(TransferItem::State::Done), 3);
        QCOMPARE(s->seen, keys(1, 1));
    }

    void aWholeTransferErrorEndsIt()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        s->wholeError = QStringLiteral("HF_HUB_OFFLINE is set");
        TransferQueue q(dir.path(), scripted(s));
        const QString id = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(2), {}, nullptr);
        QVERIFY(waitFinished(q, id));
        QCOMPARE(q.record(id)->error, QStringLiteral("HF_HUB_OFFLINE is set"));
        s->wholeError.clear();
        q.retryFailed(id);
        QVERIFY(waitFinished(q, id));
        QCOMPARE(q.record(id)->count(TransferItem::State::Done), 2);
    }

    void damagedStateFilesAreIgnored()
    {
        QTemporaryDir dir;
        auto write = [&](const QString &name, const QByteArray &data) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(data);
        };
        write(QStringLiteral("broken.json"), "{\"id\": \"broken\", \"kind\": ");
        write(QStringLiteral("wrongname.json"), R"({"id":"other","kind":"pull","from":{"kind":"hub","repo":"a/b"},"to":{"kind":"cache","store":"local","path":"/c"},"items":[{"key":"neuronxcc-1/MODULE_1","state":"pending"}]})");
        write(QStringLiteral("escape.json"), R"({"id":"escape","kind":"pull","from":{"kind":"hub","repo":"a/b"},"to":{"kind":"cache","store":"local","path":"/c"},"items":[{"key":"neuronxcc-1/../../x","state":"pending"}]})");
        auto s = std::make_shared<Script>();
        TransferQueue q(dir.path(), scripted(s));
        test::deliverPostedEvents();  // its first scheduling has run
        QVERIFY(q.records().isEmpty());
        QVERIFY(s->seen.isEmpty());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("broken.json"))));  // left as it is
    }

    void progressRateAndEta()
    {
        QTemporaryDir dir;
        auto s = std::make_shared<Script>();
        s->stepMs = 60;
        TransferQueue q(dir.path(), scripted(s));
        const QString id = q.enqueue(TransferKind::Pull, kHub, localPlace(), keys(3), {}, nullptr);
        QVERIFY(QTest::qWaitFor([&] { return q.rate(id) > 0; }, 5000));
        // 100 bytes per 60 ms: about 1,700 bytes/s (wide bounds: a loaded machine is slower).
        QVERIFY2(q.rate(id) < 5000, qPrintable(QString::number(q.rate(id))));
        q.cancel(id);
        QVERIFY(QTest::qWaitFor([&] { return !q.isRunning(id); }, 5000));
    }
};

QTEST_GUILESS_MAIN(TestTransferQueue)
#include "tst_transferqueue.moc"
