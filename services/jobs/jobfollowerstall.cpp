// JobFollower's side of stalls: the facts of stallrule.h from what the follower keeps anyway (the latest metric
// points, when a poll saw the step move, each file's modification time), once a poll, never per line.
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobfollower_p.h"

#include "services/jobs/stallrule.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace ingot {

// When the step advanced: when this poll saw it, on this machine's clock, while following; the newest metric's own
// time (the job's clock, never later than now) while reading what was written before (a re-attach, a later `job
// status`), which is the only word there is on it then. Another host's clock only matters there.
void JobFollower::noteStep(bool catchingUp)
{
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    m_stepSeenAt = now;
    if (catchingUp && !m_metrics.isEmpty() && !std::isnan(m_metrics.last().time) && m_metrics.last().step == m_status.step)
        m_stepSeenAt = std::min(now, m_status.startedAt + m_metrics.last().time);
}

void JobFollower::judgeStall()
{
    JobStatus &st = m_status;
    StallFacts f;
    f.now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    f.running = st.state == JobState::Running;
    f.alive = st.alive;
    f.thresholdOverride = m_record.spec.stallAfterSeconds;
    // The times between the latest logged steps (the job's own clock: a metric's time), oldest first.
    const qsizetype first = std::max<qsizetype>(1, m_metrics.size() - stallIntervalsKept);
    for (qsizetype i = first; i < m_metrics.size(); ++i) {
        const MetricPoint &a = m_metrics.at(i - 1), &b = m_metrics.at(i);
        if (!std::isnan(a.time) && !std::isnan(b.time) && b.step > a.step)
            f.stepIntervals << b.time - a.time;
    }
    if (!m_metrics.isEmpty() || st.step > 0)
        f.lastStepAt = m_stepSeenAt;
    const StallVerdict v = stallRule(f);
    st.stall.lastStepAt = f.lastStepAt;
    st.stall.thresholdSeconds = v.thresholdSeconds;
    bool ready = false;
    for (const auto &s : m_streams) {
        if (s->isStderr && s->rank >= 0) {
            ready = s->faulthandler;
            if (!ready)
                break;  // every rank's stderr must say so
        }
    }
    st.stall.stacksReady = ready && m_record.spec.program == JobProgram::Backend;
    st.stall.lastLogs.clear();
    if (!v.stalled)
        return;
    st.state = JobState::Stalled;
    QHash<int, double> latest;
    for (const auto &s : m_streams)
        if (s->rank >= 0 && s->modified > 0)
            latest[s->rank] = std::max(latest.value(s->rank), s->modified);
    for (auto it = latest.cbegin(); it != latest.cend(); ++it)
        st.stall.lastLogs.append({it.key(), it.value()});
    std::sort(st.stall.lastLogs.begin(), st.stall.lastLogs.end(), [](const auto &a, const auto &b) {
        return a.at != b.at ? a.at > b.at : a.rank < b.rank;
    });
    if (st.stall.lastLogs.size() > 4)
        st.stall.lastLogs.resize(4);
}

QJsonObject stallToJson(const StallStatus &s)
{
    QJsonArray logs;
    for (const StallStatus::RankLog &l : s.lastLogs)
        logs.append(QJsonObject{{QStringLiteral("rank"), l.rank}, {QStringLiteral("at"), l.at}});
    return QJsonObject{{QStringLiteral("last_step_at"), s.lastStepAt},
                       {QStringLiteral("threshold_seconds"), s.thresholdSeconds},
                       {QStringLiteral("last_logs"), logs},
                       {QStringLiteral("stacks_ready"), s.stacksReady}};
}

StallStatus stallFromJson(const QJsonObject &o)
{
    StallStatus s;
    s.lastStepAt = std::max(0.0, o.value(QLatin1String("last_step_at")).toDouble());
    s.thresholdSeconds = std::max(0.0, o.value(QLatin1String("threshold_seconds")).toDouble());
    for (const QJsonValue &v : o.value(QLatin1String("last_logs")).toArray()) {
        if (s.lastLogs.size() >= 4)
            break;
        const QJsonObject l = v.toObject();
        s.lastLogs.append({l.value(QLatin1String("rank")).toInt(-1), l.value(QLatin1String("at")).toDouble()});
    }
    s.stacksReady = o.value(QLatin1String("stacks_ready")).toBool();
    return s;
}

}  // namespace ingot
