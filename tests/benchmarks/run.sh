#!/usr/bin/env bash
# Scan benchmark (issue: local compile-cache browser).
#   tests/benchmarks/run.sh [MODULES] [CACHE_DIR]
# Builds Ingot (Release), generates a cache of MODULES modules (default 100000, about 5 files each) once,
# then times, in the same run and on the same warm tree:
#   baseline: find ROOT -printf '%s %T@ %p\n' >/dev/null
#   ingot:    the GUI's scan path (CacheSession off the UI thread + tree model), and the CLI's (--sync)
# and prints the ratio to find, time to first rows, and peak resident memory. Targets: scan <= 1.5x find,
# first rows <= 200 ms, < 300 MB for 100k modules. Figures are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/common.sh"
modules=${1:-100000}
cache=${2:-/var/tmp/ingot-bench-$modules/cache}
runs=${RUNS:-5}

build_targets bench_scan ingot-make-cache

ensure_cache "$modules" "$cache"

now_ms() { date +%s%3N; }

# Warm the page cache and dentries for both sides alike.
find "$cache" -printf '%s %T@ %p\n' >/dev/null
"$build/tests/benchmarks/bench_scan" "$cache" --sync >/dev/null

find_ms=(); gui_ms=(); cli_ms=(); first_ms=(); rss_kb=()
for ((i = 0; i < runs; i++)); do
  s=$(now_ms); find "$cache" -printf '%s %T@ %p\n' >/dev/null; e=$(now_ms); find_ms+=($((e - s)))
  out=$("$build/tests/benchmarks/bench_scan" "$cache")
  gui_ms+=($(awk '/^total_ms/ {print $2}' <<<"$out"))
  first_ms+=($(awk '/^first_rows_ms/ {print $2}' <<<"$out"))
  rss_kb+=($(awk '/^peak_rss_kb/ {print $2}' <<<"$out"))
  entries=$(awk '/^entries/ {print $2}' <<<"$out"); files=$(awk '/^files/ {print $2}' <<<"$out")
  out=$("$build/tests/benchmarks/bench_scan" "$cache" --sync)
  cli_ms+=($(awk '/^total_ms/ {print $2}' <<<"$out"))
done

f=$(printf '%s\n' "${find_ms[@]}" | median)
g=$(printf '%s\n' "${gui_ms[@]}" | median)
c=$(printf '%s\n' "${cli_ms[@]}" | median)
fr=$(printf '%s\n' "${first_ms[@]}" | median)
r=$(printf '%s\n' "${rss_kb[@]}" | median)
echo "cache: $cache ($entries entries, $files files), median of $runs runs, $(nproc) cores"
printf 'find -printf (baseline)      %8.0f ms\n' "$f"
printf 'ingot scan, GUI path + model %8.0f ms   ratio to find: %.2fx (target <= 1.5x)\n' "$g" "$(awk -v a="$g" -v b="$f" 'BEGIN {print a / b}')"
printf 'ingot scan, CLI path         %8.0f ms   ratio to find: %.2fx\n' "$c" "$(awk -v a="$c" -v b="$f" 'BEGIN {print a / b}')"
printf 'first rows in the model      %8.0f ms   (target <= 200 ms)\n' "$fr"
printf 'peak resident memory         %8.1f MB   (target < 300 MB)\n' "$(awk -v a="$r" 'BEGIN {print a / 1024}')"
