// TorchTitan's console step line read into a MetricPoint, so a TorchTitan job (`-m torchtitan.train`, run as *Run a
// command*) is charted like the backend. The line is what MetricsProcessor.log in torchtitan/components/metrics.py
// logs (releases 0.1.0 to 0.2.2; docs/formats.md "TorchTitan jobs"), through the logging format of
// torchtitan/tools/logging.py, on stdout:
//   [titan] 2025-09-01 10:00:00,123 - root - INFO - ESC[31mstep:  5  ESC[32mloss:  7.12345  ESC[38;2;180;60;0mgrad_norm:
//   1.2345  ESC[38;2;54;234;195mmemory:  1.23GiB(3.45%)  ESC[34mtps: 1,234  ESC[36mtflops: 12.34  ESC[35mmfu: 1.23%ESC[39m
// (0.1.0 has no grad_norm; releases before tflops had none; mfu may be "N/A"; colours are off with
// metrics.disable_color_printing; torchrun --tee prefixes "[rank0]:").
#pragma once

#include "services/jobs/metrics.h"

namespace ingot {

// Reads one line (without its end of line). True with *out filled (step, loss, grad_norm, tps as tokensPerSecond,
// memory as peakMemory in bytes; the rest absent) when the line is a training step line; false for anything else:
// another log line, a "validate step:" line, a field named twice, a known field whose value is not a number, a step
// that is not a whole number, a line over maxLineBytes. Nothing is kept between lines.
bool readTorchTitanStep(const char *begin, const char *end, MetricPoint *out);

constexpr int torchTitanMaxLineBytes = 4096;  // a step line is about 200 bytes

}  // namespace ingot
