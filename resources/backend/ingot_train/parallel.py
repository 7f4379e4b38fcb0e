"""Process groups and the collective building blocks of tensor, sequence and pipeline parallelism, and the gather
of per-rank figures (for the events and the start-up checks).

Ranks are laid out as Megatron does: rank = pp_rank * (dp * tp) + dp_rank * tp + tp_rank, so the ranks of one
tensor-parallel group are neighbours (one node) and pipeline stages are the outermost split.

gloo in torch 1.13 has no reduce_scatter (and no all_gather_into_tensor): on gloo a reduce-scatter is an all-reduce
followed by taking this rank's chunk — the same numbers at tp times the traffic, which is what CPU runs can afford.
Nor does it reduce bfloat16: under --bf16 those tensors are summed as float32.
"""
import torch
import torch.distributed as dist


class Layout:
    """Where this rank sits: its tensor/data/pipeline coordinates and the groups it talks over. With a world of one
    every group is None and every collective below is the identity."""

    def __init__(self, world, rank, tp=1, pp=1, sequence_parallel=False, vocab_parallel=True, cpu_control=False):
        self.world, self.rank = world, rank
        self.tp, self.pp = tp, pp
        self.dp = world // (tp * pp)
        self.tp_rank = rank % tp
        self.dp_rank = (rank // tp) % self.dp
        self.pp_rank = rank // (tp * self.dp)
        self.sequence_parallel = sequence_parallel and tp > 1
        self.vocab_parallel = vocab_parallel and tp > 1
        self.tp_group = self.dp_group = self.embedding_group = None
        # Coordination with CPU tensors and objects (barriers around saves, per-rank figures): the default group on
        # gloo; a gloo group beside NCCL (CPU tensors) and XLA (whose barrier does not wait).
        self.cpu_group = None
        if world > 1:
            if cpu_control:
                self.cpu_group = dist.new_group(list(range(world)), backend="gloo")
            self._make_groups()

    def global_rank(self, tp_rank, dp_rank, pp_rank):
        return pp_rank * (self.dp * self.tp) + dp_rank * self.tp + tp_rank

    def _make_groups(self):
        # Every rank creates every group, in the same order (torch.distributed requires it), and keeps its own.
        def join(ranks, current):
            g = dist.new_group(ranks)
            return g if self.rank in ranks else current

        r = self.global_rank
        for p in range(self.pp):
            for d in range(self.dp):
                self.tp_group = join([r(t, d, p) for t in range(self.tp)], self.tp_group)
        for p in range(self.pp):
            for t in range(self.tp):
                self.dp_group = join([r(t, d, p) for d in range(self.dp)], self.dp_group)
        for d in range(self.dp):
            for t in range(self.tp):
                stages = [r(t, d, p) for p in range(self.pp)]
                # First and last stage share the tied embedding / LM head weight.
                self.embedding_group = join(sorted({stages[0], stages[-1]}), self.embedding_group)

    @property
    def first_stage(self):
        return self.pp_rank == 0

    @property
    def last_stage(self):
        return self.pp_rank == self.pp - 1

    def stage_layers(self, num_layers):
        return stage_layers(num_layers, self.pp, self.pp_rank)

    def prev_rank(self):
        return self.global_rank(self.tp_rank, self.dp_rank, self.pp_rank - 1)

    def next_rank(self):
        return self.global_rank(self.tp_rank, self.dp_rank, self.pp_rank + 1)

    def name(self):
        return f"tp_rank_{self.tp_rank:02d}_pp_rank_{self.pp_rank:02d}"


def stage_layers(num_layers, pp, pp_rank):
    """The global indices of the decoder layers on stage PP_RANK of PP (earlier stages take one more when uneven);
    both engines split the same way."""
    base, extra = divmod(num_layers, pp)
    start = pp_rank * base + min(pp_rank, extra)
    return range(start, start + base + (1 if pp_rank < extra else 0))


def gather_ints(value, lay):
    """VALUE from every rank, in rank order (for the per-rank figures in the events)."""
    t = torch.tensor([int(value or 0)], dtype=torch.int64)
    if lay.world == 1:
        return [int(t)]
    parts = [torch.zeros_like(t) for _ in range(lay.world)]
    dist.all_gather(parts, t, group=lay.cpu_group)
    return [int(p) for p in parts]


# --- collectives over the tensor-parallel group ----------------------------------------------------------------
def _size(group):
    return dist.get_world_size(group) if group is not None else 1


def _wire(x, group):
    """gloo in torch 1.13 has no bfloat16 reductions: such tensors travel (and are summed) as float32."""
    if x.dtype == torch.bfloat16 and dist.get_backend(group) == "gloo":
        return x.float()
    return x


def _all_reduce(x, group, op=dist.ReduceOp.SUM):
    if _size(group) == 1:
        return x
    w = _wire(x, group).contiguous().clone()
    dist.all_reduce(w, op=op, group=group)
    return w.to(x.dtype)


def _all_gather(x, group, dim):
    n = _size(group)
    if n == 1:
        return x
    w = _wire(x, group).contiguous()
    parts = [torch.empty_like(w) for _ in range(n)]
    dist.all_gather(parts, w, group=group)
    return torch.cat(parts, dim=dim).to(x.dtype)


def _split(x, group, dim):
    n = _size(group)
    if n == 1:
        return x
    return x.chunk(n, dim=dim)[dist.get_rank(group)].contiguous()


def _reduce_scatter(x, group, dim):
    n = _size(group)
    if n == 1:
        return x
    if dist.get_backend(group) == "gloo":  # no reduce_scatter in gloo: all-reduce, keep this rank's chunk
        return _split(_all_reduce(x, group), group, dim)
    parts = [p.contiguous() for p in x.chunk(n, dim=dim)]
    out = torch.empty_like(parts[0])
    dist.reduce_scatter(out, parts, group=group)
    return out


class CopyToTP(torch.autograd.Function):
    """Entering a tensor-parallel region with the full input: identity forward, gradients summed backward."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return x

    @staticmethod
    def backward(ctx, g):
        return _all_reduce(g, ctx.group), None


class ReduceFromTP(torch.autograd.Function):
    """Leaving a row-parallel layer: partial sums added forward, gradient passed through backward."""

    @staticmethod
    def forward(ctx, x, group):
        return _all_reduce(x, group)

    @staticmethod
    def backward(ctx, g):
        return g, None


class ScatterToSequence(torch.autograd.Function):
    """Full sequence to this rank's chunk of it (dim 1); backward gathers the chunks."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return _split(x, group, 1)

    @staticmethod
    def backward(ctx, g):
        return _all_gather(g, ctx.group, 1), None


class GatherFromSequence(torch.autograd.Function):
    """Sequence chunks to the full sequence (dim 1). Backward: when what follows is tensor parallel, every rank holds
    a partial gradient of the full sequence, so it is reduce-scattered; when what follows is replicated, every rank
    holds the same full gradient and keeps its chunk."""

    @staticmethod
    def forward(ctx, x, group, partial_grads):
        ctx.group, ctx.partial = group, partial_grads
        return _all_gather(x, group, 1)

    @staticmethod
    def backward(ctx, g):
        if ctx.partial:
            return _reduce_scatter(g, ctx.group, 1), None, None
        return _split(g, ctx.group, 1), None, None


class ReduceScatterToSequence(torch.autograd.Function):
    """Leaving a row-parallel layer under sequence parallelism: partial sums of the full sequence added and
    scattered by sequence chunk; backward gathers the chunks."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        return _reduce_scatter(x, group, 1)

    @staticmethod
    def backward(ctx, g):
        return _all_gather(g, ctx.group, 1), None


def enter_tp(x, lay):
    """The input of a column-parallel layer: the full sequence on every rank."""
    if lay.tp == 1:
        return x
    if lay.sequence_parallel:
        return GatherFromSequence.apply(x, lay.tp_group, True)
    return CopyToTP.apply(x, lay.tp_group)


def leave_tp(x, lay):
    """The output of a row-parallel layer (partial sums): summed, and split by sequence under sequence parallel."""
    if lay.tp == 1:
        return x
    if lay.sequence_parallel:
        return ReduceScatterToSequence.apply(x, lay.tp_group)
    return ReduceFromTP.apply(x, lay.tp_group)


class VocabParallelCrossEntropy(torch.autograd.Function):
    """Cross-entropy over logits split by vocabulary across the tensor-parallel group, never gathering them:
    the max, the target logit and the sum of exponentials are reduced instead. Returns the loss per token."""

    @staticmethod
    def forward(ctx, logits, target, vocab_start, group):
        logits = logits.float()
        local_v = logits.shape[-1]
        m = logits.max(dim=-1).values
        m = _all_reduce(m, group, dist.ReduceOp.MAX)
        z = logits - m.unsqueeze(-1)
        inside = (target >= vocab_start) & (target < vocab_start + local_v)
        local_t = (target - vocab_start).clamp(0, local_v - 1)
        picked = z.gather(-1, local_t.unsqueeze(-1)).squeeze(-1) * inside
        picked = _all_reduce(picked, group)
        e = z.exp()
        s = _all_reduce(e.sum(dim=-1), group)
        ctx.save_for_backward(e / s.unsqueeze(-1), inside, local_t)
        return s.log() - picked

    @staticmethod
    def backward(ctx, g):
        softmax, inside, local_t = ctx.saved_tensors
        grad = softmax.clone()
        grad.scatter_add_(-1, local_t.unsqueeze(-1), -inside.to(grad.dtype).unsqueeze(-1))
        return grad * g.unsqueeze(-1), None, None, None
