"""The entry point and the training loop over a dp x tp x pp layout: set-up (layout, model, data, optimizer,
resume), then per step the micro-batches through the pipeline, gradient sync and clipping, the optimizer step,
metrics, checkpoints and a clean stop on request; errors with words end the run as the `failed` event.

The parts live beside it: reporting (events, metrics, result files), device (device choice, autocast), schedule
(learning rate), optim (AdamW, ZeRO-1), grads (sync, clipping), pipeline (1F1B), checkpoint (saving, loading,
trainer_state.json), signals (stop requests), errors (TrainError)."""
import functools
import math
import os
import random
import socket
import sys
import time

import torch
import torch.distributed as dist

from .args import build_parser, model_config, validate
from .checkpoint import (check_shared_output, load_checkpoint, read_trainer_state, remove_incomplete_saves,
                         rotate_checkpoints, save_checkpoint, trainer_state)
from .data import Blocks, load_tokenizer, token_stream
from .engine import resolve_engine
from .device import autocast, init_process_group, mark_step, pick_device
from .errors import PREFIX, TrainError
from .grads import clip_gradients, sync_gradients
from .model import Checkpoint, LlamaConfig, LlamaForCausalLM, init_weights, load_weights
from .optim import ShardedAdamW
from .parallel import Layout, gather_ints
from .pipeline import run_micro_batches
from .reporting import Reporter, peak_memory, write_results
from .schedule import lr_at
from .signals import StopRequest
from .stacks import test_hang

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(os.path.dirname(HERE), "data", "sample.txt")


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
    engine, why = resolve_engine(args.engine)
    args.engine = engine  # (saved in training_args.json)
    if engine == "native":
        from .native import run_native
        return guarded(rep, world, lambda: run_native(args, rep, world, rank, why))
    if rank == 0:
        print(f"ingot_train: engine xla ({why})", flush=True)
    return guarded(rep, world, lambda: _xla(args, rep, world, rank))


def guarded(rep, world, run):
    """RUN()'s status; an error ends the run as the `failed` event (with its words for a TrainError) and is raised
    on; the process group is destroyed whatever happens."""
    try:
        return run()
    except TrainError as e:  # a stop with words (bad data, a folder the nodes do not share, ...)
        rep.event("failed", reason=str(e))
        raise
    except Exception as e:  # reported, then the non-zero exit torchrun sees
        rep.event("failed", reason=f"{type(e).__name__}: {e}")
        raise
    finally:
        if world > 1 and dist.is_initialized():
            dist.destroy_process_group()


def _xla(args, rep, world, rank):
    device, kind = pick_device(args.device, args.bf16)
    if world > 1:
        init_process_group(kind)
    if kind == "xla" and args.pipeline_parallel_size > 1:
        # torch_xla's process group has no point-to-point send/recv without a device-specific channel maker.
        raise TrainError("pipeline parallelism is not available on XLA devices in this backend yet; use tensor "
                         "and data parallelism there")
    lay = Layout(world, rank, args.tensor_parallel_size, args.pipeline_parallel_size,
                 sequence_parallel=not args.disable_sequence_parallel,
                 vocab_parallel=not args.disable_embedding_parallelization, cpu_control=kind != "cpu")
    if rank == 0:
        print(f"ingot_train: device {kind}", flush=True)
        for setting, what in xla_implementation(args, lay).items():
            print(f"ingot_train: {setting}: {what}", flush=True)
    return train(args, rep, device, kind, lay)


