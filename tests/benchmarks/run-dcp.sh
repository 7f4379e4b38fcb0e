#!/usr/bin/env bash
# DCP consolidation benchmark (issue 37: a DCP checkpoint consolidated at the disk's copy limit, like the sharded
# layouts of run-consolidate.sh). Generates once, with torch 2 (the root of packaging/install-deps.sh --test,
# tests/support/torch2/python3) under torchrun with 2 ranks, a ~1 GB DCP checkpoint of bf16 [4096, 4096] weights
# under "model", each split on dim 0 over the ranks (tests/fixtures/make_dcp_fixtures.py --big); then, in the same
# run and on the same warm files (sync before every timed run), RUNS times each:
#   cat of the .distcp files > /dev/null      (the read limit)
#   cat of the .distcp files > a file         (the copy limit: read + write the same bytes, on the output's file system)
#   ingot-cli consolidate                     (fsyncs its output before the rename, as it must)
# and prints the medians, ingot's throughput as % of each cat, and ingot's peak RSS. Target: >= 70% of `cat > file`.
#   tests/benchmarks/run-dcp.sh [MB] [DIR]
# Environment: RUNS (default 3); BUILD_DIR (default build-bench, a Release build made here), or INGOT_CLI (an
# ingot-cli already built, used as it is).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
mb=${1:-1000}
dir=${2:-/var/tmp/ingot-bench-dcp-$mb}
runs=${RUNS:-3}
build=${BUILD_DIR:-$here/build-bench}
if [[ -n "${INGOT_CLI:-}" ]]; then
  cli=$INGOT_CLI  # an ingot-cli already built
else
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DINGOT_BUILD_TESTS=ON >/dev/null
  cmake --build "$build" --target ingot-cli >/dev/null
  cli="$build/app/ingot-cli"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

timed() {  # FILE command...: appends "seconds peak-RSS-kB" to FILE; sync first (not timed)
  local file=$1; shift
  sync
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  cat "$tmp/t" >> "$file"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "$(nproc) cores; output file system: $(df -h "$(dirname "$dir")" 2>/dev/null | tail -1 | awk '{ print $1, $4 " free" }' || true)"
if [[ ! -f "$dir/dcp/.metadata" ]]; then
  echo "generating a $mb MB DCP checkpoint (2 ranks, dim 0) in $dir ..."
  mkdir -p "$dir"
  (cd "$dir" && INGOT_TORCH2_BIND="$here/tests/fixtures" timeout 1200 "$here/tests/support/torch2/python3" -m torch.distributed.run \
     --standalone --nproc-per-node 2 "$here/tests/fixtures/make_dcp_fixtures.py" --big "$dir/dcp" "$mb" > "$tmp/gen" 2>&1) \
    || { tail -20 "$tmp/gen" >&2; exit 1; }
fi
files=("$dir"/dcp/*.distcp)
bytes=$(du -cb "${files[@]}" | tail -1 | cut -f1)
cat "${files[@]}" > /dev/null  # warm
for ((i = 0; i < runs; ++i)); do
  timed "$tmp/cat-null" bash -c 'cat "$@" > /dev/null' _ "${files[@]}"
  rm -f "$dir/cat-out"; sync
  timed "$tmp/cat-file" bash -c 'out=$1; shift; cat "$@" > "$out"' _ "$dir/cat-out" "${files[@]}"
  rm -f "$dir/cat-out"; rm -rf "$dir/out-ingot"; sync
  timed "$tmp/ingot" "$cli" consolidate "$dir/dcp" "$dir/out-ingot" --max-shard-size 5GB
  rm -rf "$dir/out-ingot"
done
cn=$(median < "$tmp/cat-null"); cf=$(median < "$tmp/cat-file"); ig=$(median < "$tmp/ingot")
rss=$(awk '$2 > m { m = $2 } END { print m }' < "$tmp/ingot")
awk -v b="$bytes" -v cn="$cn" -v cf="$cf" -v ig="$ig" -v rss="$rss" -v runs="$runs" -v all="$(cut -d' ' -f1 < "$tmp/ingot" | tr '\n' ' ')" 'BEGIN {
  printf "dcp: %.2f GB, medians of %d runs: cat>/dev/null %.2f s (%.0f MB/s), cat>file %.2f s (%.0f MB/s), ingot %.2f s (%.0f MB/s; runs: %s), ingot peak RSS %.0f MB\n",
         b / 1e9, runs, cn, b / 1e6 / cn, cf, b / 1e6 / cf, ig, b / 1e6 / ig, all, rss / 1024
  printf "dcp: ingot throughput = %.0f%% of cat>/dev/null, %.0f%% of cat>file (target >= 70%%)\n", 100 * cn / ig, 100 * cf / ig }'
