"""Command line of the training backend (flag names as optimum-neuron's example training scripts use them)."""
import argparse
import os


def build_parser():
    p = argparse.ArgumentParser(prog="ingot_train", description="Train a Llama-architecture causal LM with torchrun.")
    a = p.add_argument
    a("--model_name_or_path", help="A local Hugging Face model folder (config.json + safetensors or pytorch_model.bin).")
    a("--config_name", help="A built-in config name (e.g. 'tiny') for a randomly initialised model.")
    a("--train_file", help="A text file, a folder of .txt files, or a .jsonl file with a 'text' field.")
    a("--per_device_train_batch_size", type=int, default=2, help="Sequences per data-parallel rank and micro-step.")
    a("--gradient_accumulation_steps", type=int, default=1, help="Micro-steps per optimizer step.")
    a("--block_size", type=int, default=64, help="Tokens per training sequence.")
    a("--learning_rate", type=float, default=1e-3, help="Peak learning rate (AdamW).")
    a("--weight_decay", type=float, default=0.0, help="AdamW weight decay.")
    a("--warmup_steps", type=int, default=0, help="Linear warm-up steps, then linear decay to 0.")
    a("--max_steps", type=int, default=-1, help="Optimizer steps to run (overrides --num_train_epochs when > 0).")
    a("--num_train_epochs", type=float, default=1.0, help="Passes over the data when --max_steps is not set.")
    a("--max_grad_norm", type=float, default=1.0, help="Clip gradients to this global norm (0: no clipping).")
    a("--bf16", action="store_true", help="Train in bfloat16 autocast.")
    a("--zero_1", action="store_true", help="Shard the optimizer state over the data-parallel ranks (ZeRO-1).")
    a("--tensor_parallel_size", type=int, default=1, help="Tensor parallel degree.")
    a("--pipeline_parallel_size", type=int, default=1, help="Pipeline parallel degree.")
    a("--num_microbatches", type=int, default=1, help="Micro-batches per step with pipeline parallelism.")
    a("--disable_sequence_parallel", action="store_true", help="Turn off sequence parallelism (on by default with TP).")
    a("--disable_embedding_parallelization", action="store_true", help="Keep embeddings and LM head unsplit with TP.")
    a("--logging_steps", type=int, default=1, help="Log metrics every N steps.")
    a("--save_steps", type=int, default=0, help="Save a checkpoint every N steps in OUTPUT_DIR/checkpoint-N (0: only at the end).")
    a("--output_dir", required=True, help="Where metrics, checkpoints and results go.")
    a("--resume_from_checkpoint", help="A checkpoint-N folder to resume from (same parallel layout).")
    a("--seed", type=int, default=42, help="Random seed.")
    a("--device", choices=["auto", "cpu", "cuda", "xla"], default="auto", help="Where to train.")
    return p


def validate(args, world_size):
    """Returns a list of problems; every rank computes the same list before any process group starts."""
    problems = []
    if not args.model_name_or_path and not args.config_name:
        problems.append("name a model: --model_name_or_path FOLDER or --config_name NAME")
    if args.model_name_or_path and not os.path.isdir(args.model_name_or_path):
        problems.append(f"--model_name_or_path {args.model_name_or_path} is not a folder")
    if args.train_file and not os.path.exists(args.train_file):
        problems.append(f"--train_file {args.train_file} does not exist")
    tp, pp = args.tensor_parallel_size, args.pipeline_parallel_size
    if tp < 1 or pp < 1:
        problems.append("--tensor_parallel_size and --pipeline_parallel_size must be at least 1")
    elif world_size % (tp * pp):
        problems.append(f"tp ({tp}) x pp ({pp}) = {tp * pp} does not divide the world size {world_size}")
    for name in ("per_device_train_batch_size", "gradient_accumulation_steps", "block_size", "num_microbatches"):
        if getattr(args, name) < 1:
            problems.append(f"--{name} must be at least 1")
    if args.max_steps == 0:
        problems.append("--max_steps must be positive (or -1 to use --num_train_epochs)")
    return problems
