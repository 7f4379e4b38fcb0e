#include "ui/common/chartaxis.h"

#include <algorithm>
#include <cmath>

namespace ingot {

namespace {

// The fewest decimals that write `v` (> 0) exactly enough: 0.25 → 2, 5 → 0, 0.1 → 1.
int decimalsOf(double v)
{
    for (int d = 0; d < 12; ++d) {
        const double scaled = v * std::pow(10.0, d);
        if (std::abs(scaled - std::round(scaled)) <= 1e-6 * scaled)
            return d;
    }
    return 12;
}

}  // namespace

int ticksWithin(double min, double max, double interval)
{
    if (!(interval > 0) || !std::isfinite(interval) || !std::isfinite(min) || !std::isfinite(max) || max < min)
        return 0;
    const double first = std::ceil(min / interval - 1e-9);
    const double last = std::floor(max / interval + 1e-9);
    return last >= first ? int(std::min(1e6, last - first + 1)) : 0;
}

double niceTickInterval(double min, double max, int wanted, int most)
{
    const double span = max - min;
    if (!(span > 0) || !std::isfinite(span))
        return 1;
    const double raw = span / std::max(1, wanted);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / magnitude;
    double interval = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * magnitude;
    // Wider steps (1 → 2 → 5 → 10) until the ticks fit; two ticks at least stay wherever two fit.
    for (int i = 0; i < 60 && ticksWithin(min, max, interval) > std::max(2, most); ++i) {
        const double m = std::pow(10.0, std::floor(std::log10(interval) + 1e-9));
        const double step = std::round(interval / m);
        interval = (step < 2 ? 2 : step < 5 ? 5 : 10) * m;
    }
    return interval;
}

NiceAxis niceAxis(double min, double max, int wanted, int most)
{
    NiceAxis a{min, max, niceTickInterval(min, max, wanted, most)};
    if (ticksWithin(min, max, a.interval) >= 2 || !(max > min) || !std::isfinite(max - min))
        return a;
    // Too short for the ticks a round interval puts in the range: the range grows at one end (the one that moves
    // least), or both, to the next whole interval, with the finest interval that then gives two ticks that fit.
    most = std::max(2, most);
    for (double interval = niceTickInterval(min, max, 2, 1000), i = 0; i < 60; ++i) {
        const double lo = std::floor(min / interval) * interval, hi = std::ceil(max / interval) * interval;
        const int n = ticksWithin(min, max, interval);
        if (n >= 2 && n <= most)
            return {min, max, interval};
        if (n < 2) {
            const bool loFits = ticksWithin(lo, max, interval) >= 2, hiFits = ticksWithin(min, hi, interval) >= 2;
            if (loFits && (!hiFits || min - lo <= hi - max))
                return {lo, max, interval};
            if (hiFits)
                return {min, hi, interval};
            if (ticksWithin(lo, hi, interval) <= most)
                return {lo, hi, interval};
        }
        const double m = std::pow(10.0, std::floor(std::log10(interval) + 1e-9));
        const double step = std::round(interval / m);
        interval = (step < 2 ? 2 : step < 5 ? 5 : 10) * m;
    }
    return a;
}

int mostTicksFor(double length, double labelSize)
{
    constexpr double padding = 2 * 4 + 2;  // QtCharts' label padding on both sides, and a pixel of rounding each
    if (!(length > 0) || !(labelSize > 0))
        return 5;
    return std::max(1, int(length / (labelSize + padding)));
}

QString tickLabelFormat(double interval, double largest)
{
    if (!(interval > 0) || !std::isfinite(interval))
        return QStringLiteral("%g");
    largest = std::isfinite(largest) ? std::abs(largest) : 0;
    const double scale = std::max(largest, interval);
    const int decimals = decimalsOf(interval);
    if (decimals > 6 || scale >= 1e7) {
        // d.ddd e±NN: the interval in units of the largest value's power of ten.
        const double unit = std::pow(10.0, std::floor(std::log10(scale)));
        return QStringLiteral("%.%1e").arg(decimalsOf(interval / unit));
    }
    return QStringLiteral("%.%1f").arg(decimals);
}

}  // namespace ingot
