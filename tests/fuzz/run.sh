#!/usr/bin/env bash
# Bounded fuzzing of the checkpoint parsers with libFuzzer (clang 14 from Debian; not part of CI's pass/fail run).
#   tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 60)
# Builds with -fsanitize=fuzzer,address,undefined, seeds the corpus with real torch/safetensors files, and runs
# each target for the given time. A crash leaves its input in tests/fuzz/out/ and fails the script.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
out=$here/build-fuzz
mkdir -p "$out/corpus/pickle" "$out/corpus/safetensors" "$here/tests/fuzz/out"
command -v clang++-14 >/dev/null || { echo "needs clang-14 and libclang-rt-14-dev (apt-get install clang-14 libclang-rt-14-dev)"; exit 2; }
flags="-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
qt="$(pkg-config --cflags --libs Qt6Core) -fPIC"
formats=$here/services/checkpoint/formats
inc="-I$here"  # includes are project-root relative: "services/checkpoint/formats/pickle.h"
clang++-14 $flags $inc $here/tests/fuzz/fuzz_pickle.cpp $formats/pickle.cpp $formats/dtype.cpp -o "$out/fuzz_pickle"
clang++-14 $flags $inc $here/tests/fuzz/fuzz_safetensors.cpp $formats/safetensors.cpp $formats/filewriter.cpp $formats/dtype.cpp $qt \
  -o "$out/fuzz_safetensors"
# Seeds: real files from Debian's python3-torch.
seed=$(mktemp -d)
/usr/bin/python3 "$here/tests/fixtures/make_torch_fixtures.py" "$seed" >/dev/null
/usr/bin/python3 "$here/tests/fixtures/make_sharded_fixtures.py" "$seed/sh" ingot 2 1 float32 >/dev/null
for f in "$seed"/*.pt; do (cd "$seed" && unzip -p "$f" '*/data.pkl' > "$out/corpus/pickle/$(basename "$f").pkl" 2>/dev/null || true); done
cp "$seed"/sh/tensor_parallel_shards/*/model.safetensors "$out/corpus/safetensors/" 2>/dev/null || true
for i in $(ls "$out/corpus/safetensors"); do mv "$out/corpus/safetensors/$i" "$out/corpus/safetensors/$RANDOM-$i"; done
rm -rf "$seed"
"$out/fuzz_pickle" -max_total_time="$secs" -artifact_prefix="$here/tests/fuzz/out/pickle-" "$out/corpus/pickle"
"$out/fuzz_safetensors" -max_total_time="$secs" -max_len=65536 -artifact_prefix="$here/tests/fuzz/out/safetensors-" "$out/corpus/safetensors"
echo "fuzzing: no crash in ${secs}s per target"
