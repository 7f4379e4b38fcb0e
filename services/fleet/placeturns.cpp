#include "services/fleet/placeturns.h"

#include <QDateTime>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace ingot {

namespace {
qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}
}  // namespace

void forEachPlace(int count, int parallel, qint64 limitMs, const std::atomic_bool *cancel,
                  const std::function<void(int, const std::atomic_bool *)> &work, const std::function<void(int, const TurnEnd &)> &ended)
{
    struct Slot {
        std::atomic_bool stop{false};
        qint64 started = 0;
        bool finished = false;
        bool reported = false;
        TurnEnd end;
    };
    std::vector<Slot> turns(static_cast<size_t>(count));
    std::atomic_int next{0};
    std::mutex mutex;
    std::condition_variable changed;
    bool cancelled = false;
    auto worker = [&] {
        for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
            Slot &s = turns[size_t(i)];
            {
                std::lock_guard<std::mutex> lock(mutex);
                s.started = nowMs();
                s.end.skipped = cancelled || (cancel && cancel->load());
            }
            if (!s.end.skipped)
                work(i, &s.stop);
            std::lock_guard<std::mutex> lock(mutex);
            s.finished = true;
            changed.notify_all();
        }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < std::max(1, std::min(parallel, count)); ++i)
        threads.emplace_back(worker);
    int reported = 0;
    std::unique_lock<std::mutex> lock(mutex);
    while (reported < count) {
        changed.wait_for(lock, std::chrono::milliseconds(100));
        const bool stopAll = cancel && cancel->load();
        cancelled = cancelled || stopAll;
        const qint64 t = nowMs();
        for (Slot &s : turns) {
            if (s.started == 0 || s.finished || s.stop)
                continue;
            s.end.cancelled = stopAll;
            s.end.timedOut = !stopAll && limitMs > 0 && t - s.started > limitMs;
            s.stop = s.end.cancelled || s.end.timedOut;
        }
        for (int i = 0; i < count; ++i) {
            Slot &s = turns[size_t(i)];
            if (!s.finished || s.reported)
                continue;
            s.reported = true;
            ++reported;
            const TurnEnd how = s.end;
            lock.unlock();
            ended(i, how);
            lock.lock();
        }
    }
    lock.unlock();
    for (std::thread &t : threads)
        t.join();
}

}  // namespace ingot
