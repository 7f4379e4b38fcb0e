"""The training loop over a dp x tp x pp layout (torch.distributed: gloo on CPU, NCCL on CUDA, XLA on Neuron):
micro-batches through the pipeline stages (1F1B schedule), gradient sync, global-norm clipping, AdamW with the
optimizer state optionally sharded over the data-parallel ranks (ZeRO-1), metrics and lifecycle events as JSON
lines, HF Trainer-style result files, atomic per-rank checkpoints in the optimum-neuron docs' layout."""
import contextlib
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import sys
import time

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors

from . import EVENT_PREFIX, METRIC_PREFIX
from .args import build_parser, model_config, validate
from .data import Blocks, load_tokenizer, token_stream
from .errors import PREFIX, TrainError
from .model import Checkpoint, LlamaConfig, LlamaForCausalLM, SafetensorsFile, init_weights, load_weights, save_safetensors
from .parallel import Layout

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(os.path.dirname(HERE), "data", "sample.txt")
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "tokenizer.model",
                   "vocab.json", "merges.txt", "generation_config.json")


class Reporter:
    def __init__(self, output_dir, rank):
        self.rank = rank
        self.path = os.path.join(output_dir, "metrics.jsonl")
        self.file = None  # opened at the first record (after an earlier run's file is removed), line-buffered

    def _emit(self, prefix, record):
        line = json.dumps(record, sort_keys=True)
        print(prefix + line, flush=True)
        if self.rank == 0:
            if self.file is None:
                self.file = open(self.path, "a", buffering=1)
            self.file.write(line + "\n")

    def event(self, name, **fields):
        if self.rank == 0:
            self._emit(EVENT_PREFIX, {"type": "event", "event": name, "time": time.time(), **fields})

    def metric(self, **fields):
        if self.rank == 0:
            self._emit(METRIC_PREFIX, {"type": "metric", **fields})


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


def lr_at(step, args, total):
    """Linear warm-up to the peak, then linear decay to 0 (the learning rate used by optimizer step STEP, from 0)."""
    if args.warmup_steps and step < args.warmup_steps:
        return args.learning_rate * (step + 1) / args.warmup_steps
    return args.learning_rate * max(0.0, (total - step) / max(1, total - args.warmup_steps))


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

    def state_dict(self):
        return self.opt.state_dict() if self.opt else {}

    def load_state_dict(self, sd):
        if self.opt:
            self.opt.load_state_dict(sd)


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


def run_micro_batches(model, lay, ids, args, accum, autocast):
    """One micro-step on the 1F1B schedule: each stage runs (stages after it) forward passes ahead, then alternates
    one forward and one backward, then drains the backward passes, so at most pp micro-batches of activations are
    alive per stage (GPipe keeps all of them). Activations go to the next stage and gradients back with
    point-to-point sends (non-blocking, so no stage waits on a send). Returns the summed loss on the last stage."""
    chunks = ids.chunk(args.num_microbatches)
    n = len(chunks)
    hidden = model.config.hidden_size
    seq = ids.shape[1] // lay.tp if lay.sequence_parallel else ids.shape[1]
    pending, live = [], []
    total = torch.zeros((), device=ids.device)

    def forward(mb):
        if lay.first_stage:
            inp = mb
        else:
            inp = torch.empty((mb.shape[0], seq, hidden), dtype=torch.float32, device=ids.device)
            dist.recv(inp, src=lay.prev_rank())
            inp.requires_grad_()
        with autocast():
            out = model(inp, mb)
        if not lay.last_stage:
            sent = out.detach().float().contiguous()
            pending.append((dist.isend(sent, dst=lay.next_rank()), sent))
        live.append((inp, out))

    def backward():
        nonlocal total
        inp, out = live.pop(0)
        if lay.last_stage:
            (out / (n * accum)).backward()
            total += out.detach().float() / n
        else:
            g = torch.empty(out.shape, dtype=torch.float32, device=ids.device)
            dist.recv(g, src=lay.next_rank())
            out.backward(g.to(out.dtype))
        if not lay.first_stage:
            sent = inp.grad.contiguous()
            pending.append((dist.isend(sent, dst=lay.prev_rank()), sent))

    warmup = min(lay.pp - lay.pp_rank - 1, n)
    for mb in chunks[:warmup]:
        forward(mb)
    for mb in chunks[warmup:]:
        forward(mb)
        backward()
    while live:
        backward()
    for work, _ in pending:
        work.wait()
    return total


