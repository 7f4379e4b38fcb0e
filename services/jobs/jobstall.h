// What can be done about a stall (issue 38): a job's own threshold changed while it runs (stallrule.h), and its Python
// stacks asked for, per rank ("Dump stacks"): the bundled backend registers faulthandler on
// SIGUSR2 and says so on each rank's stderr (resources/backend/ingot_train/stacks.py); this sends SIGUSR2 to the
// ranks only (the children of each node's torchrun, never torchrun itself, whose default action for SIGUSR2 would end
// it) and reads what each rank then wrote. A program that is not the backend, or one whose ranks did not say so, is
// never signalled: the answer says what is possible instead. The monitor's Dump stacks and `ingot-cli job stacks`
// both run it. Blocking (a worker or the CLI).
#pragma once

#include "services/jobs/jobmanager.h"

#include <QString>
#include <QVector>

#include <atomic>

namespace ingot {

struct RankStack {
    int rank = -1;
    QString stack;  // the faulthandler dump as the rank wrote it ("Thread 0x… (most recent call first):" blocks)
};

struct StackDump {
    QVector<RankStack> ranks;  // in rank order; a rank that wrote nothing in time has an empty stack
    int signalled = 0;         // rank processes signalled
    QString error;             // why nothing was asked (not running, not the backend, a Slurm job), translated
};

// Sets job `id`'s own stall threshold (seconds; 0: the default rule) in its job.json, written whole (temp + rename): a
// follower made from then on uses it, and JobService::setStallAfter tells the one that follows it now. Blocking.
bool setJobStallAfter(JobManager &jobs, const QString &id, double seconds, QString *error);

// Asks the ranks of job `id` for their stacks and waits up to waitMs for every rank to write its dump.
StackDump dumpJobStacks(JobManager &jobs, const QString &id, int waitMs, const std::atomic_bool *stop = nullptr);

// The faulthandler dump in `text` (a rank's stderr since the signal): from its first "Thread 0x…" or "Current
// thread 0x…" line, its thread headers, "  File …" lines and the blank lines between; at most 256 KiB.
QString faulthandlerDump(const QByteArray &text);

}  // namespace ingot
