#include "services/util/task.h"

#include <QMutex>
#include <QPointer>
#include <QThreadPool>

#include <deque>

namespace ingot::detail {

// Lives on the context's thread as its child; drains what workers hand back.
class TaskReceiver final : public QObject
{
public:
    TaskReceiver(QObject *parent, std::shared_ptr<TaskShared> shared)
        : QObject(parent), m_shared(std::move(shared)) {}
    ~TaskReceiver() override;
    void drain();

private:
    std::shared_ptr<TaskShared> m_shared;
};

class TaskShared
{
public:
    std::atomic_bool stop{false};
    std::atomic_bool discarded{false};
    std::atomic_bool running{true};
    std::function<void(const TaskProgress &)> onProgress;

    QMutex mutex;
    TaskReceiver *receiver = nullptr;  // null once the context is gone
    bool drainPending = false;
    bool progressChanged = false;
    TaskProgress progress;
    std::deque<std::function<void()>> posts;
    std::function<void()> deliver;

    // Under `mutex`: wakes the receiver once for everything queued so far.
    void wakeLocked()
    {
        if (!receiver || drainPending)
            return;
        drainPending = true;
        QPointer<TaskReceiver> r(receiver);
        // Posting an event is thread-safe, and the receiver cannot be destroyed while we hold the mutex.
        QMetaObject::invokeMethod(receiver, [r] { if (r) r->drain(); }, Qt::QueuedConnection);
    }
};

TaskReceiver::~TaskReceiver()
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->receiver = nullptr;
    m_shared->stop = true;
    m_shared->posts.clear();
    m_shared->deliver = nullptr;
}

void TaskReceiver::drain()
{
    std::deque<std::function<void()>> posts;
    std::function<void()> deliver;
    TaskProgress progress;
    bool progressChanged = false;
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->drainPending = false;
        posts.swap(m_shared->posts);
        deliver = std::move(m_shared->deliver);
        m_shared->deliver = nullptr;
        progressChanged = std::exchange(m_shared->progressChanged, false);
        progress = m_shared->progress;
    }
    auto shared = m_shared;  // `this` may be deleted by a callback: keep what we need
    if (progressChanged && shared->onProgress && !shared->discarded)
        shared->onProgress(progress);
    for (auto &fn : posts) {
        if (shared->discarded)
            return;
        fn();
    }
    if (deliver) {
        shared->running = false;
        if (!shared->discarded)
            deliver();
        deleteLater();
    }
}

std::shared_ptr<TaskShared> makeTaskShared(QObject *context, std::function<void(const TaskProgress &)> onProgress)
{
    Q_ASSERT(context);
    auto shared = std::make_shared<TaskShared>();
    shared->onProgress = std::move(onProgress);
    shared->receiver = new TaskReceiver(context, shared);
    return shared;
}

void startTask(const std::shared_ptr<TaskShared> &shared, std::function<std::function<void()>(TaskControl &)> body)
{
    QThreadPool::globalInstance()->start([shared, body = std::move(body)]() mutable {
        TaskControl control(shared);
        std::function<void()> deliver = body(control);
        QMutexLocker lock(&shared->mutex);
        if (!shared->receiver) {
            shared->running = false;
            return;
        }
        shared->deliver = std::move(deliver);
        shared->wakeLocked();
    });
}

}  // namespace ingot::detail

namespace ingot {

TaskControl::TaskControl(std::shared_ptr<detail::TaskShared> shared) : m_shared(std::move(shared)) {}

bool TaskControl::isStopped() const
{
    return m_shared->stop.load();
}

const std::atomic_bool *TaskControl::stopFlag() const
{
    return &m_shared->stop;
}

void TaskControl::setProgress(qint64 done, qint64 total, const QString &text) const
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->progress = {done, total, text};
    m_shared->progressChanged = true;
    m_shared->wakeLocked();
}

void TaskControl::post(std::function<void()> fn) const
{
    QMutexLocker lock(&m_shared->mutex);
    if (!m_shared->receiver || m_shared->discarded)
        return;
    m_shared->posts.push_back(std::move(fn));
    m_shared->wakeLocked();
}

void Task::stop()
{
    if (m_shared)
        m_shared->stop = true;
}

void Task::discard()
{
    if (!m_shared)
        return;
    m_shared->stop = true;
    m_shared->discarded = true;
    QMutexLocker lock(&m_shared->mutex);
    m_shared->posts.clear();
}

bool Task::isRunning() const
{
    return m_shared && m_shared->running.load();
}

void detail::runOnPool(std::function<void()> fn)
{
    QThreadPool::globalInstance()->start(std::move(fn));
}

}  // namespace ingot
