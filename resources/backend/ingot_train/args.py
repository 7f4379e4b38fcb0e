"""Command line of the training backend (flag names as optimum-neuron's example training scripts use them)."""
import argparse
import json
import os


def build_parser():
    p = argparse.ArgumentParser(prog="ingot_train", description="Train a Llama-architecture causal LM with torchrun: data, ZeRO-1, tensor, sequence and pipeline "
                                "parallelism (world size = data x tensor x pipeline parallel).")
    a = p.add_argument
    a("--model_name_or_path", help="A local Hugging Face model folder (config.json + safetensors or pytorch_model.bin).")
    a("--config_name", help="A built-in config for a randomly initialised model: tiny (tests, demos), small, medium (95 M parameters).")
    a("--train_file", help="A text file, a folder of .txt files, or a .jsonl file with a 'text' field.")
    a("--per_device_train_batch_size", type=int, default=2, help="Sequences per data-parallel rank and micro-step (split into --num_microbatches micro-batches).")
    a("--gradient_accumulation_steps", type=int, default=1, help="Micro-steps per optimizer step.")
    a("--block_size", type=int, default=64, help="Tokens per training sequence.")
    a("--learning_rate", type=float, default=1e-3, help="Peak learning rate (AdamW).")
    a("--weight_decay", type=float, default=0.0, help="AdamW weight decay.")
    a("--warmup_steps", type=int, default=0, help="Linear warm-up steps, then linear decay to 0.")
    a("--max_steps", type=int, default=-1, help="Optimizer steps to run (overrides --num_train_epochs when > 0).")
    a("--num_train_epochs", type=float, default=1.0, help="Passes over the data when --max_steps is not set.")
    a("--max_grad_norm", type=float, default=1.0, help="Clip gradients to this global norm (0: no clipping).")
    a("--bf16", action="store_true", help="Train in bfloat16 autocast (on XLA: XLA_DOWNCAST_BF16=1). Weights and optimizer state stay fp32.")
    a("--zero_1", action="store_true", help="Shard the AdamW state over the data-parallel ranks (ZeRO-1); each rank saves its part.")
    a("--tensor_parallel_size", type=int, default=1, help="Tensor parallel degree: attention heads, MLP and (unless disabled) vocabulary split over this many ranks.")
    a("--pipeline_parallel_size", type=int, default=1, help="Pipeline parallel degree: decoder layers split into this many stages (1F1B schedule).")
    a("--num_microbatches", type=int, default=1, help="Micro-batches each micro-step's batch is split into and sent through the pipeline stages.")
    a("--disable_sequence_parallel", action="store_true", help="Turn off sequence parallelism (on by default with TP: norms and residuals split along the sequence).")
    a("--disable_embedding_parallelization", action="store_true", help="Keep the embedding and LM head whole on every TP rank (default: split by vocabulary, with a parallel cross-entropy).")
    a("--logging_steps", type=int, default=1, help="Log metrics every N steps.")
    a("--save_steps", type=int, default=0, help="Save a checkpoint every N steps in OUTPUT_DIR/checkpoint-N (0: only at the end).")
    a("--save_total_limit", type=int, default=0, help="Keep only the newest N checkpoint-N folders in OUTPUT_DIR: older ones are deleted once a new one is fully written (0: keep all).")
    a("--output_dir", required=True, help="Where metrics, checkpoints and results go.")
    a("--resume_from_checkpoint", help="A checkpoint-N folder to resume from (XLA engine: the same tensor/pipeline parallel sizes, `ingot-cli reshard` writes one for others; native engine: any layout, DCP re-shards on load).")
    a("--seed", type=int, default=42, help="Random seed.")
    a("--device", choices=["auto", "cpu", "cuda", "xla", "neuron"], default="auto", help="Where to train.")
    a("--engine", choices=["auto", "native", "xla"], default="auto",
      help="native: PyTorch's own distributed APIs (DDP, ZeroRedundancyOptimizer, FSDP, DTensor; TorchNeuron, Neuron "
           "2.30 and later); xla: PyTorch/XLA (Neuron 2.29 and earlier). auto: xla when torch_xla is importable, else "
           "native when torch has torch.distributed.tensor (torch >= 2.4), else xla.")
    a("--fsdp", action="store_true", help="Fully sharded data parallel over the data-parallel ranks (ZeRO-3: weights, "
      "gradients and optimizer state sharded; native engine only; excludes --zero_1).")
    a("--torch_compile", action="store_true", help="Compile the model with torch.compile (native engine only; backend "
      "\"neuron\" on a Neuron device).")
    return p


