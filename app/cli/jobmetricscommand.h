// `ingot-cli job metrics ID [--format csv|json]`: a run's metrics for a spreadsheet or a script, every series it has
// (services/jobs/metricsexport.h writes them), for a job wherever it ran.
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> jobMetricsCommands();

}  // namespace ingot::cli
