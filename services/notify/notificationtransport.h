// How a desktop notification reaches the person: the seam between the Notifier (what to say, when, and what an
// answer means) and the transport that shows it (DBusNotifications: the freedesktop Notifications interface).
#pragma once

#include <QObject>
#include <QString>

#include <functional>

namespace ingot {

class NotificationTransport : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NotificationTransport)

public:
    using QObject::QObject;
    ~NotificationTransport() override = default;

    // Shows a notification with one action, "Open" (its key: openAction). `summary` is plain text; `body` is what the
    // server gets (escaped by the caller where the server reads markup). `replacesId`: the earlier notification this
    // one replaces (0: none). `done` gets the server's id of it (0: not shown: no server, or it refused).
    virtual void show(const QString &summary, const QString &body, quint32 replacesId,
                      std::function<void(quint32 id)> done) = 0;

    static constexpr const char *openAction = "default";

Q_SIGNALS:
    // The person chose an action of notification `id` (e.g. clicked it).
    void actionInvoked(quint32 id, const QString &action);
    // Notification `id` is gone (expired, dismissed, closed); its id means nothing any more.
    void closed(quint32 id);
};

}  // namespace ingot
