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
