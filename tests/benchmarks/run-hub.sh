#!/usr/bin/env bash
# Hub benchmarks (issue: Hub caches). Builds Ingot (Release), installs @huggingface/hub from the lockfile, then
# runs tests/benchmarks/bench_hub.cpp against the test Hub:
#   lookup of 300 registry entries, parallel vs sequential (target >= 5x), and
#   a 100,000-file tree listing, Ingot vs @huggingface/hub listFiles (target: no slower).
#   lookups again with RTT_MS (default "50,200") added to every request by the test Hub, and
#   RUNS=3 TREE_FILES=100000 RTT_MS=50,200 tests/benchmarks/run-hub.sh   (LOOKUP_ONLY=1: the lookups only)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$here/build-bench}
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DINGOT_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --target bench_hub >/dev/null
npm ci --no-audit --no-fund --prefix "$here/tests/hub/conformance" >/dev/null
echo "$(nproc) cores"
"$build/tests/benchmarks/bench_hub"