def shard_dir(root, lay):
    return os.path.join(root, "tensor_parallel_shards", lay.name())


def optimizer_file(lay, zero):
    return f"optimizer_dp_rank_{lay.dp_rank:02d}.pt" if zero else "optimizer.pt"


def save_checkpoint(path, model, opt, state, args, lay):
    """Every rank writes its shard into PATH.tmp-<pid>, which is renamed to PATH once all are written: a crash never
    leaves a complete-looking checkpoint. Weights once per (tp, pp) position, optimizer state per rank with ZeRO-1."""
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
        torch.save({"optimizer": opt.state_dict(), "rng": torch.get_rng_state()},
                   os.path.join(shard, optimizer_file(lay, opt.zero)))
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


def load_checkpoint(ck, model, opt, lay):
    """This rank's shard of a checkpoint saved on the same layout (checked by validate())."""
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
    zero = opt.zero
    saved = torch.load(os.path.join(ck, "tensor_parallel_shards", lay.name(), optimizer_file(lay, zero)), map_location="cpu")
    opt.load_state_dict(saved["optimizer"])
    torch.set_rng_state(saved["rng"])


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


class StopRequest:
    """SIGTERM or SIGINT asks for a clean stop: the ranks agree after each step (one tiny all-reduce), save a
    checkpoint there and exit. torchrun forwards the signal to every worker and allows 30 s before killing them.
    Repeats within 2 s (a launcher passing the same stop on) are ignored; a later one stops at once."""

    def __init__(self):
        self.asked, self.when = None, 0.0
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._handle)

    def _handle(self, signum, frame):
        now = time.monotonic()
        if self.asked and now - self.when > 2:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        if not self.asked:
            self.asked, self.when = signal.Signals(signum).name, now

    def agreed(self, lay, device):
        flag = torch.tensor(1.0 if self.asked else 0.0, device=device)
        if lay.world > 1:
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        return bool(flag)


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


def gather_ints(value, lay):
    """VALUE from every rank, in rank order (for the per-rank figures in the events)."""
    t = torch.tensor([int(value or 0)], dtype=torch.int64)
    if lay.world == 1:
        return [int(t)]
    parts = [torch.zeros_like(t) for _ in range(lay.world)]
    dist.all_gather(parts, t, group=lay.cpu_group)
    return [int(p) for p in parts]


def main(argv=None):
    """The exit status of one rank. A TrainError ends the run with its words on stderr and status 1."""
    try:
        return _main(argv)
    except TrainError as e:
        print(PREFIX + str(e), file=sys.stderr)
        return 1


