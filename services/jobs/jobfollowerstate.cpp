// JobFollower's saved state: where reading has got to, kept between two runs of `ingot-cli job status` so each
// byte of a running job's logs is read once (JobManager::summary keeps it in the user's cache folder).
#include "services/jobs/jobfollower.h"
#include "services/jobs/jobfollower_p.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/trainerlog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace ingot {

using namespace follower;

namespace {

QJsonValue bytesValue(const QByteArray &b)
{
    return QString::fromLatin1(b.toBase64());
}

bool bytesFrom(const QJsonValue &v, qsizetype max, QByteArray *out)
{
    if (!v.isString())
        return false;
    const auto d = QByteArray::fromBase64Encoding(v.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!d || d.decoded.size() > max)
        return false;
    *out = d.decoded;
    return true;
}

QJsonObject pointToState(const MetricPoint &p)
{
    return {{QStringLiteral("step"), double(p.step)},           {QStringLiteral("time"), jsonNumber(p.time)},
            {QStringLiteral("loss"), jsonNumber(p.loss)},      {QStringLiteral("lr"), jsonNumber(p.learningRate)},
            {QStringLiteral("grad"), jsonNumber(p.gradNorm)},  {QStringLiteral("tps"), jsonNumber(p.tokensPerSecond)},
            {QStringLiteral("st"), jsonNumber(p.stepTime)},    {QStringLiteral("epoch"), jsonNumber(p.epoch)},
            {QStringLiteral("mem"), double(p.peakMemory)}};
}

MetricPoint pointFromState(const QJsonObject &o)
{
    MetricPoint p;
    p.step = qint64(jsonNumberOr(o.value(QLatin1String("step")), 0));
    p.time = jsonNumberOr(o.value(QLatin1String("time")), MetricPoint::none);
    p.loss = jsonNumberOr(o.value(QLatin1String("loss")), MetricPoint::none);
    p.learningRate = jsonNumberOr(o.value(QLatin1String("lr")), MetricPoint::none);
    p.gradNorm = jsonNumberOr(o.value(QLatin1String("grad")), MetricPoint::none);
    p.tokensPerSecond = jsonNumberOr(o.value(QLatin1String("tps")), MetricPoint::none);
    p.stepTime = jsonNumberOr(o.value(QLatin1String("st")), MetricPoint::none);
    p.epoch = jsonNumberOr(o.value(QLatin1String("epoch")), MetricPoint::none);
    p.peakMemory = qint64(jsonNumberOr(o.value(QLatin1String("mem")), -1));
    return p;
}

}  // namespace

