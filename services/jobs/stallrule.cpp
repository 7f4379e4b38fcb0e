#include "services/jobs/stallrule.h"

#include <algorithm>
#include <cmath>

namespace ingot {

double stallThreshold(const QVector<double> &stepIntervals, double thresholdOverride)
{
    if (thresholdOverride > 0)
        return thresholdOverride;
    QVector<double> recent;
    const qsizetype first = std::max<qsizetype>(0, stepIntervals.size() - stallIntervalsKept);
    for (qsizetype i = first; i < stepIntervals.size(); ++i)
        if (std::isfinite(stepIntervals.at(i)) && stepIntervals.at(i) >= 0)
            recent << stepIntervals.at(i);
    if (recent.isEmpty())
        return stallMinimumSeconds;
    const auto mid = recent.begin() + recent.size() / 2;
    std::nth_element(recent.begin(), mid, recent.end());
    double median = *mid;
    if (recent.size() % 2 == 0)
        median = (median + *std::max_element(recent.begin(), mid)) / 2;
    return std::max(stallMinimumSeconds, stallStepFactor * median);
}

StallVerdict stallRule(const StallFacts &f)
{
    StallVerdict v;
    if (f.lastStepAt <= 0)
        return v;
    v.thresholdSeconds = stallThreshold(f.stepIntervals, f.thresholdOverride);
    v.silentSeconds = std::max(0.0, f.now - f.lastStepAt);
    v.stalled = f.running && f.alive && v.silentSeconds > v.thresholdSeconds;
    return v;
}

bool parseStallDuration(const QString &text, double *seconds)
{
    QString t = text.trimmed();
    double unit = 1;
    if (t.endsWith(QLatin1Char('s')))
        t.chop(1);
    else if (t.endsWith(QLatin1Char('m')))
        unit = 60, t.chop(1);
    else if (t.endsWith(QLatin1Char('h')))
        unit = 3600, t.chop(1);
    bool ok = false;
    const double v = t.toDouble(&ok) * unit;
    if (!ok || !std::isfinite(v) || v <= 0 || v > 30 * 86400.0)
        return false;
    *seconds = v;
    return true;
}

}  // namespace ingot
