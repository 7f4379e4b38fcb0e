"""Checkpoints in the optimum-neuron docs' layout (see docs/formats.md, "Sharded checkpoints"): per-rank weight
shards and optimizer state saved atomically, HF Trainer's trainer_state.json (built in one place, for every
checkpoint and the final output), loading them back to resume, removing what a crashed save left, and the start-up
check that every rank sees the output folder."""
import json
import os
import re
import shutil
import time

import torch
import torch.distributed as dist

from .errors import TrainError
from .model import SafetensorsFile, save_safetensors
from .parallel import gather_ints

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "tokenizer.model",
                   "vocab.json", "merges.txt", "generation_config.json")


def shard_dir(root, lay):
    return os.path.join(root, "tensor_parallel_shards", lay.name())


def optimizer_file(lay, zero, suffix=".safetensors"):
    """This rank's optimizer state file: one per (tp, pp) position, or one per data-parallel rank with ZeRO-1.
    Saved as safetensors (SUFFIX); checkpoints of earlier versions hold the same names with .pt."""
    return f"optimizer_dp_rank_{lay.dp_rank:02d}{suffix}" if zero else f"optimizer{suffix}"


OPTIMIZER_FORMAT = "ingot-adamw-1"


def optimizer_tensors(model, opt):
    """The AdamW state this rank keeps, by parameter name: NAME.exp_avg and NAME.exp_avg_sq, split like the weight
    itself (so any parallel layout can read it back, and `ingot-cli reshard` can re-split it), and the step count.
    Only saved weights: a tied copy's state equals the embedding's (their gradients are summed)."""
    saved = {id(p) for _, p in model.saved_parameters()}
    tensors, step = {}, 0
    for name, p in model.named_parameters():
        st = opt.state_of(p)
        if id(p) not in saved or not st:
            continue
        tensors[f"{name}.exp_avg"] = st["exp_avg"]
        tensors[f"{name}.exp_avg_sq"] = st["exp_avg_sq"]
        step = max(step, int(st["step"]))
    return tensors, step


def trainer_state(args, step, max_steps, epoch, log_history):
    """trainer_state.json with HF Trainer's keys, the same set in every checkpoint and in the final output."""
    return {"global_step": step, "max_steps": max_steps, "epoch": epoch, "log_history": log_history,
            "train_batch_size": args.per_device_train_batch_size, "logging_steps": args.logging_steps,
            "save_steps": args.save_steps, "num_train_epochs": args.num_train_epochs}


def read_trainer_state(ck):
    """The global step and log history a checkpoint was saved at."""
    with open(os.path.join(ck, "trainer_state.json")) as f:
        state = json.load(f)
    return state["global_step"], state.get("log_history", [])


def save_checkpoint(path, model, opt, state, args, lay):
    """Every rank writes its shard into PATH.tmp-<pid>, which is renamed to PATH once all are written: a crash never
    leaves a complete-looking checkpoint. Weights once per (tp, pp) position, optimizer state per rank with ZeRO-1.
    STATE is trainer_state()'s."""
    tmp = [f"{path}.tmp-{os.getpid()}" if lay.rank == 0 else None]
    if lay.world > 1:
        dist.broadcast_object_list(tmp, src=0, group=lay.cpu_group)
    tmp = tmp[0]
    if lay.rank == 0:
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(os.path.join(tmp, "tensor_parallel_shards"))
    if lay.world > 1:
        dist.barrier(group=lay.cpu_group)
    shard = shard_dir(tmp, lay)
    os.makedirs(shard, exist_ok=True)
    if lay.dp_rank == 0:
        save_safetensors(os.path.join(shard, "model.safetensors"), dict(model.saved_parameters()), {"format": "pt"})
        with open(os.path.join(shard, "mp_metadata.json"), "w") as f:
            json.dump(model.metadata(), f, indent=1)
    if lay.dp_rank == 0 or opt.zero:
        tensors, step = optimizer_tensors(model, opt)
        tensors["rng_state"] = torch.get_rng_state()
        save_safetensors(os.path.join(shard, optimizer_file(lay, opt.zero)), tensors,
                         {"format": OPTIMIZER_FORMAT, "step": str(step)})
    if lay.rank == 0:
        with open(os.path.join(tmp, "config.json"), "w") as f:
            json.dump(model.config.to_hf(), f, indent=2)
        with open(os.path.join(tmp, "trainer_state.json"), "w") as f:
            json.dump(state, f, indent=2)
        with open(os.path.join(tmp, "training_args.json"), "w") as f:
            json.dump(dict(vars(args), world_size=lay.world), f, indent=2)
        for name in TOKENIZER_FILES:
            if args.model_name_or_path and os.path.isfile(os.path.join(args.model_name_or_path, name)):
                shutil.copyfile(os.path.join(args.model_name_or_path, name), os.path.join(tmp, name))
    if lay.world > 1:
        dist.barrier(group=lay.cpu_group)
    if lay.rank == 0:
        if os.path.isdir(path):  # the final save goes into output_dir itself, which holds other files
            shutil.rmtree(os.path.join(path, "tensor_parallel_shards"), ignore_errors=True)
            for name in os.listdir(tmp):
                os.replace(os.path.join(tmp, name), os.path.join(path, name))
            os.rmdir(tmp)
        else:
            os.replace(tmp, path)
    if lay.world > 1:
        dist.barrier(group=lay.cpu_group)


