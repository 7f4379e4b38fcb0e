// The remote hosts Ingot knows: the Host names of the ssh config (and its Includes) and the hosts the user added,
// with one shared SshConnection per host, so the Remote hosts list, the SSH cache stores and the SSH job runner
// see the same master connection and the same state. Also registers the "ssh" store kind with the StoreFactory.
#pragma once

#include "services/remote/sshconnection.h"
#include "services/stores/storelocation.h"

#include <QObject>
#include <QVector>

#include <memory>

namespace ingot {

class RemoteShell;

struct RemoteHostEntry {
    QString name;             // as listed and as the user typed it: an alias or user@host:port
    SshHost host;
    bool fromSshConfig = false;  // a Host name of the ssh config (else added in Ingot)
};

class RemoteHosts final
{
public:
    static RemoteHosts &instance();

    // The ssh config's Host names (no patterns), then the added hosts not among them.
    QVector<RemoteHostEntry> hosts() const;
    // The ssh config Ingot reads the Host names from: the configured -F file, else ~/.ssh/config of the account.
    static QString sshConfigPath();

    // The shared connection to a host (made on first use, with the current SshClientConfig::fromSettings());
    // nullptr with words in *error when the name does not parse.
    std::shared_ptr<SshConnection> connection(const QString &hostText, QString *error = nullptr);
    // A shell on that host through its shared connection; nullptr with words in *error when the name does not parse.
    std::shared_ptr<RemoteShell> shell(const QString &hostText, QString *error = nullptr);
    // Forgets every connection (after the ssh settings changed); masters end by themselves (ControlPersist).
    void reset();
    // Tells every list of hosts (the Remote hosts page, the launcher's "Run on") that hosts() may have changed: a
    // host was added or removed, or another ssh config was chosen. On the GUI thread.
    void notifyChanged();

private:
    RemoteHosts();
    ~RemoteHosts();
    struct Private;
    std::unique_ptr<Private> d;
};

// The signal behind RemoteHosts::notifyChanged() (RemoteHosts itself is no QObject).
class RemoteHostsSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteHostsSignals)

public:
    static RemoteHostsSignals *instance();

Q_SIGNALS:
    void hostsChanged();

private:
    RemoteHostsSignals() = default;
};

// The store kind of a host's compile cache: StoreLocation{"ssh", host, path}.
QString sshStoreKind();
StoreLocation sshStoreLocation(const QString &host, const QString &path);
// Registers the "ssh" kind with the StoreFactory (idempotent): the app, the CLI and tests call it at start.
void registerRemoteStores();

}  // namespace ingot
