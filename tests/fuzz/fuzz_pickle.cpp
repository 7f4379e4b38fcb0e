// libFuzzer target: the restricted unpickler must never crash, hang, read out of bounds or take memory out of
// proportion to its input; nor must the walk of the state dict it found.
#include "services/checkpoint/formats/pickle.h"
#include "services/checkpoint/formats/torchfile.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const ingot::PickleResult r = ingot::unpickle(std::string_view(reinterpret_cast<const char *>(data), size));
    std::string why;
    if (r.ok())
        ingot::stateDictTensors(r.value, nullptr, &why);
    return 0;
}
