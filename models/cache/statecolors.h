#pragma once

#include "services/cache/cachetypes.h"

#include <QColor>
#include <QIcon>

namespace ingot {

// One colour per state, readable on light and dark palettes; icons are small filled dots of that colour.
QColor stateColor(ModuleState s);
QIcon stateIcon(ModuleState s);
QString stateLabel(ModuleState s);  // translated, for people ("Failed"); stateName() is for machines

}  // namespace ingot
