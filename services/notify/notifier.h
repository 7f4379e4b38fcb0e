// Desktop notifications of what ended or changed while Ingot was not in front: a job finished, failed, stalled or
// left Slurm's queue to run, a transfer or a consolidation ended. The one rule of when to tell (the kind is on in
// Settings, Ingot is not the active window) and how (plain text made safe for a server that reads markup; a newer
// notification of the same job, transfer or consolidation replaces the earlier one instead of stacking); the
// transport shows it (DBusNotifications), and the GUI wires the events in and acts on activated().
#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QVector>

#include <functional>

namespace ingot {

class NotificationTransport;

enum class NotifyKind { JobFinished, JobFailed, JobStalled, JobRunning, TransferEnded, ConsolidationEnded };
QVector<NotifyKind> allNotifyKinds();
QString notifyKindName(NotifyKind kind);   // "job_finished", ... (the setting's name: never translated)
QString notifyKindTitle(NotifyKind kind);  // "A job finished", ... (Settings: translated)

// What a notification is about, and what its Open action opens.
struct NotifyTarget {
    enum class Type { Job, Transfer, Consolidation };
    Type type = Type::Job;
    QString id;  // the job's or transfer's id; a consolidation's output folder
    QString key() const;
    bool operator==(const NotifyTarget &o) const { return type == o.type && id == o.id; }
};

class Notifier final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Notifier)

public:
    // `transport` is used, not owned (it usually lives as long as the Notifier, a child of the same parent).
    explicit Notifier(NotificationTransport *transport, QObject *parent = nullptr);

    // Whether Ingot is in front now (the GUI: its application state is active); nothing is shown while it is. Unset:
    // never in front.
    void setInFront(std::function<bool()> inFront) { m_inFront = std::move(inFront); }

    // Shows a notification of `kind` about `target` unless the kind is off (AppSettings::notificationOn) or Ingot is
    // in front; returns whether it was handed to the transport. `title` and `body` are plain text (a job's name, a
    // path, a reason: anything): control characters are escaped, and the body's <, > and & too (servers read it as
    // markup).
    bool notify(NotifyKind kind, const QString &title, const QString &body, const NotifyTarget &target);

    // The body as the server gets it (for tests and the log).
    static QString bodyMarkup(const QString &plain);

Q_SIGNALS:
    // A notification was handed to the transport (at once, from notify()).
    void sent(ingot::NotifyKind kind, const ingot::NotifyTarget &target);
    // The server showed it as `id` (later: its answer came).
    void shown(quint32 id, const ingot::NotifyTarget &target);
    // The person chose Open on a notification of `target`: show it.
    void activated(const ingot::NotifyTarget &target);

private:
    void onAction(quint32 id, const QString &action);
    void onClosed(quint32 id);

    NotificationTransport *m_transport;
    std::function<bool()> m_inFront;
    QHash<QString, quint32> m_idOfTarget;     // target key -> the server's id of its latest notification
    QHash<quint32, NotifyTarget> m_targetOfId;
};

}  // namespace ingot

Q_DECLARE_METATYPE(ingot::NotifyKind)
Q_DECLARE_METATYPE(ingot::NotifyTarget)
