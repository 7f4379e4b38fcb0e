#!/usr/bin/env bash
# S3 transfer benchmark (issue 27; not pass/fail). Builds ingot-cli, writes a local cache of ENTRIES entries with a
# NEFF_MB MB model.neff each (plus small files), starts the test S3 server (tests/s3/tests3.py, in memory), and times
# the same bytes both ways, Ingot against boto3's transfer manager (Debian's python3-boto3: multipart from 8 MiB,
# 10 threads), the AWS SDK's own way of moving files:
#   up:   ingot-cli cache copy --from local --to s3://bench/ingot ...   vs  boto3 upload_file of every file
#   down: ingot-cli cache copy --from s3://bench/ingot --to local ...   vs  boto3 download_file of every object
# Ingot does more than boto3 here: Content-MD5 and SHA-256 on every request, ETags compared, model.done last, the
# entry listed again, downloads staged and renamed, fsync before an entry appears. The server is the same Python
# process for both, so the ratio, not the MB/s, is the figure.
#   ENTRIES=8 NEFF_MB=64 tests/benchmarks/run-s3.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$here/build-bench}
entries=${ENTRIES:-8}
neff_mb=${NEFF_MB:-64}
if [ -z "${SKIP_BUILD:-}" ]; then
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target ingot-cli >/dev/null
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ingot-s3-bench.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

keys=$(/usr/bin/python3 - "$work/local" "$entries" "$neff_mb" <<'PY'
import json, os, sys
root, entries, mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
keys = []
for i in range(entries):
    k = "neuronxcc-2.15.128.0+56dc5a86/MODULE_%d+%08x" % (1000 + i, i)
    d = os.path.join(root, k)
    os.makedirs(d)
    with open(os.path.join(d, "model.neff"), "wb") as f:
        for _ in range(mb):
            f.write(os.urandom(1 << 20))
    with open(os.path.join(d, "model.hlo_module.pb"), "wb") as f:
        f.write(os.urandom(64 << 10))
    with open(os.path.join(d, "compile_flags.json"), "w") as f:
        json.dump(["--model-type=transformer"], f)
    open(os.path.join(d, "model.done"), "wb").close()
    keys.append(k)
print(" ".join(keys))
PY
)
/usr/bin/python3 "$here/tests/s3/tests3.py" --access AKIDBENCH --secret benchsecret --bucket bench --port-file "$work/port" &
pid=$!
for _ in $(seq 200); do [ -f "$work/port" ] && break; sleep 0.05; done
url="http://127.0.0.1:$(cat "$work/port")"
export AWS_ACCESS_KEY_ID=AKIDBENCH AWS_SECRET_ACCESS_KEY=benchsecret AWS_ENDPOINT_URL="$url" AWS_EC2_METADATA_DISABLED=true
export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent XDG_CACHE_HOME="$work/xdg"
cat "$work"/local/*/*/* >/dev/null
total_mb=$(du -sm "$work/local" | cut -f1)
now() { date +%s.%N; }

t0=$(now)
# shellcheck disable=SC2086
"$build/app/ingot-cli" cache copy --cache-dir "$work/local" --from local --to s3://bench/ingot $keys >/dev/null
t1=$(now)
/usr/bin/python3 - "$url" "$work/local" bench boto <<'PY'
import os, sys, boto3
from botocore.config import Config
url, root, bucket, prefix = sys.argv[1:5]
s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
for d, _, files in os.walk(root):
    for f in files:
        p = os.path.join(d, f)
        s3.upload_file(p, bucket, prefix + "/" + os.path.relpath(p, root))
PY
t2=$(now)
mkdir -p "$work/down-ingot" "$work/down-boto"
# shellcheck disable=SC2086
"$build/app/ingot-cli" cache copy --cache-dir "$work/down-ingot" --from s3://bench/ingot --to local $keys >/dev/null
t3=$(now)
/usr/bin/python3 - "$url" "$work/down-boto" bench boto <<'PY'
import os, sys, boto3
from botocore.config import Config
url, root, bucket, prefix = sys.argv[1:5]
s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1", config=Config(s3={"addressing_style": "path"}))
for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/"):
    for o in page.get("Contents", []):
        p = os.path.join(root, o["Key"][len(prefix) + 1:])
        os.makedirs(os.path.dirname(p), exist_ok=True)
        s3.download_file(bucket, o["Key"], p)
PY
t4=$(now)
cmp <(cd "$work/local" && find . -type f -exec sha256sum {} + | sort) <(cd "$work/down-ingot" && find . -type f -exec sha256sum {} + | sort) \
  || { echo "run-s3: the entries Ingot brought down differ from the originals" >&2; exit 1; }
python3 - "$total_mb" "$t0" "$t1" "$t2" "$t3" "$t4" <<'PY'
import sys
mb = int(sys.argv[1]); t = [float(x) for x in sys.argv[2:]]
up_i, up_b, down_i, down_b = t[1] - t[0], t[2] - t[1], t[3] - t[2], t[4] - t[3]
print("S3 transfers, %d MB (test S3 server, in memory):" % mb)
print("  up:   Ingot %.2f s (%.0f MB/s)   boto3 %.2f s (%.0f MB/s)   Ingot/boto3 = %.2fx" % (up_i, mb / up_i, up_b, mb / up_b, up_i / up_b))
print("  down: Ingot %.2f s (%.0f MB/s)   boto3 %.2f s (%.0f MB/s)   Ingot/boto3 = %.2fx" % (down_i, mb / down_i, down_b, mb / down_b, down_i / down_b))
PY
