// What the `ingot-cli job ...` commands share: this machine's runner and every host's, the job an ID names (on this
// machine or on the host that runs it, connected first), and waiting on a job without blocking in a sleep: each
// read of its files is a runTask, the pause between two a timer on the application's event loop.
#pragma once

#include "app/cli/commandtable.h"
#include "services/jobs/jobmanager.h"
#include "services/remote/jobrunners.h"

#include <QCommandLineParser>

#include <functional>
#include <memory>

namespace ingot::cli {

// This machine's runner and every host's (one connection each, for the whole command).
JobRunners &runners();
// The runner of `host`, connected first with the one host-key policy of ingot-cli (remotecommands.h: a key is asked
// about only on a terminal, never without one). Returns the exit code (Ok when connected).
int runnerFor(const QString &host, std::shared_ptr<JobRunner> *runner);
// The job the command's ID argument names (after it, at most `more` other arguments), the manager of where it runs
// and, when asked for, its record; the exit code (Ok to go on).
int openJob(const Invocation &in, QString *id, std::unique_ptr<JobManager> *jobs, int more = 0,
            JobRecordFile *record = nullptr);
// The manager of where job `id` runs (this machine, or the host that runs it, connected first); the exit code.
int jobManagerFor(const QString &id, std::unique_ptr<JobManager> *jobs);
// Whether `jobs` runs on a host (its jobs are recorded in this machine's RemoteJobIndex).
bool isRemote(const JobManager &jobs);
// Files of a job that could not be read (a FIFO or a link planted in its folder): said, never waited on.
void warnUnreadable(const QStringList &unreadable);
void idArgument(QCommandLineParser &p);

// One round of a wait: `read` runs on the thread pool (it may block on a host's files), then `handle` here with what
// it read. `handle` returns how long to pause before the next round (0: at once), or a negative number to end.
struct PollRound {
    std::function<void()> read;
    std::function<int()> handle;
};
// Runs rounds until `handle` ends them, on QCoreApplication's event loop (ingot-cli runs none while a command
// runs; this is the only one): the pause is a single-shot QTimer, each read a runTask.
void pollOnEventLoop(const PollRound &round);

}  // namespace ingot::cli
