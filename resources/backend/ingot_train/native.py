"""The native engine: the XLA engine's training loop (the same data order, seed, learning-rate schedule, gradient
clipping, metric and event lines, checkpoints at --save_steps and a clean stop) on torch's own distributed APIs:
DDP, ZeroRedundancyOptimizer (ZeRO-1), FSDP (--fsdp, ZeRO-3), DTensor tensor and sequence parallelism, DCP
checkpoints that resume on any layout, and torch.compile on request. What each setting runs on is printed in the
first log lines and in the `started` event."""
import contextlib
import functools
import math
import os
import random
import shutil
import socket
import sys
import time

import torch
import torch.distributed as dist

from .args import model_config
from .checkpoint import check_shared_output, read_trainer_state, rotate_checkpoints, trainer_state
from .data import Blocks, load_tokenizer, token_stream
from .device import autocast
from .errors import TrainError
from .model import Checkpoint, LlamaConfig
from .native_checkpoint import ZeroNamedState, load_native, save_native
from .native_model import NativeLayer, NativeLlama, init_native_weights, load_native_weights
from .stacks import test_hang
from .native_parallel import (NativeLayout, all_reduce_grads, apply_fsdp, apply_tensor_parallel, build_mesh,
                              clip_native, init_native_process_group, is_fsdp1, pick_native_device, tp_sharded_names)
from .parallel import gather_ints
from .pipeline import run_micro_batches
from .reporting import peak_memory, write_results
from .schedule import lr_at
from .signals import StopRequest


def compile_backend(kind):
    """(backend, why) for torch.compile: "neuron" on a Neuron device, inductor where it can build its kernels (CUDA,
    or a CPU with a C++ compiler), else aot_eager (traced and run through AOT autograd without generated code)."""
    if kind == "neuron":
        return "neuron", "TorchNeuron's backend"
    if kind == "cuda" or shutil.which(os.environ.get("CXX", "g++")) or shutil.which("c++"):
        return "inductor", "torch's default backend"
    return "aot_eager", "inductor needs a C++ compiler, which this machine lacks"


def _clean(name):
    """A parameter's name without the wrappers' prefixes (DDP's module., FSDP1's, torch.compile's)."""
    name = name.replace("_fsdp_wrapped_module.", "").replace("_orig_mod.", "")
    return name[len("module."):] if name.startswith("module.") else name


def _local(t):
    from torch.distributed.tensor import DTensor
    return t.full_tensor() if isinstance(t, DTensor) else t


def run_native(args, rep, world, rank, why):
    device, kind = pick_native_device(args.device)
    if world > 1:
        init_native_process_group(kind)
    lay = NativeLayout(world, rank, args.tensor_parallel_size, args.pipeline_parallel_size,
                       not args.disable_sequence_parallel)
    check_shared_output(args.output_dir, lay)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    config = LlamaConfig.from_hf(model_config(args))
    model = NativeLlama(config, lay.pp, lay.pp_rank)
    if args.model_name_or_path and not args.resume_from_checkpoint:
        load_native_weights(model, Checkpoint(args.model_name_or_path))
    else:
        init_native_weights(model, args.seed)
    model.to(device)
    per_rank = gather_ints(sum(p.numel() for p in model.parameters()), lay)  # (a stage, before any split)
    parameters = sum(per_rank[lay.global_rank(0, 0, pp)] for pp in range(lay.pp))
    decay = {n for n, p in model.named_parameters() if p.dim() >= 2}
    names = {}
    model, opt, zero, how, sp, vocab, manual_dp = _parallelize(model, args, lay, kind, decay, names)
    runner = model
    if args.torch_compile:
        backend, reason = compile_backend(kind)
        runner = torch.compile(model, backend=backend)
        how["torch_compile"] = f"torch.compile(backend={backend!r}): {reason}"
    if rank == 0:
        print(f"ingot_train: engine native ({why}); device {kind}", flush=True)
        for setting, what in how.items():
            print(f"ingot_train: {setting}: {what}", flush=True)
    return _loop(args, rep, device, kind, lay, model, runner, opt, zero, how, sp, vocab, manual_dp, parameters, config)