def xla_implementation(args, lay):
    """{setting: what runs it} on the XLA engine, for the first log lines (the native engine names torch's APIs)."""
    how = {}
    if lay.tp > 1:
        how["tensor_parallel"] = f"the backend's own column/row-parallel layers over {lay.tp} ranks"
        how["sequence_parallel"] = "the backend's own all-gather / reduce-scatter" if lay.sequence_parallel else "off"
        how["embedding"] = "split by vocabulary" if lay.vocab_parallel else "whole on every tensor-parallel rank"
    if lay.pp > 1:
        how["pipeline_parallel"] = f"{lay.pp} stages on the backend's own 1F1B schedule"
    if lay.dp > 1:
        how["data_parallel"] = f"bucketed gradient all-reduce over {lay.dp} ranks"
        if args.zero_1:
            how["zero_1"] = f"the backend's own sharded AdamW over {lay.dp} ranks"
    return how


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

    def epoch_at(step):
        return step * global_batch / blocks.count

    opt = ShardedAdamW(model, args, lay)
    start, log_history, optimizer_resumed = 0, [], False
    if args.resume_from_checkpoint:
        optimizer_resumed = load_checkpoint(args.resume_from_checkpoint, model, opt, lay)
        start, log_history = read_trainer_state(args.resume_from_checkpoint)
    on_rank = gather_ints(sum(p.numel() for p in model.parameters()), lay)
    # The whole model: the full sizes of each stage's saved weights, counted on one tp/dp rank per stage.
    per_stage = gather_ints(sum(math.prod(p.full_shape) for _, p in model.saved_parameters()), lay)
    full = sum(per_stage[lay.global_rank(0, 0, pp)] for pp in range(lay.pp))
    rep.event("started", world_size=lay.world, device=kind, global_batch=global_batch, max_steps=total,
              data_parallel=lay.dp, tensor_parallel=lay.tp, pipeline_parallel=lay.pp,
              sequence_parallel=lay.sequence_parallel, zero_1=opt.zero, parameters_per_rank=on_rank,
              parameters=full, resumed_from=start,
              # False when resumed from weights only (a re-shard that could not carry the AdamW state over).
              optimizer_resumed=optimizer_resumed,
              # For a monitor re-attaching to a running job: where rank 0 runs and who launched it.
              host=socket.gethostname(), pid=os.getpid(), launcher_pid=os.getppid(), tokenizer=tokenizer.name,
              tokenizer_warning=why_not_own, engine="xla", implementation=xla_implementation(args, lay))

    forward_context = functools.partial(autocast, args.bf16, kind)
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
            loss_sum += run_micro_batches(model, lay, ids, args, accum, forward_context) / accum
        sync_gradients(model, lay)
        grad_norm = clip_gradients(model, lay, args.max_grad_norm)
        lr = lr_at(step, args, total)
        opt.step(lr)
        opt.zero_grad()
        mark_step(kind)
        test_hang(step, lay.rank)
        if lay.world > 1:  # the loss lives on the last stage's ranks: average it over the data-parallel replicas
            dist.all_reduce(loss_sum)
            loss_sum /= lay.dp * lay.tp
        dt = time.time() - t0
        last_loss = float(loss_sum)
        done = step + 1
        if done % args.logging_steps == 0 or done == total:
            record = {"step": done, "loss": last_loss, "learning_rate": lr, "grad_norm": float(grad_norm),
                      "tokens_per_second": tokens_per_step / dt if dt > 0 else None, "step_time": dt,
                      "peak_memory": peak_memory(kind), "rank": lay.rank, "epoch": epoch_at(done)}
            rep.metric(**record)
            log_history.append({k: record[k] for k in ("step", "loss", "learning_rate", "grad_norm", "epoch")})
        stopping = stop.agreed(lay, device) and done != total
        if (args.save_steps and done % args.save_steps == 0 and done != total) or stopping:
            path = os.path.join(args.output_dir, f"checkpoint-{done}")
            rep.event("saving", step=done, path=path)
            save_checkpoint(path, model, opt, trainer_state(args, done, total, epoch_at(done), log_history), args, lay)
            if lay.rank == 0:
                deleted = rotate_checkpoints(args.output_dir, args.save_total_limit)
                if deleted:
                    rep.event("deleted_checkpoints", paths=deleted)
        if stopping:
            rep.event("stopped", step=done, signal=stop.asked or "another rank's", checkpoint=path)
            return 0
    rep.event("saving", step=total, path=args.output_dir)
    save_checkpoint(args.output_dir, model, opt, trainer_state(args, total, total, epoch_at(total), log_history), args, lay)
    peaks = gather_ints(peak_memory(kind), lay)
    if lay.rank == 0:
        runtime = time.time() - train_start
        write_results(args.output_dir, {
            "epoch": epoch_at(total), "train_loss": last_loss, "train_runtime": runtime,
            "train_samples_per_second": (total - start) * global_batch / runtime if runtime else None,
            "train_steps_per_second": (total - start) / runtime if runtime else None})
    rep.event("finished", step=total, loss=last_loss, peak_memory_per_rank=peaks)
    return 0
