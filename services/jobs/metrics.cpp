#include "services/jobs/metrics.h"

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

}  // namespace ingot
