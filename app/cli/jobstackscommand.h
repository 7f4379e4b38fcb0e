// `ingot-cli job stacks ID`: the Python stacks of a running job's ranks, as the monitor's Dump stacks asks for them
// (services/jobs/jobstall.h: SIGUSR2 to the backend's ranks, never to torchrun or a program that did not register it).
#pragma once

#include "app/cli/commandtable.h"

namespace ingot::cli {

QVector<Command> jobStacksCommands();

}  // namespace ingot::cli
