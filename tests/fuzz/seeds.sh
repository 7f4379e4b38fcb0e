#!/usr/bin/env bash
# Seeds for the fuzz targets, from the test fixtures: real torch.save pickles and zips, safetensors shards,
# mp_metadata files (Debian's python3-torch writes them). tests/fuzz/seeds.sh CORPUS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
mkdir -p "$out"
seed=$(mktemp -d)
trap 'rm -rf "$seed"' EXIT
/usr/bin/python3 "$here/tests/fixtures/make_torch_fixtures.py" "$seed" >/dev/null
/usr/bin/python3 "$here/tests/fixtures/make_sharded_fixtures.py" "$seed/sh" ingot 2 1 float32 >/dev/null
/usr/bin/python3 "$here/tests/fixtures/make_sharded_fixtures.py" "$seed/nxd" nxd 2 2 bfloat16 >/dev/null 2>&1 || true
# xser reference files and their tensor files, older optimum-neuron's mp_metadata .pt (issue 25).
/usr/bin/python3 "$here/tests/fixtures/make_checkpoint_formats.py" "$seed/xser" xser 2 >/dev/null
/usr/bin/python3 "$here/tests/fixtures/make_checkpoint_formats.py" "$seed/ptmeta" pt-metadata 2 >/dev/null
for f in "$seed"/xser/shards/model/dp_rank_00_tp_rank_00_pp_rank_00.pt "$seed"/xser/shards/model/*.tensors/tensor_0.pt \
         "$seed"/ptmeta/shards/mp_metadata_pp_rank_0.pt; do
  mkdir -p "$out/fuzz_pickle" "$out/fuzz_torchzip"
  n=$(echo "${f#"$seed"/}" | tr '/' '-')
  unzip -p "$f" '*/data.pkl' > "$out/fuzz_pickle/$n.pkl" 2>/dev/null || true
  cp "$f" "$out/fuzz_torchzip/$n"
done
put() {  # put TARGET FILE...: copies files into the target's corpus under unique names
  local t=$1; shift
  mkdir -p "$out/$t"
  local f
  for f in "$@"; do [[ -f "$f" ]] && cp "$f" "$out/$t/$(basename "$(dirname "$f")")-$(basename "$f")"; done
  return 0
}
for f in "$seed"/*.pt; do
  mkdir -p "$out/fuzz_pickle"
  unzip -p "$f" '*/data.pkl' > "$out/fuzz_pickle/$(basename "$f").pkl" 2>/dev/null || true
done
put fuzz_safetensors "$seed"/sh/tensor_parallel_shards/*/model.safetensors
put fuzz_torchzip "$seed"/*.pt $(find "$seed/nxd" -name '*.pt' 2>/dev/null | head -4)
/usr/bin/python3 "$here/tests/fixtures/make_checkpoint_formats.py" "$seed/lora" lora 2 >/dev/null
put fuzz_mpmetadata $(find "$seed" -name '*metadata*.json' -o -name 'adapter_config.json' 2>/dev/null)
# fuzz_tarstream: what a host's send script prints (GNU tar of an entry; the script writes 64 KiB records, -b 1 keeps the seeds small;
# a pax one and a long name too), then a sha256sum -z list.
e="$seed/entry"
mkdir -p "$e/sub" "$out/fuzz_tarstream"
head -c 4096 /dev/urandom > "$e/model.neff"; : > "$e/model.done"; printf '{"flags": "-O1"}' > "$e/sub/compile_flags.json"
tar -c -f "$out/fuzz_tarstream/gnu.tar" -b 1 --format=gnu -C "$e" .
tar -c -f "$out/fuzz_tarstream/pax.tar" -b 1 --format=pax -C "$e" .
mkdir -p "$seed/long/$(printf 'd%.0s' {1..120})" && printf 'x' > "$seed/long/$(printf 'd%.0s' {1..120})/$(printf 'f%.0s' {1..110})"
tar -c -f "$out/fuzz_tarstream/longname.tar" -b 1 --format=gnu -C "$seed/long" .
(cd "$e" && find . -type f -print0 | xargs -0 sha256sum -z --) > "$out/fuzz_tarstream/sums"
# fuzz_tfevents: event files as SummaryWriter writes them, and the hostile ones (tests/fixtures/make_run_folders.py).
/usr/bin/python3 "$here/tests/fixtures/make_run_folders.py" tensorboard "$seed/tb" --steps 3 >/dev/null
/usr/bin/python3 "$here/tests/fixtures/make_run_folders.py" hostile "$seed/tbh" >/dev/null
put fuzz_tfevents $(find "$seed/tb" "$seed/tbh" -name 'events.out.tfevents.*')
[[ -d "$here/tests/fuzz/seeds" ]] && cp -r "$here/tests/fuzz/seeds/." "$out/"
echo "seeds: $(find "$out" -type f | wc -l) files in $(ls "$out" | wc -l) corpora"
