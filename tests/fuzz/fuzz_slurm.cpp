// libFuzzer target: what a Slurm login node (or a hostile one) prints that Ingot parses: scontrol -o records
// (partitions, a job), sinfo's node lines, squeue's and sacct's job lines (0x1f-separated), durations and times,
// the version and a pending queue. Beyond not crashing (ASan, UBSan): every value stays within maxSlurmField, every list within
// maxSlurmRecords, and a job id Ingot keeps is one it would pass to scancel. Seeds: tests/fuzz/seeds/fuzz_slurm/.
#include "services/slurm/slurmparse.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace ingot;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    for (const SlurmRecord &r : parseScontrolRecords(bytes))
        for (const auto &kv : r)
            if (kv.first.isEmpty() || kv.second.size() > maxSlurmField)
                std::abort();
    QVector<SlurmPartition> parts = parseScontrolPartitions(bytes);
    const QVector<SlurmNode> nodes = parseSinfoNodes(bytes);
    if (parts.size() > maxSlurmRecords || nodes.size() > maxSlurmRecords)
        std::abort();
    for (const SlurmNode &n : nodes)
        if (n.name.isEmpty() || n.name.size() > maxSlurmField || n.reason.size() > maxSlurmField || n.cpus < 0)
            std::abort();
    countPartitionNodes(&parts, nodes);
    for (const SlurmQueueJob &j : parseSqueue(bytes))
        if (!isSlurmJobId(j.id) || j.stdOut.size() > maxSlurmField || j.nodes < 0)
            std::abort();
    SlurmJobDetails job;
    if (parseScontrolJob(bytes, &job)) {
        if (!isSlurmJobId(job.id) || job.numNodes < 0)
            std::abort();
        if (pendingPosition(bytes, job.id, job.partition) < 0)
            std::abort();
    }
    // sacct's record of a forgotten job, under the first line's id; Slurm's durations and times.
    const QByteArray firstId = bytes.left(bytes.indexOf('\x1f') < 0 ? 0 : bytes.indexOf('\x1f')).left(40);
    SlurmJobDetails accounted;
    if (parseSacctJob(bytes, firstId, &accounted) && (accounted.id != firstId || accounted.numNodes < 0
                                                      || accounted.workDir.size() > maxSlurmField))
        std::abort();
    if (slurmDurationSeconds(bytes.left(64)) < -1)
        std::abort();
    const int mid = int(bytes.size() / 2);
    if (slurmSecondsBetween(bytes.left(mid), bytes.mid(mid)) < -1)
        std::abort();
    (void)parseSinfoVersion(bytes);
    (void)slurmShown(bytes.left(4096));
    return 0;
}