def _parallelize(model, args, lay, kind, decay, names):
    """Applies tensor parallelism, then FSDP / DDP over the data-parallel ranks; builds AdamW (or ZeRO-1).
    Returns (model, optimizer, ZeroNamedState or None, {setting: implementation}, sp, vocab, manual_dp)."""
    how = {}
    sp = lay.tp > 1 and not args.disable_sequence_parallel
    vocab = lay.tp > 1 and not args.disable_embedding_parallelization
    mesh = lay.mesh = build_mesh(kind, lay.world, lay.tp, lay.pp)
    if lay.pp > 1:
        how["pipeline_parallel"] = (f"{lay.pp} stages on the backend's own 1F1B schedule (point-to-point sends; "
                                    "not torch.distributed.pipelining, whose GPipe hung and 1F1B failed in a 2-rank "
                                    "CPU/gloo test with torch 2.6)")
    if lay.tp > 1:
        apply_tensor_parallel(model, mesh["tp"], sp, vocab)
        how["tensor_parallel"] = (f"DTensor parallelize_module over {lay.tp} ranks (ColwiseParallel q/k/v, gate, up; "
                                  "RowwiseParallel o, down)")
        how["sequence_parallel"] = "DTensor SequenceParallel norms, PrepareModuleInput before attention and MLP" \
            if sp else "off"
        how["embedding"] = ("split by vocabulary (RowwiseParallel embedding, ColwiseParallel LM head, loss_parallel "
                            "cross-entropy)") if vocab else "whole on every tensor-parallel rank"
    manual_dp = False
    split = tp_sharded_names(model)
    lay.fsdp1 = None
    if lay.dp > 1 and args.fsdp:
        model, how["data_parallel"] = apply_fsdp(model, mesh, kind, NativeLayer)
        if is_fsdp1(model):
            lay.fsdp1 = ({p for n, p in model.named_parameters() if _clean(n) in split}, mesh["dp"].get_group())
    elif lay.dp > 1 and lay.tp == 1 and lay.pp == 1:
        from torch.nn.parallel import DistributedDataParallel
        model = DistributedDataParallel(model, process_group=mesh["dp"].get_group(),
                                        device_ids=[model_device_index(kind)] if kind != "cpu" else None)
        how["data_parallel"] = f"DDP over {lay.dp} ranks"
    elif lay.dp > 1:
        manual_dp = True
        how["data_parallel"] = (f"gradients averaged over the {lay.dp} data-parallel ranks of the device mesh after "
                                "each step (DDP takes no DTensor parameters, and reduces after the first backward "
                                "of a pipeline's interleaved micro-batches)")
    elif args.fsdp:
        how["data_parallel"] = "one data-parallel rank: --fsdp has nothing to shard"
    for n, p in model.named_parameters():
        names[p] = _clean(n)
    params = list(model.parameters())
    groups = [{"params": [p for p in params if names[p] in decay], "weight_decay": args.weight_decay},
              {"params": [p for p in params if names[p] not in decay], "weight_decay": 0.0}]
    groups = [g for g in groups if g["params"]]
    zero = None
    if args.zero_1 and lay.dp > 1:
        from torch.distributed.optim import ZeroRedundancyOptimizer
        opt = ZeroRedundancyOptimizer(groups, optimizer_class=torch.optim.AdamW, lr=args.learning_rate,
                                      process_group=mesh["dp"].get_group())
        zero = ZeroNamedState(opt, names)
        how["zero_1"] = f"torch.distributed.optim.ZeroRedundancyOptimizer over {lay.dp} ranks"
    else:
        opt = torch.optim.AdamW(groups, lr=args.learning_rate)
    return model, opt, zero, how, sp, vocab, manual_dp


def model_device_index(kind):
    return torch.get_device_module(kind).current_device()


