// A Hugging Face Trainer's console output and trainer_state.json, read into metric points: realistic logs in any
// chunking, the step rule, and hostile lines and files.
#include "services/jobs/trainerlog.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>

using namespace ingot;

namespace {

// The training bar as tqdm draws it on stderr: `\r 25%|██▌       | 10/40 [00:12<00:36,  1.20s/it]`.
QByteArray bar(int step, int total)
{
    const int percent = step * 100 / total;
    const int full = step * 10 / total;
    QByteArray b;
    for (int i = 0; i < full; ++i)
        b += "\xe2\x96\x88";  // █
    if (full < 10)
        b += "\xe2\x96\x8c" + QByteArray(9 - full, ' ');  // ▌
    return "\r" + QByteArray::number(percent).rightJustified(3, ' ') + "%|" + b + "| " + QByteArray::number(step) + "/"
           + QByteArray::number(total) + " [00:" + QByteArray::number(step + 10) + "<00:36,  1.20s/it]";
}

// stdout and stderr of rank 0 of `run_clm.py` as one terminal shows them: logger lines, dataset bars, the training
// bar redrawn with \r, log dicts written with tqdm.write (clear the bar, print, redraw), an evaluation bar with its
// cursor moves, the eval dict, the summary. Log every 10 steps of 40.
QByteArray realisticLog()
{
    QByteArray log =
        "[INFO|trainer.py:2128] 2024-05-01 12:00:00,000 >> ***** Running training *****\n"
        "[INFO|trainer.py:2129] 2024-05-01 12:00:00,000 >>   Num examples = 320\n"
        "[INFO|trainer.py:2131] 2024-05-01 12:00:00,000 >>   Total optimization steps = 40\n"
        "Running tokenizer on dataset: 100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 320/320 [00:00<00:00, 5012.3 examples/s]\n"
        "Loading checkpoint shards: 100%|\xe2\x96\x88\xe2\x96\x88| 2/2 [00:01<00:00,  1.50it/s]\n"
        "\r  0%|          | 0/40 [00:00<?, ?it/s]";
    for (int step = 1; step <= 40; ++step) {
        log += bar(step, 40);
        if (step % 10 == 0) {
            log += "\r" + QByteArray(60, ' ') + "\r";
            log += "{'loss': " + QByteArray::number(3.0 - step * 0.025) + ", 'grad_norm': 1.2345678, "
                   "'learning_rate': " + QByteArray::number(5e-05 * (1 - step / 40.0)) + ", 'epoch': "
                   + QByteArray::number(step / 40.0) + "}\n";
            log += bar(step, 40);
        }
        if (step == 20) {
            log += "\n\r  0%|          | 0/5 [00:00<?, ?it/s]\x1b[A\r 40%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                   "      | 2/5 [00:00<00:00, 12.30it/s]\x1b[A\r100%|\xe2\x96\x88| 5/5 [00:00<00:00, 12.31it/s]\x1b[A\r"
                   "{'eval_loss': 2.5012, 'eval_runtime': 0.41, 'eval_samples_per_second': 97.5, "
                   "'eval_steps_per_second': 12.2, 'epoch': 0.5}\n";
            log += bar(20, 40);
        }
    }
    log += "\r" + QByteArray(60, ' ') + "\r";
    log += "{'train_runtime': 48.1234, 'train_samples_per_second': 6.65, 'train_steps_per_second': 0.831, "
           "'train_loss': 2.6875, 'epoch': 1.0}\n";
    log += bar(40, 40) + "\n";
    log += "[INFO|trainer.py:3305] 2024-05-01 12:00:49,000 >> Saving model checkpoint to /tmp/out\n";
    return log;
}

QString digest(const QVector<MetricPoint> &points)
{
    QString s;
    for (const MetricPoint &p : points)
        s += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                 .arg(p.step)
                 .arg(p.loss, 0, 'g', 17)
                 .arg(p.learningRate, 0, 'g', 17)
                 .arg(p.gradNorm, 0, 'g', 17)
                 .arg(p.epoch, 0, 'g', 17)
                 .arg(p.tokensPerSecond, 0, 'g', 17);
    return s;
}

QString digest(TrainerLogParser &parser)
{
    parser.finish();
    QString s = digest(parser.takeMetrics());
    s += QStringLiteral("step %1/%2 eval %3 dropped %4\n")
             .arg(parser.step())
             .arg(parser.total())
             .arg(parser.evalCount())
             .arg(parser.droppedLines());
    if (const auto sum = parser.summary())
        s += QStringLiteral("summary %1 %2 %3 %4 %5\n")
                 .arg(sum->trainRuntime)
                 .arg(sum->trainLoss)
                 .arg(sum->samplesPerSecond)
                 .arg(sum->stepsPerSecond)
                 .arg(sum->epoch);
    return s;
}

QVector<MetricPoint> parseAll(const QByteArray &log)
{
    TrainerLogParser parser;
    parser.feed(log);
    parser.finish();
    return parser.takeMetrics();
}

std::optional<MetricPoint> parseOne(const QByteArray &line)
{
    const QVector<MetricPoint> points = parseAll(line + '\n');
    if (points.size() != 1)
        return std::nullopt;
    return points.first();
}

QByteArray nested(int depth)
{
    QByteArray s;
    for (int i = 0; i < depth; ++i)
        s += "{'a': ";
    s += "1";
    for (int i = 0; i < depth; ++i)
        s += "}";
    return s;
}

}  // namespace

class TestTrainerLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void realisticLog()
    {
        TrainerLogParser parser;
        parser.feed(::realisticLog(), 12.5);
        const QVector<MetricPoint> points = parser.takeMetrics();
        QCOMPARE(points.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const int step = (i + 1) * 10;
            QCOMPARE(points[i].step, qint64(step));
            QCOMPARE(points[i].loss, 3.0 - step * 0.025);
            QCOMPARE(points[i].learningRate, 5e-05 * (1 - step / 40.0));
            QCOMPARE(points[i].gradNorm, 1.2345678);
            QCOMPARE(points[i].epoch, step / 40.0);
            QCOMPARE(points[i].time, 12.5);
            QVERIFY(std::isnan(points[i].tokensPerSecond));
        }
        QVERIFY(parser.takeMetrics().isEmpty());  // taken
        QCOMPARE(parser.step(), qint64(40));
        QCOMPARE(parser.total(), qint64(40));
        QCOMPARE(parser.evalCount(), 1);
        QCOMPARE(parser.droppedLines(), qint64(0));
        QVERIFY(parser.summary().has_value());
        QCOMPARE(parser.summary()->trainRuntime, 48.1234);
        QCOMPARE(parser.summary()->trainLoss, 2.6875);
        QCOMPARE(parser.summary()->samplesPerSecond, 6.65);
        QCOMPARE(parser.summary()->stepsPerSecond, 0.831);
        QCOMPARE(parser.summary()->epoch, 1.0);
        QVERIFY(std::isnan(parser.summary()->tokensPerSecond));
    }

    // Byte by byte, at every split point in two, and in random chunks: the same points, progress and summary.
    void chunkingDoesNotMatter()
    {
        const QByteArray log = ::realisticLog();
        TrainerLogParser whole;
        whole.feed(log);
        const QString expected = digest(whole);
        QVERIFY(expected.contains(QStringLiteral("summary 48.1234")));

        TrainerLogParser bytewise;
        for (char c : log)
            bytewise.feed(QByteArray(1, c));
        QCOMPARE(digest(bytewise), expected);

        for (int split = 0; split <= log.size(); ++split) {
            TrainerLogParser two;
            two.feed(log.left(split));
            two.feed(log.mid(split));
            const QString got = digest(two);
            if (got != expected)
                QFAIL(qPrintable(QStringLiteral("split at %1 gives\n%2").arg(split).arg(got)));
        }

        QRandomGenerator random(42);
        for (int round = 0; round < 200; ++round) {
            TrainerLogParser chunked;
            for (int at = 0; at < log.size();) {
                const int n = random.bounded(1, 200);
                chunked.feed(log.mid(at, n));
                at += n;
            }
            QCOMPARE(digest(chunked), expected);
        }
    }

    void stepRule()
    {
        // No bar seen: dicts are numbered 1, 2, 3.
        TrainerLogParser plain;
        plain.feed("{'loss': 2.0}\n{'loss': 1.9}\n{'eval_loss': 2.0}\n{'learning_rate': 1e-05}\n");
        QVector<MetricPoint> points = plain.takeMetrics();
        QCOMPARE(points.size(), 3);
        QCOMPARE(points[0].step, qint64(1));
        QCOMPARE(points[1].step, qint64(2));
        QCOMPARE(points[2].step, qint64(3));
        QCOMPARE(plain.step(), qint64(-1));

        // The latest training bar, even when it came from the other stream just before.
        TrainerLogParser mixed;
        mixed.feed("\r  5%|5         | 5/100 [00:05<01:35,  1.00it/s]");
        mixed.feed("{'loss': 2.0}\n");
        mixed.feed("\r  7%|7         | 7/100 [00:07<01:33,  1.00it/s]\r{'loss': 1.5}\n");
        // A dataset bar (description) and an evaluation bar (another total) leave the step alone.
        mixed.feed("Map:  50%|#####     | 500/1000 [00:01<00:01, 500.0 examples/s]\n");
        mixed.feed("\r 40%|####      | 2/5 [00:00<00:00, 12.30it/s]\n{'loss': 1.4}\n");
        // A dict with its own step keeps it.
        mixed.feed("{'loss': 1.3, 'step': 250}\n");
        points = mixed.takeMetrics();
        QCOMPARE(points.size(), 4);
        QCOMPARE(points[0].step, qint64(5));
        QCOMPARE(points[1].step, qint64(7));
        QCOMPARE(points[2].step, qint64(7));
        QCOMPARE(points[3].step, qint64(250));
        QCOMPARE(mixed.step(), qint64(7));
        QCOMPARE(mixed.total(), qint64(100));

        // stdout and stderr fed apart: the bar on stderr is not ended until its next redraw, yet it counts.
        TrainerLogParser streams;
        streams.feed("\r 10%|#   | 10/100 [00:05<00:45,  2.00it/s]", 1.0, TrainerLogParser::Stderr);
        streams.feed("{'loss': 2.0}\n", 1.5, TrainerLogParser::Stdout);
        streams.feed("\r 20%|##  | 20/100 [00:10<00:40,  2.00it/s]", 2.0, TrainerLogParser::Stderr);
        streams.feed("{'loss': 1.8", 2.0, TrainerLogParser::Stdout);
        streams.feed("}\n", 2.5, TrainerLogParser::Stdout);
        QVERIFY(streams.bufferedBytes(TrainerLogParser::Stderr) > 0);
        QCOMPARE(streams.bufferedBytes(TrainerLogParser::Stdout), qsizetype(0));
        points = streams.takeMetrics();
        QCOMPARE(points.size(), 2);
        QCOMPARE(points[0].step, qint64(10));
        QCOMPARE(points[0].time, 1.5);
        QCOMPARE(points[1].step, qint64(20));
        QCOMPARE(points[1].time, 2.5);
        QCOMPARE(points[1].loss, 1.8);

        // Bars without a total (`12it [...]`) and without a percent (`12/100 [...]`).
        TrainerLogParser forms;
        forms.feed("\r12it [00:05,  2.17it/s]\r{'loss': 1.0}\n");
        QCOMPARE(forms.step(), qint64(12));
        QCOMPARE(forms.total(), qint64(-1));
        QCOMPARE(forms.takeMetrics().value(0).step, qint64(12));
        TrainerLogParser noPercent;
        noPercent.feed("12/100 [00:05<00:40,  2.17it/s]\n");
        QCOMPARE(noPercent.step(), qint64(12));
        QCOMPARE(noPercent.total(), qint64(100));
    }

    void dictValues_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<double>("loss");
        QTest::addColumn<double>("learningRate");
        QTest::addColumn<double>("gradNorm");
        const double nan = MetricPoint::none;
        QTest::newRow("plain") << QByteArray("{'loss': 2.3456, 'grad_norm': 1.25, 'learning_rate': 4.5e-05, 'epoch': 0.01}")
                               << 2.3456 << 4.5e-05 << 1.25;
        QTest::newRow("any order, ints")
            << QByteArray("{'epoch': 1, 'learning_rate': 0, 'loss': 3}") << 3.0 << 0.0 << nan;
        QTest::newRow("double quotes") << QByteArray("{\"loss\": 1.5, \"grad_norm\": 2}") << 1.5 << nan << 2.0;
        QTest::newRow("numpy") << QByteArray("{'loss': np.float64(2.5), 'grad_norm': np.float32(-0.5)}") << 2.5 << nan
                               << -0.5;
        QTest::newRow("tensor") << QByteArray("{'loss': 2.0, 'grad_norm': tensor(3.5, device='xla:0')}") << 2.0
                                << nan << 3.5;
        QTest::newRow("nan") << QByteArray("{'loss': nan, 'grad_norm': inf}") << nan << nan << HUGE_VAL;
        QTest::newRow("-inf") << QByteArray("{'loss': -inf, 'grad_norm': +1e+3}") << -HUGE_VAL << nan << 1000.0;
        QTest::newRow("numeric string") << QByteArray("{'loss': '2.25', 'note': 'it\\'s fine', 'x': None}") << 2.25
                                        << nan << nan;
        QTest::newRow("bools") << QByteArray("{'loss': 1.0, 'skipped': True, 'ok': False}") << 1.0 << nan << nan;
        QTest::newRow("trailing comma, spaces") << QByteArray("   {'loss': 1.0 , }  ") << 1.0 << nan << nan;
    }
    void dictValues()
    {
        QFETCH(QByteArray, line);
        QFETCH(double, loss);
        QFETCH(double, learningRate);
        QFETCH(double, gradNorm);
        const auto p = parseOne(line);
        QVERIFY(p.has_value());
        auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
        QVERIFY2(same(p->loss, loss), qPrintable(QString::number(p->loss)));
        QVERIFY2(same(p->learningRate, learningRate), qPrintable(QString::number(p->learningRate)));
        QVERIFY2(same(p->gradNorm, gradNorm), qPrintable(QString::number(p->gradNorm)));
    }

