// libFuzzer target: a TensorBoard event file (events.out.tfevents.*) as Ingot reads a run folder's (issue 38): the
// TFRecord framing with its masked CRC32Cs and the Event/Summary protos through libprotobuf. Beyond not crashing (ASan,
// UBSan): what is kept stays within the reader's bounds, and reading in two chunks at any split gives what one read
// gives. Seeds: tests/fuzz/seeds/fuzz_tfevents/ (tests/fixtures/make_run_folders.py: SummaryWriter's file, the hostile
// ones), and seeds.sh writes them again from the generator.
#include "services/jobs/tfevents.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace ingot;
    const char *bytes = reinterpret_cast<const char *>(data);
    const qint64 n = qint64(size);
    TfEventReader whole;
    whole.feed(bytes, n);
    whole.finish();
    if (whole.scalars().size() > TfEventReader::maxTags)
        std::abort();
    for (const TfScalarSeries &s : whole.scalars())
        if (s.points.size() > TfEventReader::maxPointsPerTag || s.points.size() > s.seen || s.stride < 1)
            std::abort();
    if (whole.offset() > n || whole.truncatedBytes() > n)
        std::abort();
    TfEventReader split;
    const qint64 at = n > 0 ? qint64(data[0]) % (n + 1) : 0;
    split.feed(bytes, at);
    split.feed(bytes + at, n - at);
    split.finish();
    if (split.records() != whole.records() || split.badRecords() != whole.badRecords()
        || split.scalars().keys() != whole.scalars().keys() || split.error() != whole.error())
        std::abort();
    return 0;
}
