// Paths relative to a root (a cache, a Hub repo, a checkpoint): the one check that a path cannot leave its root.
#pragma once

#include <QString>

namespace ingot {

// Safe when it has no "..", "." or empty segment, no leading '/' and no NUL; "" (the root) is safe. A
// backslash is an ordinary character in a Linux file name.
bool isSafeRelativePath(const QString &rel);

}  // namespace ingot
