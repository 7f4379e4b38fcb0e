#include "services/stores/cachestore.h"

namespace ingot {

CacheStore::~CacheStore() = default;

}  // namespace ingot
