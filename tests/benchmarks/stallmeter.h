// The UI thread's event-loop stalls, as a 5 ms timer there sees them: each tick's gap since the previous one.
// `onTick(nowUs, gapUs)` decides what a gap counts for (gapUs is 0 on the first tick); worst/percentile give a
// gap less the timer's own interval, in milliseconds.
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QVector>

#include <algorithm>
#include <functional>

class StallMeter
{
public:
    explicit StallMeter(std::function<void(qint64 nowUs, qint64 gapUs)> onTick) : m_onTick(std::move(onTick))
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(kIntervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed() / 1000;
            m_onTick(now, m_last ? now - m_last : 0);
            m_last = now;
        });
    }
    void start()
    {
        m_clock.start();
        m_timer.start();
    }
    // Over the gaps `gapsUs` (microseconds): the worst, and the one at `fraction` (0.99: the 99th percentile).
    static double worstMs(QVector<qint64> gapsUs) { return percentileMs(std::move(gapsUs), 1.0); }
    static double percentileMs(QVector<qint64> gapsUs, double fraction)
    {
        if (gapsUs.isEmpty())
            return 0;
        std::sort(gapsUs.begin(), gapsUs.end());
        const int at = std::min<int>(int(gapsUs.size()) - 1, int(double(gapsUs.size()) * fraction));
        return double(gapsUs.at(at)) / 1000.0 - kIntervalMs;
    }
    static constexpr int kIntervalMs = 5;

private:
    std::function<void(qint64, qint64)> m_onTick;
    QElapsedTimer m_clock;
    QTimer m_timer;
    qint64 m_last = 0;
};