def _main(argv):
    args = build_parser().parse_args(argv)
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    problems = validate(args, world)
    if problems:
        # Every rank reaches this before any process group exists and stops; rank 0 prints the words.
        if rank == 0:
            for p in problems:
                print(PREFIX + p, file=sys.stderr)
        return 2
    os.makedirs(args.output_dir, exist_ok=True)
    rep = Reporter(args.output_dir, rank)
    if rank == 0:
        if not args.resume_from_checkpoint and os.path.exists(rep.path):
            os.remove(rep.path)  # a new run's records, not appended to an earlier run's
        removed = remove_incomplete_saves(args.output_dir)
        if removed:
            rep.event("removed_incomplete_checkpoints", paths=removed)
    device, kind = pick_device(args.device, args.bf16)
    if world > 1:
        if kind == "xla":
            import torch_xla.distributed.xla_backend  # noqa: F401 (registers the "xla" backend)
        dist.init_process_group({"cuda": "nccl", "xla": "xla"}.get(kind, "gloo"))
    try:
        if kind == "xla" and args.pipeline_parallel_size > 1:
            # torch_xla's process group has no point-to-point send/recv without a device-specific channel maker.
            raise TrainError("pipeline parallelism is not available on XLA devices in this "
                             "backend yet; use tensor and data parallelism there")
        lay = Layout(world, rank, args.tensor_parallel_size, args.pipeline_parallel_size,
                     sequence_parallel=not args.disable_sequence_parallel,
                     vocab_parallel=not args.disable_embedding_parallelization, cpu_control=kind != "cpu")
        return train(args, rep, device, kind, lay)
    except TrainError as e:  # a stop with words (bad data, a folder the nodes do not share, ...)
        rep.event("failed", reason=str(e))
        raise
    except Exception as e:  # reported, then the non-zero exit torchrun sees
        rep.event("failed", reason=f"{type(e).__name__}: {e}")
        raise
    finally:
        if world > 1 and dist.is_initialized():
            dist.destroy_process_group()