def legacy_optimizer(ck):
    """True when CK holds optimizer state as torch.save pickles (checkpoints of earlier versions): indexed by the
    position of each parameter in this layout's optimizer, so only the same layout can read it."""
    first = os.path.join(ck, "tensor_parallel_shards", "tp_rank_00_pp_rank_00")
    return os.path.isdir(first) and any(re.fullmatch(r"optimizer(_dp_rank_\d+)?\.pt", n) for n in os.listdir(first))


def has_optimizer_state(ck):
    """False for a checkpoint of weights only (`ingot-cli reshard` from a model folder or from a checkpoint whose
    optimizer state it cannot carry over): a run resumed from it starts AdamW afresh."""
    first = os.path.join(ck, "tensor_parallel_shards", "tp_rank_00_pp_rank_00")
    return os.path.isdir(first) and any(re.fullmatch(r"optimizer(_dp_rank_\d+)?\.(pt|safetensors)", n)
                                        for n in os.listdir(first))


def load_checkpoint(ck, model, opt, lay):
    """This rank's shard of a checkpoint with this tp/pp layout (checked by validate()); its optimizer state by
    name (any data-parallel layout, with or without ZeRO-1), or from an earlier version's pickles (the same layout
    only). Returns whether optimizer state was loaded."""
    own = SafetensorsFile(os.path.join(shard_dir(ck, lay), "model.safetensors"))
    first = None
    with torch.no_grad():
        for name, p in model.named_parameters():
            f, src = own, name
            if p.tied_copy:  # saved once, by the first stage
                first = first or SafetensorsFile(os.path.join(ck, "tensor_parallel_shards",
                                                              f"tp_rank_{lay.tp_rank:02d}_pp_rank_00", "model.safetensors"))
                f, src = first, "model.embed_tokens.weight"
            if src not in f.header or list(f.header[src]["shape"]) != list(p.shape):
                raise TrainError(f"{ck}: {src} is missing or has another shape than this layout needs")
            p.copy_(f.tensor(src))
    if legacy_optimizer(ck):
        with open(os.path.join(ck, "tensor_parallel_shards", lay.name(), optimizer_file(lay, opt.zero, ".pt")), "rb") as f:
            saved = torch.load(f, map_location="cpu")  # a file object: torch cannot open a name that is not UTF-8
        opt.load_state_dict(saved["optimizer"])
        torch.set_rng_state(saved["rng"])
        return True
    if not has_optimizer_state(ck):
        return False
    _load_named_optimizer(ck, model, opt, lay)
    return True


def _optimizer_files(folder):
    """Every optimizer state file of one (tp, pp) folder, opened."""
    names = sorted(n for n in os.listdir(folder) if re.fullmatch(r"optimizer(_dp_rank_\d+)?\.safetensors", n))
    if not names:
        raise TrainError(f"{folder} holds no optimizer state, though the checkpoint's first rank does")
    files = [SafetensorsFile(os.path.join(folder, n)) for n in names]
    for f, n in zip(files, names):
        if (f.header.get("__metadata__") or {}).get("format") != OPTIMIZER_FORMAT:
            raise TrainError(f"{os.path.join(folder, n)} is not optimizer state this backend wrote")
    return files


