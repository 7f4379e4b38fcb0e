// `ingot-cli job launch --seed-cache PLACE` (issue 39): before the job starts, the graphs of the last run with the
// same settings that its cache lacks are brought from the places named (services/neuron/launchseed.h), with their
// progress on stderr; the result is kept in the job's folder for `job status`.
#pragma once

#include "app/cli/commandtable.h"
#include "services/fleet/cacheseed.h"
#include "services/jobs/jobmanager.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace ingot::cli {

// Adds --seed-cache to `job launch`'s options.
void seedLaunchOption(QCommandLineParser &p);

// Runs the step for `plan` when --seed-cache is given (a dry run only says what it would do). Ok, or the exit code
// to end with (a place that is none: Usage; Ctrl-C: PartialFailure, nothing launched). `result`: what it did.
// With --seed-per-node (a Slurm job) the step goes into `plan`'s batch script instead, run on each node.
int seedBeforeLaunch(const Invocation &in, const JobManager &jobs, LaunchPlan *plan, bool dryRun,
                     std::optional<SeedResult> *result, nlohmann::json *json);

// Keeps `result` in the launched job's folder (a warning when it cannot be written).
void keepSeedAfterLaunch(const JobManager &jobs, const LaunchPlan &plan, const std::optional<SeedResult> &result);

// `job status`'s line for what the step did ("" when the job had none).
QString seedStatusText(const JobManager &jobs, const QString &id);

}  // namespace ingot::cli
