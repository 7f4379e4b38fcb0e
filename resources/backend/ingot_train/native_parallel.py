"""The native engine's parallelism, through torch's own APIs: the device and process group, the ("dp", "tp") device
mesh, tensor and sequence parallelism with DTensor's parallelize_module plans, data parallelism with DDP, fully
sharded data parallelism with FSDP2 (fully_shard) where the build supports the device's backward and FSDP1
(FullyShardedDataParallel) otherwise, and the global gradient norm over whatever the parameters became.

Ranks are laid out as the XLA engine does (rank = dp_rank * tp + tp_rank), so the data order is the same."""
import importlib
import importlib.util
import os

import torch
import torch.distributed as dist

from .errors import TrainError


def pick_native_device(choice):
    """(device, kind): a Neuron device (TorchNeuron registers `neuron` as PrivateUse1; importing torch_neuronx loads it
    when PyTorch's autoload is off), CUDA, else CPU."""
    local = int(os.environ.get("LOCAL_RANK", 0))
    if choice in ("auto", "neuron"):
        try:
            importlib.import_module("torch_neuronx")
        except ImportError:
            pass
        neuron = getattr(torch, "neuron", None)
        if neuron is not None and getattr(neuron, "is_available", lambda: False)():
            neuron.set_device(local)
            return torch.device("neuron", local), "neuron"
        if choice == "neuron":
            raise TrainError("--device neuron needs TorchNeuron (torch-neuronx, Neuron 2.30 and later) and a Neuron device")
    if choice in ("auto", "cuda") and torch.cuda.is_available():
        torch.cuda.set_device(local)
        return torch.device("cuda", local), "cuda"
    if choice == "cuda":
        raise TrainError("--device cuda but no GPU is available")
    return torch.device("cpu"), "cpu"


def init_native_process_group(kind):
    """gloo for CPU tensors everywhere (checkpoint coordination), and the device's own backend beside it."""
    backend = {"cuda": "cpu:gloo,cuda:nccl", "neuron": "cpu:gloo,neuron:neuron"}.get(kind, "gloo")
    dist.init_process_group(backend)


