#!/usr/bin/env bash
# Push benchmark (not pass/fail): 2,000 small files (500 SUCCESS entries x 4 files of a few KB) and 20 large
# ones (50 MB neffs, LFS) pushed by `ingot-cli cache synchronize`, against the official @huggingface/hub client's
# uploadFiles of the same files. Each goes to its own test Hub (a fresh LFS store each, so neither finds the
# other's objects there).
#   tests/benchmarks/run-push.sh [BUILD_DIR] [LARGE_MB]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
large_mb=${2:-50}
cli=$build/app/ingot-cli
out=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$out"' EXIT
v=neuronxcc-2.15.128.0+56dc5a86
/usr/bin/python3 - "$out/cache/$v" "$large_mb" <<'PY'
import os, sys
root, large = sys.argv[1], int(sys.argv[2])
def w(p, data):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)
for i in range(500):
    d = os.path.join(root, "MODULE_%d+d41d8cd9" % (10000 + i))
    w(d + "/model.neff", os.urandom(3000))
    w(d + "/model.hlo_module.pb", os.urandom(2000))
    w(d + "/compile_flags.json", b'["--model-type=transformer", "--opt=%d"]' % i)
    w(d + "/model.done", b"")
for i in range(20):
    d = os.path.join(root, "MODULE_%d+d41d8cd9" % (90000 + i))
    w(d + "/model.neff", os.urandom(large << 20))
    w(d + "/model.done", b"")
PY
start_hub() {  # $1: data folder; the port lands in $1.port (not run in a subshell: the Hub leaves with its parent)
  mkdir -p "$1"
  /usr/bin/python3 "$here/tests/hub/testhub.py" --data "$1" --port-file "$1.port" --token hf_alice_write:alice::write > /dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$1.port" ] && break; sleep 0.05; done
}
create_repo() {  # $1: port
  curl -sf -X POST -H "Authorization: Bearer hf_alice_write" -H "Content-Type: application/json" \
    -d '{"name":"bench","organization":"alice","type":"model","visibility":"private"}' "http://127.0.0.1:$1/api/repos/create" > /dev/null
}
now() { date +%s.%N; }
start_hub "$out/hub1"; p1=$(cat "$out/hub1.port"); create_repo "$p1"
start_hub "$out/hub2"; p2=$(cat "$out/hub2.port"); create_repo "$p2"
files=$(find "$out/cache" -type f | wc -l); bytes=$(du -sb "$out/cache" | cut -f1)

t0=$(now)
HF_ENDPOINT=http://127.0.0.1:$p1 HF_TOKEN=hf_alice_write INGOT_KEYCHAIN=none HF_HOME=$out/hf \
  "$cli" cache synchronize --repo_id alice/bench --cache_dir "$out/cache" > "$out/ingot.txt" || { tail -5 "$out/ingot.txt"; exit 1; }
t1=$(now)
(cd "$here/tests/hub/conformance" && node "$here/tests/benchmarks/benchpush.mjs" "http://127.0.0.1:$p2" hf_alice_write alice/bench "$out/cache" > /dev/null)
t2=$(now)
pushed=$(curl -sf -H "Authorization: Bearer hf_alice_write" "http://127.0.0.1:$p1/api/models/alice/bench" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["siblings"]))')
commits=$(curl -sf -H "Authorization: Bearer hf_alice_write" "http://127.0.0.1:$p1/api/models/alice/bench/commits/main" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "$files files, $bytes bytes (500 entries x 4 small files + 20 x ${large_mb} MB neffs with their done markers), $(nproc) cores"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$pushed" -v k="$commits" 'BEGIN {
  printf "ingot-cli cache synchronize: %.2f s (%d files on the Hub, %d commits)\n", b - a, n, k;
  printf "@huggingface/hub uploadFiles: %.2f s (one commit)\n", c - b;
  printf "ratio ingot / official client: %.2f\n", (b - a) / (c - b) }'
