// libFuzzer target: what a remote host (or a hostile one) sends back that Ingot parses: the SSH store's listing
// (NUL-separated records of find, stat and realpath) and `ssh -G` output. Beyond not crashing (ASan, UBSan): a
// listing that parses never holds a folder or an entry outside the root (or, listed below the root, outside that
// folder), nor a link batch that leaves the records.
// Seeds: tests/fuzz/seeds/fuzz_remote/.
#include "services/remote/sshresolve.h"
#include "services/stores/shellcachestore.h"
#include "services/util/relpath.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace ingot;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    // The whole tree, and a folder's listing below the root (a re-check): every folder stays at or below it.
    for (const QString &prefix : {QString(), QStringLiteral("neuronxcc-2.15/MODULE_1+a")}) {
        ShellCacheStore::Tree tree;
        QString error;
        if (ShellCacheStore::parseListing(bytes, &tree, &error, prefix)) {
            for (auto it = tree.folders.cbegin(); it != tree.folders.cend(); ++it) {
                if (!it.key().isEmpty() && !isSafeRelativePath(it.key()))
                    std::abort();
                if (!prefix.isEmpty() && it.key() != prefix && !it.key().startsWith(prefix + QLatin1Char('/')))
                    std::abort();
                for (const StoreEntry &e : it.value().entries)
                    if (e.name.isEmpty() || e.name.contains(QLatin1Char('/')))
                        std::abort();
            }
        } else if (error.isEmpty()) {
            std::abort();  // a refusal always says why
        }
    }
    const SshResolved r = parseSshG(bytes);
    if (r.port < 0)
        std::abort();
    return 0;
}
