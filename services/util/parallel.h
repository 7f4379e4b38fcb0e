// parallelFor: the one fork-join helper. Runs fn(i) for every i in [0, n) on up to `workers` threads (the
// calling thread is one of them) and returns once all are done. Used inside a task that is already off the UI
// thread (runTask's work, a transfer's thread) to do a batch of independent network or disk steps at once.
#pragma once

#include <QString>
#include <QStringList>

#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <type_traits>

namespace ingot {

struct ParallelOutcome {
    int started = 0;        // how many indexes fn was called with
    bool stopped = false;   // the stop flag, or an fn returning false, ended it before every index ran
    QStringList errors;     // what fn threw, one line per index that threw ("index 3: text")
    std::exception_ptr firstException;  // the first of them, to hand on to the caller's own handler
    bool ok() const { return !stopped && errors.isEmpty(); }
    // For callers with nothing better to do with a throw than their caller: rethrows the first, if any.
    void rethrowFirst() const
    {
        if (firstException)
            std::rethrow_exception(firstException);
    }
};

namespace detail {
// Runs `work` on `workers` threads (the caller's too) and joins them.
void runOnWorkers(int workers, const std::function<void()> &work);
QString describeException(int index, const std::exception_ptr &e);
}  // namespace detail

// fn(int i) returns void, or bool: false stops the rest (indexes not started yet are not run; those under way
// finish). `stop` (may be null; TaskControl::stopFlag() fits) is checked before each index. An exception from fn
// is caught, recorded in the outcome's errors, and the other indexes still run. Indexes are taken in order.
template<class Fn>
ParallelOutcome parallelFor(int n, int workers, const std::atomic_bool *stop, Fn &&fn)
{
    ParallelOutcome out;
    if (n <= 0)
        return out;
    std::atomic_int next{0};
    std::atomic_bool halt{false};
    std::atomic_int started{0};
    std::mutex errorsMutex;
    auto work = [&] {
        for (;;) {
            if (halt.load() || (stop && stop->load())) {
                halt = true;
                return;
            }
            const int i = next++;
            if (i >= n)
                return;
            ++started;
            try {
                if constexpr (std::is_same_v<std::invoke_result_t<Fn &, int>, bool>) {
                    if (!fn(i))
                        halt = true;
                } else {
                    fn(i);
                }
            } catch (...) {
                const QString text = detail::describeException(i, std::current_exception());
                std::lock_guard lock(errorsMutex);
                out.errors << text;
                if (!out.firstException)
                    out.firstException = std::current_exception();
            }
        }
    };
    detail::runOnWorkers(workers < 1 ? 1 : (workers > n ? n : workers), work);
    out.started = started.load();
    out.stopped = halt.load() && out.started < n;
    return out;
}

}  // namespace ingot
