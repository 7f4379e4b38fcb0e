"""The native engine's checkpoints: PyTorch Distributed Checkpoint (DCP). `checkpoint-N/` holds what
torch.distributed.checkpoint.save writes (`.metadata` and one `__R_S.distcp` file per rank) for the state dict
{"model": the model's weights by the backend's own names (as the XLA engine names them), "optimizer": AdamW's
state by parameter name (get_state_dict's layout: {"state": {NAME: {"step", "exp_avg", "exp_avg_sq"}},
"param_groups": [...]}), "trainer": {"step", "epoch", "max_steps"}, "rng": this run's CPU generator state (bytes)},
beside config.json, trainer_state.json and training_args.json ("engine": "native") as the XLA engine writes them.
Every tensor is saved with its global shape and each rank's part of it, so DCP loads it into ANY parallel layout.
Saved like the XLA engine's checkpoints: into PATH.tmp-<pid>, renamed once every rank has written."""
import contextlib
import json
import os
import re
import shutil
import warnings

import torch
import torch.distributed as dist

from .checkpoint import TOKENIZER_FILES


@contextlib.contextmanager
def _quiet():
    """DCP's warnings that say nothing to a user: one process without a process group is meant, and its own use of
    TypedStorage."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="torch.distributed is unavailable or uninitialized")
        warnings.filterwarnings("ignore", message="TypedStorage is deprecated")
        yield


def check_native_checkpoint(ck):
    """The problems validate() reports for resuming from CK (a native checkpoint): it must be complete."""
    for name in (".metadata", "trainer_state.json"):
        if not os.path.isfile(os.path.join(ck, name)):
            return [f"--resume_from_checkpoint {ck} is not a complete native checkpoint (no {name})"]
    try:
        with open(os.path.join(ck, "trainer_state.json")) as f:
            json.load(f)
    except (OSError, ValueError) as e:
        return [f"--resume_from_checkpoint {ck} is not a complete checkpoint ({e})"]
    return []


class ZeroNamedState:
    """ZeroRedundancyOptimizer's AdamW state in get_state_dict's layout: each rank holds the state of the
    parameters it owns (DCP saves the union), and param_groups name every parameter (the same on every rank)."""

    def __init__(self, opt, names):
        self.opt, self.names = opt, names

    def state_dict(self):
        state = {}
        for g in self.opt.optim.param_groups:
            for p in g["params"]:
                if self.opt.optim.state.get(p):
                    state[self.names[p]] = self.opt.optim.state[p]
        groups = [dict({k: v for k, v in g.items() if k != "params"}, params=[self.names[p] for p in g["params"]])
                  for g in self.opt.param_groups]
        return {"state": state, "param_groups": groups}

    def initialise(self):
        """State of zeros for every owned parameter (a zero step at learning rate 0), for DCP to load into."""
        if self.opt.optim.state:
            return
        lrs = [g["lr"] for g in self.opt.param_groups]
        for g in self.opt.param_groups:
            g["lr"] = 0.0
            for p in g["params"]:
                p.grad = torch.zeros_like(p)
        self.opt.step()
        for g, lr in zip(self.opt.param_groups, lrs):
            g["lr"] = lr
        self.opt.zero_grad(set_to_none=True)


def _states(model, opt, zero):
    from torch.distributed.checkpoint.state_dict import get_model_state_dict, get_state_dict
    if zero is not None:
        return get_model_state_dict(model), zero.state_dict()
    return get_state_dict(model, opt)


def save_native(path, model, opt, zero, state, args, world, rank, config):
    """Every rank writes its part into PATH.tmp-<pid> with DCP; rank 0 adds the JSON files and renames it to PATH
    (for the final save, which goes into the output folder itself, moves the files into it)."""
    import torch.distributed.checkpoint as dcp
    tmp = [f"{path}.tmp-{os.getpid()}" if rank == 0 else None]
    if world > 1:
        dist.broadcast_object_list(tmp, src=0)
    tmp = tmp[0]
    if rank == 0:
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
    if world > 1:
        dist.barrier()
    msd, osd = _states(model, opt, zero)
    trainer = {"step": state["global_step"], "epoch": state["epoch"], "max_steps": state["max_steps"]}
    with _quiet():
        dcp.save({"model": msd, "optimizer": osd, "trainer": trainer, "rng": torch.get_rng_state().numpy().tobytes()},
                 checkpoint_id=tmp)
    if rank == 0:
        files = {"config.json": config.to_hf(), "trainer_state.json": state,
                 "training_args.json": dict(vars(args), engine="native", world_size=world)}
        for name, content in files.items():
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(content, f, indent=2)
        for name in TOKENIZER_FILES:
            if args.model_name_or_path and os.path.isfile(os.path.join(args.model_name_or_path, name)):
                shutil.copyfile(os.path.join(args.model_name_or_path, name), os.path.join(tmp, name))
        if os.path.isdir(path):  # the final save into output_dir: an earlier run's DCP files go first
            for name in os.listdir(path):
                if name == ".metadata" or re.fullmatch(r"__\d+_\d+\.distcp", name):
                    os.remove(os.path.join(path, name))
            for name in os.listdir(tmp):
                os.replace(os.path.join(tmp, name), os.path.join(path, name))
            os.rmdir(tmp)
        else:
            os.replace(tmp, path)
    if world > 1:
        dist.barrier()


def load_native(ck, model, opt, zero):
    """Weights and AdamW state from the DCP checkpoint CK into this run's layout, whatever layout saved it (DCP
    reads each rank's part of every tensor from the parts that were saved). Only tensors are read: the pickled
    entries (param_groups, trainer, rng) are not unpickled; the step comes from trainer_state.json and the
    hyper-parameters from this run's flags."""
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint.state_dict import set_model_state_dict, set_state_dict
    if zero is not None:
        zero.initialise()
    msd, osd = _states(model, opt, zero)  # (get_state_dict initialises an empty optimizer's state)
    with _quiet():
        dcp.load({"model": msd, "optimizer": {"state": osd["state"]}}, checkpoint_id=ck)
    if zero is None:
        set_state_dict(model, opt, model_state_dict=msd, optim_state_dict=osd)
    else:
        set_model_state_dict(model, msd)  # the optimizer state was loaded into its own tensors in place
