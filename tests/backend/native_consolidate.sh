#!/usr/bin/env bash
# A native run's checkpoint, end to end: the backend's native engine trains tp=2 for 3 steps in the PyTorch 2 root
# (torchrun, gloo) and saves its DCP checkpoint; this build's ingot-cli (no Python) consolidates it with --verify; the
# output loads with safetensors and equals, tensor for tensor, what torch's own dcp_to_torch_save makes of the
# checkpoint's model, under transformers' names; with --optimizer, its optimizer.safetensors equals the "optimizer"
# state torch makes of it (named "<parameter>.<state>") and optimizer_param_groups.json its param_groups.
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
INGOT_LANGUAGE=en "$cli" consolidate "$work/out" "$work/hf" --verify --optimizer
timeout 300 "$py" - "$work" <<'PY'
import json
import sys
import torch
from safetensors.torch import load_file
from torch.distributed.checkpoint.format_utils import dcp_to_torch_save
work = sys.argv[1]
dcp_to_torch_save(f"{work}/out", f"{work}/ref.pt")
full = torch.load(f"{work}/ref.pt", weights_only=False)
ref = full["model"]
out = load_file(f"{work}/hf/model.safetensors")
assert sorted(out) == sorted(ref), (sorted(set(out) ^ set(ref)))
bad = [k for k in ref if out[k].dtype != ref[k].dtype or not torch.equal(out[k], ref[k])]
assert not bad, bad
osd = full["optimizer"]
want = {f"{p}.{k}": v for p, state in osd["state"].items() for k, v in state.items()}
got = load_file(f"{work}/hf/optimizer.safetensors")
assert sorted(got) == sorted(want), (sorted(set(got) ^ set(want)))
bad = [k for k in want if got[k].dtype != want[k].dtype or got[k].shape != want[k].shape or not torch.equal(got[k], want[k])]
assert not bad, bad
with open(f"{work}/hf/optimizer_param_groups.json") as f:
    groups = json.load(f)["param_groups"]
assert groups == json.loads(json.dumps(osd["param_groups"])), (groups, osd["param_groups"])
print(f"native checkpoint consolidated: {len(out)} tensors equal to dcp_to_torch_save, "
      f"and {len(got)} optimizer tensors, {len(groups)} param group(s)")
PY
