#!/usr/bin/env bash
# Consolidation benchmark (issue: checkpoint consolidation). Generates a ~4 GB tp=8 checkpoint (neuronx-distributed
# layout, fp32) once, then times in one run, on the same warm files:
#   cat of the shards to /dev/null          (the read limit)
#   a Python/torch reference                (what optimum-cli does: load every shard, concatenate, save)
#   ingot-cli consolidate                   (streaming)
# and prints time, throughput and peak RSS of each. Targets: >= 3x faster than the reference, >= 70% of cat's
# throughput, peak RSS <= 1.5 GB.   tests/benchmarks/run-consolidate.sh [SCALE] [DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
scale=${1:-320}
dir=${2:-/var/tmp/ingot-bench-consolidate-$scale}
build=${BUILD_DIR:-$here/build-bench}
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DINGOT_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --target ingot-cli >/dev/null
if [[ ! -d "$dir/shards" ]]; then
  echo "generating a tp=8 checkpoint (scale $scale) in $dir ..."
  FIXTURE_SCALE=$scale FIXTURE_NO_FULL=1 /usr/bin/python3 "$here/tests/fixtures/make_sharded_fixtures.py" "$dir" nxd 8 1 float32
fi
bytes=$(du -cb "$dir"/shards/model/*.pt | tail -1 | cut -f1)
cat "$dir"/shards/model/*.pt > /dev/null  # warm
measure() {  # label command...: prints seconds and peak RSS (kB)
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o /tmp/ingot-bench-time "$@" > /dev/null 2>&1
  read -r secs rss < /tmp/ingot-bench-time
  printf '%-34s %8.2f s  %8.0f MB/s  peak RSS %6.0f MB\n' "$label" "$secs" "$(awk -v b="$bytes" -v s="$secs" 'BEGIN {print b / 1e6 / s}')" "$(awk -v r="$rss" 'BEGIN {print r / 1024}')"
  echo "$secs" > "/tmp/ingot-bench-$label"
}
echo "input: $(awk -v b="$bytes" 'BEGIN {printf "%.2f GB", b / 1e9}') in 8 shards, $(nproc) cores"
measure cat bash -c "cat '$dir'/shards/model/*.pt > /dev/null"
rm -rf "$dir/out-ref" "$dir/out-ingot"
measure reference /usr/bin/python3 "$here/tests/fixtures/make_sharded_fixtures.py" --reference "$dir" "$dir/out-ref"
measure ingot "$build/app/ingot-cli" consolidate "$dir" "$dir/out-ingot" --max-shard-size 5GB
cat_s=$(cat /tmp/ingot-bench-cat); ref_s=$(cat /tmp/ingot-bench-reference); ing_s=$(cat /tmp/ingot-bench-ingot)
awk -v c="$cat_s" -v r="$ref_s" -v i="$ing_s" 'BEGIN {
  printf "ingot vs reference: %.1fx faster (target >= 3x); ingot throughput = %.0f%% of cat (target >= 70%%)\n", r / i, 100 * c / i }'
cmp "$dir/out-ref/model.safetensors" "$dir/out-ingot/model.safetensors" >/dev/null 2>&1 \
  && echo "outputs identical" || echo "outputs differ in bytes (header order may differ); tensors are checked by the tests"
rm -rf "$dir/out-ref" "$dir/out-ingot"
