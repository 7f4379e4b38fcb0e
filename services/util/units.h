// Sizes and ages in words, and parsing of sizes and durations typed by people.
#pragma once

#include <QString>

namespace ingot {

// SI units, as the Neuron docs speak of "100 GB": 1 GB = 1e9 bytes. Uses the default QLocale.
QString formatBytes(qint64 bytes);
// "512", "500M", "100GB", "1.5T", "20GiB" (K/M/G/T = powers of 1000, Ki/Mi/Gi/Ti = powers of 1024). -1 when invalid.
qint64 parseBytes(const QString &text);
// "3 min", "5 h", "12 days" ago; "now" under a minute; "-" for 0.
QString formatAge(qint64 thenMs, qint64 nowMs);
// ISO local time "2026-11-02 14:03" for tables.
QString formatTime(qint64 ms);

}  // namespace ingot
