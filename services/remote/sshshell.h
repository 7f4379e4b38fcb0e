// The RemoteShell of a host over SSH: a store's or a runner's small POSIX scripts run there through the host's
// master connection. The script and every argument travel as printf %b escapes inside single quotes, so they
// arrive byte for byte whatever the login shell there is (sh, bash, zsh, fish, csh) and never meet its expansions.
#pragma once

#include "services/remote/sshconnection.h"
#include "services/util/remoteshell.h"

#include <memory>

namespace ingot {

class SshShell final : public RemoteShell
{
public:
    explicit SshShell(std::shared_ptr<SshConnection> connection);
    QString describe() const override;
    ShellResult run(const QByteArray &script, const QVector<QByteArray> &args, const QByteArray &input, qint64 maxOut,
                    int timeoutMs) override;
    SshConnection &connection() const { return *m_connection; }
    std::shared_ptr<SshConnection> sharedConnection() const { return m_connection; }

    // The remote command line run() hands to ssh (for tests): ASCII only, no byte outside single quotes but the
    // separating spaces.
    static QString commandFor(const QByteArray &script, const QVector<QByteArray> &args);
    // A command line over this limit cannot pass the remote exec (Linux: 128 KiB for one argument).
    static constexpr int maxCommandBytes = 120 * 1024;

private:
    std::shared_ptr<SshConnection> m_connection;
};

}  // namespace ingot
