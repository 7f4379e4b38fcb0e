// `ingot-cli transfers list|cancel`: the transfer queue the Ingot window keeps (pulls, pushes and copies started
// there, saved in <app data>/transfers), read and cancelled through the queue's own files (services/transfer/
// transferqueue.h).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> transferCommands();

}  // namespace ingot::cli
