// What Ingot tells the desktop, from the events of its services: a followed job that finished, failed or left
// Slurm's queue to run (JobService::jobUpdated: a change of state seen while following it, never the state a job
// already had when Ingot first saw it), a job that stalled (JobService::stallChanged, the stall rule's signal, into
// jobStallChanged), a long transfer that ended (TransferQueue::ended) and a consolidation that ended. The words of
// each notification are here; the Notifier decides whether it is shown.
#pragma once

#include "services/jobs/jobfollower.h"
#include "services/notify/notifier.h"

#include <QHash>
#include <QObject>

namespace ingot {

class JobService;
class TransferQueue;

class EventNotifications final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventNotifications)

public:
    // Either service may be null (not followed). Both must outlive this object (the window owns them all).
    EventNotifications(Notifier *notifier, JobService *jobs, TransferQueue *transfers, QObject *parent = nullptr);

    // A transfer is long when it ended this many seconds or more after it was queued (default 30): shorter ones are
    // not worth a notification.
    void setLongTransferSeconds(int seconds) { m_longTransferSeconds = seconds; }

public Q_SLOTS:
    // A job stalled (its step stopped moving while its processes live) or moves again; `why` says which ranks
    // logged last and when.
    void jobStallChanged(const QString &id, bool stalled, const QString &why);
    // A consolidation ended: its output folder (the notification's target) and whether it succeeded.
    void consolidationEnded(const QString &outputFolder, bool ok, const QString &detail);

private:
    void onJobUpdated(const QString &id);
    void onTransferEnded(const QString &id);
    QString jobName(const QString &id) const;

    Notifier *m_notifier;
    JobService *m_jobs;
    TransferQueue *m_transfers;
    QHash<QString, JobState> m_lastState;  // each followed job's state when last seen
    int m_longTransferSeconds = 30;
};

}  // namespace ingot
