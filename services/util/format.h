// How Ingot writes values for people, in one place for the GUI and ingot-cli alike: sizes, dates, ages, counts,
// parallel layouts and metric values. Each has one human form per language (the display locale: the language the
// app runs in) and, where files and machine output need it, one machine form (ISO 8601, plain numbers) that never
// depends on the language.
#pragma once

#include <QLocale>
#include <QString>

#include <utility>

class QDateTime;

namespace ingot {

// The locale values are written in for people: the chosen language's (each main sets it from installTranslations);
// until set, the default QLocale. Thread-safe.
void setDisplayLocale(const QLocale &locale);
QLocale displayLocale();

// Binary units, as the Neuron runtime and Slurm count memory: "512 bytes", "3.9 GiB" (one decimal from KiB up).
QString formatBytes(qint64 bytes);
// With as many decimals as asked (from KiB up).
QString formatBytes(qint64 bytes, int decimals);
// A size before and after a change, with as many decimals as it takes to tell them apart ("30.71 GiB" and
// "30.70 GiB" where one decimal says 30.7 GiB twice); equal strings where even three do not.
std::pair<QString, QString> formatBytesBeforeAfter(qint64 before, qint64 after);
// A Slurm memory figure (its "MB" are MiB, as slurm.conf's RealMemory): formatBytes of it, "3.9 GiB" for 4000.
QString formatMebibytes(qint64 mib);
// A count with the language's digit grouping: "1,200" in English, "1200" in the C locale.
QString formatCount(qint64 n);
// Local date and time for people: the language's short date with a four-digit year, and its short time
// ("11/27/2026 8:47 PM" in English, "2026/11/27 20:47" in Chinese, "2026-11-27 20:47" in the C locale). "-" for 0.
QString formatDateTime(qint64 msSinceEpoch);
QString formatDateTime(const QDateTime &when);
// The machine form, for files and --json: UTC ISO 8601 with milliseconds ("2026-11-27T20:39:32.000Z"); "" for 0.
QString isoDateTime(qint64 msSinceEpoch);
// "3 min ago", "5 h ago", "12 days ago"; "just now" under a minute; "-" for 0.
QString formatAge(qint64 thenMs, qint64 nowMs);
// A job's parallel layout, data x tensor x pipeline: "1×2×1" (the multiplication sign, everywhere).
QString formatLayout(int dataParallel, int tensorParallel, int pipelineParallel);
// A training metric (loss, learning rate, throughput, gradient norm): four significant digits, the language's
// grouping and decimal point, and scientific notation only below 0.001 or from 10^9 ("3.33e-6"). "nan" and
// "inf" as such.
QString formatMetric(double value);

}  // namespace ingot
