"""A Llama-architecture causal LM (RMSNorm, rotary embeddings, SwiGLU MLP, grouped-query attention), built as one
pipeline stage holding one tensor-parallel shard: a rank allocates, initialises and loads only its own part."""
import hashlib
import json
import math
import mmap
import os
import struct
from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .errors import TrainError
from .parallel import (GatherFromSequence, Layout, ScatterToSequence, VocabParallelCrossEntropy, enter_tp,
                       leave_tp)


@dataclass
class LlamaConfig:
    vocab_size: int = 260
    hidden_size: int = 64
    intermediate_size: int = 128
    num_hidden_layers: int = 2
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    max_position_embeddings: int = 512
    rms_norm_eps: float = 1e-5
    rope_theta: float = 10000.0
    tie_word_embeddings: bool = False
    model_type: str = "llama"

    @property
    def head_dim(self):
        return self.hidden_size // self.num_attention_heads

    def to_hf(self):
        d = asdict(self)
        d["architectures"] = ["LlamaForCausalLM"]
        d["hidden_act"] = "silu"
        return d

    @classmethod
    def from_hf(cls, d):
        known = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        if "num_key_value_heads" not in d:
            known["num_key_value_heads"] = d.get("num_attention_heads", cls.num_attention_heads)
        return cls(**known)


BUILTIN = {
    # Small enough for CI on two CPU cores; the byte-level tokenizer's 256 bytes + 4 specials.
    "tiny": LlamaConfig(),
    "small": LlamaConfig(hidden_size=256, intermediate_size=688, num_hidden_layers=4, num_attention_heads=8,
                         num_key_value_heads=4),
    # ~95 M parameters: big enough for the weights to dominate a rank's memory (the tp memory benchmark).
    "medium": LlamaConfig(hidden_size=1024, intermediate_size=2816, num_hidden_layers=8, num_attention_heads=16,
                          num_key_value_heads=8),
}


def _param(full_shape, tp_dim, lay, fill=None):
    """A parameter holding this rank's part of a tensor of FULL_SHAPE split on TP_DIM over the tensor-parallel group
    (TP_DIM None: the whole tensor, the same on every tensor-parallel rank). Only that part is ever allocated."""
    shape = list(full_shape)
    if tp_dim is not None and lay.tp > 1:
        shape[tp_dim] //= lay.tp
    else:
        tp_dim = None
    p = nn.Parameter(torch.empty(shape) if fill is None else torch.full(shape, fill))
    p.full_shape, p.tp_dim = tuple(full_shape), tp_dim
    p.sequence_parallel = False  # set on norms: gradients partial per sequence chunk, summed over the tp group
    p.tied_copy = False          # set on the last stage's copy of a tied embedding under pipeline parallelism
    return p


class RMSNorm(nn.Module):
    def __init__(self, size, eps, lay):
        super().__init__()
        self.weight = _param((size,), None, lay, fill=1.0)
        self.weight.sequence_parallel = lay.sequence_parallel
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        x = x.float()
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


class ColumnParallelLinear(nn.Module):
    """Output features split over the tensor-parallel group (partition_dim 0 of the weight)."""

    def __init__(self, in_features, out_features, lay):
        super().__init__()
        self.weight = _param((out_features, in_features), 0, lay)

    def forward(self, x):
        return F.linear(x, self.weight)


class RowParallelLinear(nn.Module):
    """Input features split over the tensor-parallel group (partition_dim 1); the output is a partial sum."""

    def __init__(self, in_features, out_features, lay):
        super().__init__()
        self.weight = _param((out_features, in_features), 1, lay)

    def forward(self, x):
        return F.linear(x, self.weight)


def rotary(positions, head_dim, theta, dtype):
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32, device=positions.device) / head_dim))
    freqs = torch.outer(positions.float(), inv)
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat([-b, a], dim=-1)


