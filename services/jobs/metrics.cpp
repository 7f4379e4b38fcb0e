#include "services/jobs/metrics.h"

#include <cmath>

namespace ingot {

double metricValue(const MetricPoint &p, MetricKind kind)
{
    switch (kind) {
    case MetricKind::Loss: return p.loss;
    case MetricKind::LearningRate: return p.learningRate;
    case MetricKind::GradNorm: return p.gradNorm;
    case MetricKind::Throughput: return p.tokensPerSecond;
    }
    return MetricPoint::none;
}

QJsonValue jsonNumber(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

double jsonNumberOr(const QJsonValue &v, double fallback)
{
    return v.isDouble() ? v.toDouble() : fallback;
}

}  // namespace ingot