def model_config(args):
    """The model's config as a dict (built-in or the folder's config.json), or None when it cannot be read."""
    from .model import BUILTIN
    if args.config_name:
        c = BUILTIN.get(args.config_name)
        return vars(c) if c else None
    try:
        with open(os.path.join(args.model_name_or_path, "config.json")) as f:
            d = json.load(f)
        d.setdefault("num_key_value_heads", d.get("num_attention_heads"))
        return d
    except (OSError, ValueError):
        return None


def validate(args, world_size):
    """Returns a list of problems; every rank computes the same list before any process group starts."""
    from .model import BUILTIN
    problems = []
    if not args.model_name_or_path and not args.config_name:
        problems.append("name a model: --model_name_or_path FOLDER or --config_name NAME")
    if args.model_name_or_path and not os.path.isdir(args.model_name_or_path):
        problems.append(f"--model_name_or_path {args.model_name_or_path} is not a folder")
    elif args.model_name_or_path and not os.path.isfile(os.path.join(args.model_name_or_path, "config.json")):
        problems.append(f"--model_name_or_path {args.model_name_or_path} has no config.json")
    if args.config_name and args.config_name not in BUILTIN:
        problems.append(f"unknown --config_name {args.config_name} (built in: {', '.join(BUILTIN)})")
    if args.train_file and not os.path.exists(args.train_file):
        problems.append(f"--train_file {args.train_file} does not exist")
    for name in ("per_device_train_batch_size", "gradient_accumulation_steps", "block_size", "num_microbatches"):
        if getattr(args, name) < 1:
            problems.append(f"--{name} must be at least 1")
    if args.save_total_limit < 0:
        problems.append("--save_total_limit must not be negative (0: keep every checkpoint)")
    if args.max_steps == 0:
        problems.append("--max_steps must be positive (or -1 to use --num_train_epochs)")
    from .engine import has_dtensor, resolve_engine, torch_version
    engine, why = resolve_engine(args.engine)
    if engine == "native" and not has_dtensor():
        problems.append("--engine native needs torch 2.4 or later (torch.distributed.tensor); this Python has torch "
                        + ".".join(map(str, torch_version())))
    if engine != "native":
        for flag in ("fsdp", "torch_compile"):
            if getattr(args, flag):
                problems.append(f"--{flag} needs the native engine ({why})")
        if args.device == "neuron":
            problems.append(f"--device neuron needs the native engine ({why})")
    elif args.device == "xla":
        problems.append("--device xla needs --engine xla")
    if engine == "native" and args.zero_1 and args.tensor_parallel_size > 1:
        problems.append("--zero_1 with tensor parallelism is not available on the native engine "
                        "(ZeroRedundancyOptimizer takes no DTensor parameters): use --fsdp")
    native_pp = engine == "native" and args.pipeline_parallel_size > 1
    c0 = model_config(args) if engine == "native" and (args.tensor_parallel_size > 1 or native_pp) else None
    if c0 and c0.get("tie_word_embeddings"):
        problems.append("a model with tied word embeddings cannot be tensor or pipeline parallel on the native engine yet")
    if native_pp and (args.tensor_parallel_size > 1 or args.fsdp):
        problems.append("pipeline parallelism on the native engine combines with data parallelism and --zero_1 only "
                        "(not yet with tensor parallelism or --fsdp)")
    if args.fsdp and args.zero_1:
        problems.append("--fsdp shards the optimizer state already: pass either --fsdp or --zero_1")
    tp, pp = args.tensor_parallel_size, args.pipeline_parallel_size
    if tp < 1 or pp < 1:
        problems.append("--tensor_parallel_size and --pipeline_parallel_size must be at least 1")
        return problems
    if world_size % (tp * pp):
        problems.append(f"tp ({tp}) x pp ({pp}) = {tp * pp} does not divide the world size {world_size}")
    if args.num_microbatches >= 1 and args.per_device_train_batch_size % args.num_microbatches:
        problems.append(f"--per_device_train_batch_size {args.per_device_train_batch_size} does not split into "
                        f"{args.num_microbatches} micro-batches (--num_microbatches must divide it)")
    c = model_config(args) if (args.config_name or args.model_name_or_path) else None
    if c and tp > 1:
        for key in ("num_attention_heads", "num_key_value_heads"):
            if c[key] % tp:
                problems.append(f"the model's {key} ({c[key]}) is not divisible by --tensor_parallel_size {tp}")
        if c["intermediate_size"] % tp:
            problems.append(f"the model's intermediate_size ({c['intermediate_size']}) is not divisible by --tensor_parallel_size {tp}")
        if not args.disable_embedding_parallelization and c["vocab_size"] % tp:
            problems.append(f"the model's vocab_size ({c['vocab_size']}) is not divisible by --tensor_parallel_size {tp} "
                            "(or pass --disable_embedding_parallelization)")
        if not args.disable_sequence_parallel and args.block_size >= 1 and args.block_size % tp:
            problems.append(f"--block_size {args.block_size} is not divisible by --tensor_parallel_size {tp}, which "
                            "sequence parallelism needs (or pass --disable_sequence_parallel)")
    if c and c["num_hidden_layers"] < pp:
        problems.append(f"the model has {c['num_hidden_layers']} layers, fewer than --pipeline_parallel_size {pp} stages")
    if args.resume_from_checkpoint:
        problems += check_resume(args, world_size, engine)
    return problems


