#!/usr/bin/env bash
# A native run's checkpoint, end to end: the backend's native engine trains tp=2 for 3 steps in the PyTorch 2 root
# (torchrun, gloo) and saves its DCP checkpoint; this build's ingot-cli (no Python) consolidates it with --verify; the
# output loads with safetensors and equals, tensor for tensor, what torch's own dcp_to_torch_save makes of the
# checkpoint's model, under transformers' names.
#   native_consolidate.sh TORCH2_PYTHON INGOT_CLI SOURCE_DIR
set -euo pipefail
py=$1 cli=$2 src=$3
work=$(mktemp -d /tmp/ingot-native-consolidate.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
export INGOT_TORCH2_BIND="$src:$work" PYTHONPATH="$src/resources/backend"
timeout 600 "$py" -m torch.distributed.run --standalone --nproc-per-node 2 -m ingot_train --engine native \
  --config_name tiny --tensor_parallel_size 2 --max_steps 3 --output_dir "$work/out" >"$work/train.log" 2>&1 \
  || { tail -n 40 "$work/train.log"; exit 1; }
[[ -f "$work/out/.metadata" ]] || { echo "no DCP checkpoint in $work/out"; ls -la "$work/out"; exit 1; }
INGOT_LANGUAGE=en "$cli" consolidate "$work/out" "$work/hf" --verify
timeout 300 "$py" - "$work" <<'PY'
import sys
import torch
from safetensors.torch import load_file
from torch.distributed.checkpoint.format_utils import dcp_to_torch_save
work = sys.argv[1]
dcp_to_torch_save(f"{work}/out", f"{work}/ref.pt")
ref = torch.load(f"{work}/ref.pt", weights_only=False)["model"]
out = load_file(f"{work}/hf/model.safetensors")
assert sorted(out) == sorted(ref), (sorted(set(out) ^ set(ref)))
bad = [k for k in ref if out[k].dtype != ref[k].dtype or not torch.equal(out[k], ref[k])]
assert not bad, bad
print(f"native checkpoint consolidated: {len(out)} tensors equal to dcp_to_torch_save")
PY
