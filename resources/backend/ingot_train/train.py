"""The training loop: data parallel over torch.distributed (gloo on CPU, NCCL on CUDA), metrics and lifecycle
events as JSON lines, HF Trainer-style result files, atomic checkpoints in the optimum-neuron docs' layout."""
import json
import math
import os
import random
import shutil
import sys
import time

import torch
import torch.distributed as dist

from . import EVENT_PREFIX, METRIC_PREFIX
from .args import build_parser, validate
from .data import Blocks, load_tokenizer, token_stream
from .model import BUILTIN, LlamaConfig, LlamaForCausalLM, load_pretrained, load_safetensors, save_safetensors

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(os.path.dirname(HERE), "data", "sample.txt")
NOT_YET = [("tensor_parallel_size", "tensor parallelism"), ("pipeline_parallel_size", "pipeline parallelism")]


class Reporter:
    def __init__(self, output_dir, rank):
        self.rank = rank
        self.path = os.path.join(output_dir, "metrics.jsonl")

    def _emit(self, prefix, record):
        line = json.dumps(record, sort_keys=True)
        print(prefix + line, flush=True)
        if self.rank == 0:
            with open(self.path, "a") as f:
                f.write(line + "\n")

    def event(self, name, **fields):
        if self.rank == 0:
            self._emit(EVENT_PREFIX, {"type": "event", "event": name, "time": time.time(), **fields})

    def metric(self, **fields):
        if self.rank == 0:
            self._emit(METRIC_PREFIX, {"type": "metric", **fields})


def pick_device(choice):
    if choice in ("auto", "xla"):
        try:
            import torch_xla.core.xla_model as xm  # noqa: F401
            return xm.xla_device(), "xla"
        except Exception:
            if choice == "xla":
                raise SystemExit("ingot_train: error: --device xla needs torch_xla / torch-neuronx")
    if choice in ("auto", "cuda") and torch.cuda.is_available():
        return torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0))), "cuda"
    if choice == "cuda":
        raise SystemExit("ingot_train: error: --device cuda but no GPU is available")
    return torch.device("cpu"), "cpu"


def lr_lambda(warmup, total):
    def f(step):
        if warmup and step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total - step) / max(1, total - warmup))
    return f


