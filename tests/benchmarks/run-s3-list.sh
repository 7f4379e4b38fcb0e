#!/usr/bin/env bash
# S3 listing benchmark (issue 35; not pass/fail). A cache of ENTRIES entries (four objects each: model.neff,
# model.done, compile_flags.json, model.hlo_module.pb; 40,000 objects by default) on the test S3 server
# (tests/s3/tests3.py, in memory, 1,000 keys a page as S3), listed ROUNDS times each way in the same run:
#   Ingot:    ingot-cli cache list --cache-dir s3://bench/cache --json   (the listing, the tree and the states)
#   baseline: aws s3api list-objects-v2 --bucket bench --prefix cache/   (Debian's AWS CLI, every page)
# It prints the median times, their ratio (goal: Ingot <= 1.3x), and the requests each side made, counted in the
# server's journal (goal: Ingot's ~= the number of pages).
#   ENTRIES=10000 ROUNDS=3 tests/benchmarks/run-s3-list.sh
set -euo pipefail
# shellcheck source=tests/benchmarks/common.sh
source "$(dirname "$0")/common.sh"
entries=${ENTRIES:-10000}
rounds=${ROUNDS:-3}
aws=${AWS_CLI:-/usr/bin/aws}
if [ -z "${SKIP_BUILD:-}" ]; then
  build_targets ingot-cli
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ingot-s3-list.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

/usr/bin/python3 - "$work/seed/cache" "$entries" <<'PY'
import json, os, sys
root, entries = sys.argv[1], int(sys.argv[2])
for i in range(entries):
    d = os.path.join(root, "neuronxcc-2.%d.128.0+56dc5a86" % (13 + i % 3), "MODULE_%d+%08x" % (10**12 + i, i))
    os.makedirs(d)
    for name, data in (("model.neff", b"neff" * 64), ("model.hlo_module.pb", b"hlo" * 32),
                       ("compile_flags.json", json.dumps(["--model-type=transformer"]).encode()), ("model.done", b"")):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
PY
/usr/bin/python3 "$here/tests/s3/tests3.py" --access AKIDBENCH --secret benchsecret --seed "bench=$work/seed" \
  --journal "$work/journal" --journal-lists --port-file "$work/port" &
pid=$!
for _ in $(seq 600); do [ -f "$work/port" ] && break; sleep 0.05; done
url="http://127.0.0.1:$(cat "$work/port")"
export AWS_ACCESS_KEY_ID=AKIDBENCH AWS_SECRET_ACCESS_KEY=benchsecret AWS_ENDPOINT_URL="$url" AWS_EC2_METADATA_DISABLED=true
export AWS_CONFIG_FILE=/nonexistent AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_DEFAULT_REGION=us-east-1
export XDG_CACHE_HOME="$work/xdg"
now() { date +%s.%N; }
requests() { grep -c '^REQUEST' "$work/journal" 2>/dev/null || true; }

ingot_times=() aws_times=()
for _ in $(seq "$rounds"); do
  before=$(requests); t0=$(now)
  "$build/app/ingot-cli" cache list --cache-dir s3://bench/cache --json >"$work/ingot.json"
  t1=$(now); ingot_requests=$(( $(requests) - before ))
  before=$(requests); t2=$(now)
  "$aws" s3api list-objects-v2 --bucket bench --prefix cache/ --endpoint-url "$url" --output json >"$work/aws.json"
  t3=$(now); aws_requests=$(( $(requests) - before ))
  ingot_times+=("$(echo "$t1 - $t0" | bc)") aws_times+=("$(echo "$t3 - $t2" | bc)")
done
/usr/bin/python3 - "$work/ingot.json" "$work/aws.json" "$entries" <<'PY'
import json, sys
ingot, aws, entries = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
assert len(ingot["entries"]) == entries, "Ingot listed %d entries of %d" % (len(ingot["entries"]), entries)
assert len(aws["Contents"]) == 4 * entries, "aws listed %d objects" % len(aws["Contents"])
PY
ingot=$(printf '%s\n' "${ingot_times[@]}" | median)
base=$(printf '%s\n' "${aws_times[@]}" | median)
echo "S3 listing, $entries entries ($((4 * entries)) objects, $(( (4 * entries + 999) / 1000 )) pages of 1,000), median of $rounds:"
printf '  aws s3api list-objects-v2: %.2f s, %d requests\n' "$base" "$aws_requests"
printf '  ingot-cli cache list:      %.2f s, %d requests\n' "$ingot" "$ingot_requests"
printf '  Ingot/aws = %.2fx (goal <= 1.3x)\n' "$(echo "$ingot / $base" | bc -l)"