def _load_named_optimizer(ck, model, opt, lay):
    folders = {}

    def lookup(folder, key):
        if folder not in folders:
            folders[folder] = _optimizer_files(folder)
        for f in folders[folder]:
            if key in f.header:
                return f, int(f.header["__metadata__"]["step"])
        raise TrainError(f"{folder}: no optimizer state {key}")

    state = {}
    with torch.no_grad():
        for name, p in model.named_parameters():
            if opt.owner[p] != lay.dp_rank and opt.zero:
                continue
            folder, src = shard_dir(ck, lay), name
            if p.tied_copy:
                folder = os.path.join(ck, "tensor_parallel_shards", f"tp_rank_{lay.tp_rank:02d}_pp_rank_00")
                src = "model.embed_tokens.weight"
            st = {}
            for key in ("exp_avg", "exp_avg_sq"):
                f, step = lookup(folder, f"{src}.{key}")
                t = f.tensor(f"{src}.{key}")
                if list(t.shape) != list(p.shape):
                    raise TrainError(f"{ck}: the optimizer state {src}.{key} has another shape than this layout needs")
                st[key] = t.clone()
            st["step"] = torch.tensor(float(step))
            state[p] = st
    opt.load_named_state(state)
    own = os.path.join(shard_dir(ck, lay), optimizer_file(lay, opt.zero))
    if os.path.exists(own):
        rng = SafetensorsFile(own)
        if "rng_state" in rng.header:
            torch.set_rng_state(rng.tensor("rng_state").clone())


def remove_incomplete_saves(output_dir):
    """Temporary checkpoint folders a crashed run left behind (this backend's own names only): checkpoint-N.tmp-PID
    inside OUTPUT_DIR and OUTPUT_DIR.tmp-PID beside it. Returns what was removed."""
    out = os.path.abspath(output_dir)
    found = [os.path.join(out, n) for n in os.listdir(out) if re.fullmatch(r"checkpoint-\d+\.tmp-\d+", n)]
    parent, base = os.path.split(out)
    found += [os.path.join(parent, n) for n in os.listdir(parent) if re.fullmatch(re.escape(base) + r"\.tmp-\d+", n)]
    for path in found:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
    return found


def rotate_checkpoints(output_dir, keep):
    """Deletes all but the newest KEEP complete checkpoints in OUTPUT_DIR (rank 0, after a save has finished): only
    real folders named checkpoint-N holding trainer_state.json (what save_checkpoint renames into place), never a
    link. Each is first renamed to checkpoint-N.tmp-PID, so a crash while deleting leaves what
    remove_incomplete_saves() clears, never a half-deleted checkpoint that looks complete. Returns what was deleted."""
    if keep <= 0:
        return []
    out = os.path.abspath(output_dir)
    found = []
    for name in os.listdir(out):
        m = re.fullmatch(r"checkpoint-(\d+)", name)
        path = os.path.join(out, name)
        if m and not os.path.islink(path) and os.path.isdir(path) \
                and os.path.isfile(os.path.join(path, "trainer_state.json")):
            found.append((int(m.group(1)), path))
    found.sort()
    deleted = []
    for _, path in found[:-keep]:
        doomed = f"{path}.tmp-{os.getpid()}"
        os.rename(path, doomed)
        shutil.rmtree(doomed)  # removes links inside, never what they point to
        deleted.append(path)
    return deleted


def check_shared_output(output_dir, lay):
    """Checkpoints are written by every rank into one folder that rank 0 renames: all nodes must see OUTPUT_DIR as
    one filesystem (as HF Trainer assumes by default). Checked once at the start, not found out at the first save."""
    if lay.world == 1:
        return
    token = [f".ingot-shared-check-{os.getpid()}-{time.time_ns()}" if lay.rank == 0 else None]
    dist.broadcast_object_list(token, src=0, group=lay.cpu_group)
    marker = os.path.join(output_dir, token[0])
    if lay.rank == 0:
        open(marker, "w").close()
    dist.barrier(group=lay.cpu_group)
    seen = gather_ints(os.path.exists(marker), lay)
    dist.barrier(group=lay.cpu_group)
    if lay.rank == 0:
        os.remove(marker)
    blind = [r for r, s in enumerate(seen) if not s]
    if blind:
        raise TrainError(f"rank(s) {', '.join(map(str, blind))} do not see the files rank 0 writes "
                         f"in {output_dir}: --output_dir must be on a filesystem every node shares")
