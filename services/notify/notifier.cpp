#include "services/notify/notifier.h"

#include "services/notify/notificationtransport.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QPointer>

namespace ingot {

namespace {

struct NotifyText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Notifier)
};

}  // namespace

QVector<NotifyKind> allNotifyKinds()
{
    return {NotifyKind::JobFinished,   NotifyKind::JobFailed,     NotifyKind::JobStalled,
            NotifyKind::JobRunning,    NotifyKind::TransferEnded, NotifyKind::ConsolidationEnded};
}

QString notifyKindName(NotifyKind kind)
{
    switch (kind) {
    case NotifyKind::JobFinished: return QStringLiteral("job_finished");
    case NotifyKind::JobFailed: return QStringLiteral("job_failed");
    case NotifyKind::JobStalled: return QStringLiteral("job_stalled");
    case NotifyKind::JobRunning: return QStringLiteral("job_running");
    case NotifyKind::TransferEnded: return QStringLiteral("transfer_ended");
    case NotifyKind::ConsolidationEnded: return QStringLiteral("consolidation_ended");
    }
    return {};
}

QString notifyKindTitle(NotifyKind kind)
{
    switch (kind) {
    case NotifyKind::JobFinished: return NotifyText::tr("A job finished");
    case NotifyKind::JobFailed: return NotifyText::tr("A job failed");
    case NotifyKind::JobStalled: return NotifyText::tr("A job stalled (its step stopped moving)");
    case NotifyKind::JobRunning: return NotifyText::tr("A queued job started running");
    case NotifyKind::TransferEnded: return NotifyText::tr("A transfer ended");
    case NotifyKind::ConsolidationEnded: return NotifyText::tr("A consolidation ended");
    }
    return {};
}

QString NotifyTarget::key() const
{
    return QString::number(int(type)) + QLatin1Char(':') + id;
}

Notifier::Notifier(NotificationTransport *transport, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
{
    connect(m_transport, &NotificationTransport::actionInvoked, this, &Notifier::onAction);
    connect(m_transport, &NotificationTransport::closed, this, &Notifier::onClosed);
}

QString Notifier::bodyMarkup(const QString &plain)
{
    return displayText(plain).toHtmlEscaped();
}

bool Notifier::notify(NotifyKind kind, const QString &title, const QString &body, const NotifyTarget &target)
{
    if (!AppSettings::notificationOn(notifyKindName(kind)))
        return false;
    if (m_inFront && m_inFront())
        return false;
    const QString key = target.key();
    QPointer<Notifier> self(this);
    m_transport->show(displayName(title), bodyMarkup(body), m_idOfTarget.value(key),
                      [self, key, target](quint32 id) {
                          if (!self || id == 0)
                              return;
                          // The earlier notification of this target was replaced: its id is this one's now (a server
                          // keeps the id it replaced, another may give a new one).
                          if (const quint32 old = self->m_idOfTarget.value(key); old && old != id)
                              self->m_targetOfId.remove(old);
                          self->m_idOfTarget.insert(key, id);
                          self->m_targetOfId.insert(id, target);
                          Q_EMIT self->shown(id, target);
                      });
    Q_EMIT sent(kind, target);
    return true;
}

void Notifier::onAction(quint32 id, const QString &action)
{
    const auto it = m_targetOfId.constFind(id);
    if (it == m_targetOfId.cend() || action != QLatin1String(NotificationTransport::openAction))
        return;
    Q_EMIT activated(it.value());
}

void Notifier::onClosed(quint32 id)
{
    const auto it = m_targetOfId.constFind(id);
    if (it == m_targetOfId.cend())
        return;
    // A closed notification cannot be replaced: the next one of its target is a new one.
    m_idOfTarget.remove(it.value().key());
    m_targetOfId.erase(it);
}

}  // namespace ingot
