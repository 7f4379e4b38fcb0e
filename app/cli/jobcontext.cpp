#include "app/cli/jobcontext.h"

#include "app/cli/clicommon.h"
#include "app/cli/remotecommands.h"
#include "services/jobs/remotejobindex.h"
#include "services/util/task.h"

#include <QCoreApplication>
#include <QTimer>

namespace ingot::cli {

namespace {

struct CliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

JobManager manager()
{
    return JobManager(runners().local(), runners().lookup());
}

// The manager of job `id`: this machine's jobs, else the remote jobs this machine launched (connected first).
int managerFor(const QString &id, std::unique_ptr<JobManager> *out)
{
    JobRecordFile r;
    QString error;
    if (manager().load(id, &r, &error) || !RemoteJobIndex().find(id, &r)) {
        *out = std::make_unique<JobManager>(manager());
        return Ok;
    }
    std::shared_ptr<JobRunner> runner;
    const int rc = runnerFor(r.where, &runner);
    if (rc != Ok)
        return rc;
    *out = std::make_unique<JobManager>(runner, runners().lookup());
    return Ok;
}

}  // namespace

int jobManagerFor(const QString &id, std::unique_ptr<JobManager> *jobs)
{
    return managerFor(id, jobs);
}

JobRunners &runners()
{
    static const std::shared_ptr<JobRunners> r = JobRunners::create(makeLocalJobRunner());
    return *r;
}

int runnerFor(const QString &host, std::shared_ptr<JobRunner> *runner)
{
    if (const int rc = connectHost(host))
        return rc;
    QString error;
    SshError why = SshError::None;
    *runner = runners().runner(host, &error, &why);
    if (*runner)
        return Ok;
    err(CliText::tr("error: %1: %2").arg(host, error));
    return why == SshError::InvalidHost ? Usage : why == SshError::HostKeyUnknown || why == SshError::HostKeyChanged
                                                      ? HostKey
                                                      : HostUnreachable;
}

int openJob(const Invocation &in, QString *id, std::unique_ptr<JobManager> *jobs, int more, JobRecordFile *record)
{
    const QStringList pos = in.positional();
    if (pos.isEmpty() || pos.size() > 1 + more) {
        err(CliText::tr("error: name one job id (ingot-cli job list)"));
        return Usage;
    }
    *id = pos.first();
    if (const int rc = managerFor(*id, jobs); rc != Ok || !record)
        return rc;
    QString error;
    if (!(*jobs)->load(*id, record, &error)) {
        err(CliText::tr("error: %1").arg(error));
        return PartialFailure;
    }
    return Ok;
}

bool isRemote(const JobManager &jobs)
{
    return jobs.sharedRunner() != runners().local();
}

void warnUnreadable(const QStringList &unreadable)
{
    for (const QString &u : unreadable)
        err(CliText::tr("warning: cannot read %1").arg(u));
}

void idArgument(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("ID"), CliText::tr("The job id (ingot-cli job list)."));
}

void pollOnEventLoop(const PollRound &round)
{
    QObject context;
    QTimer pause;
    pause.setSingleShot(true);
    Task reading;
    const auto next = [&] {
        reading = runTask(&context, [read = round.read](TaskControl &) { read(); }, [&] {
            const int ms = round.handle();
            if (ms < 0)
                QCoreApplication::exit(0);
            else
                pause.start(ms);
        });
    };
    QObject::connect(&pause, &QTimer::timeout, &context, next);
    next();
    QCoreApplication::exec();
}

}  // namespace ingot::cli
