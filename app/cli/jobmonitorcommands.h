// `ingot-cli job remove|resume|graphs|neuroncores`: what the Jobs page's monitor and history do with one job, through
// the same services (JobManager's removal preview, services/jobs/jobresume.h, services/neuron/jobgraphs.h,
// sampleJobNeuronCores).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> jobMonitorCommands();

}  // namespace ingot::cli
