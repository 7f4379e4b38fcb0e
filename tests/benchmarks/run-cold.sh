#!/usr/bin/env bash
# Cold-disk scan benchmark (issue 26: first rows from a cold disk).
#   sudo tests/benchmarks/run-cold.sh [MODULES] [CACHE_DIR]
# Builds bench_scan (Release), generates a cache of MODULES modules (default 100000) once, then in each run drops
# the page cache, dentries and inodes (sync; echo 3 > /proc/sys/vm/drop_caches: root only) before each side:
#   baseline: fd (fdfind -u, all files, its own parallel walk) -- the time to its first line, and to its end
#   ingot:    the GUI's scan path (CacheSession + tree model) -- the time to the first rows in the model, and to the
#             end of the scan
# Prints medians of RUNS (default 3) and the ratios. Targets: first rows < 300 ms; the whole scan <= fd's.
# Figures are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/common.sh"
modules=${1:-100000}
cache=${2:-/var/tmp/ingot-bench-$modules/cache}
runs=${RUNS:-3}

if [[ $(id -u) != 0 ]]; then
  echo "run-cold.sh drops the page cache, which needs root: run it with sudo" >&2
  exit 2
fi
command -v fdfind >/dev/null || { echo "fdfind missing: apt-get install fd-find (packaging/install-deps.sh --test)" >&2; exit 2; }
build_targets bench_scan ingot-make-cache
ensure_cache "$modules" "$cache"

now_ms() { date +%s%3N; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

fd_first=(); fd_all=(); first=(); total=()
for ((i = 0; i < runs; i++)); do
  drop
  s=$(now_ms)
  # The first line's time is taken as it arrives; fd goes on to the end (its output is read, then dropped).
  f=$(fdfind -u . "$cache" | { IFS= read -r _; echo $(($(now_ms) - s)); cat >/dev/null; })
  e=$(now_ms)
  fd_first+=("$f"); fd_all+=($((e - s)))
  drop
  out=$("$build/tests/benchmarks/bench_scan" "$cache")
  first+=($(awk '/^first_rows_ms/ {print $2}' <<<"$out"))
  total+=($(awk '/^total_ms/ {print $2}' <<<"$out"))
done
ff=$(printf '%s\n' "${fd_first[@]}" | median); fa=$(printf '%s\n' "${fd_all[@]}" | median)
gf=$(printf '%s\n' "${first[@]}" | median); ga=$(printf '%s\n' "${total[@]}" | median)
echo "cache: $cache, page cache dropped before each side, median of $runs runs, $(nproc) cores, $(date -u +%F)"
printf 'fd: first line %6.0f ms, all of it %6.0f ms\n' "$ff" "$fa"
printf 'ingot (GUI path + model): first rows %6.0f ms (target < 300 ms), whole scan %6.0f ms = %.2fx fd (target <= 1x)\n' \
  "$gf" "$ga" "$(awk -v a="$ga" -v b="$fa" 'BEGIN {print a / b}')"
