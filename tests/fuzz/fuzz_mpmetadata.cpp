// libFuzzer target: the partitioning metadata parser (mp_metadata JSON) on any bytes. It must never crash, throw or
// hang, whatever the types and values; what it accepts must be in range, so what uses it (the GQA head order
// here) stays bounded too.
#include "services/checkpoint/assemble.h"
#include "services/checkpoint/loramerge.h"
#include "services/checkpoint/metadata.h"
#include "services/checkpoint/ranknames.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    ingot::PartitionMetadata md;
    QStringList problems;
    const bool ok = ingot::parseMpMetadata(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)),
                                           QStringLiteral("fuzz.json"), &md, &problems);
    if (ok != problems.isEmpty())
        std::abort();
    for (const auto &[name, p] : md.params)
        if (p.parallel && (p.dim < -1 || p.dim >= int(ingot::kMaxTensorDims) || p.stride < 1))
            std::abort();
    if (md.numPartitions < 0 || md.numPartitions > ingot::kMaxRank + 1)
        std::abort();
    for (const auto &f : md.fused) {
        if (f.tpSize < 1 || f.fuseAxis < 0 || f.fuseAxis > 1 || f.linearNames.size() != f.originalDims.size())
            std::abort();
        for (auto d : f.originalDims)
            if (d < 1)
                std::abort();
    }
    // The same bytes as an adapter's names (the adapter's name taken out of metadata names) and as its
    // adapter_config.json: what is accepted must be in range.
    for (const auto &[name, p] : md.params)
        (void)ingot::withoutAdapterName(name, "default");
    static const QString cfg = []() -> QString {
        const QString dir = qEnvironmentVariableIsSet("INGOT_FUZZ_TMP") ? qEnvironmentVariable("INGOT_FUZZ_TMP") : QDir::tempPath();
        QDir().mkpath(dir);
        return dir + QStringLiteral("/ingot-fuzz-adapter-config-%1.json").arg(::getpid());
    }();
    {
        QFile f(cfg);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    ingot::LoraConfig lc;
    QStringList loraProblems;
    if (ingot::readLoraConfig(cfg, &lc, &loraProblems) && (lc.r < 1 || !std::isfinite(lc.scaling())))
        std::abort();
    int budget = 4;
    for (const auto &g : md.gqa) {
        if (g.heads < 1 || g.kvHeads < 1 || g.multiplier < 1 || g.tpSize < 1 || g.heads % g.tpSize)
            std::abort();
        if (budget-- <= 0)
            break;
        if (g.heads > 4096)
            continue;  // bounded, but slow to fuzz
        std::int64_t total = 0;
        for (int r = 0; r < g.tpSize && total <= g.heads; ++r)
            for (auto h : ingot::gqaQueryHeadsForRank(g.tpSize, r, g.heads, g.kvHeads, g.multiplier)) {
                if (h < 0 || h >= g.heads)
                    std::abort();
                ++total;
            }
    }
    return 0;
}
