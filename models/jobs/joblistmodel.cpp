#include "models/jobs/joblistmodel.h"

#include "services/jobs/jobresume.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/jobtext.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QPainter>
#include <QPixmap>

#include <algorithm>
#include <cmath>

namespace ingot {

Tone jobStateTone(JobState s)
{
    switch (s) {
    case JobState::Starting: return Tone::Busy;
    case JobState::Compiling: return Tone::Busy;
    case JobState::Running: return Tone::Info;
    case JobState::Saving: return Tone::Info;
    case JobState::Stopping: return Tone::Warning;
    case JobState::Finished: return Tone::Good;
    case JobState::Failed: return Tone::Bad;
    case JobState::Stopped: return Tone::Neutral;
    case JobState::Pending: return Tone::Busy;
    case JobState::Stalled: return Tone::Warning;
    }
    return Tone::Neutral;
}

QColor jobStateColor(JobState s)
{
    return toneTextColor(jobStateTone(s));
}

QIcon jobStateIcon(JobState s)
{
    static QIcon cache[int(JobState::Stalled) + 1];  // (the last state)
    QIcon &icon = cache[int(s)];
    if (icon.isNull()) {
        QPixmap pm(32, 32);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(toneFillColor(jobStateTone(s)));
        if (isFinal(s)) {
            p.drawEllipse(QRectF(6, 6, 20, 20));
        } else {  // a ring: still going
            p.setPen(QPen(toneFillColor(jobStateTone(s)), 5));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(QRectF(8, 8, 16, 16));
        }
        icon = QIcon(pm);
    }
    return icon;
}

namespace {

QString layoutText(const JobSummary &s)
{
    const JobStatus &st = s.status;
    if (st.tensorParallel > 0 || st.dataParallel > 0)
        return formatLayout(st.dataParallel, st.tensorParallel, st.pipelineParallel);
    const JobSpec &spec = s.record.spec;
    return formatLayout(spec.dataParallel(), spec.tensorParallel, spec.pipelineParallel);
}

double startedSeconds(const JobSummary &s)
{
    return s.status.startedAt > 0 ? s.status.startedAt : double(s.record.createdMs) / 1000.0;
}

}  // namespace

JobListModel::JobListModel(JobService *service, QObject *parent) : QAbstractTableModel(parent), m_service(service)
{
    connect(service, &JobService::historyChanged, this, &JobListModel::reload);
    connect(service, &JobService::jobUpdated, this, &JobListModel::onJobUpdated);
    reload();
}

int JobListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int JobListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString JobListModel::jobId(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].record.id : QString();
}

int JobListModel::rowOf(const QString &id) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].record.id == id)
            return i;
    return -1;
}

JobStatus JobListModel::status(int row) const
{
    if (row < 0 || row >= m_rows.size())
        return {};
    return m_rows[row].status;
}

void JobListModel::reload()
{
    if (!m_service)
        return;
    const QVector<JobSummary> &fresh = m_service->history();
    // Drop rows that went, then walk the new order: same id → update in place, new id → insert. A reordering
    // (which the history, sorted by creation, never does) falls back to a reset.
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        const QString id = m_rows[i].record.id;
        const bool kept = std::any_of(fresh.begin(), fresh.end(), [&](const JobSummary &s) { return s.record.id == id; });
        if (!kept) {
            beginRemoveRows({}, i, i);
            m_rows.remove(i);
            endRemoveRows();
        }
    }
    for (int i = 0; i < fresh.size(); ++i) {
        JobSummary s = fresh[i];
        if (m_service->isWatched(s.record.id))
            s.status = m_service->status(s.record.id);
        if (i < m_rows.size() && m_rows[i].record.id == s.record.id) {
            m_rows[i] = s;
            continue;
        }
        if (rowOf(s.record.id) >= 0) {
            beginResetModel();
            m_rows = fresh;
            for (JobSummary &r : m_rows)
                if (m_service->isWatched(r.record.id))
                    r.status = m_service->status(r.record.id);
            endResetModel();
            return;
        }
        beginInsertRows({}, i, i);
        m_rows.insert(i, s);
        endInsertRows();
    }
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