class NativeLayout:
    """Where this rank sits, as parallel.Layout lays ranks out (rank = pp_rank * dp * tp + dp_rank * tp + tp_rank),
    with what the pipeline schedule reads; the groups come from the device mesh (build_mesh)."""

    def __init__(self, world, rank, tp, pp, sequence_parallel):
        self.world, self.rank, self.tp, self.pp = world, rank, tp, pp
        self.dp = world // (tp * pp)
        self.tp_rank, self.dp_rank, self.pp_rank = rank % tp, (rank // tp) % self.dp, rank // (tp * self.dp)
        self.sequence_parallel = sequence_parallel and tp > 1
        self.cpu_group, self.mesh, self.fsdp1 = None, None, None

    def global_rank(self, tp_rank, dp_rank, pp_rank):
        return pp_rank * (self.dp * self.tp) + dp_rank * self.tp + tp_rank

    @property
    def first_stage(self):
        return self.pp_rank == 0

    @property
    def last_stage(self):
        return self.pp_rank == self.pp - 1

    def prev_rank(self):
        return self.global_rank(self.tp_rank, self.dp_rank, self.pp_rank - 1)

    def next_rank(self):
        return self.global_rank(self.tp_rank, self.dp_rank, self.pp_rank + 1)


def build_mesh(kind, world, tp, pp=1):
    """The ("dp", "tp") DeviceMesh, ("pp", "dp", "tp") with pipeline stages (None for one process)."""
    if world == 1:
        return None
    from torch.distributed.device_mesh import init_device_mesh
    if pp > 1:
        return init_device_mesh(kind, (pp, world // (tp * pp), tp), mesh_dim_names=("pp", "dp", "tp"))
    return init_device_mesh(kind, (world // tp, tp), mesh_dim_names=("dp", "tp"))


def fsdp2_available(kind):
    """FSDP2's fully_shard where this torch has it and the device's streams can record events, which its backward
    needs (torch 2.6 on CPU cannot: "'Stream' object has no attribute 'record_event'")."""
    if importlib.util.find_spec("torch.distributed.fsdp") is None \
            or not hasattr(importlib.import_module("torch.distributed.fsdp"), "fully_shard"):  # torch 2.6 and later
        return False
    module = getattr(torch, kind, None) if kind != "cpu" else torch.cpu
    stream = getattr(module, "current_stream", None)
    try:
        return stream is not None and hasattr(stream(), "record_event")
    except Exception:
        return False


def tensor_parallel_plan(model, sequence_parallel, vocab_parallel):
    """DTensor plans as Megatron splits the model: q/k/v, gate and up column-wise, o and down row-wise (heads and
    the MLP's inner features split, one all-reduce or reduce-scatter per block), the embedding by vocabulary rows and
    the LM head by vocabulary columns with a loss-parallel cross-entropy; under sequence parallelism the norms and
    the residual stream hold this rank's share of the sequence (dim 1) between the blocks."""
    from torch.distributed.tensor import Replicate, Shard
    from torch.distributed.tensor.parallel import (ColwiseParallel, PrepareModuleInput, PrepareModuleOutput,
                                                   RowwiseParallel, SequenceParallel)
    seq = Shard(1) if sequence_parallel else Replicate()
    plan = {}
    if vocab_parallel:
        plan["model.embed_tokens"] = RowwiseParallel(input_layouts=Replicate(), output_layouts=seq)
        plan["lm_head"] = ColwiseParallel(input_layouts=seq, output_layouts=Shard(-1), use_local_output=False)
    elif sequence_parallel:  # whole embedding and head on every rank; the residual stream split by sequence
        plan["model.embed_tokens"] = PrepareModuleOutput(output_layouts=Replicate(), desired_output_layouts=Shard(1))
        plan["lm_head"] = PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),),
                                             use_local_output=True)
    if sequence_parallel:
        plan["model.norm"] = SequenceParallel()
    for i in model.model.layers:
        p = f"model.layers.{i}."
        if sequence_parallel:
            plan[p + "input_layernorm"] = SequenceParallel()
            plan[p + "post_attention_layernorm"] = SequenceParallel()
            plan[p + "self_attn"] = PrepareModuleInput(input_layouts=(seq, None, None),
                                                       desired_input_layouts=(Replicate(), None, None))
            plan[p + "mlp"] = PrepareModuleInput(input_layouts=(seq,), desired_input_layouts=(Replicate(),))
        for name in ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "mlp.gate_proj", "mlp.up_proj"):
            plan[p + name] = ColwiseParallel()
        for name in ("self_attn.o_proj", "mlp.down_proj"):
            plan[p + name] = RowwiseParallel(output_layouts=seq)
    return plan


def apply_tensor_parallel(model, tp_mesh, sequence_parallel, vocab_parallel):
    from torch.distributed.tensor.parallel import parallelize_module
    return parallelize_module(model, tp_mesh, tensor_parallel_plan(model, sequence_parallel, vocab_parallel))


def apply_fsdp(model, mesh, kind, layer_type):
    """(model, how): fully sharded over the "dp" dimension of MESH, each decoder layer its own unit."""
    dp_mesh = mesh["dp"]
    if fsdp2_available(kind):
        from torch.distributed.fsdp import fully_shard
        for layer in model.model.layers.values():
            fully_shard(layer, mesh=dp_mesh)
        fully_shard(model, mesh=dp_mesh)
        return model, "FSDP2 (fully_shard)"
    from torch.distributed.fsdp import FullyShardedDataParallel, ShardingStrategy
    from torch.distributed.fsdp.wrap import ModuleWrapPolicy
    # device_id: the device the model is on (FSDP1 refuses CPU unless told so).
    device = next(model.parameters()).device
    wrapped = FullyShardedDataParallel(model, device_mesh=dp_mesh, sharding_strategy=ShardingStrategy.FULL_SHARD,
                                       auto_wrap_policy=ModuleWrapPolicy({layer_type}), use_orig_params=True,
                                       device_id=device)
    return wrapped, "FSDP1 (FullyShardedDataParallel; FSDP2's fully_shard cannot run this device's backward in torch " \
                    f"{torch.__version__})"


def is_fsdp1(model):
    from torch.distributed.fsdp import FullyShardedDataParallel
    return isinstance(model, FullyShardedDataParallel)


def _local(t):
    from torch.distributed.tensor import DTensor
    return t.to_local() if isinstance(t, DTensor) else t


def all_reduce_grads(params, group, size):
    """Data-parallel averaging of the local gradient shards (tensor parallel with dp > 1 without FSDP, where DDP
    does not take DTensor parameters): one bucketed all-reduce over the "dp" dimension."""
    from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors
    grads = [_local(p.grad) for p in params if p.grad is not None]
    if not grads:
        return
    flat = _flatten_dense_tensors(grads)
    dist.all_reduce(flat, group=group)
    flat /= size
    for g, v in zip(grads, _unflatten_dense_tensors(flat, grads)):
        g.copy_(v)


def tp_sharded_names(model):
    """The parameters tensor parallelism split (DTensors with a Shard placement), by name, before FSDP hides them."""
    from torch.distributed.tensor import DTensor
    return {n for n, p in model.named_parameters()
            if isinstance(p, DTensor) and any(pl.is_shard() for pl in p.placements)}


def clip_native(params, max_norm, device, fsdp1=None, pp_group=None):
    """The global L2 norm of the gradients, each weight counted once whatever it became, and clipping as
    torch.nn.utils.clip_grad_norm_ does (no clipping when MAX_NORM is 0). A plain tensor is the same on every rank;
    a DTensor's local parts add up over its Shard mesh dimensions (pending Partial sums are reduced first). FSDP1
    (FSDP1 = (tp-split parameters, dp group)) hands out flat shards as plain tensors: summed over every rank for
    tp-split weights, over the dp group only for the rest (FSDP1's own clip_grad_norm_ misses the tensor-parallel
    split). Pipeline stages hold different weights: their sums add up over PP_GROUP."""
    from torch.distributed.tensor import DTensor, Replicate
    limit = max_norm if max_norm > 0 else float("inf")
    buckets = {}  # (mesh, summed mesh dims) or a group: sum of squares of the local parts
    for p in params:
        g = p.grad
        if g is None:
            continue
        if isinstance(g, DTensor) and any(pl.is_partial() for pl in g.placements):
            # Pending sums (a replicated norm's gradient under sequence parallelism): summed now, once.
            g = p.grad = g.redistribute(g.device_mesh, [Replicate() if pl.is_partial() else pl for pl in g.placements])
        key = None
        if fsdp1 is not None:
            key = ("all",) if p in fsdp1[0] else ("group", fsdp1[1])
        elif isinstance(g, DTensor):
            dims = tuple(i for i, pl in enumerate(g.placements) if pl.is_shard())
            key = ("mesh", g.device_mesh, dims) if dims else None
        s = _local(g).float().pow(2).sum()
        buckets[key] = buckets.get(key, torch.zeros((), device=device)) + s
    sq = torch.zeros((), device=device)
    for key, s in buckets.items():
        if key is None:
            pass
        elif key[0] == "all":
            dist.all_reduce(s)
        elif key[0] == "group":
            dist.all_reduce(s, group=key[1])
        else:
            for d in key[2]:
                dist.all_reduce(s, group=key[1].get_group(d))
        sq = sq + s
    if pp_group is not None:
        dist.all_reduce(sq, group=pp_group)
    norm = sq.sqrt()
    coef = (limit / (norm + 1e-6)).clamp(max=1.0)
    for p in params:
        if p.grad is not None:
            _local(p.grad).mul_(coef)
    return norm