LAYOUT_KEYS = ("tensor_parallel_size", "pipeline_parallel_size", "disable_embedding_parallelization")
# Checkpoints of earlier versions keep the optimizer state as pickles indexed by this layout's parameter order.
LEGACY_LAYOUT_KEYS = ("zero_1",)


def checkpoint_engine(ck, saved):
    """The engine that wrote checkpoint CK: native for a DCP checkpoint (a .metadata file, or training_args.json
    saying so), xla otherwise (its checkpoints of earlier versions name no engine)."""
    if isinstance(saved, dict) and saved.get("engine") in ("native", "xla"):
        return saved["engine"]
    return "native" if os.path.isfile(os.path.join(ck, ".metadata")) else "xla"


def check_resume(args, world_size, engine="xla"):
    """The XLA engine's checkpoint weights are split for one tp/pp layout (and vocabulary split or not): the run must
    have the same. Its optimizer state is kept by parameter name, so the data-parallel size and ZeRO-1 may change
    (but not for checkpoints of earlier versions). Another tp/pp layout: `ingot-cli reshard` writes the checkpoint
    for it. A native (DCP) checkpoint resumes on any layout: DCP re-shards on load. An engine never resumes the
    other's checkpoint."""
    from .checkpoint import legacy_optimizer
    ck = args.resume_from_checkpoint
    try:
        with open(os.path.join(ck, "training_args.json")) as f:
            saved = json.load(f)
    except (OSError, ValueError) as e:
        return [f"--resume_from_checkpoint {ck} is not a complete checkpoint ({e})"]
    written_by = checkpoint_engine(ck, saved)
    if written_by != engine:
        names = {"native": "the native engine (a DCP checkpoint)", "xla": "the XLA engine (per-rank safetensors shards)"}
        return [f"--resume_from_checkpoint {ck} was written by {names[written_by]}, this run uses the {engine} engine: "
                f"resume it with --engine {written_by}, or consolidate it and start from the model folder"]
    if engine == "native":
        from .native_checkpoint import check_native_checkpoint
        return check_native_checkpoint(ck)
    try:
        with open(os.path.join(ck, "training_args.json")) as f:
            saved = json.load(f)
        with open(os.path.join(ck, "trainer_state.json")) as f:
            json.load(f)
        legacy = legacy_optimizer(ck)
    except (OSError, ValueError) as e:
        return [f"--resume_from_checkpoint {ck} is not a complete checkpoint ({e})"]
    if not isinstance(saved, dict):
        return [f"--resume_from_checkpoint {ck}: training_args.json is not an object"]
    problems = []
    defaults = {"tensor_parallel_size": 1, "pipeline_parallel_size": 1, "disable_embedding_parallelization": False}
    for key in LAYOUT_KEYS + (LEGACY_LAYOUT_KEYS if legacy else ()):
        if saved.get(key, defaults.get(key)) != getattr(args, key):
            problems.append(f"--resume_from_checkpoint {ck} was saved with --{key} {saved.get(key)}, this run has "
                            f"{getattr(args, key)}: resume on the same parallel layout, or write the checkpoint for "
                            f"this one with `ingot-cli reshard`")
    if legacy and saved.get("world_size", world_size) != world_size:
        problems.append(f"--resume_from_checkpoint {ck} was saved by {saved.get('world_size')} processes, this run "
                        f"has {world_size}: resume on the same parallel layout")
    return problems
