"""The PyTorch 2 root works as the tests need it: torch 2, safetensors, DCP, DTensor, and two gloo ranks under
torchrun that agree (this runs inside tests/support/torch2/python3; tests/CMakeLists.txt: torch2_root)."""
import os
import sys

import torch
import torch.distributed as dist


def main():
    dist.init_process_group("gloo")
    t = torch.tensor([float(dist.get_rank() + 1)])
    dist.all_reduce(t)
    assert t.item() == 3.0, t
    import importlib
    for name in ("safetensors.torch", "torch.distributed.checkpoint", "torch.distributed.tensor"):
        importlib.import_module(name)
    assert int(torch.__version__.split(".")[0]) >= 2, torch.__version__
    if dist.get_rank() == 0:
        print("torch", torch.__version__, "world", dist.get_world_size(), "sum", t.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    sys.exit(main())
