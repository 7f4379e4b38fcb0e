"""A stand-in for TorchTitan's trainer (`python -m torchtitan.train --job.config_file FILE`), for Ingot's tests:
torchtitan is not on PyPI for this machine. It writes what torchtitan 0.2.2 writes, with a real PyTorch 2:
- the config: torchtitan/config/manager.py (_maybe_load_toml: --job.config_file or --job.config-file, "=" or a
  separate value; tomllib); [job] dump_folder, [checkpoint] enable, folder, interval; [training] steps;
- the step line: torchtitan/components/metrics.py (MetricsProcessor.log) through torchtitan/tools/logging.py's
  format ("[titan] %(asctime)s - %(name)s - %(levelname)s - %(message)s", on stdout) with the colours of
  torchtitan/tools/utils.py (Color), every rank logging;
- checkpoints: torchtitan/components/checkpoint.py: dcp.save of the model's state dict flattened to the top level
  (_flattened_model_states_sd) beside "train_state" (Trainer.state_dict: step, ntokens_seen), to
  {dump_folder}/{folder}/step-N (_create_checkpoint_id) every `interval` steps and at the last step; the model's
  names are TorchTitan's Llama names (torchtitan/models/llama3/model/model.py).
The training itself is a tiny replicated model on gloo; the numbers are made up but formatted as torchtitan does."""
import logging
import os
import sys
import time
import tomllib

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp


class Color:
    red = "\033[31m"
    green = "\033[32m"
    blue = "\033[34m"
    magenta = "\033[35m"
    cyan = "\033[36m"
    reset = "\033[39m"
    orange = "\033[38;2;180;60;0m"
    turquoise = "\033[38;2;54;234;195m"


def config_path(args):
    for i, arg in enumerate(args):
        if "=" in arg:
            key, value = arg.split("=", 1)
            if key in ("--job.config-file", "--job.config_file"):
                return value
        elif i < len(args) - 1 and arg in ("--job.config-file", "--job.config_file"):
            return args[i + 1]
    return None


def main():
    path = config_path(sys.argv[1:])
    config = {}
    if path:
        with open(path, "rb") as f:
            config = tomllib.load(f)
    job = config.get("job", {})
    ckpt = config.get("checkpoint", {})
    steps = int(config.get("training", {}).get("steps", 4))
    dump_folder = job.get("dump_folder", "./outputs")
    folder = os.path.join(dump_folder, ckpt.get("folder", "checkpoint"))
    interval = int(ckpt.get("interval", 500))

    logger = logging.getLogger()
    logger.setLevel(logging.INFO)
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("[titan] %(asctime)s - %(name)s - %(levelname)s - %(message)s"))
    logger.addHandler(handler)

    dist.init_process_group("gloo")
    torch.manual_seed(0)
    dim, vocab = 8, 16
    model = {
        "tok_embeddings.weight": torch.randn(vocab, dim),
        "layers.0.attention.wq.weight": torch.randn(dim, dim),
        "layers.0.attention.wk.weight": torch.randn(dim, dim),
        "layers.0.attention.wv.weight": torch.randn(dim, dim),
        "layers.0.attention.wo.weight": torch.randn(dim, dim),
        "layers.0.feed_forward.w1.weight": torch.randn(2 * dim, dim),
        "layers.0.feed_forward.w2.weight": torch.randn(dim, 2 * dim),
        "layers.0.feed_forward.w3.weight": torch.randn(2 * dim, dim),
        "layers.0.attention_norm.weight": torch.ones(dim),
        "layers.0.ffn_norm.weight": torch.ones(dim),
        "norm.weight": torch.ones(dim),
        "output.weight": torch.randn(vocab, dim),
    }
    logger.info("Training starts at step 1")
    c = Color
    ntokens = 0
    for step in range(1, steps + 1):
        time.sleep(0.3)
        ntokens += 2048
        loss, grad_norm = 10.0 - step * 0.5, 1.0 / step
        logger.info(
            f"{c.red}step: {step:2}  "
            f"{c.green}loss: {loss:8.5f}  "
            f"{c.orange}grad_norm: {grad_norm:7.4f}  "
            f"{c.turquoise}memory: {0.5 * step:5.2f}GiB"
            f"({1.25 * step:.2f}%)  "
            f"{c.blue}tps: {round(1500.0 * step):,}  "
            f"{c.cyan}tflops: {0.01 * step:,.2f}  "
            f"{c.magenta}mfu: {0.1 * step:.2f}%{c.reset}"
        )
        if ckpt.get("enable", False) and (step % interval == 0 or step == steps):
            checkpoint_id = os.path.join(folder, f"step-{step}")
            states = dict(model)
            states["train_state"] = {"step": step, "ntokens_seen": ntokens}
            dcp.save(states, checkpoint_id=checkpoint_id)
            logger.info(f"Finished saving the checkpoint in {checkpoint_id}.")
    logger.info("Training completed")
    # Ends without tearing the process group down (TorchTitan calls destroy_process_group here): on this machine torch
    # 2.6's gloo teardown after a DCP save now and then left one rank waiting forever (with or without a barrier
    # first), and every rank's save is complete by now (dcp.save returns once the metadata is written).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
