#!/usr/bin/env bash
# GUI benchmark (issue 26: 100k modules warm, to the full tree shown).
#   tests/benchmarks/run-gui.sh [MODULES] [CACHE_DIR]
# Builds bench_gui and bench_scan (Release), generates a cache of MODULES modules (default 100000) once, then in
# each run times, on the same warm tree:
#   baseline: bench_scan's model path (CacheSession + tree model, no view)
#   ingot:    the Local cache page offscreen (view, filter proxy, summary, charts) to the full tree laid out and
#             painted, with the rows in the view at 1 s and 2 s and the worst event-loop stall
# Prints medians of RUNS (default 3) and the ratio. Goal: <= 1.2x bench_scan, rows visible within 200 ms.
# Figures are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/common.sh"
modules=${1:-100000}
cache=${2:-/var/tmp/ingot-bench-$modules/cache}
runs=${RUNS:-3}

build_targets bench_gui bench_scan ingot-make-cache
ensure_cache "$modules" "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work HOME=$work QT_QPA_PLATFORM=offscreen  # settings of its own: the default sort, no filter
field() { awk -v k="$1" '$1 == k {print $2}' <<<"$2"; }
"$build/tests/benchmarks/bench_scan" "$cache" >/dev/null  # warm

scan=(); full=(); first=(); r1=(); r2=(); stall=(); rss=()
for ((i = 0; i < runs; i++)); do
  out=$("$build/tests/benchmarks/bench_scan" "$cache"); scan+=($(field total_ms "$out"))
  out=$("$build/tests/benchmarks/bench_gui" "$cache" 2>/dev/null)
  full+=($(field full_tree_ms "$out")); first+=($(field first_rows_ms "$out"))
  r1+=($(field rows_at_1s "$out")); r2+=($(field rows_at_2s "$out"))
  stall+=($(field worst_stall_ms "$out")); rss+=($(field peak_rss_kb "$out"))
done
m() { printf '%s\n' "$@" | median; }
s=$(m "${scan[@]}"); f=$(m "${full[@]}")
echo "cache: $cache, median of $runs runs, $(nproc) cores, $(date -u +%F)"
printf 'bench_scan, model path (baseline)   %6.0f ms\n' "$s"
printf 'Local cache page, full tree shown    %6.0f ms = %.2fx (goal <= 1.2x)\n' "$f" "$(awk -v a="$f" -v b="$s" 'BEGIN {print a / b}')"
printf 'first rows in the view %.0f ms (goal <= 200 ms); rows at 1 s %.0f, at 2 s %.0f; worst stall %.0f ms; peak %.0f MB\n' \
  "$(m "${first[@]}")" "$(m "${r1[@]}")" "$(m "${r2[@]}")" "$(m "${stall[@]}")" "$(awk -v a="$(m "${rss[@]}")" 'BEGIN {print a / 1024}')"
