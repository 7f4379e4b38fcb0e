// runTask: results, progress and posts arrive on the context's thread, in order; stop() still delivers,
// discard() delivers nothing more; a destroyed context receives nothing and its worker is told to stop.
#include "services/util/task.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace ingot;

class TestTask : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resultOnTheContextThread()
    {
        QObject context;
        QThread *workerThread = nullptr;
        QThread *doneThread = nullptr;
        int result = 0;
        runTask(&context, [&workerThread](TaskControl &) {
            workerThread = QThread::currentThread();
            return 42;
        }, [&](int r) {
            doneThread = QThread::currentThread();
            result = r;
        });
        QTRY_COMPARE(result, 42);
        QVERIFY(workerThread != QThread::currentThread());
        QCOMPARE(doneThread, QThread::currentThread());
    }

    void voidWork()
    {
        QObject context;
        bool done = false;
        Task t = runTask(&context, [](TaskControl &) {}, [&done] { done = true; });
        QTRY_VERIFY(done);
        QVERIFY(!t.isRunning());
    }

    void postsArriveInOrderBeforeTheResult()
    {
        QObject context;
        QStringList seen;
        runTask(&context, [&seen](TaskControl &c) {
            for (int i = 0; i < 200; ++i)
                c.post([&seen, i] { seen << QString::number(i); });
            return QStringLiteral("end");
        }, [&seen](const QString &r) { seen << r; });
        QTRY_COMPARE(seen.size(), 201);
        for (int i = 0; i < 200; ++i)
            QCOMPARE(seen[i], QString::number(i));
        QCOMPARE(seen.last(), QStringLiteral("end"));
    }

    void progressIsCoalescedToTheLatest()
    {
        QObject context;
        QSemaphore go;
        QVector<TaskProgress> seen;
        bool done = false;
        runTask(&context, [&go](TaskControl &c) {
            for (int i = 1; i <= 1000; ++i)
                c.setProgress(i, 1000, QStringLiteral("item %1").arg(i));
            go.acquire();  // hold the result back until the progress was seen
            return 0;
        }, [&done](int) { done = true; }, [&seen](const TaskProgress &p) { seen << p; });
        QTRY_VERIFY(!seen.isEmpty() && seen.last().done == 1000);
        QVERIFY(seen.size() < 1000);  // not one event per update
        QCOMPARE(seen.last().total, 1000);
        QCOMPARE(seen.last().text, QStringLiteral("item 1000"));
        for (int i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i].done > seen[i - 1].done);
        go.release();
        QTRY_VERIFY(done);
    }

    void stopStillDeliversTheResult()
    {
        QObject context;
        QSemaphore started;
        int iterations = -1;
        Task t = runTask(&context, [&started](TaskControl &c) {
            started.release();
            int n = 0;
            while (!c.isStopped() && n < 100000000) {
                QThread::usleep(100);
                ++n;
            }
            return n;
        }, [&iterations](int n) { iterations = n; });
        started.acquire();
        QVERIFY(t.isRunning());
        t.stop();
        QTRY_VERIFY(iterations >= 0);
        QVERIFY(iterations < 100000000);
    }

    void discardDropsTheResultAndPendingPosts()
    {
        QObject context;
        QSemaphore posted, go;
        int posts = 0;
        bool delivered = false;
        std::atomic_bool sawStop{false};
        Task t = runTask(&context, [&](TaskControl &c) {
            c.post([&posts] { ++posts; });
            posted.release();
            go.acquire();
            sawStop = c.isStopped();
            c.post([&posts] { ++posts; });
            return 1;
        }, [&delivered](int) { delivered = true; });
        posted.acquire();
        t.discard();  // before the receiver ran the first post
        go.release();
        QVERIFY(QTest::qWaitFor([&] { return sawStop.load(); }, 5000));
        // Give queued events every chance to (wrongly) run: a second task on the same context finishing proves the
        // event queue was processed past anything the discarded one posted.
        bool later = false;
        runTask(&context, [](TaskControl &) { return 0; }, [&later](int) { later = true; });
        QTRY_VERIFY(later);
        QCOMPARE(posts, 0);
        QVERIFY(!delivered);
    }

    // A large structure's last reference is dropped on the pool, not on the caller's (UI) thread.
    void disposeOffThreadFreesElsewhere()
    {
        struct Noted {
            std::atomic<QThread *> *where;
            ~Noted()
            {
                if (where)
                    where->store(QThread::currentThread());
            }
        };
        std::atomic<QThread *> where{nullptr};
        {
            Noted n{&where};
            disposeOffThread(std::move(n));
            n.where = nullptr;  // the moved-from copy notes nothing
        }
        QTRY_VERIFY(where.load() != nullptr);
        QVERIFY(where.load() != QThread::currentThread());
    }

    void destroyedContextReceivesNothing()
    {
        auto context = std::make_unique<QObject>();
        QSemaphore go, finished;
        bool delivered = false;
        std::atomic_bool sawStop{false};
        Task t = runTask(context.get(), [&](TaskControl &c) {
            go.acquire();
            sawStop = c.isStopped();
            c.post([&delivered] { delivered = true; });
            finished.release();
            return 7;
        }, [&delivered](int) { delivered = true; });
        context.reset();  // the page went away while its work runs
        go.release();
        QVERIFY(finished.tryAcquire(1, 10000));
        QVERIFY(sawStop);
        QTRY_VERIFY(!t.isRunning());
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TestTask)
#include "tst_task.moc"
