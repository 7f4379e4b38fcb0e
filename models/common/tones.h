// The colours that say a state (success, failure, a lock, work under way, …), in one place for every model, view
// and chart, with variants readable on light and on dark palettes.
#pragma once

#include <QColor>

class QPalette;

namespace ingot {

enum class Tone { Good, Bad, Warning, Busy, Neutral, Info };
inline constexpr int ToneCount = 6;

// A palette is dark when its Base (the background of lists and text) is darker than mid-grey.
bool isDarkPalette(const QPalette &palette);
bool isDarkPalette();  // the application's palette

// Text in this tone: at least 4.5:1 (WCAG AA) against the Base and AlternateBase colours of Ingot's light and dark
// palettes (tst_tones checks it).
QColor toneTextColor(Tone tone, bool dark);
QColor toneTextColor(Tone tone);  // for the application's palette
// Fills (state dots, bars): mid-tones that stand out on light and dark backgrounds alike.
QColor toneFillColor(Tone tone);

// The WCAG 2 contrast ratio of two colours, 1 to 21.
double contrastRatio(const QColor &a, const QColor &b);

}  // namespace ingot
