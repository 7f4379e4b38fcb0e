"""The native engine's model: the same Llama architecture and the same parameter names as model.py (so checkpoints
of both engines consolidate the same way), built from plain nn.Linear / nn.Embedding modules that torch's own
parallel APIs (DDP, FSDP, DTensor's parallelize_module) know how to wrap. A rank builds its pipeline stage whole and
those APIs split it; attention reads its head count from the (possibly tensor-parallel) projection it gets."""
import math

import torch
import torch.nn.functional as F
from torch import nn

from .errors import TrainError
from .model import RMSNorm, _row_seed, rotary, rotate_half
from .parallel import stage_layers

IGNORE = -100  # label of the last position of each sequence (no next token); cross-entropy skips it


class _Whole:
    """The layout model.py's modules are built for: one rank holding everything (splitting is done afterwards)."""
    tp, tp_rank, sequence_parallel, vocab_parallel = 1, 0, False, False


class NativeRMSNorm(RMSNorm):
    def __init__(self, size, eps):
        super().__init__(size, eps, _Whole())


class NativeAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.head_dim = c.head_dim
        self.q_proj = nn.Linear(c.hidden_size, c.num_attention_heads * c.head_dim, bias=False)
        self.k_proj = nn.Linear(c.hidden_size, c.num_key_value_heads * c.head_dim, bias=False)
        self.v_proj = nn.Linear(c.hidden_size, c.num_key_value_heads * c.head_dim, bias=False)
        self.o_proj = nn.Linear(c.num_attention_heads * c.head_dim, c.hidden_size, bias=False)

    def forward(self, x, cos, sin):
        b, t = x.shape[0], x.shape[1]
        hd = self.head_dim
        # -1: the heads this rank holds (all of them, or its tensor-parallel share: column-parallel projections
        # return this rank's columns as a local tensor).
        q = self.q_proj(x).view(b, t, -1, hd).transpose(1, 2)
        k = self.k_proj(x).view(b, t, -1, hd).transpose(1, 2)
        v = self.v_proj(x).view(b, t, -1, hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        rep = q.shape[1] // k.shape[1]
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
        mask = torch.ones(t, t, dtype=torch.bool, device=q.device).triu(1)
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        return self.o_proj((att @ v).transpose(1, 2).reshape(b, t, -1))


class NativeMLP(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.gate_proj = nn.Linear(c.hidden_size, c.intermediate_size, bias=False)
        self.up_proj = nn.Linear(c.hidden_size, c.intermediate_size, bias=False)
        self.down_proj = nn.Linear(c.intermediate_size, c.hidden_size, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class NativeLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.input_layernorm = NativeRMSNorm(c.hidden_size, c.rms_norm_eps)
        self.self_attn = NativeAttention(c)
        self.post_attention_layernorm = NativeRMSNorm(c.hidden_size, c.rms_norm_eps)
        self.mlp = NativeMLP(c)

    def forward(self, x, cos, sin):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin)
        return x + self.mlp(self.post_attention_layernorm(x))


class NativeInner(nn.Module):
    def __init__(self, c, layers, first, last):
        super().__init__()
        if first:
            self.embed_tokens = nn.Embedding(c.vocab_size, c.hidden_size)
        # Global layer numbers as names (model.layers.<i>.…) on every stage, as the XLA engine names them.
        self.layers = nn.ModuleDict({str(i): NativeLayer(c) for i in layers})
        if last:
            self.norm = NativeRMSNorm(c.hidden_size, c.rms_norm_eps)


class NativeLlama(nn.Module):
    """One pipeline stage of PP (the whole model when PP is 1). forward(inp, labels): INP is the token ids on the
    first stage, else the previous stage's hidden states; a middle stage returns its hidden states, the last stage
    the mean next-token loss against LABELS (the token ids)."""

    def __init__(self, c, pp=1, pp_rank=0):
        super().__init__()
        self.config = c
        self.first, self.last = pp_rank == 0, pp_rank == pp - 1
        self.model = NativeInner(c, stage_layers(c.num_hidden_layers, pp, pp_rank), self.first, self.last)
        self.lm_head = None
        if self.last and not c.tie_word_embeddings:
            self.lm_head = nn.Linear(c.hidden_size, c.vocab_size, bias=False)

    def forward(self, inp, labels):
        c = self.config
        x = self.model.embed_tokens(inp) if self.first else inp
        cos, sin = rotary(torch.arange(labels.shape[1], device=labels.device), c.head_dim, c.rope_theta, x.dtype)
        for layer in self.model.layers.values():
            x = layer(x, cos, sin)
        if not self.last:
            return x
        x = self.model.norm(x)
        logits = self.lm_head(x) if self.lm_head is not None else F.linear(x, self.model.embed_tokens.weight)
        return next_token_loss(logits, labels)


def next_token_loss(logits, ids):
    """The mean cross-entropy of predicting token i+1 from position i (the last position has no label), as model.py
    computes it; LOGITS may be a DTensor split by vocabulary (under torch's loss_parallel())."""
    labels = torch.cat([ids[:, 1:], torch.full_like(ids[:, :1], IGNORE)], dim=1)
    return F.cross_entropy(logits.flatten(0, 1).float(), labels.flatten(0, 1), ignore_index=IGNORE)


def source_name(config, name):
    return "model.embed_tokens.weight" if name == "lm_head.weight" and config.tie_word_embeddings else name


def init_native_weights(model, seed, std=0.02):
    """The XLA engine's layout-independent init (model.init_weights): row i of every matrix from a generator seeded
    by (seed, name, i), norms at one; the whole stage on every rank (split afterwards)."""
    g = torch.Generator()
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() < 2:
                p.fill_(1.0)
                continue
            for i in range(p.shape[0]):
                g.manual_seed(_row_seed(seed, source_name(model.config, name), i))
                p[i].copy_(torch.randn(p.shape[1], generator=g) * std)


def load_native_weights(model, source):
    """Every parameter from SOURCE (model.Checkpoint: a Hugging Face model folder)."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            src = source_name(model.config, name)
            if src not in source:
                raise TrainError(f"{source.folder} has no tensor {src}")
            p.copy_(source.get(src, tuple(p.shape)))
