// The app's appearance: the system's look, or Fusion with a light or a dark palette (Settings ▸ Appearance).
#pragma once

#include "models/common/tones.h"

#include <QString>

class QPalette;
class QWidget;

namespace ingot {

enum class Appearance { System, Light, Dark };

// "system", "light", "dark" (as AppSettings stores it); anything else is System.
Appearance appearanceFromName(const QString &name);
QString appearanceName(Appearance appearance);

QPalette lightPalette();
QPalette darkPalette();

// Applies it to the running application: System restores the style and palette the app started with; Light and
// Dark use the Fusion style with Ingot's palettes. Widgets get a PaletteChange and repaint.
void applyAppearance(Appearance appearance);

// Draws `label`'s text (a QLabel, a check box, …) in `tone`, for the light or dark palette, now and whenever the
// palette changes.
void setToneText(QWidget *widget, Tone tone);

}  // namespace ingot
