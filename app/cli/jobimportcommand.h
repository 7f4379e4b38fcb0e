// `ingot-cli job import DIR`: a run folder Ingot did not launch adopted as a read-only job of the history
// (services/jobs/runimport.h); the GUI's File ▸ Open a run folder… does the same.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> jobImportCommands();

}  // namespace ingot::cli
