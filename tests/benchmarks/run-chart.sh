#!/usr/bin/env bash
# Chart benchmark (issue: job metric charts). Builds Ingot (Release), then runs tests/benchmarks/bench_chart.cpp
# offscreen: a 100,000-point loss chart (raw + smoothed) in a 900×400 widget, a full redraw (set the data, render
# with QWidget::grab()) with Ingot's min/max downsampling against QtCharts given every point, the ratio, and 100
# appends to the full chart. Figures are printed, never asserted.   RUNS=5 tests/benchmarks/run-chart.sh [POINTS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$here/build-bench}
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DINGOT_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --target bench_chart >/dev/null
echo "$(nproc) cores"
QT_QPA_PLATFORM=offscreen "$build/tests/benchmarks/bench_chart" "${1:-100000}" "${RUNS:-5}"
