// The one way Ingot runs work off the UI thread: runTask() starts `work` on the thread pool and hands its result,
// its progress and anything it posts back to the thread of `context`, in order. Nothing reaches `context` after it
// is destroyed, and a worker never holds a pointer to it. The returned Task stops the work (the result still
// arrives, saying it stopped) or discards it (nothing more arrives: a late answer to a question no longer asked).
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace ingot {

struct TaskProgress {
    qint64 done = 0;
    qint64 total = 0;  // 0: unknown
    QString text;
};

namespace detail {
class TaskShared;
}

// What the worker sees.
class TaskControl final
{
public:
    explicit TaskControl(std::shared_ptr<detail::TaskShared> shared);
    // True once the task was stopped or discarded, or its context destroyed: return early.
    bool isStopped() const;
    // For services that take a cancel flag.
    const std::atomic_bool *stopFlag() const;
    // The latest progress; the context's thread sees it soon after (updates are coalesced, never queued up).
    void setProgress(qint64 done, qint64 total, const QString &text = QString()) const;
    // Runs `fn` on the context's thread, in order with other posts and before the result, unless discarded.
    void post(std::function<void()> fn) const;

private:
    std::shared_ptr<detail::TaskShared> m_shared;
};

// What the caller holds. Copies share the task; a default Task is no task.
class Task final
{
public:
    Task() = default;
    explicit Task(std::shared_ptr<detail::TaskShared> shared) : m_shared(std::move(shared)) {}
    // Asks the work to stop; its result still arrives.
    void stop();
    // Asks the work to stop and drops whatever it would still hand back.
    void discard();
    bool isRunning() const;

private:
    std::shared_ptr<detail::TaskShared> m_shared;
};

namespace detail {
// Creates the shared state and its receiver (a child of `context`).
std::shared_ptr<TaskShared> makeTaskShared(QObject *context, std::function<void(const TaskProgress &)> onProgress);
// Starts `body` on the thread pool; `body` returns the function that delivers the result on the context's thread.
void startTask(const std::shared_ptr<TaskShared> &shared, std::function<std::function<void()>(TaskControl &)> body);
void runOnPool(std::function<void()> fn);
}  // namespace detail

// Frees `value` on the thread pool: for large structures whose last reference would otherwise be dropped on the UI
// thread. `value` must not refer to anything owned by a QObject.
template <typename T>
void disposeOffThread(T &&value)
{
    detail::runOnPool([doomed = std::make_shared<std::decay_t<T>>(std::forward<T>(value))]() mutable { doomed.reset(); });
}

// Runs `work(TaskControl &)` off the UI thread and calls `done(result)` (or `done()` for void work) on `context`'s
// thread. `onProgress` is called on that thread with the latest TaskProgress.
template<class Work, class Done>
Task runTask(QObject *context, Work work, Done done, std::function<void(const TaskProgress &)> onProgress = {})
{
    using Result = std::invoke_result_t<Work &, TaskControl &>;
    auto shared = detail::makeTaskShared(context, std::move(onProgress));
    detail::startTask(shared, [work = std::move(work), done = std::move(done)](TaskControl &control) mutable
                                  -> std::function<void()> {
        if constexpr (std::is_void_v<Result>) {
            work(control);
            return [done]() mutable { done(); };
        } else {
            auto result = std::make_shared<Result>(work(control));
            return [done, result]() mutable { done(std::move(*result)); };
        }
    });
    return Task(std::move(shared));
}

}  // namespace ingot