void JobListModel::onJobUpdated(const QString &id)
{
    const int row = rowOf(id);
    if (row < 0 || !m_service)
        return;
    m_rows[row].status = m_service->status(id);
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

QVariant JobListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const JobSummary &s = m_rows[index.row()];
    const JobStatus &st = s.status;
    if (role == JobIdRole)
        return s.record.id;
    if (role == StateRole)
        return int(st.state);
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    if (role == SortRole) {
        switch (index.column()) {
        case Started: return startedSeconds(s);
        case Duration: return st.runSeconds(now);
        case Queued: return double(st.slurm.queueWaitSeconds);
        case FinalLoss: return std::isnan(st.lastLoss) ? -1.0 : st.lastLoss;
        case State: return int(st.state);
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name: return displayName(s.record.spec.displayName(s.record.id, s.record.createdMs));
        case Where: return displayName(jobPlaceText(s.record, st));
        case Queued: return queueWaitText(s.record, st);
        case Model: return displayName(s.record.spec.modelLabel());
        case Layout: return layoutText(s);
        case State: return st.unreachable.isEmpty() ? jobStateTitle(st.state) : tr("Unknown (host unreachable)");
        case Started:
            return formatDateTime(qint64(startedSeconds(s) * 1000));
        case Duration: return durationText(st.runSeconds(now));
        case FinalLoss:
            // An ended job's final loss; a running one's latest, said so.
            if (std::isnan(st.lastLoss))
                return QString();
            return isFinal(st.state) ? formatMetric(st.lastLoss) : tr("%1 (latest)").arg(formatMetric(st.lastLoss));
        case OutputFolder: return displayName(s.record.outputDir);
        }
    }
    if (role == Qt::DecorationRole && index.column() == State)
        return jobStateIcon(st.state);
    if (role == Qt::ForegroundRole && index.column() == State)
        return jobStateColor(st.state);
    if (role == Qt::TextAlignmentRole && (index.column() == FinalLoss || index.column() == Duration || index.column() == Queued))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (index.column() == State && !st.unreachable.isEmpty())
            return displayText(st.unreachable);
        if (index.column() == State && !st.reason.isEmpty())
            return displayName(jobReasonText(st));  // stored in English, shown translated
        if (index.column() == FinalLoss && !std::isnan(st.lastLoss))
            return isFinal(st.state) ? tr("The loss at the job's last step") : tr("The latest loss: the job has not ended");
        if (index.column() == Name && !resumedFromJob(s.record, m_rows).isEmpty())
            return tr("%1\nResumed from %2").arg(data(index, Qt::DisplayRole).toString(), resumedFromName(s));
        if (index.column() == Where && s.record.spec.slurm.enabled && !st.slurm.jobId.isEmpty())
            return displayText(slurmPhasesText(st));
        if (index.column() == Queued && !st.slurm.submitTime.isEmpty())
            return st.slurm.startTime.isEmpty() ? tr("Submitted %1").arg(displayText(st.slurm.submitTime))
                                                : tr("Submitted %1, started %2").arg(displayText(st.slurm.submitTime),
                                                                                     displayText(st.slurm.startTime));
        if (index.column() == OutputFolder || index.column() == Name || index.column() == Where)
            return data(index, Qt::DisplayRole);
    }
    return {};
}

QString JobListModel::resumedFromName(const JobSummary &s) const
{
    const QString from = resumedFromJob(s.record, m_rows);
    const int row = rowOf(from);
    return row < 0 ? from : displayName(m_rows[row].record.spec.displayName(from, m_rows[row].record.createdMs));
}

QVariant JobListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == FinalLoss)
        return tr("The final loss of an ended job; the latest loss of one still running");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Name");
    case Model: return tr("Model");
    case Where: return tr("Where");
    case Queued: return tr("Queued");
    case Layout: return tr("Layout (dp×tp×pp)");
    case State: return tr("State");
    case Started: return tr("Started");
    case Duration: return tr("Duration");
    case FinalLoss: return tr("Loss");
    case OutputFolder: return tr("Output folder");
    }
    return {};
}

}  // namespace ingot
