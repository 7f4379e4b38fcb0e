// libFuzzer target: what a Neuron host (or a hostile one) prints that Ingot parses for a job: a neuron-monitor
// report line, neuron-ls's JSON, neuron_parallel_compile's results file and log lines, and the compiler wrapper's
// lines in a job's output. Beyond not crashing (ASan, UBSan): every figure stays within its bounds.
// Seeds: tests/fuzz/seeds/fuzz_neuron/ (the documented formats).
#include "services/cache/compilelog.h"
#include "services/jobs/neuronmonitor.h"
#include "services/jobs/precompile.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace ingot;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (const auto r = parseNeuronMonitorReport(bytes, QStringLiteral("job"), nullptr)) {
        if (r->utilization.size() > maxNeuronCores || r->errors.size() > 32 || r->hostBytes < -1 || r->deviceCount > 4096)
            std::abort();
        for (double u : r->utilization)
            if (!(u >= 0 && u <= 100))
                std::abort();
    }
    if (const auto d = parseNeuronLs(bytes, nullptr))
        if (d->size() > 4096)
            std::abort();
    if (const auto p = parsePrecompileResults(bytes, nullptr, 1000))
        if (p->size() > 1000)
            std::abort();
    PrecompileLogScanner pl;
    pl.feed(bytes);
    pl.finish();
    CompileLogScanner cl;
    cl.feed(bytes);
    cl.finish();
    for (const QString &k : cl.hits() + cl.failed())
        if (!ModuleKey::parse(k))  // a key it keeps is one Ingot can look up in a cache, never a path out of it
            std::abort();
    return 0;
}
