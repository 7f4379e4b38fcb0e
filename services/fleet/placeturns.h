// Places read or changed a few at a time, each within a time limit (the fleet's summary and its policy runs share this
// one rule): a place past its limit, or all of them once the caller cancels, has its stop flag raised and ends at the
// next step it can stop at; places not started once cancelled are skipped.
#pragma once

#include <QtGlobal>

#include <atomic>
#include <functional>

namespace ingot {

// How one place's turn ended, besides what its work said.
struct TurnEnd {
    bool skipped = false;    // cancelled before its turn: its work never ran
    bool timedOut = false;   // its stop flag was raised because it ran past the limit
    bool cancelled = false;  // its stop flag was raised because the caller cancelled
};

// Runs work(i, stop) for each of `count` places on at most `parallel` threads of its own. `limitMs` (0: none) is each
// place's time from its start. The calling thread watches the clock (a tenth of a second at a time) and calls
// ended(i, how) for each place as it ends, in the order they end; it returns once every place ended.
void forEachPlace(int count, int parallel, qint64 limitMs, const std::atomic_bool *cancel,
                  const std::function<void(int, const std::atomic_bool *)> &work,
                  const std::function<void(int, const TurnEnd &)> &ended);

}  // namespace ingot
