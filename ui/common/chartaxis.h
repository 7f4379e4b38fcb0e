// The printf format of a value axis's tick labels, chosen from the distance between ticks so that neighbouring
// ticks never print the same text (0.00084, 0.00084, 0.00083 …): enough decimals, or an exponent for very small or
// very large values.
#pragma once

#include <QString>

namespace ingot {

// `interval`: the distance between two ticks; `largest`: the largest absolute value on the axis.
QString tickLabelFormat(double interval, double largest);

// A tick interval of 1, 2 or 5 × 10^k over [min, max] for ticks anchored at 0: about `wanted` ticks, and never more
// than `most` in the range (closer ticks than their labels need: QtCharts elides such labels to "..." or hides every
// other one, which read 0.0010, 0.0006, 0.0004, 0.0000).
double niceTickInterval(double min, double max, int wanted, int most);
// An axis's range and tick interval: [min, max] as given with niceTickInterval's ticks, unless fewer than two ticks
// would fall in it (a chart too short for three labels over a narrow range): then the range widens to whole
// intervals, so that two ticks at least are labelled.
struct NiceAxis {
    double min = 0, max = 1, interval = 1;
};
NiceAxis niceAxis(double min, double max, int wanted, int most);
// How many ticks at 0, k × interval fall in [min, max].
int ticksWithin(double min, double max, double interval);
// The most ticks an axis `length` px long can label with labels `labelSize` px long (their height on a vertical
// axis, their width on a horizontal one): QtCharts gives each label length / ticks less 8 px of padding.
int mostTicksFor(double length, double labelSize);

}  // namespace ingot
