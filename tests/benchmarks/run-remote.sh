#!/usr/bin/env bash
# Remote cache benchmark (issue: remote trn instances over SSH).
#   tests/benchmarks/run-remote.sh [MODULES] [CACHE_DIR]
# Builds Ingot (Release), generates a cache of MODULES modules (default 100000) once, starts a real sshd on
# 127.0.0.1 and times, through one master connection: `ssh HOST find … -printf` alone, Ingot's SSH store + scanner,
# and a per-folder SFTP walk. Prints the ratios to find (goal: Ingot <= 1.5x). Figures are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/common.sh"
modules=${1:-100000}
cache=${2:-/var/tmp/ingot-bench-$modules/cache}

build_targets bench_remote ingot-make-cache
ensure_cache "$modules" "$cache"
find "$cache" -printf '%s %T@ %p\n' >/dev/null  # warm the page cache and dentries
XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)} "$build/tests/benchmarks/bench_remote" "$cache" "${RUNS:-3}"
