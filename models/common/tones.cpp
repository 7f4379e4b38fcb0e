#include "models/common/tones.h"

#include <QGuiApplication>
#include <QPalette>

#include <cmath>

namespace ingot {

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

bool isDarkPalette()
{
    return isDarkPalette(QGuiApplication::palette());
}

QColor toneTextColor(Tone tone, bool dark)
{
    switch (tone) {
    case Tone::Good: return dark ? QColor(0x5f, 0xd3, 0x8a) : QColor(0x1b, 0x7a, 0x3a);
    case Tone::Bad: return dark ? QColor(0xff, 0x7b, 0x7b) : QColor(0xc6, 0x28, 0x28);
    case Tone::Warning: return dark ? QColor(0xf0, 0xb0, 0x50) : QColor(0x9a, 0x5b, 0x00);
    case Tone::Busy: return dark ? QColor(0xb8, 0xa4, 0xf5) : QColor(0x6a, 0x4f, 0xc0);
    case Tone::Neutral: return dark ? QColor(0xa8, 0xa8, 0xa8) : QColor(0x6b, 0x6b, 0x6b);
    case Tone::Info: return dark ? QColor(0x8f, 0xb8, 0xec) : QColor(0x2f, 0x5f, 0x9a);
    }
    return dark ? QColor(Qt::white) : QColor(Qt::black);
}

QColor toneTextColor(Tone tone)
{
    return toneTextColor(tone, isDarkPalette());
}

QColor toneFillColor(Tone tone)
{
    switch (tone) {
    case Tone::Good: return QColor(0x2e, 0x9e, 0x4f);
    case Tone::Bad: return QColor(0xd6, 0x3a, 0x3a);
    case Tone::Warning: return QColor(0xe0, 0x8e, 0x1b);
    case Tone::Busy: return QColor(0x8a, 0x6f, 0xd1);
    case Tone::Neutral: return QColor(0x9a, 0x9a, 0x9a);
    case Tone::Info: return QColor(0x3b, 0x7d, 0xd8);
    }
    return Qt::gray;
}

namespace {
double channel(double c)
{
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor &c)
{
    const QColor rgb = c.toRgb();
    return 0.2126 * channel(rgb.redF()) + 0.7152 * channel(rgb.greenF()) + 0.0722 * channel(rgb.blueF());
}
}  // namespace

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace ingot
