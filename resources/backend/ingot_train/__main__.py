import sys

from .train import main

try:  # under torchrun, an uncaught exception is written to the rank's error file (the monitor shows it)
    from torch.distributed.elastic.multiprocessing.errors import record
except ImportError:
    def record(fn):
        return fn

sys.exit(record(main)())
