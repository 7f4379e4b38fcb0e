// The stall rule (services/jobs/stallrule), without processes: synthetic step times against the threshold as
// docs/formats.md "Stalls" says it (10 x the median interval, at least 5 minutes, or the job's own), and the cases
// that are never a stall (compiling, saving or stopping, processes gone, no step yet).
#include "services/jobs/stallrule.h"

#include <QTest>

using namespace ingot;

namespace {

StallFacts running(QVector<double> intervals, double silent, double override = 0)
{
    StallFacts f;
    f.stepIntervals = std::move(intervals);
    f.now = 1'800'000'000;
    f.lastStepAt = f.now - silent;
    f.running = true;
    f.alive = true;
    f.thresholdOverride = override;
    return f;
}

}  // namespace

class TestStallRule : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theThresholdIsTenMediansAndAtLeastFiveMinutes_data()
    {
        QTest::addColumn<QVector<double>>("intervals");
        QTest::addColumn<double>("override");
        QTest::addColumn<double>("threshold");
        QTest::newRow("no interval yet") << QVector<double>{} << 0.0 << 300.0;
        QTest::newRow("fast steps: the minimum") << QVector<double>{1, 1, 1} << 0.0 << 300.0;
        QTest::newRow("slow steps: 10 medians") << QVector<double>{60, 45, 50} << 0.0 << 500.0;
        QTest::newRow("even count: the mean of the middle two") << QVector<double>{40, 80, 20, 100} << 0.0 << 600.0;
        QTest::newRow("one slow step does not move the median") << QVector<double>{40, 40, 3000, 40, 40} << 0.0 << 400.0;
        QTest::newRow("only the latest 64 intervals count")
            << (QVector<double>(100, 200.0) << QVector<double>(64, 35.0)) << 0.0 << 350.0;
        QTest::newRow("nonsense intervals are left out")
            << QVector<double>{-5, qQNaN(), qInf(), 31, 33, 32} << 0.0 << 320.0;
        QTest::newRow("the job's own threshold wins, even below the minimum") << QVector<double>{60, 60} << 4.0 << 4.0;
    }
    void theThresholdIsTenMediansAndAtLeastFiveMinutes()
    {
        QFETCH(QVector<double>, intervals);
        QFETCH(double, override);
        QFETCH(double, threshold);
        QCOMPARE(stallThreshold(intervals, override), threshold);
    }

    void stalledOnlyPastTheThreshold()
    {
        const QVector<double> steps{50, 50, 50};  // threshold 500 s
        StallVerdict v = stallRule(running(steps, 499));
        QVERIFY(!v.stalled);
        QCOMPARE(v.thresholdSeconds, 500.0);
        QCOMPARE(v.silentSeconds, 499.0);
        v = stallRule(running(steps, 501));
        QVERIFY(v.stalled);
        QCOMPARE(v.silentSeconds, 501.0);
        // Steps move again: the stall ends.
        QVERIFY(!stallRule(running(QVector<double>(steps) << 551, 1)).stalled);
        // A job's own threshold (seconds).
        QVERIFY(stallRule(running(steps, 6, 5)).stalled);
        QVERIFY(!stallRule(running(steps, 4, 5)).stalled);
    }

    void neverAStallWhenNotSteppingOrGone()
    {
        StallFacts f = running({1, 1}, 3600);
        QVERIFY(stallRule(f).stalled);
        StallFacts compiling = f;
        compiling.lastStepAt = 0;  // no step yet: the first compile may take an hour
        QVERIFY(!stallRule(compiling).stalled);
        QCOMPARE(stallRule(compiling).thresholdSeconds, 0.0);
        StallFacts notRunning = f;  // saving, stopping, ended: the state rule's word stands
        notRunning.running = false;
        QVERIFY(!stallRule(notRunning).stalled);
        StallFacts gone = f;  // processes gone: its end is judged, not a stall
        gone.alive = false;
        QVERIFY(!stallRule(gone).stalled);
        StallFacts clockBack = f;  // a step "in the future" (another host's clock): silent 0, not negative
        clockBack.lastStepAt = f.now + 30;
        QCOMPARE(stallRule(clockBack).silentSeconds, 0.0);
        QVERIFY(!stallRule(clockBack).stalled);
    }

    void durationsAsLaunchTakesThem()
    {
        double s = 0;
        QVERIFY(parseStallDuration(QStringLiteral("90"), &s));
        QCOMPARE(s, 90.0);
        QVERIFY(parseStallDuration(QStringLiteral("2.5s"), &s));
        QCOMPARE(s, 2.5);
        QVERIFY(parseStallDuration(QStringLiteral("10m"), &s));
        QCOMPARE(s, 600.0);
        QVERIFY(parseStallDuration(QStringLiteral("2h"), &s));
        QCOMPARE(s, 7200.0);
        for (const char *bad : {"", "0", "-5", "m", "ten", "5d", "nan", "inf", "31000h", "1e400"})
            QVERIFY2(!parseStallDuration(QLatin1String(bad), &s), bad);
        QCOMPARE(s, 7200.0);  // untouched by what was refused
    }
};

QTEST_GUILESS_MAIN(TestStallRule)
#include "tst_stallrule.moc"