def _loop(args, rep, device, kind, lay, model, runner, opt, zero, how, sp, vocab, manual_dp, parameters, config):
    from torch.distributed.tensor.parallel import loss_parallel
    tokenizer, why_not_own = load_tokenizer(args.model_name_or_path)
    if why_not_own and lay.rank == 0:
        print(f"ingot_train: warning: {args.model_name_or_path} has a tokenizer, but {why_not_own}: the text is "
              "tokenized as bytes (ids 0-259), which a pretrained model's vocabulary does not mean", file=sys.stderr)
    tokens = token_stream(args.train_file or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                          "data", "sample.txt"), tokenizer)
    if len(tokens) and (int(tokens.min()) < 0 or int(tokens.max()) >= config.vocab_size):
        raise TrainError(f"the data holds token ids from {int(tokens.min())} to {int(tokens.max())}, "
                         f"outside the model's vocabulary of {config.vocab_size}")
    blocks = Blocks(tokens, args.block_size, args.seed)
    per, accum = args.per_device_train_batch_size, args.gradient_accumulation_steps
    global_batch = per * lay.dp * accum
    total = args.max_steps if args.max_steps > 0 else max(1, math.ceil(args.num_train_epochs * blocks.count / global_batch))

    def epoch_at(step):
        return step * global_batch / blocks.count

    start, log_history = 0, []
    if args.resume_from_checkpoint:
        load_native(args.resume_from_checkpoint, model, opt, zero)
        start, log_history = read_trainer_state(args.resume_from_checkpoint)
    on_rank = gather_ints(sum(_local_numel(p) for p in model.parameters()), lay)  # (after the splits)
    rep.event("started", world_size=lay.world, device=kind, global_batch=global_batch, max_steps=total,
              data_parallel=lay.dp, tensor_parallel=lay.tp, pipeline_parallel=lay.pp, sequence_parallel=sp,
              zero_1=zero is not None, fsdp=bool(args.fsdp and lay.dp > 1), parameters_per_rank=on_rank,
              parameters=parameters, resumed_from=start, optimizer_resumed=bool(args.resume_from_checkpoint),
              engine="native", implementation=how, host=socket.gethostname(), pid=os.getpid(),
              launcher_pid=os.getppid(), tokenizer=tokenizer.name, tokenizer_warning=why_not_own)
    params = list(model.parameters())
    loss_context = loss_parallel if vocab else contextlib.nullcontext
    tokens_per_step = global_batch * args.block_size
    stop = StopRequest()
    train_start = time.time()
    last_loss = float("nan")
    dp_group = lay.mesh["dp"].get_group() if manual_dp else None
    pp_group = lay.mesh["pp"].get_group() if lay.pp > 1 else None
    forward_context = functools.partial(autocast, args.bf16, kind)
    runner.config = config  # (the pipeline schedule reads the hidden size)
    for step in range(start, total):
        t0 = time.time()
        if step == start:
            rep.event("first_step", step=step + 1)
        loss_sum = torch.zeros((), device=device)
        n = args.num_microbatches
        for micro in range(accum):
            first = step * global_batch + micro * per * lay.dp + lay.dp_rank * per
            ids = blocks.batch(first, per).to(device)
            if lay.pp > 1:  # (sums the last stage's loss over the micro-batches; 0 on the other stages)
                loss_sum += run_micro_batches(runner, lay, ids, args, accum, forward_context) / accum
                continue
            for chunk in ids.chunk(n):
                with loss_context():
                    with forward_context():
                        loss = runner(chunk, chunk)
                    (loss / (n * accum)).backward()
                loss_sum += _local(loss.detach()).float() / (n * accum)
        if manual_dp:
            all_reduce_grads(params, dp_group, lay.dp)
        grad_norm = clip_native(params, args.max_grad_norm, device, lay.fsdp1, pp_group)
        lr = lr_at(step, args, total)
        for g in opt.param_groups:
            g["lr"] = lr
        opt.step()
        opt.zero_grad(set_to_none=True)
        test_hang(step, lay.rank)
        if lay.world > 1:  # the loss lives on the last stage's ranks: averaged over its dp (and equal tp) ranks
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
            save_native(path, model, opt, zero, trainer_state(args, done, total, epoch_at(done), log_history), args,
                        lay.world, lay.rank, config)
            if lay.rank == 0:
                deleted = rotate_checkpoints(args.output_dir, args.save_total_limit)
                if deleted:
                    rep.event("deleted_checkpoints", paths=deleted)
        if stopping:
            rep.event("stopped", step=done, signal=stop.asked or "another rank's", checkpoint=path)
            return 0
    rep.event("saving", step=total, path=args.output_dir)
    save_native(args.output_dir, model, opt, zero, trainer_state(args, total, total, epoch_at(total), log_history),
                args, lay.world, lay.rank, config)
    peaks = gather_ints(peak_memory(kind), lay)
    if lay.rank == 0:
        runtime = time.time() - train_start
        write_results(args.output_dir, {
            "epoch": epoch_at(total), "train_loss": last_loss, "train_runtime": runtime,
            "train_samples_per_second": (total - start) * global_batch / runtime if runtime else None,
            "train_steps_per_second": (total - start) / runtime if runtime else None})
    rep.event("finished", step=total, loss=last_loss, peak_memory_per_rank=peaks)
    return 0


def _local_numel(p):
    from torch.distributed.tensor import DTensor
    return p.to_local().numel() if isinstance(p, DTensor) else p.numel()
