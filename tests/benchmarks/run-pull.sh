#!/usr/bin/env bash
# Pull benchmark (issue 13; not pass/fail). Builds ingot-cli, starts the test Hub with ENTRIES modules of a
# NEFF_MB MB model.neff (LFS, served from the test Hub's "CDN" host) plus small files each, and times pulling all of
# them into an empty folder three ways, PARALLEL files at a time:
#   Ingot:            ingot-cli cache pull --all (staging, Range-resumable parts, sha256 / git blob id verified)
#   curl (the limit): one curl -Z --parallel-max PARALLEL -L over the same resolve URLs, nothing verified
#   @huggingface/hub: downloadFile for every file (node), written to disk
# Then prints the three times and the ratios Ingot/curl and Ingot/@huggingface/hub.
#   ENTRIES=8 NEFF_MB=128 PARALLEL=4 RUNS=1 [PERF_DATA=FILE] tests/benchmarks/run-pull.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$here/build-bench}
entries=${ENTRIES:-8}
neff_mb=${NEFF_MB:-128}
parallel=${PARALLEL:-4}
runs=${RUNS:-1}
hubjs=${HUBJS_DIR:-$here/tests/hub/conformance}
if [ -z "${SKIP_BUILD:-}" ]; then
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target ingot-cli >/dev/null
fi
[ -d "$hubjs/node_modules/@huggingface/hub" ] || npm ci --no-audit --no-fund --prefix "$hubjs" >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/ingot-pull-bench.XXXXXX")
hubpid=
cleanup() { [ -n "$hubpid" ] && kill "$hubpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# The repo, written straight into the test Hub's data folder.
python3 - "$work/hub" "$entries" "$neff_mb" <<'PY'
import json, os, sys
data, entries, mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
base = os.path.join(data, "models", "bench", "cache")
files = os.path.join(base, "files")
for i in range(entries):
    d = os.path.join(files, "neuronxcc-2.15.128.0+56dc5a86", "MODULE_%d+%08x" % (1000 + i, i))
    os.makedirs(d)
    with open(os.path.join(d, "model.neff"), "wb") as f:
        for _ in range(mb):
            f.write(os.urandom(1 << 20))
    with open(os.path.join(d, "model.hlo_module.pb"), "wb") as f:
        f.write(os.urandom(64 << 10))
    with open(os.path.join(d, "compile_flags.json"), "w") as f:
        json.dump(["--model-type=transformer", "--target=trn1"], f)
    open(os.path.join(d, "model.done"), "wb").close()
with open(os.path.join(base, "repo.json"), "w") as f:
    json.dump({"id": "bench/cache", "private": False, "gated": False, "owner": "bench", "sha": "%040x" % 1, "lfs": {}}, f)
PY
python3 "$here/tests/hub/testhub.py" --data "$work/hub" --port-file "$work/port" >/dev/null &
hubpid=$!
for _ in $(seq 200); do [ -f "$work/port" ] && break; sleep 0.05; done
url="http://127.0.0.1:$(cat "$work/port")"
# The test Hub hashes LFS files on the first listing: done before anything is timed. Files in the page cache.
curl -sS "$url/api/models/bench/cache/tree/main?recursive=true" >"$work/tree.json"
cat "$work"/hub/models/bench/cache/files/*/*/* >/dev/null
total_mb=$(du -sm "$work/hub/models/bench/cache/files" | cut -f1)
python3 - "$work/tree.json" "$url" "$work/out-curl" >"$work/curl.cfg" <<'PY'
import json, sys, urllib.parse
tree, url, out = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
for e in tree:
    if e["type"] == "file":
        print('url = "%s/bench/cache/resolve/main/%s"' % (url, urllib.parse.quote(e["path"])))
        print('output = "%s/%s"' % (out, e["path"]))
PY
files=$(grep -c '^url' "$work/curl.cfg")

now() { date +%s.%N; }
elapsed() { python3 -c "print('%.2f' % ($2 - $1))"; }
best() { python3 -c "import sys; print(min(float(x) for x in sys.argv[1:]))" "$@"; }
t_ingot=() t_curl=() t_js=()
for run in $(seq "$runs"); do
  rm -rf "$work/out-ingot" "$work/out-curl" "$work/out-js" "$work/hf"
  s=$(now)
  HF_ENDPOINT="$url" HF_HOME="$work/hf" INGOT_KEYCHAIN=none HF_HUB_OFFLINE= \
    "$build/app/ingot-cli" cache pull --repo_id bench/cache --all --cache-dir "$work/out-ingot" --parallel "$parallel" >/dev/null
  t_ingot+=("$(elapsed "$s" "$(now)")")
  diff -rq "$work/hub/models/bench/cache/files" "$work/out-ingot" >/dev/null || { echo "Ingot's pull differs from the Hub's files" >&2; exit 1; }
  rm -rf "$work/out-ingot"
  s=$(now)
  curl -sS -Z --parallel-max "$parallel" -L --create-dirs -K "$work/curl.cfg" 2>"$work/curl.err" || { cat "$work/curl.err" >&2; exit 1; }
  t_curl+=("$(elapsed "$s" "$(now)")")
  rm -rf "$work/out-curl"
  s=$(now)
  node "$here/tests/benchmarks/pull-hubjs.mjs" "$hubjs" "$url" bench/cache "$work/out-js" "$parallel" >/dev/null
  t_js+=("$(elapsed "$s" "$(now)")")
  rm -rf "$work/out-js"
done
# PERF_DATA=FILE: one more Ingot pull, untimed, under `perf record -a -g` (the test Hub's side included).
if [ -n "${PERF_DATA:-}" ]; then
  rm -rf "$work/out-ingot" "$work/hf"
  HF_ENDPOINT="$url" HF_HOME="$work/hf" INGOT_KEYCHAIN=none HF_HUB_OFFLINE= \
    perf record -q -a -g -F 999 -o "$PERF_DATA" -- \
    "$build/app/ingot-cli" cache pull --repo_id bench/cache --all --cache-dir "$work/out-ingot" --parallel "$parallel" >/dev/null
fi
ti=$(best "${t_ingot[@]}") tc=$(best "${t_curl[@]}") tj=$(best "${t_js[@]}")
echo "$(nproc) cores; $entries entries, $files files, $total_mb MB; $parallel files at a time; best of $runs run(s)"
python3 - "$ti" "$tc" "$tj" "$total_mb" <<'PY'
import sys
ti, tc, tj, mb = map(float, sys.argv[1:])
print("Ingot cache pull --all   %7.2f s  %7.0f MB/s" % (ti, mb / ti))
print("curl -Z (the limit)      %7.2f s  %7.0f MB/s" % (tc, mb / tc))
print("@huggingface/hub         %7.2f s  %7.0f MB/s" % (tj, mb / tj))
print("Ingot / curl             %7.2f" % (ti / tc))
print("Ingot / @huggingface/hub %7.2f" % (ti / tj))
PY
