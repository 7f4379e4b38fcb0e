"""torchrun, usable on Debian 12: `python3 -m ingot_train.launch [torchrun options] -m ingot_train ARGS`.

Debian 12's python3-torch (1.13) runs on Python 3.11, where torch's Std.from_str returns None for every value
(Python 3.11 changed how `Flag(0) in Flag` and composite flags answer), so /usr/bin/torchrun fails before starting
any worker ("'NoneType' object has no attribute 'get'"). This wrapper parses those values correctly and then runs
torchrun's own main, unchanged otherwise. On newer torch it changes nothing that works.
"""
import re

from torch.distributed.elastic.multiprocessing import api


def _std(value):
    return api.Std(int(value))


def _from_str(cls, vm):
    if re.fullmatch(r"[0-3]", vm):
        return _std(vm)
    if re.fullmatch(r"(\d+:[0-3],)*\d+:[0-3]", vm):
        return {int(k): _std(v) for k, v in (part.split(":") for part in vm.split(","))}
    raise ValueError(f"{vm} does not match: <0-3> or <local_rank>:<0-3>[,...]")


if api.Std.from_str("0") is None:
    api.Std.from_str = classmethod(_from_str)

if __name__ == "__main__":
    from torch.distributed.run import main

    main()
