#include "services/stores/cachestore.h"

namespace ingot {

CacheStore::~CacheStore() = default;

bool isHubBlobPath(const QByteArray &path)
{
    return path.contains("/blobs/") && (path.contains("/models--") || path.contains("/datasets--"));
}

}  // namespace ingot
