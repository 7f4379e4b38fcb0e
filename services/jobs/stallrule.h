// When a running job is stalled: its step has not advanced for longer than a threshold while its processes live. A
// pure function of what the follower saw (the times between the steps it read, when the step last advanced, whether
// the processes live, the job's own threshold), so the rule is read and tested without processes; JobFollower gathers
// the facts each poll from what it already keeps (no work per log line) and records the verdict as JobState::Stalled
// (docs/formats.md "Stalls").
#pragma once

#include <QString>
#include <QVector>

namespace ingot {

// The default threshold: this many times the median time between two steps the job logged...
constexpr double stallStepFactor = 10;
// ...and never less than this (a first compile of a new graph in the middle of a run takes minutes).
constexpr double stallMinimumSeconds = 300;
// How many of the latest step intervals the median is taken over.
constexpr int stallIntervalsKept = 64;

struct StallFacts {
    // Seconds between successive logged steps, oldest first (at most stallIntervalsKept are looked at: the latest).
    // A job that logs every N steps has intervals of N steps: the rule compares like with like.
    QVector<double> stepIntervals;
    double lastStepAt = 0;  // when the step last advanced, seconds since the epoch; 0: no step yet (compiling)
    double now = 0;
    bool running = false;  // the state rule says Running: stepping, not compiling, saving, stopping or ended
    bool alive = false;    // its processes live (the launcher, or the scheduler's word)
    double thresholdOverride = 0;  // the job's own threshold in seconds (job spec, --stall-after); 0: the default
};

struct StallVerdict {
    bool stalled = false;
    double thresholdSeconds = 0;  // the threshold in force (0: no step yet, nothing to judge)
    double silentSeconds = 0;     // since the step last advanced
};

// The threshold for these intervals: the override when one is set, else max(stallMinimumSeconds, stallStepFactor x
// the median of the latest intervals); stallMinimumSeconds when there is no interval yet.
double stallThreshold(const QVector<double> &stepIntervals, double thresholdOverride);
// Stalled: running, alive, a step seen, and silent for longer than the threshold.
StallVerdict stallRule(const StallFacts &facts);
// A threshold as `job launch --stall-after` takes it: seconds ("90", "90s"), minutes ("10m") or hours ("2h"), more
// than 0 and at most 30 days; false for anything else.
bool parseStallDuration(const QString &text, double *seconds);

}  // namespace ingot
