// TorchTitan's step lines, as MetricsProcessor.log in torchtitan/components/metrics.py (v0.1.0, v0.2.2 and main)
// formats them through torchtitan/tools/logging.py's format, with the colours of torchtitan/tools/utils.py (Color):
// read into the metrics the charts show, alone and through the Trainer parser a user command's output goes through;
// every other line and the hostile versions of a step line are left.
#include "services/jobs/torchtitanlog.h"
#include "services/jobs/trainerlog.h"

#include <QTest>

#include <cmath>

using namespace ingot;

namespace {

// f"{color.red}step: {step:2}  {color.green}loss: {loss:8.5f}  {color.orange}grad_norm: {grad_norm:7.4f}  "
// f"{color.turquoise}memory: {gib:5.2f}GiB({pct:.2f}%)  {color.blue}tps: {round(tps):,}  "
// f"{color.cyan}tflops: {tflops:,.2f}  {color.magenta}mfu: {mfu:.2f}%{color.reset}" (v0.2.2), after
// "[titan] %(asctime)s - %(name)s - %(levelname)s - ".
const QByteArray v022 =
    "[titan] 2025-10-02 09:14:07,482 - root - INFO - \x1b[31mstep: 10  \x1b[32mloss:  7.84512  "
    "\x1b[38;2;180;60;0mgrad_norm:  1.2034  \x1b[38;2;54;234;195mmemory: 12.50GiB(15.63%)  \x1b[34mtps: 12,345  "
    "\x1b[36mtflops: 1,234.56  \x1b[35mmfu: 39.57%\x1b[39m";
// v0.1.0: loss {:7.4f}, no grad_norm, the memory in yellow.
const QByteArray v010 =
    "[titan] 2025-04-01 12:00:00,001 - root - INFO - \x1b[31mstep:  1  \x1b[32mloss: 10.8321  "
    "\x1b[33mmemory:  0.25GiB(0.31%)  \x1b[34mtps: 987  \x1b[36mtflops: 0.05  \x1b[35mmfu: 0.00%\x1b[39m";
// main: mfu "N/A" where the peak flops are unknown; metrics.disable_color_printing; torchrun --tee's prefix.
const QByteArray mainNoColour =
    "[rank0]:[titan] 2026-05-01 08:00:00,000 - root - INFO - step: 123  loss:  2.50000  grad_norm:  0.5000  "
    "memory:  3.00GiB(0.00%)  tps: 1,000,000  tflops: 0.00  mfu: N/A";

constexpr qint64 gib = qint64(1) << 30;

}  // namespace

class TestTorchTitanLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stepLinesOfEachRelease()
    {
        MetricPoint p;
        QVERIFY(readTorchTitanStep(v022.constData(), v022.constData() + v022.size(), &p));
        QCOMPARE(p.step, qint64(10));
        QCOMPARE(p.loss, 7.84512);
        QCOMPARE(p.gradNorm, 1.2034);
        QCOMPARE(p.tokensPerSecond, 12345.0);
        QCOMPARE(p.peakMemory, qint64(12.5 * double(gib)));
        QVERIFY(std::isnan(p.learningRate));

        QVERIFY(readTorchTitanStep(v010.constData(), v010.constData() + v010.size(), &p));
        QCOMPARE(p.step, qint64(1));
        QCOMPARE(p.loss, 10.8321);
        QVERIFY(std::isnan(p.gradNorm));
        QCOMPARE(p.tokensPerSecond, 987.0);
        QCOMPARE(p.peakMemory, gib / 4);

        QVERIFY(readTorchTitanStep(mainNoColour.constData(), mainNoColour.constData() + mainNoColour.size(), &p));
        QCOMPARE(p.step, qint64(123));
        QCOMPARE(p.loss, 2.5);
        QCOMPARE(p.tokensPerSecond, 1e6);
        QCOMPARE(p.peakMemory, 3 * gib);

        // A loss of nan (a diverged run) is an absent value on a point that is still there.
        const QByteArray nanLoss = "step:  7  loss:      nan  memory:  1.00GiB(1.00%)  tps: 5  mfu: 0.00%";
        QVERIFY(readTorchTitanStep(nanLoss.constData(), nanLoss.constData() + nanLoss.size(), &p));
        QCOMPARE(p.step, qint64(7));
        QVERIFY(std::isnan(p.loss));
    }

    void otherLinesAreLeft_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("validation") << QByteArray("[titan] 2025-10-02 09:14:07,482 - root - INFO - \x1b[33mvalidate step: 10  "
                                                  "\x1b[32mloss:  7.8451  \x1b[38;2;54;234;195mmemory: 12.50GiB(15.63%)  "
                                                  "\x1b[34mtps: 12,345\x1b[39m");
        QTest::newRow("another message") << QByteArray("[titan] 2025-10-02 09:14:07,482 - root - INFO - Training starts at step 1");
        QTest::newRow("a warning") << QByteArray("[titan] 2025-10-02 09:14:07,482 - root - WARNING - step: 1  loss: 2.0");
        QTest::newRow("no loss") << QByteArray("step: 5  memory:  1.00GiB(1.00%)");
        QTest::newRow("step twice") << QByteArray("step: 5  loss: 2.0  step: 6");
        QTest::newRow("negative step") << QByteArray("step: -5  loss: 2.0");
        QTest::newRow("fractional step") << QByteArray("step: 5.5  loss: 2.0");
        QTest::newRow("huge step") << QByteArray("step: 1e300  loss: 2.0");
        QTest::newRow("step with commas") << QByteArray("step: 1,000  loss: 2.0");
        QTest::newRow("word as loss") << QByteArray("step: 5  loss: low");
        QTest::newRow("loss without value") << QByteArray("step: 5  loss:");
        QTest::newRow("memory without unit") << QByteArray("step: 5  loss: 2.0  memory: 12.5(3%)");
        QTest::newRow("negative memory") << QByteArray("step: 5  loss: 2.0  memory: -1.00GiB(3%)");
        QTest::newRow("negative tps") << QByteArray("step: 5  loss: 2.0  tps: -3");
        QTest::newRow("another escape") << QByteArray("step: 5  loss: 2.0\x1b]0;title\x07");
        QTest::newRow("over long") << QByteArray("step: 5  loss: 2.0  ") + QByteArray(torchTitanMaxLineBytes, 'x');
        QTest::newRow("number too long") << QByteArray("step: 5  loss: 2.") + QByteArray(100, '0');
        QTest::newRow("rank prefix unclosed") << QByteArray("[rank0 step: 5  loss: 2.0");
    }

    void otherLinesAreLeft()
    {
        QFETCH(QByteArray, line);
        MetricPoint p;
        p.step = 99;
        QVERIFY(!readTorchTitanStep(line.constData(), line.constData() + line.size(), &p));
        QCOMPARE(p.step, qint64(99));  // untouched
    }

    // Through the parser a user command's output goes through, among other output and in pieces.
    void chartedThroughTheTrainerParser()
    {
        const QByteArray log = "[titan] 2025-10-02 09:14:00,000 - root - INFO - Starting job: Llama 3 debug training\n"
                               + v010 + "\n[titan] 2025-10-02 09:14:05,000 - root - INFO - Saving the checkpoint\n" + v022
                               + "\r\n";
        for (int chunk : {1, 7, int(log.size())}) {
            TrainerLogParser parser;
            for (int at = 0; at < log.size(); at += chunk)
                parser.feed(log.mid(at, chunk), 3.0);
            const QVector<MetricPoint> points = parser.takeMetrics();
            QCOMPARE(points.size(), 2);
            QCOMPARE(points[0].step, qint64(1));
            QCOMPARE(points[1].step, qint64(10));
            QCOMPARE(points[1].time, 3.0);
            QCOMPARE(points[1].tokensPerSecond, 12345.0);
        }
    }
};

QTEST_GUILESS_MAIN(TestTorchTitanLog)
#include "tst_torchtitanlog.moc"
