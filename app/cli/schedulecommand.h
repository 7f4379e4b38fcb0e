// ingot-cli cache schedule (issue 39, "On a schedule"): a named policy run by a systemd user timer, or from cron
// (services/fleet/gcschedule).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> scheduleCommands();

}  // namespace ingot::cli