class Attention(nn.Module):
    """Grouped-query attention with heads split over the tensor-parallel group: rank r holds query heads
    [r*H/tp, (r+1)*H/tp) and exactly the key/value heads those query heads read, so no head crosses ranks."""

    def __init__(self, c, lay):
        super().__init__()
        self.c = c
        self.heads, self.kv_heads = c.num_attention_heads // lay.tp, c.num_key_value_heads // lay.tp
        self.q_proj = ColumnParallelLinear(c.hidden_size, c.num_attention_heads * c.head_dim, lay)
        self.k_proj = ColumnParallelLinear(c.hidden_size, c.num_key_value_heads * c.head_dim, lay)
        self.v_proj = ColumnParallelLinear(c.hidden_size, c.num_key_value_heads * c.head_dim, lay)
        self.o_proj = RowParallelLinear(c.num_attention_heads * c.head_dim, c.hidden_size, lay)

    def forward(self, x, cos, sin):
        b, t, _ = x.shape
        hd = self.c.head_dim
        q = self.q_proj(x).view(b, t, self.heads, hd).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.kv_heads, hd).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.kv_heads, hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        rep = self.heads // self.kv_heads
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
        mask = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        return self.o_proj((att @ v).transpose(1, 2).reshape(b, t, -1))


class MLP(nn.Module):
    def __init__(self, c, lay):
        super().__init__()
        self.gate_proj = ColumnParallelLinear(c.hidden_size, c.intermediate_size, lay)
        self.up_proj = ColumnParallelLinear(c.hidden_size, c.intermediate_size, lay)
        self.down_proj = RowParallelLinear(c.intermediate_size, c.hidden_size, lay)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Layer(nn.Module):
    def __init__(self, c, lay):
        super().__init__()
        self.lay = lay
        self.input_layernorm = RMSNorm(c.hidden_size, c.rms_norm_eps, lay)
        self.self_attn = Attention(c, lay)
        self.post_attention_layernorm = RMSNorm(c.hidden_size, c.rms_norm_eps, lay)
        self.mlp = MLP(c, lay)

    def forward(self, x, cos, sin):
        # x: the residual stream, this rank's sequence chunk under sequence parallelism, else the full sequence.
        x = x + leave_tp(self.self_attn(enter_tp(self.input_layernorm(x), self.lay), cos, sin), self.lay)
        return x + leave_tp(self.mlp(enter_tp(self.post_attention_layernorm(x), self.lay)), self.lay)


class Embedding(nn.Module):
    """Token embeddings; vocab-parallel under TP unless disabled (rank r holds rows [r*V/tp, (r+1)*V/tp))."""

    def __init__(self, c, lay):
        super().__init__()
        self.lay = lay
        self.weight = _param((c.vocab_size, c.hidden_size), 0 if lay.vocab_parallel else None, lay)
        self.start = lay.tp_rank * self.weight.shape[0] if lay.vocab_parallel else 0

    def forward(self, ids):
        lay = self.lay
        if lay.vocab_parallel:
            n = self.weight.shape[0]
            inside = (ids >= self.start) & (ids < self.start + n)
            x = F.embedding((ids - self.start).clamp(0, n - 1), self.weight) * inside.unsqueeze(-1)
            return leave_tp(x, lay)
        x = F.embedding(ids, self.weight)
        return ScatterToSequence.apply(x, lay.tp_group) if lay.sequence_parallel else x


class Inner(nn.Module):
    def __init__(self, c, lay):
        super().__init__()
        if lay.first_stage:
            self.embed_tokens = Embedding(c, lay)
        # Global layer numbers as names (model.layers.<i>.…), so every stage's shard uses transformers' names.
        self.layers = nn.ModuleDict({str(i): Layer(c, lay) for i in lay.stage_layers(c.num_hidden_layers)})
        if lay.last_stage:
            self.norm = RMSNorm(c.hidden_size, c.rms_norm_eps, lay)


