// libFuzzer target: the restricted unpickler must never crash, hang or read out of bounds on any input.
#include "services/checkpoint/formats/pickle.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    ingot::unpickle(std::string_view(reinterpret_cast<const char *>(data), size), 100000);
    return 0;
}
