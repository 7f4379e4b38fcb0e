// The icons every page uses, compiled into the static ui/common library.
#pragma once

namespace ingot {

// Registers the icons (safe to call more than once, from any page that shows one).
void initResources();

}  // namespace ingot
