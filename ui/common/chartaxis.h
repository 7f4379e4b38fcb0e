// The printf format of a value axis's tick labels, chosen from the distance between ticks so that neighbouring
// ticks never print the same text (0.00084, 0.00084, 0.00083 …): enough decimals, or an exponent for very small or
// very large values.
#pragma once

#include <QString>

namespace ingot {

// `interval`: the distance between two ticks; `largest`: the largest absolute value on the axis.
QString tickLabelFormat(double interval, double largest);

}  // namespace ingot
