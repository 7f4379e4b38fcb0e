// Sizes typed by people (how values are written for people is format.h).
#pragma once

#include <QString>

namespace ingot {

// "512", "500M", "100GB", "1.5T", "20GiB" (K/M/G/T = powers of 1000, Ki/Mi/Gi/Ti = powers of 1024). -1 when invalid.
qint64 parseBytes(const QString &text);

}  // namespace ingot
