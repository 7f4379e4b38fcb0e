#include "services/notify/eventnotifications.h"

#include "services/jobs/jobservice.h"
#include "services/transfer/transferqueue.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace ingot {

namespace {

struct EventText {
    Q_DECLARE_TR_FUNCTIONS(ingot::EventNotifications)
};

}  // namespace

EventNotifications::EventNotifications(Notifier *notifier, JobService *jobs, TransferQueue *transfers, QObject *parent)
    : QObject(parent)
    , m_notifier(notifier)
    , m_jobs(jobs)
    , m_transfers(transfers)
{
    if (m_jobs) {
        connect(m_jobs, &JobService::jobUpdated, this, &EventNotifications::onJobUpdated);
        connect(m_jobs, &JobService::stallChanged, this, &EventNotifications::jobStallChanged);
    }
    if (m_transfers)
        connect(m_transfers, &TransferQueue::ended, this,
                [this](const QString &id, const TransferPlace &, const TransferPlace &) { onTransferEnded(id); });
}

QString EventNotifications::jobName(const QString &id) const
{
    if (const JobSummary *s = m_jobs->find(id))
        return s->record.spec.displayName(id, s->record.createdMs);
    return id;
}

void EventNotifications::onJobUpdated(const QString &id)
{
    const JobStatus st = m_jobs->status(id);
    const auto seen = m_lastState.constFind(id);
    const bool known = seen != m_lastState.cend();
    const JobState before = known ? seen.value() : st.state;
    m_lastState.insert(id, st.state);
    // Only a change seen while following: a job that had ended (or was running) when Ingot first read it says nothing.
    if (!known || before == st.state || isFinal(before))
        return;
    const NotifyTarget target{NotifyTarget::Type::Job, id};
    const QString name = jobName(id);
    if (st.state == JobState::Finished) {
        QString body = st.step <= 0       ? EventText::tr("It exited with status %1.").arg(std::max(st.exitStatus, 0))
                       : st.maxSteps > 0 ? EventText::tr("Step %1 of %2.").arg(st.step).arg(st.maxSteps)
                                         : EventText::tr("Step %1.").arg(st.step);
        if (!std::isnan(st.lastLoss))
            body += QLatin1Char(' ') + EventText::tr("Last loss %1.").arg(formatMetric(st.lastLoss));
        m_notifier->notify(NotifyKind::JobFinished, EventText::tr("Job finished: %1").arg(name), body, target);
    } else if (st.state == JobState::Failed) {
        const QString why = st.reason.isEmpty() ? EventText::tr("It ended without saying why; its logs may tell.")
                                                : jobReasonText(st);
        m_notifier->notify(NotifyKind::JobFailed, EventText::tr("Job failed: %1").arg(name), why, target);
    } else if (before == JobState::Pending && !isFinal(st.state)) {
        const QString where = st.slurm.nodeList.isEmpty() ? EventText::tr("It left Slurm's queue.")
                                                          : EventText::tr("It left Slurm's queue and runs on %1.").arg(st.slurm.nodeList);
        m_notifier->notify(NotifyKind::JobRunning, EventText::tr("Job running: %1").arg(name), where, target);
    }
}

void EventNotifications::jobStallChanged(const QString &id, bool stalled, const QString &why)
{
    if (!stalled || !m_jobs)
        return;
    m_notifier->notify(NotifyKind::JobStalled, EventText::tr("Job stalled: %1").arg(jobName(id)), why,
                       {NotifyTarget::Type::Job, id});
}

void EventNotifications::onTransferEnded(const QString &id)
{
    const TransferRecord *r = m_transfers->record(id);
    if (!r || r->paused)
        return;
    const qint64 ranMs = QDateTime::currentMSecsSinceEpoch() - r->createdMs;
    if (ranMs < qint64(m_longTransferSeconds) * 1000)
        return;
    const TransferStatus status = transferStatus(*r, false);
    QString title;
    switch (status) {
    case TransferStatus::Done: title = EventText::tr("Transfer done"); break;
    case TransferStatus::SomeFailed: title = EventText::tr("Transfer ended with failed entries"); break;
    case TransferStatus::Cancelled: title = EventText::tr("Transfer cancelled"); break;
    case TransferStatus::Failed: title = EventText::tr("Transfer failed"); break;
    default: return;  // not ended
    }
    const int done = r->count(TransferItem::State::Done);
    QString body = EventText::tr("Entries done: %1 of %2, to %3.").arg(done).arg(r->items.size()).arg(r->to.display());
    if (!r->error.isEmpty())
        body += QLatin1Char(' ') + r->error;
    m_notifier->notify(NotifyKind::TransferEnded, title, body, {NotifyTarget::Type::Transfer, id});
}

void EventNotifications::consolidationEnded(const QString &outputFolder, bool ok, const QString &detail)
{
    const QString title = ok ? EventText::tr("Consolidation done") : EventText::tr("Consolidation failed");
    QString body = EventText::tr("Output: %1").arg(outputFolder);
    if (!detail.isEmpty())
        body += QLatin1Char('\n') + detail;
    m_notifier->notify(NotifyKind::ConsolidationEnded, title, body, {NotifyTarget::Type::Consolidation, outputFolder});
}

}  // namespace ingot
