// A run's metrics written for other programs: CSV (RFC 4180) and JSON, every series the run has, numbers in the C
// locale whatever the user's language. `ingot-cli job metrics ID --format csv|json` prints them; the same bytes
// for a job on this machine, a host or Slurm (its metrics are read by JobManager::summary wherever it ran).
#pragma once

#include "services/jobs/metrics.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

// The columns, in order (the CSV's header, the JSON's keys): step, time_s (seconds since the job started),
// wall_time (ISO 8601, UTC), loss, learning_rate, grad_norm, tokens_per_second, step_time_s, epoch,
// peak_memory_bytes. A point without a value has an empty cell (CSV) or null (JSON).
QStringList metricsExportColumns();

// A number in the C locale, shortest round-trip form; empty for NaN or infinity (no value).
QByteArray exportNumber(double v);

struct MetricsExportInput {
    QString id;        // the job's id
    QString name;      // the job's name as people see it (any text: quoted where needed)
    double startedAt = 0;  // seconds since the epoch (the job's creation); 0: unknown, wall_time left empty
    QVector<MetricPoint> points;
};

// The header and one row per point, lines ending in CRLF (RFC 4180).
QByteArray metricsCsv(const MetricsExportInput &in);
// {"id", "name", "started_at", "columns": [...], "points": [{column: value|null, ...}, ...]}, indented.
QByteArray metricsJson(const MetricsExportInput &in);

}  // namespace ingot
