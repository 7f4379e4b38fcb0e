"""Ingot's bundled training backend: a Llama-architecture causal LM trained with torchrun.

Run as:  torchrun --nproc_per_node=N -m ingot_train ARGS   (or python -m ingot_train ARGS for one process)
Metrics go to stdout as lines starting with "INGOT_METRIC " followed by one JSON object, lifecycle events as
"INGOT_EVENT " lines; the same records are appended to OUTPUT_DIR/metrics.jsonl.
"""
__version__ = "0.1.0"
METRIC_PREFIX = "INGOT_METRIC "
EVENT_PREFIX = "INGOT_EVENT "
