#!/usr/bin/env bash
# Training backend benchmark: tokens/s of data parallel (2 processes, gloo) against one process on the same model
# and per-device batch, in one run. (Peak memory of tp=2 vs tp=1 follows once tensor parallelism lands.)
#   tests/benchmarks/run-backend.sh [STEPS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
steps=${1:-30}
out=$(mktemp -d)
export PYTHONPATH=$here/resources/backend
common=(--config_name small --max_steps "$steps" --per_device_train_batch_size 4 --block_size 128 --logging_steps 1)
median_tps() {  # the median tokens/s of the steps after the first (warm-up)
  /usr/bin/python3 - "$1" <<'PY'
import json, statistics, sys
v = [r["tokens_per_second"] for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "metric" and r["step"] > 1]
print(f"{statistics.median(v):.0f}")
PY
}
OMP_NUM_THREADS=1 /usr/bin/python3 -m ingot_train "${common[@]}" --output_dir "$out/one" > /dev/null
OMP_NUM_THREADS=2 /usr/bin/python3 -m ingot_train "${common[@]}" --output_dir "$out/one2" > /dev/null
/usr/bin/python3 -m ingot_train.launch --standalone --nproc_per_node=2 -m ingot_train "${common[@]}" --output_dir "$out/dp2" > /dev/null 2>&1
one=$(median_tps "$out/one/metrics.jsonl"); one2=$(median_tps "$out/one2/metrics.jsonl"); dp=$(median_tps "$out/dp2/metrics.jsonl")
echo "model 'small', block 128, 4 sequences per device, $(nproc) cores, median of steps 2..$steps"
echo "one process, 1 thread:   $one tokens/s"
echo "one process, 2 threads:  $one2 tokens/s"
echo "dp=2 (gloo), 1 thread each: $dp tokens/s  ($(awk -v a="$dp" -v b="$one" 'BEGIN {printf "%.2f", a / b}')x one 1-thread process, $(awk -v a="$dp" -v b="$one2" 'BEGIN {printf "%.2f", a / b}')x one 2-thread process)"
rm -rf "$out"
