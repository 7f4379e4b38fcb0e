"""Python stacks on request, for a job that seems to hang: faulthandler dumps every thread's stack on SIGUSR2 to the
rank's stderr (torchrun's per-rank stderr.log), and each rank says so in its first line, so that Ingot sends that
signal only to a backend that handles it (the default action of SIGUSR2 ends a process). torchrun and
torch.distributed use SIGTERM, SIGINT, SIGHUP and SIGQUIT (torch/distributed/elastic/multiprocessing/api.py) and
SIGKILL (its timers), not SIGUSR2; nor does the backend (signals.py: SIGTERM and SIGINT).

Test-only: INGOT_TRAIN_TEST_HANG=RANK:STEPS:RELEASE_FILE makes RANK wait, once STEPS steps are done and logged, in the
next step until RELEASE_FILE exists (at most 10 minutes), while the other ranks wait for it in that step's
all-reduce: a hang Ingot's tests detect and dump. Unset (as always outside those tests), it does nothing."""
import faulthandler
import os
import signal
import sys
import time

LINE = "ingot_train: faulthandler: SIGUSR2 dumps this rank's Python stacks here"
HANG_VARIABLE = "INGOT_TRAIN_TEST_HANG"


def register():
    faulthandler.register(signal.SIGUSR2, file=sys.stderr, all_threads=True, chain=False)
    print(LINE, file=sys.stderr, flush=True)


def _hang_asked():
    value = os.environ.get(HANG_VARIABLE, "")
    parts = value.split(":", 2)
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or not parts[2]:
        return None
    return int(parts[0]), int(parts[1]), parts[2]


def test_hang(done, rank):
    """Waits here when INGOT_TRAIN_TEST_HANG asks this rank to once DONE steps are done; returns at once otherwise."""
    asked = _hang_asked()
    if asked is None or asked[0] != rank or asked[1] != done:
        return
    deadline = time.monotonic() + 600
    while not os.path.exists(asked[2]) and time.monotonic() < deadline:
        time.sleep(0.1)
