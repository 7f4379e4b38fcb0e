#include "services/remote/remotehosts.h"

#include "services/remote/sshshell.h"
#include "services/s3/hosts3access.h"
#include "services/s3/s3cachestore.h"
#include "services/stores/shellcachestore.h"
#include "services/stores/storefactory.h"
#include "services/util/appsettings.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QSet>

namespace ingot {

struct RemoteHosts::Private {
    QMutex mutex;
    QHash<QString, std::shared_ptr<SshConnection>> connections;  // by SshHost::toString()
};

RemoteHosts &RemoteHosts::instance()
{
    static RemoteHosts hosts;
    return hosts;
}

RemoteHosts::RemoteHosts() : d(std::make_unique<Private>()) {}
RemoteHosts::~RemoteHosts() = default;

RemoteHostsSignals *RemoteHostsSignals::instance()
{
    static RemoteHostsSignals *const notifier = new RemoteHostsSignals;  // never deleted: outlives every receiver
    return notifier;
}

void RemoteHosts::notifyChanged()
{
    Q_EMIT RemoteHostsSignals::instance()->hostsChanged();
}

QString RemoteHosts::sshConfigPath()
{
    const SshClientConfig client = SshClientConfig::fromSettings();
    return client.configFile.isEmpty() ? accountHomeDir() + QStringLiteral("/.ssh/config") : client.configFile;
}

QVector<RemoteHostEntry> RemoteHosts::hosts() const
{
    QVector<RemoteHostEntry> out;
    QSet<QString> seen;
    auto add = [&](const QString &name, bool fromConfig) {
        SshHost h;
        QString error;
        if (seen.contains(name) || !parseSshHost(name, &h, &error))
            return;
        seen.insert(name);
        out.push_back(RemoteHostEntry{name, h, fromConfig});
    };
    for (const QString &name : sshConfigHosts(sshConfigPath()))
        add(name, true);
    for (const QString &name : AppSettings::remoteHosts())
        add(name, false);
    return out;
}

std::shared_ptr<SshConnection> RemoteHosts::connection(const QString &hostText, QString *error)
{
    SshHost host;
    QString why;
    if (!parseSshHost(hostText, &host, &why)) {
        if (error)
            *error = why;
        return nullptr;
    }
    QMutexLocker lock(&d->mutex);
    auto &conn = d->connections[host.toString()];
    if (!conn)
        conn = std::make_shared<SshConnection>(host, SshClientConfig::fromSettings());
    return conn;
}

std::shared_ptr<RemoteShell> RemoteHosts::shell(const QString &hostText, QString *error)
{
    auto conn = connection(hostText, error);
    return conn ? std::make_shared<SshShell>(std::move(conn)) : nullptr;
}

void RemoteHosts::reset()
{
    QMutexLocker lock(&d->mutex);
    d->connections.clear();
}

QString sshStoreKind()
{
    return QStringLiteral("ssh");
}

StoreLocation sshStoreLocation(const QString &host, const QString &path)
{
    return StoreLocation{sshStoreKind(), host, path};
}

void registerRemoteStores()
{
    StoreFactory::instance().registerKind(sshStoreKind(), [](const StoreLocation &loc) -> std::unique_ptr<CacheStore> {
        QString error;
        std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(loc.host, &error);
        if (!shell)
            return nullptr;
        return std::make_unique<ShellCacheStore>(std::move(shell), loc.host, loc.path);
    });
    // A host's S3 cache, read by the host's own AWS CLI with the host's keys.
    StoreFactory::instance().registerKind(s3::hostS3StoreKind(), [](const StoreLocation &loc) -> std::unique_ptr<CacheStore> {
        QString error;
        s3::S3Location where;
        if (!s3::S3Location::parse(loc.path, &where, &error))
            return nullptr;
        std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(loc.host, &error);
        if (!shell)
            return nullptr;
        return std::make_unique<s3::S3CacheStore>(std::make_shared<s3::HostS3Access>(std::move(shell), loc.host, where),
                                                  loc.host + QLatin1Char(':') + where.url());
    });
}

}  // namespace ingot
