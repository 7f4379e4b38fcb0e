// libFuzzer target: what a Hub sends that Ingot parses, on any bytes: a page of a tree listing (strict, and
// lenient as for paths-info), a Link header's next page, one registry entry, and the oldest layout's registry.json.
// Beyond not crashing (ASan, UBSan): a listing never hands on a path that leaves the repo or a negative size.
//
// Build (from the repository root; no libcurl, no server):
//   clang++-14 -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. \
//     tests/fuzz/fuzz_hubjson.cpp services/hub/treepage.cpp services/hub/registry.cpp \
//     services/util/names.cpp services/util/relpath.cpp $(pkg-config --cflags --libs Qt6Core) -fPIC -o fuzz_hubjson
// Seeds: the tree pages and registry files the test Hub serves (tests/hub/testhub.py, tests/support/testhub.cpp).
#include "services/hub/registry.h"
#include "services/hub/treepage.h"
#include "services/util/relpath.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {
void check(const QVector<ingot::TreeEntry> &entries)
{
    for (const ingot::TreeEntry &e : entries)
        if (e.path.isEmpty() || !ingot::isSafeRelativePath(e.path) || e.size < 0)
            std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString repo = QStringLiteral("org/repo");
    ingot::HubError err;
    const QVector<ingot::TreeEntry> strict = ingot::parseTreePage(bytes, repo, 200, &err);
    if (!err.ok() && !strict.isEmpty())
        std::abort();  // an error hands on nothing
    check(strict);
    check(ingot::parseTreePage(bytes, repo, 200, &err, ingot::BadEntries::Skip));
    ingot::nextPageUrl(bytes, QStringLiteral("https://huggingface.co/api/models/org/repo/tree/main?recursive=true"));
    const ingot::LookupEntry e = ingot::parseRegistryEntry(bytes, QStringLiteral("a.json"));
    if (e.known && (e.batchSize < 0 || e.sequenceLength < 0))
        std::abort();
    for (const ingot::LookupEntry &x : ingot::parseRegistryJson(bytes, QStringLiteral("registry.json"), QStringLiteral("org/model")))
        if (x.known && (x.batchSize < 0 || x.sequenceLength < 0))
            std::abort();
    return 0;
}
