// libFuzzer target: a compile-cache entry's model.hlo_module.pb (plain or gzip) from a hostile cache, and a
// compile_flags.json. Beyond not crashing (ASan, UBSan): every list stays within the limits the parser promises,
// and the summary's differences with itself are empty; and memory stays bounded: the test runs it under libFuzzer's
// -rss_limit_mb and -malloc_limit_mb (tests/fuzz/CMakeLists.txt). Seeds: tests/fuzz/seeds/fuzz_hlo/ (modules written
// with the same .proto, one gzip-compressed, one padded as the sample cache pads them; tuple-bomb.pb.gz, 16 KB of gzip
// holding a tuple of 8 Mi empty shapes, as tst_hlo's craftedModulesStayWithinMemory builds it, which took 2.2 GB).
#include "services/cache/hlo.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace ingot;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    HloLimits limits;
    limits.maxBytes = 64 << 20;  // a gzip bomb stops here, within the fuzzer's memory limit
    limits.maxOpcodeKinds = 64;
    limits.maxCollectiveKinds = 16;
    QString error;
    if (const auto h = parseHloModule(bytes, &error, limits)) {
        if (h->opcodes.size() > limits.maxOpcodeKinds + 1 || h->collectives.size() > limits.maxCollectiveKinds ||
            h->moduleName.size() > 4096 || h->parameters.size() > 4096 || h->computationCount <= 0)
            std::abort();
        for (const QString &p : h->parameters)
            if (p.isEmpty())
                std::abort();
        if (!hloDifferences(*h, *h).isEmpty())
            std::abort();
        (void)h->collectiveLines();
    } else if (error.isEmpty()) {
        std::abort();  // a refusal always says why
    }
    (void)parseCompileFlags(bytes, true);
    return 0;
}
