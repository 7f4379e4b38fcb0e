// parallelFor: every index runs exactly once, on no more threads than asked; the stop flag and an fn returning false
// end it early; an exception is collected and the rest still runs.
#include "services/util/parallel.h"

#include <QSet>
#include <QTest>
#include <QThread>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

using namespace ingot;

class TestParallel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyIndexOnce()
    {
        std::vector<std::atomic_int> hits(1000);
        const ParallelOutcome out = parallelFor(1000, 4, nullptr, [&](int i) { ++hits[size_t(i)]; });
        QVERIFY(out.ok());
        QCOMPARE(out.started, 1000);
        for (const auto &h : hits)
            QCOMPARE(h.load(), 1);
    }

    void boundedWorkers()
    {
        std::atomic_int running{0}, most{0};
        std::mutex m;
        QSet<QThread *> threads;
        parallelFor(64, 3, nullptr, [&](int) {
            const int now = ++running;
            int seen = most.load();
            while (now > seen && !most.compare_exchange_weak(seen, now)) {
            }
            {
                std::lock_guard lock(m);
                threads.insert(QThread::currentThread());
            }
            QThread::usleep(2000);
            --running;
        });
        QVERIFY(most.load() <= 3);
        QVERIFY(threads.size() <= 3);
        QVERIFY(threads.contains(QThread::currentThread()));  // the caller works too
    }

    void nothingToDo()
    {
        bool called = false;
        const ParallelOutcome out = parallelFor(0, 4, nullptr, [&](int) { called = true; });
        QVERIFY(!called);
        QVERIFY(out.ok());
    }

    void stopFlagEndsIt()
    {
        std::atomic_bool stop{false};
        std::atomic_int ran{0};
        const ParallelOutcome out = parallelFor(10000, 2, &stop, [&](int i) {
            ++ran;
            if (i == 10)
                stop = true;
        });
        QVERIFY(out.stopped);
        QVERIFY(!out.ok());
        QVERIFY(ran.load() < 10000);
        QCOMPARE(out.started, ran.load());
    }

    void falseEndsIt()
    {
        std::atomic_int ran{0};
        const ParallelOutcome out = parallelFor(10000, 1, nullptr, [&](int i) {
            ++ran;
            return i < 5;
        });
        QVERIFY(out.stopped);
        QCOMPARE(ran.load(), 6);  // one worker: indexes 0..5, the sixth said stop
    }

    void exceptionsCollected()
    {
        std::atomic_int ran{0};
        const ParallelOutcome out = parallelFor(100, 4, nullptr, [&](int i) {
            ++ran;
            if (i % 25 == 7)
                throw std::runtime_error("broken " + std::to_string(i));
        });
        QCOMPARE(ran.load(), 100);
        QVERIFY(!out.stopped);
        QCOMPARE(out.errors.size(), 4);
        QVERIFY(!out.ok());
        QVERIFY(out.errors.join(QLatin1Char('\n')).contains(QStringLiteral("index 32: broken 32")));
    }
};

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
