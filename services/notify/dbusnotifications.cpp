#include "services/notify/dbusnotifications.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QLoggingCategory>
#include <QVariantMap>

namespace ingot {

namespace {

Q_LOGGING_CATEGORY(lcNotify, "ingot.notify")

const QString path = QStringLiteral("/org/freedesktop/Notifications");
const QString interface = QStringLiteral("org.freedesktop.Notifications");

// Calls `message` on `bus` and hands the reply to `done` on this thread, never blocking.
void callAsync(const QDBusConnection &bus, const QDBusMessage &message, QObject *context,
               std::function<void(const QDBusMessage &)> done)
{
    auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(message), context);
    QObject::connect(watcher, &QDBusPendingCallWatcher::finished, context, [watcher, done](QDBusPendingCallWatcher *) {
        done(watcher->reply());
        watcher->deleteLater();
    });
}

}  // namespace

DBusNotifications::DBusNotifications(QObject *parent)
    : DBusNotifications(QDBusConnection::sessionBus(), parent)
{
}

DBusNotifications::DBusNotifications(const QDBusConnection &bus, QObject *parent)
    : NotificationTransport(parent)
    , m_bus(bus)
{
    if (!m_bus.isConnected())
        return;
    // The server's signals, from whichever connection owns the name (Qt follows its owner).
    m_bus.connect(QString::fromLatin1(service), path, interface, QStringLiteral("ActionInvoked"), this,
                  SLOT(onActionInvoked(uint,QString)));
    m_bus.connect(QString::fromLatin1(service), path, interface, QStringLiteral("NotificationClosed"), this,
                  SLOT(onClosed(uint,uint)));
}

void DBusNotifications::show(const QString &summary, const QString &body, quint32 replacesId,
                             std::function<void(quint32)> done)
{
    if (!m_bus.isConnected()) {
        sayNoServer(QStringLiteral("no session bus (%1)").arg(m_bus.lastError().message()));
        done(0);
        return;
    }
    askForServer([this, summary, body, replacesId, done](bool yes) {
        if (!yes) {
            sayNoServer(QStringLiteral("nobody owns %1 on the session bus").arg(QString::fromLatin1(service)));
            done(0);
            return;
        }
        notify(summary, body, replacesId, done);
    });
}

void DBusNotifications::askForServer(std::function<void(bool)> then)
{
    const QString dbus = QStringLiteral("org.freedesktop.DBus");
    const QString dbusPath = QStringLiteral("/org/freedesktop/DBus");
    QDBusMessage owner = QDBusMessage::createMethodCall(dbus, dbusPath, dbus, QStringLiteral("NameHasOwner"));
    owner << QString::fromLatin1(service);
    callAsync(m_bus, owner, this, [this, then, dbus, dbusPath](const QDBusMessage &reply) {
        if (reply.type() == QDBusMessage::ReplyMessage && reply.arguments().value(0).toBool()) {
            then(true);
            return;
        }
        // Not running: a server the bus starts on demand (a D-Bus service file) is there too.
        const QDBusMessage list = QDBusMessage::createMethodCall(dbus, dbusPath, dbus, QStringLiteral("ListActivatableNames"));
        callAsync(m_bus, list, this, [then](const QDBusMessage &names) {
            then(names.type() == QDBusMessage::ReplyMessage
                 && names.arguments().value(0).toStringList().contains(QString::fromLatin1(service)));
        });
    });
}

void DBusNotifications::notify(const QString &summary, const QString &body, quint32 replacesId,
                               std::function<void(quint32)> done)
{
    QDBusMessage m = QDBusMessage::createMethodCall(QString::fromLatin1(service), path, interface, QStringLiteral("Notify"));
    const QStringList actions{QString::fromLatin1(openAction), QCoreApplication::translate("ingot::DBusNotifications", "Open")};
    QVariantMap hints;
    hints.insert(QStringLiteral("desktop-entry"), QStringLiteral("io.github.ingot.Ingot"));
    m << QStringLiteral("Ingot") << uint(replacesId) << QStringLiteral("io.github.ingot.Ingot") << summary << body
      << actions << hints << int(-1);
    callAsync(m_bus, m, this, [this, done](const QDBusMessage &reply) {
        if (reply.type() != QDBusMessage::ReplyMessage) {
            sayNoServer(QStringLiteral("%1: %2").arg(reply.errorName(), reply.errorMessage()));
            done(0);
            return;
        }
        done(reply.arguments().value(0).toUInt());
    });
}

void DBusNotifications::sayNoServer(const QString &why)
{
    if (m_saidNoServer)
        return;
    m_saidNoServer = true;
    qCInfo(lcNotify, "desktop notifications are not shown: %s", qUtf8Printable(displayText(why)));
}

void DBusNotifications::onActionInvoked(uint id, const QString &action)
{
    Q_EMIT actionInvoked(id, action);
}

void DBusNotifications::onClosed(uint id, uint reason)
{
    Q_UNUSED(reason)
    Q_EMIT closed(id);
}

}  // namespace ingot
