// A training run Ingot did not launch, adopted from its folder (File ▸ Open a run folder…, `ingot-cli job import
// DIR`): what the folder holds is recognised and read, and the run becomes a read-only job of the history, addressed by
// its job id like every other (docs/formats.md "Imported runs"). What is recognised, first match wins:
//  - a Hugging Face / NeuronTrainer output: trainer_state.json (the folder's, else its newest checkpoint-N's), its
//    checkpoint-N folders;
//  - a TorchTitan output: its step lines in a log (torchtitanlog.h), its DCP checkpoint/step-N folders;
//  - a folder of logs: a Trainer's console lines (trainerlog.h);
//  - TensorBoard event files (tfevents.h), where they are the only record.
// The imported job's folder holds what Ingot records of any ended job (job.json with imported_from, launcher.pid with
// ended launchers, exit_status 0, rank 0's stdout with the points as INGOT_METRIC lines), so every reader of the
// history (the follower, `job show/metrics`, the monitor, comparing, consolidation) reads it as it reads any job. The
// user's folder is only read.
#pragma once

#include "services/jobs/jobrunner.h"
#include "services/jobs/metrics.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>
#include <optional>

namespace ingot {

enum class RunFolderKind { Trainer, TorchTitan, Logs, TensorBoard };
QString runFolderKindName(RunFolderKind kind);   // "trainer", "torchtitan", "logs", "tensorboard" (JSON)
QString runFolderKindTitle(RunFolderKind kind);  // what people read (translated)

struct RunFolder {
    QString folder;  // absolute, clean
    RunFolderKind kind = RunFolderKind::Logs;
    QVector<MetricPoint> points;  // by step; time: seconds since the epoch where the run recorded it, else NaN
    qint64 maxSteps = -1;
    QStringList checkpoints;  // checkpoint-N or checkpoint/step-N folders, oldest first (absolute)
    QStringList sources;      // the files the points come from, relative to the folder
    QStringList notes;        // what was skipped, and why (translated)
    double startedAt = 0;     // seconds since the epoch (0: unknown)
};

constexpr int runImportMaxPoints = 20000;  // thinned evenly past that
constexpr qint64 runImportMaxFileBytes = qint64(1) << 30;  // of one log or event file read (its start)

// Reads the folder where `runner` runs (this machine's). nullopt with words when it is not a folder or holds no run
// Ingot recognises.
std::optional<RunFolder> readRunFolder(JobRunner &runner, const QString &folder, QString *error);

struct ImportedRun {
    QString id;
    bool existed = false;  // the folder was imported before: that job was refreshed
    RunFolder run;
};
// Reads the folder and records it as a job of `runner`'s history; a folder imported before is found (by its
// imported_from) and refreshed: its points read again, its status computed again. False with words.
bool importRunFolder(const std::shared_ptr<JobRunner> &runner, const QString &folder, ImportedRun *out, QString *error);

// The points as rank 0's stdout records them (INGOT_METRIC lines), for the job folder.
QByteArray metricLines(const QVector<MetricPoint> &points);

}  // namespace ingot
