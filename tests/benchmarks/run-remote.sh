#!/usr/bin/env bash
# Remote cache benchmark (issue: remote trn instances over SSH).
#   tests/benchmarks/run-remote.sh [MODULES] [CACHE_DIR]
# Builds Ingot (Release), generates a cache of MODULES modules (default 100000) once, starts a real sshd on
# 127.0.0.1 and times, through one master connection: `ssh HOST find … -printf` alone, Ingot's SSH store + scanner,
# and a per-folder SFTP walk. Prints the ratios to find (goal: Ingot <= 1.5x). Figures are printed, never asserted.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
modules=${1:-100000}
cache=${2:-/var/tmp/ingot-bench-$modules/cache}
build=${BUILD_DIR:-$here/build-bench}

cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DINGOT_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --target bench_remote ingot-make-cache >/dev/null
if [[ ! -d "$cache" ]]; then
  echo "generating $modules modules in $cache ..."
  "$build/tests/tools/ingot-make-cache" "$cache" --modules "$modules" --extra-files 2
fi
find "$cache" -printf '%s %T@ %p\n' >/dev/null  # warm the page cache and dentries
XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)} "$build/tests/benchmarks/bench_remote" "$cache" "${RUNS:-3}"
