// Hugging Face Trainer logs (user scripts): placeholder API, replaced by the charts branch.
#pragma once

#include "services/jobs/metrics.h"

#include <QByteArray>

namespace ingot {

class TrainerLogParser
{
public:
    void feed(const QByteArray &bytes) { Q_UNUSED(bytes); }
    QVector<MetricPoint> takeMetrics() { return {}; }
    qint64 step() const { return -1; }
    qint64 total() const { return -1; }
};

}  // namespace ingot
