#!/usr/bin/env bash
# Training backend benchmark: tokens/s of data parallel (2 processes, gloo) against one process on the same model
# and per-device batch, and peak memory per rank of tp=2 vs tp=1, in one run.
#   tests/benchmarks/run-backend.sh [STEPS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
steps=${1:-30}
out=$(mktemp -d)
export PYTHONPATH=$here/resources/backend
common=(--config_name small --max_steps "$steps" --per_device_train_batch_size 4 --block_size 128 --logging_steps 1)
free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
median_tps() {  # the median tokens/s of the steps after the first (warm-up)
  /usr/bin/python3 - "$1" <<'PY'
import json, statistics, sys
v = [r["tokens_per_second"] for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "metric" and r["step"] > 1]
print(f"{statistics.median(v):.0f}")
PY
}
OMP_NUM_THREADS=1 /usr/bin/python3 -m ingot_train "${common[@]}" --output_dir "$out/one" > /dev/null
OMP_NUM_THREADS=2 /usr/bin/python3 -m ingot_train "${common[@]}" --output_dir "$out/one2" > /dev/null
/usr/bin/python3 -m ingot_train.launch --nnodes=1 --master_addr=127.0.0.1 --master_port="$(free_port)" --nproc_per_node=2 -m ingot_train "${common[@]}" --output_dir "$out/dp2" > /dev/null 2>&1
one=$(median_tps "$out/one/metrics.jsonl"); one2=$(median_tps "$out/one2/metrics.jsonl"); dp=$(median_tps "$out/dp2/metrics.jsonl")
echo "model 'small', block 128, 4 sequences per device, $(nproc) cores, median of steps 2..$steps"
echo "one process, 1 thread:   $one tokens/s"
echo "one process, 2 threads:  $one2 tokens/s"
echo "dp=2 (gloo), 1 thread each: $dp tokens/s  ($(awk -v a="$dp" -v b="$one" 'BEGIN {printf "%.2f", a / b}')x one 1-thread process, $(awk -v a="$dp" -v b="$one2" 'BEGIN {printf "%.2f", a / b}')x one 2-thread process)"


# Peak memory per rank, tp=2 against tp=1, on the 95 M-parameter "medium" model (weights, gradients and AdamW
# state all split; the ~250 MB of the Python/torch runtime is not).
mem=(--config_name medium --max_steps 3 --per_device_train_batch_size 2 --block_size 128 --logging_steps 1)
/usr/bin/python3 -m ingot_train "${mem[@]}" --output_dir "$out/m1" > /dev/null
/usr/bin/python3 -m ingot_train.launch --nnodes=1 --master_addr=127.0.0.1 --master_port="$(free_port)" --nproc_per_node=2 -m ingot_train "${mem[@]}" --tensor_parallel_size 2 --output_dir "$out/m2" > /dev/null 2>&1
base=$(/usr/bin/python3 -c 'import resource, torch; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)')
/usr/bin/python3 - "$out/m1/metrics.jsonl" "$out/m2/metrics.jsonl" "$base" <<'PY'
import json, sys
def ev(path, name):
    return [r for r in map(json.loads, open(path)) if r.get("event") == name][0]
one, two = ev(sys.argv[1], "finished")["peak_memory_per_rank"], ev(sys.argv[2], "finished")["peak_memory_per_rank"]
p1, p2 = ev(sys.argv[1], "started")["parameters_per_rank"], ev(sys.argv[2], "started")["parameters_per_rank"]
base = int(sys.argv[3])
mb = lambda b: f"{b / 2**20:,.0f} MB"
print(f"model 'medium' ({p1[0] / 1e6:.1f} M parameters), block 128, 2 sequences, fp32 + AdamW")
print(f"tp=1: {p1[0] / 1e6:.1f} M parameters, peak RSS {mb(one[0])}")
print(f"tp=2: {', '.join(f'{p / 1e6:.1f} M' for p in p2)} parameters per rank, peak RSS {', '.join(mb(m) for m in two)} per rank")
print(f"weights per rank: {max(p2) / p1[0]:.2f}x of tp=1; peak RSS per rank: {max(two) / one[0]:.2f}x of tp=1, "
      f"{(max(two) - base) / (one[0] - base):.2f}x above the {mb(base)} of an idle Python + torch process")
def tps(path):  # the last step's (after warm-up)
    return [r for r in map(json.loads, open(path)) if r.get("type") == "metric"][-1]["tokens_per_second"]
print(f"tokens/s at step 3: tp=1 {tps(sys.argv[1]):.0f} (one process, torch's default threads), "
      f"tp=2 {tps(sys.argv[2]):.0f} (two processes, one thread each)")
PY
rm -rf "$out"