QByteArray JobFollower::saveState() const
{
    if (m_keepMetrics || m_keepLogs)
        return {};
    QJsonArray streams;
    for (const auto &s : m_streams)
        streams.append(QJsonObject{{QStringLiteral("node"), s->node},
                                   {QStringLiteral("rank"), s->rank},
                                   {QStringLiteral("stderr"), s->isStderr},
                                   {QStringLiteral("path"), s->path},
                                   {QStringLiteral("offset"), double(s->offset)},
                                   {QStringLiteral("partial"), bytesValue(s->partial)},
                                   {QStringLiteral("tail"), bytesValue(s->tail)},
                                   {QStringLiteral("last"), bytesValue(s->lastBytes)},
                                   {QStringLiteral("parse"), s->parse},
                                   {QStringLiteral("modified"), s->modified},
                                   {QStringLiteral("faulthandler"), s->faulthandler}});
    QJsonArray metrics;
    for (const MetricPoint &p : m_metrics)
        metrics.append(pointToState(p));
    const QJsonObject o{
        {QStringLiteral("version"), stateVersion},
        {QStringLiteral("id"), m_record.id},
        {QStringLiteral("where"), m_record.where},
        {QStringLiteral("root"), m_paths.root},
        {QStringLiteral("status"), statusToJson(m_status)},
        {QStringLiteral("streams"), streams},
        {QStringLiteral("metrics"), metrics},
        {QStringLiteral("trainer"), m_trainer->saveState()},
        {QStringLiteral("last_event"), m_lastEvent},
        {QStringLiteral("metric_after_save"), m_sawMetricAfterSave},
        {QStringLiteral("read_trainer_state"), m_readTrainerState},
        {QStringLiteral("failed_event"), m_failedEventReason},
        {QStringLiteral("stopped_event"), m_stoppedEvent},
        {QStringLiteral("finished_event"), m_finishedEvent},
        {QStringLiteral("polls"), m_polls},
        {QStringLiteral("last_write"), m_lastWrite},
        {QStringLiteral("step_seen_at"), m_stepSeenAt},
    };
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

bool JobFollower::restoreState(const QByteArray &saved)
{
    const QJsonObject o = QJsonDocument::fromJson(saved).object();
    if (o.value(QLatin1String("version")).toInt() != stateVersion || o.value(QLatin1String("id")).toString() != m_record.id
        || o.value(QLatin1String("where")).toString() != m_record.where
        || o.value(QLatin1String("root")).toString() != m_paths.root || !m_firstPoll)
        return false;
    QVector<std::shared_ptr<Stream>> streams;
    for (const QJsonValue &v : o.value(QLatin1String("streams")).toArray()) {
        const QJsonObject so = v.toObject();
        auto s = std::make_shared<Stream>();
        s->node = so.value(QLatin1String("node")).toInt(-1);
        s->rank = so.value(QLatin1String("rank")).toInt(-2);
        s->isStderr = so.value(QLatin1String("stderr")).toBool();
        s->path = so.value(QLatin1String("path")).toString();
        s->offset = qint64(jsonNumberOr(so.value(QLatin1String("offset")), -1));
        s->parse = so.value(QLatin1String("parse")).toBool();
        s->modified = jsonNumberOr(so.value(QLatin1String("modified")), 0);
        s->faulthandler = so.value(QLatin1String("faulthandler")).toBool();
        if (s->node < 0 || s->node > m_nodes.size() || s->rank < -1 || s->path.isEmpty() || s->offset < 0
            || !bytesFrom(so.value(QLatin1String("partial")), maxLine, &s->partial)
            || !bytesFrom(so.value(QLatin1String("tail")), tailKeep, &s->tail)
            || !bytesFrom(so.value(QLatin1String("last")), checkBytes, &s->lastBytes)
            || s->lastBytes.size() != std::min<qint64>(s->offset, checkBytes))
            return false;
        // The file still holds what was read last, where it was: appended to since, not cut or rewritten.
        if (s->offset > 0) {
            JobRunner *runner = nodeRunner(s->node);
            if (!runner)
                return false;
            const FileChunk c = runner->readFile(s->path, s->offset - s->lastBytes.size(), s->lastBytes.size());
            if (!c.exists || !c.error.isEmpty() || c.data != s->lastBytes)
                return false;
        }
        streams << s;
    }
    if (streams.isEmpty())
        return false;
    auto trainer = std::make_unique<TrainerLogParser>();
    if (!trainer->restoreState(o.value(QLatin1String("trainer")).toObject()))
        return false;
    const JobStatus status = statusFromJson(o.value(QLatin1String("status")).toObject());
    if (isFinal(status.state))
        return false;  // an end is recorded once, from the files (summary.json)
    m_streams = streams;
    m_trainer = std::move(trainer);
    m_metrics.clear();
    for (const QJsonValue &v : o.value(QLatin1String("metrics")).toArray())
        m_metrics << pointFromState(v.toObject());
    dropOldMetrics();
    const LauncherPids pids = m_status.pids;
    m_status = status;
    m_status.pids = pids;  // read again from launcher.pid
    m_lastEvent = o.value(QLatin1String("last_event")).toString();
    m_sawMetricAfterSave = o.value(QLatin1String("metric_after_save")).toBool(true);
    m_readTrainerState = o.value(QLatin1String("read_trainer_state")).toBool();
    m_failedEventReason = o.value(QLatin1String("failed_event")).toString();
    m_stoppedEvent = o.value(QLatin1String("stopped_event")).toString();
    m_finishedEvent = o.value(QLatin1String("finished_event")).toBool();
    m_polls = std::max(0, o.value(QLatin1String("polls")).toInt());
    m_lastWrite = jsonNumberOr(o.value(QLatin1String("last_write")), 0);
    m_stepSeenAt = jsonNumberOr(o.value(QLatin1String("step_seen_at")), 0);
    return true;  // what could not be read is tried again (and reported again)
}

}  // namespace ingot