def save_checkpoint(path, model, optimizer, scheduler, state, args, rank, world):
    """Writes into PATH.tmp-<pid> and renames it to PATH: a crash never leaves a complete-looking checkpoint."""
    tmp = f"{path}.tmp-{os.getpid()}" if rank == 0 else None
    tmp_list = [tmp]
    if world > 1:
        dist.broadcast_object_list(tmp_list, src=0)
    tmp = tmp_list[0]
    if rank == 0:
        shutil.rmtree(tmp, ignore_errors=True)
        shard = os.path.join(tmp, "tensor_parallel_shards", "tp_rank_00_pp_rank_00")
        os.makedirs(shard)
        sd = {k: v for k, v in model.state_dict().items()}
        if model.config.tie_word_embeddings:
            sd.pop("lm_head.weight", None)
        save_safetensors(os.path.join(shard, "model.safetensors"), sd, {"format": "pt"})
        meta = {"parameters": {k: {"tensor_model_parallel": False} for k in sd}, "model_weight_transformation_specs": []}
        with open(os.path.join(shard, "mp_metadata.json"), "w") as f:
            json.dump(meta, f)
        torch.save({"optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict()},
                   os.path.join(shard, "optimizer.pt"))
        with open(os.path.join(tmp, "config.json"), "w") as f:
            json.dump(model.config.to_hf(), f, indent=2)
        state = dict(state)
        state["rng"] = {"torch": torch.get_rng_state().tolist(), "python": random.getstate()[1][:1]}
        with open(os.path.join(tmp, "trainer_state.json"), "w") as f:
            json.dump(state, f, indent=2)
        with open(os.path.join(tmp, "training_args.json"), "w") as f:
            json.dump(vars(args), f, indent=2)
    if world > 1:
        dist.barrier()
    if rank == 0:
        if os.path.exists(path) and os.path.isdir(os.path.join(path, "tensor_parallel_shards")):
            shutil.rmtree(os.path.join(path, "tensor_parallel_shards"))
        if os.path.isdir(path):  # the final save goes into output_dir itself, which holds other files
            for name in os.listdir(tmp):
                os.replace(os.path.join(tmp, name), os.path.join(path, name))
            os.rmdir(tmp)
        else:
            os.replace(tmp, path)
    if world > 1:
        dist.barrier()


def main(argv=None):
    args = build_parser().parse_args(argv)
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    problems = validate(args, world)
    for flag, what in NOT_YET:
        if getattr(args, flag) != 1:
            problems.append(f"{what} (--{flag}) is not available in this version of the backend yet")
    if args.zero_1:
        problems.append("ZeRO-1 (--zero_1) is not available in this version of the backend yet")
    if problems:
        # Every rank reaches this before any process group exists, prints the same words and stops.
        if rank == 0:
            for p in problems:
                print(f"ingot_train: error: {p}", file=sys.stderr)
        return 2
    os.makedirs(args.output_dir, exist_ok=True)
    rep = Reporter(args.output_dir, rank)
    device, kind = pick_device(args.device)
    if world > 1:
        dist.init_process_group("nccl" if kind == "cuda" else "gloo")
    try:
        return train(args, rep, device, kind, world, rank)
    except SystemExit:
        raise
    except Exception as e:  # reported, then the non-zero exit torchrun sees
        rep.event("failed", reason=f"{type(e).__name__}: {e}")
        raise
    finally:
        if world > 1 and dist.is_initialized():
            dist.destroy_process_group()


def train(args, rep, device, kind, world, rank):
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    if args.model_name_or_path:
        model = load_pretrained(args.model_name_or_path)
    else:
        if args.config_name not in BUILTIN:
            raise SystemExit(f"ingot_train: error: unknown --config_name {args.config_name} (built in: {', '.join(BUILTIN)})")
        model = LlamaForCausalLM(LlamaConfig(**vars(BUILTIN[args.config_name])))
    model.to(device)
    tokenizer = load_tokenizer(args.model_name_or_path)
    blocks = Blocks(token_stream(args.train_file or SAMPLE, tokenizer), args.block_size, args.seed)
    per, accum = args.per_device_train_batch_size, args.gradient_accumulation_steps
    global_batch = per * world * accum
    total = args.max_steps if args.max_steps > 0 else max(1, math.ceil(args.num_train_epochs * blocks.count / global_batch))
    decay, no_decay = [], []
    for n, p in model.named_parameters():
        (no_decay if p.dim() < 2 else decay).append(p)
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": args.weight_decay},
                                   {"params": no_decay, "weight_decay": 0.0}], lr=args.learning_rate)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda(args.warmup_steps, total))
    start = 0
    log_history = []
    if args.resume_from_checkpoint:
        ck = args.resume_from_checkpoint
        shard = os.path.join(ck, "tensor_parallel_shards", "tp_rank_00_pp_rank_00")
        model.load_state_dict({k: v.to(device) for k, v in load_safetensors(os.path.join(shard, "model.safetensors")).items()},
                              strict=not model.config.tie_word_embeddings)
        opt = torch.load(os.path.join(shard, "optimizer.pt"), map_location=device)
        optimizer.load_state_dict(opt["optimizer"])
        scheduler.load_state_dict(opt["scheduler"])
        with open(os.path.join(ck, "trainer_state.json")) as f:
            state = json.load(f)
        start = state["global_step"]
        log_history = state.get("log_history", [])
        torch.set_rng_state(torch.tensor(state["rng"]["torch"], dtype=torch.uint8))
    rep.event("started", world_size=world, device=kind, global_batch=global_batch, max_steps=total,
              parameters=sum(p.numel() for p in model.parameters()), resumed_from=start)
    tokens_per_step = global_batch * args.block_size
    train_start = time.time()
    last_loss = float("nan")
    for step in range(start, total):
        t0 = time.time()
        if step == start:
            rep.event("first_step", step=step + 1)
        loss_sum = torch.zeros((), device=device)
        for micro in range(accum):
            first = step * global_batch + micro * per * world + rank * per
            ids = blocks.batch(first, per).to(device)
            with torch.autocast(device_type="cuda" if kind == "cuda" else "cpu", dtype=torch.bfloat16, enabled=args.bf16):
                loss = model(ids, labels=ids)
            (loss / accum).backward()
            loss_sum += loss.detach() / accum
        if world > 1:
            for p in model.parameters():
                if p.grad is not None:
                    dist.all_reduce(p.grad)
                    p.grad /= world
            dist.all_reduce(loss_sum)
            loss_sum /= world
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm if args.max_grad_norm > 0 else float("inf"))
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        dt = time.time() - t0
        last_loss = float(loss_sum)
        done = step + 1
        if done % args.logging_steps == 0 or done == total:
            record = {"step": done, "loss": last_loss, "learning_rate": scheduler.get_last_lr()[0],
                      "grad_norm": float(grad_norm), "tokens_per_second": tokens_per_step / dt if dt > 0 else None,
                      "step_time": dt, "peak_memory": torch.cuda.max_memory_allocated() if kind == "cuda" else peak_rss(),
                      "rank": rank, "epoch": done * global_batch / blocks.count}
            rep.metric(**record)
            log_history.append({k: record[k] for k in ("step", "loss", "learning_rate", "grad_norm", "epoch")})
        state = {"global_step": done, "max_steps": total, "epoch": done * global_batch / blocks.count,
                 "log_history": log_history, "train_batch_size": per, "logging_steps": args.logging_steps,
                 "save_steps": args.save_steps, "num_train_epochs": args.num_train_epochs}
        if args.save_steps and done % args.save_steps == 0 and done != total:
            rep.event("saving", step=done, path=os.path.join(args.output_dir, f"checkpoint-{done}"))
            save_checkpoint(os.path.join(args.output_dir, f"checkpoint-{done}"), model, optimizer, scheduler, state, args, rank, world)
    rep.event("saving", step=total, path=args.output_dir)
    state = {"global_step": total, "max_steps": total, "epoch": total * global_batch / blocks.count,
             "log_history": log_history, "train_batch_size": per}
    save_checkpoint(args.output_dir, model, optimizer, scheduler, state, args, rank, world)
    if rank == 0:
        runtime = time.time() - train_start
        results = {"epoch": state["epoch"], "train_loss": last_loss, "train_runtime": runtime,
                   "train_samples_per_second": (total - start) * global_batch / runtime if runtime else None,
                   "train_steps_per_second": (total - start) / runtime if runtime else None}
        for name in ("train_results.json", "all_results.json"):
            with open(os.path.join(args.output_dir, name), "w") as f:
                json.dump(results, f, indent=2)
    rep.event("finished", step=total, loss=last_loss)
    return 0


def peak_rss():
    try:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    except Exception:
        return None
