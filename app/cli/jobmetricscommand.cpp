#include "app/cli/jobmetricscommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/jobcontext.h"
#include "services/jobs/metricsexport.h"

#include <QCoreApplication>

#include <cstdio>

namespace ingot::cli {

namespace {

struct CliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

// The job's metrics as CSV (the default) or JSON, on stdout as they are: the bytes a file would hold (the job's name
// is quoted in the JSON and never reaches the CSV; numbers are the C locale's).
int cmdMetrics(const Invocation &in)
{
    QString format = in.isSet(QStringLiteral("format")) ? in.value(QStringLiteral("format")) : QStringLiteral("csv");
    if (in.json)
        format = QStringLiteral("json");
    if (format != QLatin1String("csv") && format != QLatin1String("json")) {
        err(CliText::tr("error: unknown format \"%1\" (csv or json)").arg(format));
        return Usage;
    }
    QString id;
    std::unique_ptr<JobManager> found;
    if (const int rc = openJob(in, &id, &found); rc != Ok)
        return rc;
    QString error;
    const JobSummary s = found->summary(id, true, &error);
    if (!error.isEmpty()) {
        err(CliText::tr("error: %1").arg(error));
        return PartialFailure;
    }
    warnUnreadable(s.unreadable);
    MetricsExportInput input;
    input.id = id;
    input.name = s.record.spec.displayName(s.record.id, s.record.createdMs);
    input.startedAt = s.status.startedAt > 0 ? s.status.startedAt : double(s.record.createdMs) / 1000;
    input.points = s.metrics;
    const QByteArray bytes = format == QLatin1String("json") ? metricsJson(input) : metricsCsv(input);
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    if (s.metrics.isEmpty())
        err(CliText::tr("job %1 has logged no metrics yet").arg(id));
    return Ok;
}

}  // namespace

QVector<Command> jobMetricsCommands()
{
    return {
        {QStringLiteral("job"), QStringLiteral("metrics"),
         CliText::tr("A run's metrics (step, time, loss, learning rate, throughput, grad norm, ...) as CSV or JSON"),
         JsonOption,
         [](QCommandLineParser &p) {
             idArgument(p);
             p.addOption({QStringLiteral("format"), CliText::tr("csv (the default: RFC 4180, a header row) or json."),
                          QStringLiteral("FORMAT")});
         },
         cmdMetrics},
    };
}

}  // namespace ingot::cli
