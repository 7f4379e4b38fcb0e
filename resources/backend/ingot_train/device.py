"""Where the run computes: the device choice (XLA/Neuron, CUDA or CPU), the matching torch.distributed backend,
bfloat16 autocast, and XLA's step marker."""
import contextlib
import importlib
import os

import torch
import torch.distributed as dist

from .errors import TrainError


def pick_device(choice, bf16):
    if choice in ("auto", "xla"):
        try:
            if bf16:
                os.environ.setdefault("XLA_DOWNCAST_BF16", "1")  # read when torch_xla is imported
            import torch_xla.core.xla_model as xm
            return xm.xla_device(), "xla"
        except ImportError:
            if choice == "xla":
                raise TrainError("--device xla needs torch_xla / torch-neuronx")
    if choice in ("auto", "cuda") and torch.cuda.is_available():
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
        return torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0))), "cuda"
    if choice == "cuda":
        raise TrainError("--device cuda but no GPU is available")
    return torch.device("cpu"), "cpu"


def init_process_group(kind):
    """gloo on CPU, NCCL on CUDA, XLA on Neuron."""
    if kind == "xla":
        importlib.import_module("torch_xla.distributed.xla_backend")  # registers the "xla" backend
    dist.init_process_group({"cuda": "nccl", "xla": "xla"}.get(kind, "gloo"))


def autocast(bf16, kind):
    """The context the forward passes run in: bfloat16 autocast under --bf16 (on XLA, XLA_DOWNCAST_BF16 does it)."""
    if not bf16 or kind == "xla":
        return contextlib.nullcontext()
    return torch.autocast(device_type=kind, dtype=torch.bfloat16)


def mark_step(kind):
    """Ends the traced graph of one optimizer step on XLA; nothing elsewhere."""
    if kind == "xla":
        import torch_xla.core.xla_model as xm
        xm.mark_step()
