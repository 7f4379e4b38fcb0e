import sys

from .stacks import register

register()  # first: a rank that hangs while importing can be asked for its stack too

from .train import main  # noqa: E402

try:  # under torchrun, an uncaught exception is written to the rank's error file (the monitor shows it)
    from torch.distributed.elastic.multiprocessing.errors import record
except ImportError:
    def record(fn):
        return fn

sys.exit(record(main)())
