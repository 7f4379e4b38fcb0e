// Words for an errno, for messages that say what happened and where.
#pragma once

#include <QString>

namespace ingot {

QString describeErrno(int err);

}  // namespace ingot