class LlamaForCausalLM(nn.Module):
    """One pipeline stage (the whole model without pipeline parallelism) holding this rank's tensor-parallel shard.
    Parameter names match transformers' LlamaForCausalLM, so its checkpoints load both ways."""

    def __init__(self, c, lay=None):
        super().__init__()
        self.config = c
        self.lay = lay = lay or Layout(1, 0)
        self.model = Inner(c, lay)
        self.lm_head = None
        if lay.last_stage and not (c.tie_word_embeddings and lay.first_stage):
            self.lm_head = nn.Module()
            self.lm_head.weight = _param((c.vocab_size, c.hidden_size), 0 if lay.vocab_parallel else None, lay)
            # Tied under pipeline parallelism: the last stage keeps a copy of the first stage's embedding, kept
            # equal by summing the two gradients (Megatron's embedding group).
            self.lm_head.weight.tied_copy = c.tie_word_embeddings

    def head_weight(self):
        return self.lm_head.weight if self.lm_head is not None else self.model.embed_tokens.weight

    def source_name(self, name):
        """The checkpoint tensor a parameter is read from (the tied copy reads the embedding)."""
        return "model.embed_tokens.weight" if name == "lm_head.weight" and self.config.tie_word_embeddings else name

    def forward(self, inp, ids):
        """INP: token ids on the first stage, else the hidden states from the previous stage. IDS: the token ids
        (labels) of the micro-batch. Returns the hidden states, or on the last stage the mean loss."""
        c, lay = self.config, self.lay
        x = self.model.embed_tokens(inp) if lay.first_stage else inp
        cos, sin = rotary(torch.arange(ids.shape[1], device=ids.device), c.head_dim, c.rope_theta, x.dtype)
        for layer in self.model.layers.values():
            x = layer(x, cos, sin)
        if not lay.last_stage:
            return x
        x = self.model.norm(x)
        w = self.head_weight()
        target = ids[:, 1:].reshape(-1)
        if lay.vocab_parallel:
            logits = F.linear(enter_tp(x, lay), w)[:, :-1]
            start = lay.tp_rank * w.shape[0]
            return VocabParallelCrossEntropy.apply(logits.reshape(-1, w.shape[0]), target, start, lay.tp_group).mean()
        if lay.sequence_parallel:
            x = GatherFromSequence.apply(x, lay.tp_group, False)
        logits = F.linear(x, w)[:, :-1]
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), target)

    def metadata(self):
        """optimum-neuron's partitioning metadata for this rank's saved tensors."""
        params = {}
        for name, p in self.saved_parameters():
            if p.tp_dim is None:
                params[name] = {"tensor_model_parallel": False}
            else:
                params[name] = {"tensor_model_parallel": True, "partition_dim": p.tp_dim, "partition_stride": 1,
                                "num_partitions": self.lay.tp}
        return {"parameters": params, "model_weight_transformation_specs": []}

    def saved_parameters(self):
        return [(n, p) for n, p in self.named_parameters() if not p.tied_copy]


def _row_seed(base, name, row):
    """A 63-bit seed per (seed, tensor name, row): hashed, so no two rows of the model share a random stream."""
    return int.from_bytes(hashlib.blake2b(f"{base}/{name}/{row}".encode(), digest_size=8).digest(), "little") >> 1


def init_weights(model, seed, std=0.02):
    """Random init that does not depend on the parallel layout: row i of every matrix is drawn from a generator
    seeded by (seed, name, i), and each rank draws only the rows it holds (for a split on dim 1, one full row at a
    time, keeping its columns). Any tp/pp layout therefore starts from exactly the single-process weights without
    any rank ever holding a full matrix."""
    g = torch.Generator()
    lay = model.lay
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() < 2:
                continue  # norms start at one
            rows, cols = p.full_shape
            r0, r1, c0, c1 = 0, rows, 0, cols
            part = _tp_slice(p, lay)
            if part and part[0] == 0:
                r0, r1 = part[1], part[1] + part[2]
            elif part:
                c0, c1 = part[1], part[1] + part[2]
            source = model.source_name(name)
            for i in range(r0, r1):
                g.manual_seed(_row_seed(seed, source, i))
                p[i - r0].copy_(torch.randn(cols, generator=g)[c0:c1] * std)


def _tp_slice(p, lay):
    if p.tp_dim is None:
        return None
    return p.tp_dim, lay.tp_rank * p.shape[p.tp_dim], p.shape[p.tp_dim]


