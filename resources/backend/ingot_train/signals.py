"""Stop signals: SIGTERM/SIGINT turned into a clean stop that all ranks agree on after a step."""
import os
import signal
import time

import torch
import torch.distributed as dist


class StopRequest:
    """SIGTERM or SIGINT asks for a clean stop: the ranks agree after each step (one tiny all-reduce), save a
    checkpoint there and exit. torchrun forwards the signal to every worker and allows 30 s before killing them.
    Repeats within 2 s (a launcher passing the same stop on) are ignored; a later one stops at once."""

    def __init__(self):
        self.asked, self.when = None, 0.0
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._handle)

    def _handle(self, signum, frame):
        now = time.monotonic()
        if self.asked and now - self.when > 2:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        if not self.asked:
            self.asked, self.when = signal.Signals(signum).name, now

    def agreed(self, lay, device):
        flag = torch.tensor(1.0 if self.asked else 0.0, device=device)
        if lay.world > 1:
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        return bool(flag)
