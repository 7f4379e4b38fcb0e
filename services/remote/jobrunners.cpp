#include "services/remote/jobrunners.h"

#include "services/remote/remotehosts.h"
#include "services/remote/sshshell.h"
#include "services/util/names.h"

#include <QCoreApplication>

namespace ingot {

std::shared_ptr<ShellJobRunner> makeSshJobRunner(std::shared_ptr<SshConnection> connection, ShellJobRunnerOptions options,
                                                 QString *error, SshError *why)
{
    if (why)
        *why = SshError::None;
    if (!connection->connect()) {
        if (why)
            *why = connection->error();
        *error = connection->errorText();
        return nullptr;
    }
    const QString host = connection->host().toString();
    if (options.where.isEmpty())
        options.where = host;
    if (options.describe.isEmpty())
        options.describe = host;
    options.storeKind = sshStoreKind();  // its compile caches are read over the same connection
    auto runner = std::make_shared<ShellJobRunner>(std::make_shared<SshShell>(std::move(connection)), options);
    if (!runner->open(error)) {
        if (why)
            *why = SshError::Other;
        return nullptr;
    }
    return runner;
}

std::shared_ptr<ShellJobRunner> makeSshJobRunner(const QString &host, QString *error, SshError *why)
{
    std::shared_ptr<SshConnection> connection = RemoteHosts::instance().connection(host, error);
    if (!connection) {
        if (why)
            *why = SshError::InvalidHost;
        return nullptr;
    }
    ShellJobRunnerOptions o;
    o.where = host;
    o.describe = host;
    return makeSshJobRunner(std::move(connection), o, error, why);
}

std::shared_ptr<JobRunners> JobRunners::create(std::shared_ptr<JobRunner> local, ShellJobRunnerOptions defaults)
{
    return std::shared_ptr<JobRunners>(new JobRunners(std::move(local), std::move(defaults)));
}

JobRunners::JobRunners(std::shared_ptr<JobRunner> local, ShellJobRunnerOptions defaults)
    : m_local(std::move(local)), m_defaults(std::move(defaults))
{
}

std::shared_ptr<JobRunner> JobRunners::runner(const QString &where, QString *error, SshError *why)
{
    if (why)
        *why = SshError::None;
    if (where == QLatin1String("local") || where == m_local->where())
        return m_local;
    {
        QMutexLocker lock(&m_mutex);
        if (const auto r = m_hosts.value(where))
            return r;
    }
    std::shared_ptr<SshConnection> connection = RemoteHosts::instance().connection(where, error);
    if (!connection) {
        if (why)
            *why = SshError::InvalidHost;
        return nullptr;
    }
    ShellJobRunnerOptions o = m_defaults;
    o.where = where;
    o.describe = where;
    std::shared_ptr<ShellJobRunner> r = makeSshJobRunner(std::move(connection), o, error, why);
    if (!r)
        return nullptr;
    QMutexLocker lock(&m_mutex);
    auto &slot = m_hosts[where];
    if (!slot)
        slot = r;
    return slot;
}

RunnerLookup JobRunners::lookup()
{
    std::shared_ptr<JobRunners> self = shared_from_this();
    return [self](const QString &where, QString *error) { return self->runner(where, error); };
}

}  // namespace ingot
