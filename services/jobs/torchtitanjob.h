// A job that runs TorchTitan (`torchrun … -m torchtitan.train --job.config_file FILE`, launched as *Run a command*)
// and where its checkpoints are: TorchTitan writes DCP checkpoints to {job.dump_folder}/{checkpoint.folder}/step-N
// (torchtitan/components/checkpoint.py, _create_checkpoint_id; a step counts once its .metadata is there, as
// _find_load_step has it), the folders read from the TOML config file (torchtitan/config/manager.py, releases 0.1.0
// to 0.2.2; docs/formats.md "TorchTitan jobs") and the command line's overrides. Ingot finds the newest step-N and
// offers it for consolidation like the backend's checkpoint-N folders.
#pragma once

#include "services/jobs/jobfolder.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace ingot {

class JobRunner;

struct TorchTitanJob {
    QString configFile;                                  // --job.config_file as given ("": none)
    QString dumpFolder = QStringLiteral("./outputs");    // [job] dump_folder (0.2's default)
    QString checkpointFolder = QStringLiteral("checkpoint");  // [checkpoint] folder
    bool checkpointing = false;                          // [checkpoint] enable (0.2) / enable_checkpoint (0.1)
    qint64 steps = -1;                                   // [training] steps (-1: not given)
};

// The TorchTitan run of a job's settings, the config file not read yet: a module job of torchtitan.train (or a
// script .../torchtitan/train.py) with its --job.config_file / --job.config-file; nullopt for any other job.
std::optional<TorchTitanJob> torchTitanJob(const JobSpec &spec);

// Reads [job] dump_folder, [checkpoint] folder and enable / enable_checkpoint and [training] steps from a TOML config
// into *job; everything else is skipped. False with words (and *job unchanged) for a file over maxConfigBytes or one
// of those keys given twice or with a value of another type (a string, a boolean, a whole number up to 10^12); the
// rest of the TOML is not checked.
constexpr qsizetype torchTitanMaxConfigBytes = 1 << 20;
bool readTorchTitanConfig(const QByteArray &toml, TorchTitanJob *job, QString *error);
// The command line's overrides (--job.dump_folder, --checkpoint.folder, --checkpoint.enable[_checkpoint],
// --training.steps), which win over the file's, as TorchTitan's config manager has it.
void applyTorchTitanArguments(const QStringList &args, TorchTitanJob *job);

// {dump_folder}/{folder} as os.path.join makes it (an absolute part starts over), relative to the job's folder
// (where the command runs).
QString torchTitanCheckpointDir(const TorchTitanJob &job, const QString &cwd);
// The newest step-N folder of a listing of that folder (paths relative to it, two levels) that holds a .metadata
// file: "step-N", or "" when there is none.
QString newestTorchTitanStep(const QStringList &relativeFiles);

// A TorchTitan job's settings where it runs: its config file read there (bounded; relative to the job's folder), then
// the command line's overrides. False with words when the config cannot be read.
bool readTorchTitanJob(JobRunner &runner, const JobRecordFile &record, TorchTitanJob *job, QString *error);

// The newest step-N of a TorchTitan job where it runs: the config read there (bounded), the folder listed.
// `dirExists`: whether the checkpoint folder is there. "" with *error when the config cannot be read.
QString latestTorchTitanCheckpoint(JobRunner &runner, const JobRecordFile &record, const TorchTitanJob &job,
                                   bool *dirExists, QString *error = nullptr);

// What a job's Consolidate offers the wizard or the CLI: its newest checkpoint for a TorchTitan job (its output
// folder holds none of its checkpoints), else its output folder (the wizard chooses among its checkpoints).
QString consolidationSource(const JobRecordFile &record, const QString &latestCheckpoint);

}  // namespace ingot
