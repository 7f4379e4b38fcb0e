"""The optimizer: AdamW (weight decay on matrices only) whose state is optionally sharded over the data-parallel
ranks (ZeRO-1)."""
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors

from .errors import TrainError


class ShardedAdamW:
    """AdamW over this rank's parameters. With ZeRO-1 each data-parallel rank keeps the optimizer state of, and
    updates, only the parameters assigned to it (greedy by size, the same assignment on every rank), then the
    owners broadcast the updated values; without it every data-parallel rank updates every parameter."""

    def __init__(self, model, args, lay):
        self.lay = lay
        params = list(model.parameters())
        self.owner = {p: 0 for p in params}
        self.zero = args.zero_1 and lay.dp > 1
        if self.zero:
            load = [0] * lay.dp
            for p in sorted(params, key=lambda q: -q.numel()):  # stable: ties keep model order
                r = load.index(min(load))
                self.owner[p] = r
                load[r] += p.numel()
        mine = [p for p in params if not self.zero or self.owner[p] == lay.dp_rank]
        groups = [{"params": [p for p in mine if p.dim() >= 2], "weight_decay": args.weight_decay},
                  {"params": [p for p in mine if p.dim() < 2], "weight_decay": 0.0}]
        groups = [g for g in groups if g["params"]]
        self.opt = torch.optim.AdamW(groups, lr=args.learning_rate) if groups else None
        self.by_owner = [[p for p in params if self.owner[p] == r] for r in range(lay.dp)] if self.zero else []

    def step(self, lr):
        if self.opt:
            for g in self.opt.param_groups:
                g["lr"] = lr
            self.opt.step()
        for r, ps in enumerate(self.by_owner):
            if not ps:
                continue
            flat = _flatten_dense_tensors([p.data for p in ps])
            dist.broadcast(flat, src=self.lay.global_rank(self.lay.tp_rank, r, self.lay.pp_rank), group=self.lay.dp_group)
            for p, v in zip(ps, _unflatten_dense_tensors(flat, [p.data for p in ps])):
                p.data.copy_(v)

    def zero_grad(self):
        for p in self.owner:
            p.grad = None

    def state_of(self, p):
        """The AdamW state of parameter P ({} before the first step or when another rank owns it)."""
        return self.opt.state.get(p, {}) if self.opt else {}

    def load_named_state(self, state):
        """STATE: {parameter: {"step", "exp_avg", "exp_avg_sq"}} for the parameters this rank updates."""
        if not self.opt:
            return
        for g in self.opt.param_groups:
            for p in g["params"]:
                if p not in state:
                    raise TrainError("the checkpoint has no optimizer state for a parameter this rank updates")
                self.opt.state[p] = {k: v.to(p.device) if k != "step" else v for k, v in state[p].items()}

    def state_dict(self):
        return self.opt.state_dict() if self.opt else {}

    def load_state_dict(self, sd):
        if self.opt:
            self.opt.load_state_dict(sd)