def load_weights(model, source):
    """Fills every parameter with its part of the tensors in SOURCE (a Checkpoint), reading only that part."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            src = model.source_name(name)
            if src not in source:
                raise TrainError(f"{source.folder} has no tensor {src}")
            t = source.get(src, p.full_shape, _tp_slice(p, model.lay))
            p.copy_(t)


class Checkpoint:
    """Tensors by name across the files of a model folder: safetensors (one file or sharded with an index) read
    through mmap, so a rank reads only the slice it keeps; pytorch_model.bin is read whole (torch.load)."""

    def __init__(self, folder):
        self.folder, self.files, self.where = folder, {}, {}
        index = os.path.join(folder, "model.safetensors.index.json")
        if os.path.exists(os.path.join(folder, "model.safetensors")):
            self._add(os.path.join(folder, "model.safetensors"))
        elif os.path.exists(index):
            with open(index) as f:
                weight_map = json.load(f)["weight_map"]
            for name in sorted(set(weight_map.values())):
                self._add(os.path.join(folder, name))
        elif os.path.exists(os.path.join(folder, "pytorch_model.bin")):
            with open(os.path.join(folder, "pytorch_model.bin"), "rb") as f:  # torch cannot open a non-UTF-8 name
                self.bin = torch.load(f, map_location="cpu")
            self.where = {k: None for k in self.bin}
        else:
            raise TrainError(f"{folder} has no model.safetensors, index or pytorch_model.bin")

    def _add(self, path):
        f = SafetensorsFile(path)
        self.files[path] = f
        for k in f.header:
            if k != "__metadata__":
                self.where[k] = f

    def __contains__(self, name):
        return name in self.where

    def get(self, name, full_shape, part=None):
        f = self.where[name]
        t = self.bin[name] if f is None else f.tensor(name)
        if tuple(t.shape) != tuple(full_shape):
            raise TrainError(f"{name} in {self.folder} has shape {list(t.shape)}, "
                             f"the config needs {list(full_shape)}")
        if part:
            t = t.narrow(*part)
        return t.clone()


class SafetensorsFile:
    def __init__(self, path):
        with open(path, "rb") as f:
            try:
                n = struct.unpack("<Q", f.read(8))[0]
                self.header = json.loads(f.read(n))
            except Exception as e:
                raise TrainError(f"{path} is not a safetensors file ({e})")
            self.base = 8 + n
            size = os.fstat(f.fileno()).st_size
            # A private mapping: pages are read on demand and shared with the page cache, never written back.
            self.mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY) if size else None
        for k, e in self.header.items():
            if k != "__metadata__" and (e["data_offsets"][1] + self.base > size or e["dtype"] not in _DT):
                raise TrainError(f"{path}: {k} lies outside the file or has an unknown dtype")

    def tensor(self, name):
        e = self.header[name]
        count = math.prod(e["shape"])
        if count == 0:
            return torch.zeros(e["shape"], dtype=_DT[e["dtype"]])
        b = e["data_offsets"][0]
        return torch.frombuffer(self.mm, dtype=_DT[e["dtype"]], count=count, offset=self.base + b).reshape(e["shape"])


# --- safetensors without the safetensors package --------------------------------------------------------------
_DT = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "I64": torch.int64, "F64": torch.float64,
       "U8": torch.uint8}
_NAME = {v: k for k, v in _DT.items()}


def save_safetensors(path, tensors, metadata=None):
    header, blobs, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    for k, t in tensors.items():
        t = t.detach().cpu().contiguous()
        raw = (t.view(torch.int16) if t.dtype == torch.bfloat16 else t).numpy().tobytes()
        header[k] = {"dtype": _NAME[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    h = json.dumps(header).encode()
    h += b" " * ((8 - (len(h) + 8) % 8) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load_safetensors(path):
    """Every tensor of a safetensors file, as copies (for small files and tests; training reads slices)."""
    f = SafetensorsFile(path)
    return {k: f.tensor(k).clone() for k in f.header if k != "__metadata__"}