def train(args, rep, device, kind, lay):
    check_shared_output(args.output_dir, lay)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    config = LlamaConfig.from_hf(model_config(args))
    model = LlamaForCausalLM(config, lay)
    if args.model_name_or_path and not args.resume_from_checkpoint:  # (a checkpoint is read once the optimizer exists)
        load_weights(model, Checkpoint(args.model_name_or_path))
    elif not args.resume_from_checkpoint:
        init_weights(model, args.seed)
    model.to(device)
    tokenizer, why_not_own = load_tokenizer(args.model_name_or_path)
    if why_not_own and lay.rank == 0:
        print(f"ingot_train: warning: {args.model_name_or_path} has a tokenizer, but {why_not_own}: the text is "
              "tokenized as bytes (ids 0-259), which a pretrained model's vocabulary does not mean", file=sys.stderr)
    tokens = token_stream(args.train_file or SAMPLE, tokenizer)
    if len(tokens) and (int(tokens.min()) < 0 or int(tokens.max()) >= config.vocab_size):
        raise TrainError(f"the data holds token ids from {int(tokens.min())} to {int(tokens.max())}, "
                         f"outside the model's vocabulary of {config.vocab_size}")
    blocks = Blocks(tokens, args.block_size, args.seed)
    per, accum = args.per_device_train_batch_size, args.gradient_accumulation_steps
    global_batch = per * lay.dp * accum
    total = args.max_steps if args.max_steps > 0 else max(1, math.ceil(args.num_train_epochs * blocks.count / global_batch))
    opt = ShardedAdamW(model, args, lay)
    start, log_history = 0, []
    if args.resume_from_checkpoint:
        load_checkpoint(args.resume_from_checkpoint, model, opt, lay)
        with open(os.path.join(args.resume_from_checkpoint, "trainer_state.json")) as f:
            state = json.load(f)
        start, log_history = state["global_step"], state.get("log_history", [])
    on_rank = gather_ints(sum(p.numel() for p in model.parameters()), lay)
    # The whole model: the full sizes of each stage's saved weights, counted on one tp/dp rank per stage.
    per_stage = gather_ints(sum(math.prod(p.full_shape) for _, p in model.saved_parameters()), lay)
    full = sum(per_stage[lay.global_rank(0, 0, pp)] for pp in range(lay.pp))
    rep.event("started", world_size=lay.world, device=kind, global_batch=global_batch, max_steps=total,
              data_parallel=lay.dp, tensor_parallel=lay.tp, pipeline_parallel=lay.pp,
              sequence_parallel=lay.sequence_parallel, zero_1=opt.zero, parameters_per_rank=on_rank,
              parameters=full, resumed_from=start,
              # For a monitor re-attaching to a running job: where rank 0 runs and who launched it.
              host=socket.gethostname(), pid=os.getpid(), launcher_pid=os.getppid(), tokenizer=tokenizer.name,
              tokenizer_warning=why_not_own)

    def autocast():
        if not args.bf16 or kind == "xla":
            return contextlib.nullcontext()
        return torch.autocast(device_type=kind, dtype=torch.bfloat16)

    tokens_per_step = global_batch * args.block_size
    stop = StopRequest()
    train_start = time.time()
    last_loss = float("nan")
    for step in range(start, total):
        t0 = time.time()
        if step == start:
            rep.event("first_step", step=step + 1)
        loss_sum = torch.zeros((), device=device)
        for micro in range(accum):
            first = step * global_batch + micro * per * lay.dp + lay.dp_rank * per
            ids = blocks.batch(first, per).to(device)
            loss_sum += run_micro_batches(model, lay, ids, args, accum, autocast) / accum
        sync_gradients(model, lay)
        grad_norm = clip_gradients(model, lay, args.max_grad_norm)
        lr = lr_at(step, args, total)
        opt.step(lr)
        opt.zero_grad()
        if kind == "xla":
            import torch_xla.core.xla_model as xm
            xm.mark_step()
        if lay.world > 1:  # the loss lives on the last stage's ranks: average it over the data-parallel replicas
            dist.all_reduce(loss_sum)
            loss_sum /= lay.dp * lay.tp
        dt = time.time() - t0
        last_loss = float(loss_sum)
        done = step + 1
        if done % args.logging_steps == 0 or done == total:
            record = {"step": done, "loss": last_loss, "learning_rate": lr, "grad_norm": float(grad_norm),
                      "tokens_per_second": tokens_per_step / dt if dt > 0 else None, "step_time": dt,
                      "peak_memory": torch.cuda.max_memory_allocated() if kind == "cuda" else peak_rss(),
                      "rank": lay.rank, "epoch": done * global_batch / blocks.count}
            rep.metric(**record)
            log_history.append({k: record[k] for k in ("step", "loss", "learning_rate", "grad_norm", "epoch")})
        state = {"global_step": done, "max_steps": total, "epoch": done * global_batch / blocks.count,
                 "log_history": log_history, "train_batch_size": per, "logging_steps": args.logging_steps,
                 "save_steps": args.save_steps, "num_train_epochs": args.num_train_epochs}
        stopping = stop.agreed(lay, device) and done != total
        if (args.save_steps and done % args.save_steps == 0 and done != total) or stopping:
            path = os.path.join(args.output_dir, f"checkpoint-{done}")
            rep.event("saving", step=done, path=path)
            save_checkpoint(path, model, opt, state, args, lay)
        if stopping:
            rep.event("stopped", step=done, signal=stop.asked or "another rank's", checkpoint=path)
            return 0
    rep.event("saving", step=total, path=args.output_dir)
    state = {"global_step": total, "max_steps": total, "epoch": total * global_batch / blocks.count,
             "log_history": log_history, "train_batch_size": per}
    save_checkpoint(args.output_dir, model, opt, state, args, lay)
    peaks = gather_ints(torch.cuda.max_memory_allocated() if kind == "cuda" else peak_rss(), lay)
    if lay.rank == 0:
        runtime = time.time() - train_start
        results = {"epoch": state["epoch"], "train_loss": last_loss, "train_runtime": runtime,
                   "train_samples_per_second": (total - start) * global_batch / runtime if runtime else None,
                   "train_steps_per_second": (total - start) / runtime if runtime else None}
        for name in ("train_results.json", "all_results.json"):
            with open(os.path.join(args.output_dir, name), "w") as f:
                json.dump(results, f, indent=2)
    rep.event("finished", step=total, loss=last_loss, peak_memory_per_rank=peaks)
    return 0


def peak_rss():
    try:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    except Exception:
        return None
