#!/usr/bin/env bash
# Consolidation benchmark (issue 14: checkpoint consolidation at the disk's copy limit). Generates tp=8 checkpoints
# (neuronx-distributed layout) once:
#   dim0   fp32, tp split on dim 0 as Llama's column-parallel weights are (each rank's piece is one range)
#   dim1   fp32, every split weight on dim 1 (row parallel: the pieces interleave row by row)
#   bf16   bf16, as dim0
# then, for each, in the same run and on the same warm files (sync before every timed run), RUNS times each:
#   cat of the shards > /dev/null             (the read limit)
#   cat of the shards > a file                (the copy limit: read + write the same bytes, on the output's file system)
#   cat of the shards > a file, then fsync    (what ingot must do before its rename; for comparison)
#   ingot-cli consolidate                     (fsyncs its output before the rename, as it must)
# and prints the medians, ingot's throughput as % of each cat, and ingot's peak RSS.
# Targets: >= 70% of `cat > file`, peak RSS <= 1.5 GB.
#   tests/benchmarks/run-consolidate.sh [SCALE] [DIR]
# SCALE 320 gives ~4.2 GB in fp32. Environment: RUNS (default 3); CASES (default "dim0 dim1 bf16");
# REFERENCE=1 also times the Python/torch reference (what optimum-cli does) on dim0 once; INGOT_CONSOLIDATE_IO=pread,
# buffered or pagecache (no O_DIRECT windows) times ingot's other ways of moving the bytes (the same output).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
scale=${1:-320}
base=${2:-/var/tmp/ingot-bench-consolidate-$scale}
runs=${RUNS:-3}
cases=${CASES:-dim0 dim1 bf16}
build=${BUILD_DIR:-$here/build-bench}
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DINGOT_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --target ingot-cli >/dev/null
cli="$build/app/ingot-cli"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

timed() {  # FILE command...: appends "seconds peak-RSS-kB" to FILE; sync first (not timed)
  local file=$1; shift
  sync
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  cat "$tmp/t" >> "$file"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
maxcol() { awk -v c="$1" '$c > m { m = $c } END { print m }'; }

echo "$(nproc) cores; output file system: $(df -h "$base" 2>/dev/null | tail -1 | awk '{ print $1, $4 " free" }' || true)"
for c in $cases; do
  dir=$base/$c
  case $c in
    dim0) env=(); dtype=float32 ;;
    dim1) env=(FIXTURE_PARTITION_DIM=1); dtype=float32 ;;
    bf16) env=(); dtype=bfloat16 ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
  if [[ ! -d "$dir/shards" ]]; then
    echo "generating the $c checkpoint (tp=8, scale $scale) in $dir ..."
    env "${env[@]}" FIXTURE_SCALE="$scale" FIXTURE_NO_FULL=1 /usr/bin/python3 "$here/tests/fixtures/make_sharded_fixtures.py" "$dir" nxd 8 1 "$dtype"
  fi
  shards=("$dir"/shards/model/*.pt)
  bytes=$(du -cb "${shards[@]}" | tail -1 | cut -f1)
  cat "${shards[@]}" > /dev/null  # warm
  rm -f "$tmp"/cat-null "$tmp"/cat-file "$tmp"/cat-fsync "$tmp"/ingot
  for ((i = 0; i < runs; ++i)); do
    timed "$tmp/cat-null" bash -c 'cat "$@" > /dev/null' _ "${shards[@]}"
    rm -f "$dir/cat-out"; sync
    timed "$tmp/cat-file" bash -c 'out=$1; shift; cat "$@" > "$out"' _ "$dir/cat-out" "${shards[@]}"
    rm -f "$dir/cat-out"; sync
    timed "$tmp/cat-fsync" bash -c 'out=$1; shift; cat "$@" > "$out" && sync "$out"' _ "$dir/cat-out" "${shards[@]}"
    rm -f "$dir/cat-out"; rm -rf "$dir/out-ingot"; sync
    timed "$tmp/ingot" "$cli" consolidate "$dir" "$dir/out-ingot" --max-shard-size 5GB
    rm -rf "$dir/out-ingot"
  done
  cn=$(median < "$tmp/cat-null"); cf=$(median < "$tmp/cat-file"); cs=$(median < "$tmp/cat-fsync"); ig=$(median < "$tmp/ingot")
  rss=$(maxcol 2 < "$tmp/ingot")
  awk -v c="$c" -v b="$bytes" -v cn="$cn" -v cf="$cf" -v cs="$cs" -v ig="$ig" -v rss="$rss" -v runs="$runs" \
      -v all="$(cut -d' ' -f1 < "$tmp/ingot" | tr '\n' ' ')" 'BEGIN {
    printf "%s: %.2f GB, medians of %d runs: cat>/dev/null %.2f s (%.0f MB/s), cat>file %.2f s (%.0f MB/s), ingot %.2f s (%.0f MB/s; runs: %s), ingot peak RSS %.0f MB\n",
           c, b / 1e9, runs, cn, b / 1e6 / cn, cf, b / 1e6 / cf, ig, b / 1e6 / ig, all, rss / 1024
    printf "%s: ingot throughput = %.0f%% of cat>/dev/null, %.0f%% of cat>file (target >= 70%%); cat>file + fsync %.2f s, ingot = %.0f%% of it\n",
           c, 100 * cn / ig, 100 * cf / ig, cs, 100 * cs / ig }'
done

if [[ "${REFERENCE:-}" == 1 ]]; then
  dir=$base/dim0
  rm -rf "$dir/out-ref" "$dir/out-ingot"
  timed "$tmp/ref" /usr/bin/python3 "$here/tests/fixtures/make_sharded_fixtures.py" --reference "$dir" "$dir/out-ref"
  timed "$tmp/ing" "$cli" consolidate "$dir" "$dir/out-ingot" --max-shard-size 5GB
  read -r rs rr < "$tmp/ref"; read -r is ir < "$tmp/ing"
  awk -v r="$rs" -v i="$is" -v rr="$rr" 'BEGIN { printf "reference (dim0): %.2f s, peak RSS %.0f MB; ingot %.1fx faster\n", r, rr / 1024, r / i }'
  cmp "$dir/out-ref/model.safetensors" "$dir/out-ingot/model.safetensors" >/dev/null 2>&1 \
    && echo "outputs identical" || echo "outputs differ in bytes (header order may differ); tensors are checked by the tests"
  rm -rf "$dir/out-ref" "$dir/out-ingot"
fi
