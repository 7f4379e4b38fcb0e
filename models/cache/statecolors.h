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
// What the GUI calls an entry, translated: a module's state ("Failed"), or what an item that is not a module is
// ("Unknown folder", "Linked folder"). kindName() ("unknown-folder") stays for files and the CLI's JSON.
QString entryStateLabel(const CacheModule &m);

}  // namespace ingot
