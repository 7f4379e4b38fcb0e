#!/usr/bin/env bash
# Monitor benchmark (issue: training jobs). Builds Ingot (Release), then runs tests/benchmarks/bench_jobmonitor.cpp:
# 32 ranks x 1,000 log lines/s for 60 s into a job folder, followed by the job service alone and then with the Jobs
# page's monitor widget (offscreen); prints the worst event-loop stall against the 50 ms goal and peak memory.
#   tests/benchmarks/run-jobmonitor.sh [SECONDS=60] [RANKS=32] [LINES_PER_SECOND=1000]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$here/build-bench}
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DINGOT_BUILD_TESTS=ON >/dev/null
targets=(bench_jobmonitor)
if grep -q bench_jobmonitor_ui "$here/tests/benchmarks/CMakeLists.txt"; then targets+=(bench_jobmonitor_ui); fi
cmake --build "$build" --target "${targets[@]}" >/dev/null
echo "$(nproc) cores"
QT_QPA_PLATFORM=offscreen "$build/tests/benchmarks/bench_jobmonitor" "${1:-60}" "${2:-32}" "${3:-1000}"
if [[ " ${targets[*]} " == *" bench_jobmonitor_ui "* ]]; then
  for tab in metrics logs; do
    QT_QPA_PLATFORM=offscreen "$build/tests/benchmarks/bench_jobmonitor_ui" "${1:-60}" "${2:-32}" "${3:-1000}" "$tab" 2>&1 |
      grep -v propagateSizeHints
  done
fi

# Issue 26: the monitor following a 24-hour job's metrics (86,400 points, one a second, already there when it opens),
# against the same job without its history, in the same run: memory and stalls. Reported, not a goal yet.
if [[ " ${targets[*]} " == *" bench_jobmonitor_ui "* && -z "${SKIP_HISTORY:-}" ]]; then
  for points in 0 86400; do
    echo "== history of $points points"
    HISTORY_POINTS=$points QT_QPA_PLATFORM=offscreen "$build/tests/benchmarks/bench_jobmonitor_ui" 20 1 100 metrics 2>&1 |
      grep -v propagateSizeHints
  done
fi
