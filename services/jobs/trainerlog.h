// A Hugging Face Trainer's output (a user's own run_clm.py and the like) read into MetricPoints: the console log
// (log dicts printed as Python reprs, tqdm progress, the final summary) fed incrementally, and trainer_state.json.
#pragma once

#include "services/jobs/metrics.h"

#include <QByteArray>
#include <QString>
#include <QVector>

#include <optional>

class QJsonObject;

namespace ingot {

// The dict the Trainer prints once training ends ({'train_runtime': …, 'train_loss': …}). NaN = absent.
struct TrainerSummary {
    double trainRuntime = MetricPoint::none;  // seconds
    double trainLoss = MetricPoint::none;
    double samplesPerSecond = MetricPoint::none;
    double stepsPerSecond = MetricPoint::none;
    double tokensPerSecond = MetricPoint::none;
    double epoch = MetricPoint::none;
};

// Reads one stream (or, better, stdout and stderr of rank 0 fed into one parser in arrival order) chunk by chunk.
// Lines end at '\n' or '\r' (tqdm redraws its bar with '\r'); a line longer than maxLineBytes is dropped up to the
// next separator, so memory stays bounded whatever arrives. What a line may be:
//  - a log dict, the whole stripped line `{'loss': 2.34, 'grad_norm': 1.2, 'learning_rate': 4.5e-05, 'epoch': 0.01}`:
//    a MetricPoint. Flat dicts only (a nested value drops the line); values may be numbers, nan/inf, numeric
//    strings, np.float64(…)/tensor(…, device=…) wrappers; other values are ignored.
//  - the summary dict (it has train_runtime): summary().
//  - an eval or predict dict (eval_*/test_* keys): counted in evalCount(), not a training point.
//  - a TorchTitan step line (torchtitanlog.h): a MetricPoint with its own step.
//  - the training bar `  12%|█▏   | 12/100 [00:05<00:40,  2.17it/s]` (or `12it [00:05, 2.17it/s]`): step()/total().
//    Only bars without a description count ("Map: 50%|…" is a dataset bar), and once the training bar's total is
//    known, bars with another total (the evaluation loop's) are ignored.
// The step of a log dict: the dict's own 'step' if it has one, else the latest training-bar step seen by this
// parser, else (no bar seen) 1, 2, 3, … in order of the dicts. A bar counts as soon as its `N/M [` has arrived, even
// before the next redraw ends its line, and a bar and a dict on one line (two streams written to one terminal) are
// read in that order. The bar may lag by one redraw (tqdm throttles its redraws), and a piped Python stdout is
// block-buffered: launch with PYTHONUNBUFFERED=1 so dicts arrive in time.
class TrainerLogParser final
{
public:
    static constexpr int maxLineBytes = 64 * 1024;
    enum Stream { Stdout, Stderr };

    // Bytes of one stream, in arrival order; each stream keeps its own unterminated line. `time`: when these bytes
    // arrived (seconds since the job started), given to the points they complete.
    void feed(const QByteArray &bytes, double time = MetricPoint::none, Stream stream = Stdout);
    // End of the streams: each unterminated last line, if any, is read as a line.
    void finish(double time = MetricPoint::none);

    // The points recognised since the last call, in order.
    QVector<MetricPoint> takeMetrics();
    std::optional<TrainerSummary> summary() const { return m_summary; }
    qint64 step() const { return m_step; }    // latest training-bar step, -1 unknown
    qint64 total() const { return m_total; }  // its total, -1 unknown
    int evalCount() const { return m_evalCount; }
    qint64 droppedLines() const { return m_droppedLines; }  // lines over maxLineBytes
    // The unterminated line kept for a stream, <= maxLineBytes.
    qsizetype bufferedBytes(Stream stream = Stdout) const { return m_buffers[stream].partial.size(); }

    // What the parser has read so far, to go on later from the same place (a job status saved between two runs of
    // ingot-cli): the unterminated lines, the bar's step and total, the counters and the summary. Points not yet
    // taken are not part of it. restoreState() takes back what saveState() wrote; anything else (another shape, a
    // line over maxLineBytes) leaves the parser unchanged and returns false.
    QJsonObject saveState() const;
    bool restoreState(const QJsonObject &o);

private:
    struct Buffer {
        QByteArray partial;
        bool discarding = false;  // inside an over-long line: drop bytes up to the next separator
    };
    void line(const char *begin, const char *end, double time);
    bool progress(const char *begin, const char *end);
    void dict(const char *begin, const char *end, double time);

    Buffer m_buffers[2];
    QVector<MetricPoint> m_metrics;
    std::optional<TrainerSummary> m_summary;
    qint64 m_step = -1;
    qint64 m_total = -1;
    qint64 m_dictCount = 0;
    int m_evalCount = 0;
    qint64 m_droppedLines = 0;
};

// trainer_state.json as transformers writes it (json.dump with NaN/Infinity allowed, which Ingot reads as absent).
struct TrainerState {
    QVector<MetricPoint> points;  // log_history entries with a loss, in file order
    qint64 globalStep = -1;       // -1: absent
    qint64 maxSteps = -1;
    std::optional<TrainerSummary> summary;  // the entry with train_runtime
    int skippedEntries = 0;                 // entries that were not objects or had no usable step
};

// Fails (nullopt, *error says why) on a document that is not JSON, not an object, over 256 MiB, or whose
// log_history is there but not an array; entries of the wrong shape are skipped and counted.
std::optional<TrainerState> parseTrainerState(const QByteArray &json, QString *error = nullptr);

}  // namespace ingot
