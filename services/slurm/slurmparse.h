// Parsers of the Slurm clients' output, pure functions (text in, values out) so hostile output is a unit test.
// Ingot asks for machine-readable forms only:
//   scontrol show partition -o / show job -o   one record per line, Key=Value separated by spaces; a word without
//                                             '=' continues the previous value (free text such as OS=Linux 6.1 #1)
//   sinfo -h -N -o FMT, squeue -h -O FMT      one record per line, fields separated by the unit separator 0x1f
//                                             (never in a name, unlike '|' or spaces)
// Every parser skips a line it cannot read (a wrong field count, an unknown layout), ignores unknown keys, keeps
// at most maxSlurmRecords records and cuts each value at maxSlurmField bytes: truncated, huge or odd-byte output
// never crashes and stays bounded.
#pragma once

#include "services/slurm/slurmtypes.h"

#include <QByteArray>
#include <QPair>
#include <QVector>

namespace ingot {

constexpr int maxSlurmRecords = 100000;
constexpr int maxSlurmField = 4096;
constexpr char slurmFieldSeparator = '\x1f';

using SlurmRecord = QVector<QPair<QByteArray, QByteArray>>;
// `scontrol show ... -o` lines as records (at most 256 keys each; a repeated key keeps its first value).
QVector<SlurmRecord> parseScontrolRecords(const QByteArray &text);
QByteArray slurmValue(const SlurmRecord &record, const QByteArray &key);

// The formats Ingot passes to sinfo and squeue (with the 0x1f separator), and their parsers.
QByteArray sinfoNodeFormat();
QByteArray squeueFormat();
QVector<SlurmNode> parseSinfoNodes(const QByteArray &text);  // a node in two partitions is one node
QVector<SlurmPartition> parseScontrolPartitions(const QByteArray &text);
QVector<SlurmQueueJob> parseSqueue(const QByteArray &text);
// One line of `scontrol show job -o` as a record: as parseScontrolRecords, but the free-text fields (JobName,
// Command, WorkDir) run to the key Slurm prints after them, so "Key=" text in a job's name is its name.
SlurmRecord parseScontrolJobRecord(const QByteArray &line);
// The first job of `scontrol show job -o ID`; false when there is none, or when its record names a field Ingot reads
// twice (*ambiguous: a name or comment that forges Slurm's fields; which is Slurm's cannot be told).
bool parseScontrolJob(const QByteArray &text, SlurmJobDetails *job, bool *ambiguous = nullptr);
// `sacct -n -X -P --delimiter=<0x1f> -j ID -o FMT`: the accounting database's record of a job the controller forgot
// (only where accounting is configured). False when job `id` is not there.
QByteArray sacctFormat();
bool parseSacctJob(const QByteArray &text, const QByteArray &id, SlurmJobDetails *job);
// "slurm-wlm 22.05.8" / "slurm 23.11.1" -> "22.05.8"; empty when it is no version.
QString parseSinfoVersion(const QByteArray &text);
// The node counts by state of every partition, from the nodes.
void countPartitionNodes(QVector<SlurmPartition> *partitions, const QVector<SlurmNode> &nodes);
SlurmNodeState slurmNodeState(const QByteArray &sinfoState);
// `squeue -h -t PD -S -p,i -o '%i %P'` (the pending jobs, highest priority first): the 1-based position of job `id`
// among those of `partition`; 0 when it is not there.
int pendingPosition(const QByteArray &squeueText, const QByteArray &id, const QByteArray &partition);
// Slurm's durations (RunTime, TimeLimit, squeue's %M): [days-]hours:minutes:seconds or minutes:seconds, in seconds;
// -1 for UNLIMITED, INVALID, Partition_Limit or anything else.
qint64 slurmDurationSeconds(const QByteArray &text);
// Seconds from one of Slurm's times to another (SubmitTime, StartTime: 2026-11-26T19:50:01, both in the controller's
// time zone); -1 when either is no time (Unknown, None, empty) or `to` is before `from`.
qint64 slurmSecondsBetween(const QByteArray &from, const QByteArray &to);
// A job id Ingot passes to scancel/scontrol: digits, optionally _N (array task) or +N (het component).
bool isSlurmJobId(const QByteArray &id);

}  // namespace ingot
