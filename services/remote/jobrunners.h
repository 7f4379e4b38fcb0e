// Training jobs on hosts over SSH: a ShellJobRunner over the host's SshShell (RemoteHosts' shared master
// connection), and JobRunners, which finds the runner of any `where` ("local" or a host) for the job services, the
// CLI and multi-node jobs. A runner is opened (connected, the home resolved) before it is handed out; an unknown or
// changed host key is never accepted here (the Remote hosts page asks the person), it is an error with its kind.
#pragma once

#include "services/jobs/shelljobrunner.h"
#include "services/remote/sshconnection.h"

#include <QHash>
#include <QMutex>

#include <memory>

namespace ingot {

// Connects (BatchMode: never a prompt), then opens the runner. nullptr with words (and the kind in *why) when the
// host cannot be used.
std::shared_ptr<ShellJobRunner> makeSshJobRunner(std::shared_ptr<SshConnection> connection, ShellJobRunnerOptions options,
                                                 QString *error, SshError *why = nullptr);
// The same through RemoteHosts' shared connection to `host`.
std::shared_ptr<ShellJobRunner> makeSshJobRunner(const QString &host, QString *error, SshError *why = nullptr);

class JobRunners final : public std::enable_shared_from_this<JobRunners>
{
public:
    // `local`: this machine's runner ("local"). `defaults`: options for every host's runner (tests point the jobs
    // and cache folders elsewhere); `where` and `describe` are set per host.
    static std::shared_ptr<JobRunners> create(std::shared_ptr<JobRunner> local, ShellJobRunnerOptions defaults = {});
    Q_DISABLE_COPY_MOVE(JobRunners)

    // "local" or a host; a host's runner is made and opened once and kept while it works (a host that could not be
    // reached is tried again on the next call). Blocking.
    std::shared_ptr<JobRunner> runner(const QString &where, QString *error, SshError *why = nullptr);
    // runner() as a RunnerLookup (holds this object).
    RunnerLookup lookup();
    std::shared_ptr<JobRunner> local() const { return m_local; }

private:
    JobRunners(std::shared_ptr<JobRunner> local, ShellJobRunnerOptions defaults);

    std::shared_ptr<JobRunner> m_local;
    ShellJobRunnerOptions m_defaults;
    QMutex m_mutex;
    QHash<QString, std::shared_ptr<ShellJobRunner>> m_hosts;
};

}  // namespace ingot
