"""What a run reports: lifecycle events and metrics as JSON lines (on stdout behind INGOT_EVENT / INGOT_METRIC, and
appended to OUTPUT_DIR/metrics.jsonl by rank 0), the HF Trainer-style result files, and the peak-memory figure."""
import json
import os
import time

import torch

from . import EVENT_PREFIX, METRIC_PREFIX

RESULT_FILES = ("train_results.json", "all_results.json")


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
            self._emit(METRIC_PREFIX, {"type": "metric", "time": time.time(), **fields})


def write_results(output_dir, results):
    """train_results.json and all_results.json, as HF Trainer writes them at the end of training."""
    for name in RESULT_FILES:
        with open(os.path.join(output_dir, name), "w") as f:
            json.dump(results, f, indent=2)


def peak_memory(kind):
    """This process's peak memory in bytes: allocated GPU memory on CUDA, else the peak resident set size."""
    return torch.cuda.max_memory_allocated() if kind == "cuda" else peak_rss()


def peak_rss():
    try:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    except Exception:
        return None
