// The freedesktop Notifications interface (org.freedesktop.Notifications on the session bus, the Desktop
// Notifications Specification 1.2): Notify with an "Open" action (the "default" key: clicking the notification),
// ActionInvoked and NotificationClosed heard back. Every call is asynchronous: the UI thread never waits on the bus.
// With no session bus, or no server on it (nobody owns the name and none can be started), nothing is sent, and the
// log says so once (not once per event).
#pragma once

#include "services/notify/notificationtransport.h"

#include <QDBusConnection>

namespace ingot {

class DBusNotifications final : public NotificationTransport
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DBusNotifications)

public:
    // The session bus (DBUS_SESSION_BUS_ADDRESS).
    explicit DBusNotifications(QObject *parent = nullptr);
    DBusNotifications(const QDBusConnection &bus, QObject *parent = nullptr);

    void show(const QString &summary, const QString &body, quint32 replacesId,
              std::function<void(quint32 id)> done) override;
    static constexpr const char *service = "org.freedesktop.Notifications";

private Q_SLOTS:
    void onActionInvoked(uint id, const QString &action);
    void onClosed(uint id, uint reason);

private:
    // Asks the bus whether a server owns the name or can be started for it, then `then(yes)`.
    void askForServer(std::function<void(bool yes)> then);
    void notify(const QString &summary, const QString &body, quint32 replacesId, std::function<void(quint32)> done);
    void sayNoServer(const QString &why);

    QDBusConnection m_bus;
    bool m_saidNoServer = false;
};

}  // namespace ingot
