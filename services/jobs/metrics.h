// What a training job reports, as Ingot keeps it: one MetricPoint per logged step, from the backend's INGOT_METRIC
// lines or a Hugging Face Trainer's log (trainerlog.h). Absent values are NaN (or -1 for memory).
#pragma once

#include <QJsonValue>
#include <QtGlobal>
#include <QVector>

#include <limits>

namespace ingot {

struct MetricPoint {
    static constexpr double none = std::numeric_limits<double>::quiet_NaN();
    qint64 step = 0;
    double time = none;  // seconds since the job started (wall clock)
    double loss = none;
    double learningRate = none;
    double gradNorm = none;
    double tokensPerSecond = none;
    double stepTime = none;  // seconds
    double epoch = none;
    qint64 peakMemory = -1;  // bytes, rank 0
};

// The quantities a chart can show.
enum class MetricKind { Loss, LearningRate, GradNorm, Throughput };
double metricValue(const MetricPoint &p, MetricKind kind);  // NaN when the point has none

// Numbers in Ingot's JSON (summary.json, a status, saved follower state): an absent value (NaN, infinite) is null,
// and null or anything that is not a number reads back as `fallback`.
QJsonValue jsonNumber(double v);
double jsonNumberOr(const QJsonValue &v, double fallback);

}  // namespace ingot
