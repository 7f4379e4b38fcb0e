#pragma once

#include "models/common/tones.h"
#include "services/cache/cachetypes.h"

#include <QColor>
#include <QIcon>

namespace ingot {

Tone stateTone(ModuleState s);
// A state's text colour for the application's palette (light or dark: models/common/tones.h); icons are small
// filled dots of the state's fill colour.
QColor stateColor(ModuleState s);
QIcon stateIcon(ModuleState s);
QString stateLabel(ModuleState s);  // translated, for people ("Failed"); stateName() is for machines

}  // namespace ingot
