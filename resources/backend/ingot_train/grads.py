"""Gradients after the backward passes: their sync across ranks (sequence-parallel norms over tp, the tied
embedding between the first and last stage, the average over data-parallel replicas) and global-norm clipping."""
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def _all_reduce_flat(grads, group, divide=1):
    """Sums GRADS over GROUP in one collective (bucketed: one message instead of one per tensor)."""
    if not grads:
        return
    flat = _flatten_dense_tensors(grads)
    dist.all_reduce(flat, group=group)
    if divide != 1:
        flat /= divide
    for g, v in zip(grads, _unflatten_dense_tensors(flat, grads)):
        g.copy_(v)


def sync_gradients(model, lay):
    params = [p for p in model.parameters() if p.grad is not None]
    if lay.sequence_parallel:  # norms saw only this rank's sequence chunk
        _all_reduce_flat([p.grad for p in params if p.sequence_parallel], lay.tp_group)
    if lay.pp > 1 and model.config.tie_word_embeddings and (lay.first_stage or lay.last_stage):
        _all_reduce_flat([model.head_weight().grad if lay.last_stage else model.model.embed_tokens.weight.grad],
                         lay.embedding_group)
    if lay.dp > 1:
        _all_reduce_flat([p.grad for p in params], lay.dp_group, divide=lay.dp)


def clip_gradients(model, lay, max_norm):
    """The global L2 norm over all shards, each weight counted once (replicas across tp and the tied copy skipped);
    gradients scaled as torch.nn.utils.clip_grad_norm_ does."""
    grads = [p.grad for p in model.parameters()
             if p.grad is not None and (p.tp_dim is not None or lay.tp_rank == 0) and not p.tied_copy]
    sq = torch.zeros((), dtype=torch.float32, device=next(model.parameters()).device)
    for g in grads:
        sq += g.float().pow(2).sum()
    if lay.world > 1:
        dist.all_reduce(sq)
        sq /= lay.dp  # every data-parallel replica holds the same (averaged) gradients
    norm = sq.sqrt()
    if max_norm > 0:
        # No data-dependent branch (no host sync on CUDA/XLA): scaling by exactly 1 changes nothing.
        coef = (max_norm / (norm + 1e-6)).clamp(max=1.0)
        for p in model.parameters():
            if p.grad is not None:
                p.grad.mul_(coef)
    return norm