    void linesThatAreNoDicts_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("logger prefix") << QByteArray("INFO: {'loss': 1.0}");
        QTest::newRow("text after") << QByteArray("{'loss': 1.0} done");
        QTest::newRow("nested dict") << QByteArray("{'loss': 1.0, 'extra': {'a': 1}}");
        QTest::newRow("list") << QByteArray("{'loss': [1.0]}");
        QTest::newRow("unterminated string") << QByteArray("{'loss: 1.0}");
        QTest::newRow("escaped quote to the end") << QByteArray("{'loss': 'abc\\'}");
        QTest::newRow("missing colon") << QByteArray("{'loss' 1.0}");
        QTest::newRow("missing comma") << QByteArray("{'loss': 1.0 'grad_norm': 2.0}");
        QTest::newRow("unquoted key") << QByteArray("{loss: 1.0}");
        QTest::newRow("unknown name") << QByteArray("{'loss': foo}");
        QTest::newRow("unclosed wrapper") << QByteArray("{'loss': np.float64(1.0}");
        QTest::newRow("no known key") << QByteArray("{'foo': 1.0}");
        QTest::newRow("empty") << QByteArray("{}");
        QTest::newRow("eval") << QByteArray("{'eval_loss': 1.0, 'epoch': 1.0}");
        QTest::newRow("number soup") << QByteArray("{'loss': 1.2.3e}");
        QTest::newRow("overflowing number") << QByteArray("{'loss': 1e999}");
        QTest::newRow("bar before a non-dict") << QByteArray(" 5%|#| 5/100 [00:01<00:09] {'loss': 1.0");
        QTest::newRow("text before a bar") << QByteArray("x 5%|#| 5/100 [00:01<00:09]{'loss': 1.0}");
        QTest::newRow("long number") << QByteArray("{'loss': ") + QByteArray(100, '1') + "}";
    }
    void linesThatAreNoDicts()
    {
        QFETCH(QByteArray, line);
        QVERIFY(parseAll(line + '\n').isEmpty());
    }

    void hostileInput()
    {
        TrainerLogParser parser;
        // 1 MB without a separator, in chunks: never more than one line's worth kept, then dropped at the separator.
        const QByteArray chunk(4096, 'x');
        for (int i = 0; i < 256; ++i) {
            parser.feed(chunk);
            QVERIFY(parser.bufferedBytes() <= TrainerLogParser::maxLineBytes);
        }
        QCOMPARE(parser.droppedLines(), qint64(1));
        parser.feed("}\n{'loss': 1.0}\n");
        QCOMPARE(parser.takeMetrics().size(), 1);
        QCOMPARE(parser.bufferedBytes(), qsizetype(0));

        // The same 1 MB line in one piece, ending like a dict: dropped, counted once.
        parser.feed("{'loss': 1.0, 'pad': '" + QByteArray(1 << 20, 'a') + "'}\n");
        QCOMPARE(parser.droppedLines(), qint64(2));
        QVERIFY(parser.takeMetrics().isEmpty());

        // Deep nesting, within the line limit and past it.
        parser.feed(nested(10000) + "\n");
        parser.feed(nested(5000) + "\n");
        QVERIFY(parser.takeMetrics().isEmpty());
        parser.feed(QByteArray(1 << 20, '{') + "\n" + QByteArray(60000, '{') + QByteArray(60000, '}') + "\n");
        QVERIFY(parser.takeMetrics().isEmpty());

        // NUL bytes and invalid UTF-8 inside dicts, bars and keys.
        parser.feed(QByteArray("{'loss': 1.0, '") + '\0' + "\xff': 2}\n");
        parser.feed(QByteArray("{'loss") + '\0' + "': 1.0}\n");
        parser.feed("{'loss': 1.\xff}\n\xff\xfe\xfd\n\r 10%|\xff\xc3| 10/100 [00:01<00:09, 9.9it/s]\r");
        parser.feed(QByteArray("\r 99%|") + '\0' + '\0' + "| 99/100 [\n");
        const QVector<MetricPoint> points = parser.takeMetrics();
        QCOMPARE(points.size(), 1);  // only the first: a NUL in a key is just another key
        QCOMPARE(points[0].loss, 1.0);
        QCOMPARE(parser.step(), qint64(99));

        // Progress numbers that do not fit, and a total that is not a number.
        TrainerLogParser bars;
        bars.feed("\r 10%|#| 99999999999999999999/100 [00:01<00:09]\r 10%|#| 5/1e9 [\r|| 5/5 [\r");
        QCOMPARE(bars.step(), qint64(-1));

        // Many short lines: one point each, nothing else kept.
        TrainerLogParser many;
        many.feed(QByteArray("{'loss': 1}\n").repeated(100000));
        QCOMPARE(many.takeMetrics().size(), 100000);
        QCOMPARE(many.bufferedBytes(), qsizetype(0));
    }

    void trainerState()
    {
        // As transformers writes it (json.dump, sort_keys, NaN allowed), a run resumed twice, with an eval entry.
        const QByteArray json = R"({
  "best_metric": null,
  "best_model_checkpoint": null,
  "epoch": 1.0,
  "eval_steps": 20,
  "global_step": 40,
  "is_hyper_param_search": false,
  "is_local_process_zero": true,
  "is_world_process_zero": true,
  "log_history": [
    {"epoch": 0.25, "grad_norm": 1.2345678, "learning_rate": 3.75e-05, "loss": 2.75, "step": 10},
    {"epoch": 0.5, "grad_norm": NaN, "learning_rate": 2.5e-05, "loss": 2.5, "step": 20},
    {"epoch": 0.5, "eval_loss": 2.5012, "eval_runtime": 0.41, "eval_samples_per_second": 97.5, "step": 20},
    {"epoch": 0.75, "grad_norm": Infinity, "learning_rate": 1.25e-05, "loss": NaN, "step": 30},
    {"epoch": 1.0, "grad_norm": -Infinity, "learning_rate": 0.0, "loss": 2.0, "step": 40, "note": "NaN Infinity"},
    {"epoch": 1.0, "step": 40, "total_flos": 1.2e+16, "train_loss": 2.4, "train_runtime": 48.1,
     "train_samples_per_second": 6.65, "train_steps_per_second": 0.831}
  ],
  "logging_steps": 10,
  "max_steps": 40,
  "num_train_epochs": 1,
  "save_steps": 500,
  "train_batch_size": 8,
  "trial_name": null,
  "trial_params": null
})";
        QString error;
        const auto state = parseTrainerState(json, &error);
        QVERIFY2(state.has_value(), qPrintable(error));
        QCOMPARE(state->globalStep, qint64(40));
        QCOMPARE(state->maxSteps, qint64(40));
        QCOMPARE(state->points.size(), 4);
        QCOMPARE(state->points[0].step, qint64(10));
        QCOMPARE(state->points[0].loss, 2.75);
        QCOMPARE(state->points[0].gradNorm, 1.2345678);
        QCOMPARE(state->points[0].learningRate, 3.75e-05);
        QCOMPARE(state->points[0].epoch, 0.25);
        QVERIFY(std::isnan(state->points[1].gradNorm));
        QVERIFY(std::isnan(state->points[2].loss));
        QCOMPARE(state->points[2].step, qint64(30));
        QCOMPARE(state->points[3].loss, 2.0);
        QVERIFY(state->summary.has_value());
        QCOMPARE(state->summary->trainRuntime, 48.1);
        QCOMPARE(state->summary->trainLoss, 2.4);
        QCOMPARE(state->skippedEntries, 0);

        // Truncated anywhere: an error, never a crash.
        for (int cut = 0; cut < json.size(); cut += 7)
            QVERIFY(!parseTrainerState(json.left(cut)).has_value());
    }

    void trainerStateShapes_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("skipped");
        QTest::newRow("not json") << QByteArray("loss: 1") << false << 0 << 0;
        QTest::newRow("empty") << QByteArray() << false << 0 << 0;
        QTest::newRow("array") << QByteArray("[{\"loss\": 1, \"step\": 1}]") << false << 0 << 0;
        QTest::newRow("history not an array") << QByteArray("{\"log_history\": {\"loss\": 1}}") << false << 0 << 0;
        QTest::newRow("history a string") << QByteArray("{\"log_history\": \"[]\"}") << false << 0 << 0;
        QTest::newRow("no history") << QByteArray("{\"global_step\": 5}") << true << 0 << 0;
        QTest::newRow("entries not objects")
            << QByteArray("{\"log_history\": [1, \"x\", null, [], {\"loss\": 1, \"step\": 2}]}") << true << 1 << 4;
        QTest::newRow("wrong types")
            << QByteArray("{\"log_history\": [{\"loss\": \"1\", \"step\": 1}, {\"loss\": 1, \"step\": \"2\"},"
                          " {\"loss\": 1}, {\"loss\": 1, \"step\": -3}, {\"loss\": 1, \"step\": 2.5},"
                          " {\"loss\": 1, \"step\": 4, \"learning_rate\": \"x\", \"epoch\": {}}],"
                          " \"global_step\": \"40\", \"max_steps\": -1}")
            << true << 1 << 5;
        QTest::newRow("deep nesting") << QByteArray(100000, '[') << false << 0 << 0;
        QTest::newRow("deep history")
            << QByteArray("{\"log_history\": ") + QByteArray(5000, '[') + QByteArray(5000, ']') + "}" << false << 0 << 0;
    }
    void trainerStateShapes()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, ok);
        QFETCH(int, points);
        QFETCH(int, skipped);
        QString error;
        const auto state = parseTrainerState(json, &error);
        QCOMPARE(state.has_value(), ok);
        QCOMPARE(error.isEmpty(), ok);
        if (state) {
            QCOMPARE(state->points.size(), points);
            QCOMPARE(state->skippedEntries, skipped);
        }
    }

    void trainerStateWrongTypesKeepWhatIsRight()
    {
        const auto state = parseTrainerState(
            "{\"log_history\": [{\"loss\": 1.5, \"step\": 4, \"learning_rate\": \"x\", \"epoch\": {}}],"
            " \"global_step\": \"40\", \"max_steps\": 1e30}");
        QVERIFY(state.has_value());
        QCOMPARE(state->points.size(), 1);
        QCOMPARE(state->points[0].loss, 1.5);
        QVERIFY(std::isnan(state->points[0].learningRate));
        QVERIFY(std::isnan(state->points[0].epoch));
        QCOMPARE(state->globalStep, qint64(-1));
        QCOMPARE(state->maxSteps, qint64(-1));
    }
};

QTEST_GUILESS_MAIN(TestTrainerLog)
#include "tst_trainerlog.moc"
