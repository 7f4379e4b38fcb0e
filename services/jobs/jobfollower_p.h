// What JobFollower keeps of each file and node, shared by its reading (jobfollower.cpp), its saved state
// (jobfollowerstate.cpp) and its scheduler side (jobfollowerslurm.cpp). Included by those three only: what others share
// with JobFollower is in a public header (slurmClusterOf: jobmanager.h).
#pragma once

#include "services/jobs/jobfollower.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace ingot {

namespace follower {
constexpr qint64 maxLine = 1 << 20;    // a longer line is cut (its start kept)
constexpr qint64 tailKeep = 64 << 10;  // the end of each stderr kept for failure reasons
constexpr qsizetype checkBytes = 256;  // what a saved state checks of each file before going on from it
constexpr int stateVersion = 1;
// What the backend writes on each rank's stderr when it starts, once faulthandler is registered on SIGUSR2
// (resources/backend/ingot_train/stacks.py): only then is that signal sent to its ranks (its default action ends a
// process).
constexpr char faulthandlerLine[] = "ingot_train: faulthandler: SIGUSR2 dumps this rank's Python stacks here";
// Sets an Ingot reason (a code of the reason table in jobfollower.cpp, its arguments, its English words).
void setReason(JobStatus &st, const char *code, const QStringList &args = {});
}  // namespace follower

struct JobFollower::Stream {
    int node = 0;
    int rank = -1;
    bool isStderr = false;
    QString path;
    qint64 offset = 0;
    QByteArray partial;  // an incomplete last line
    QByteArray tail;     // the end of the stream (stderr, launcher): failure reasons
    QByteArray lastBytes;  // the bytes just before offset: a saved state checks the file still holds them
    bool parse = false;  // rank 0: events, metrics, Trainer lines
    double modified = 0;  // the file's latest modification seen (which ranks logged last: a stall)
    bool faulthandler = false;  // a rank's stderr whose first lines say the backend registered faulthandler
};

struct JobFollower::Node {
    std::shared_ptr<JobRunner> runner;  // found on first use (a host that cannot be reached is asked again later)
    int lookupAfterPoll = 0;
    JobPaths paths;
    LauncherPids pids;
    bool pidsKnown = false;
};

}  // namespace ingot
