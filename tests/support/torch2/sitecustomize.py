"""Test-side only (tests/support/torch2/python3 puts it on PYTHONPATH): Debian 13's torch 2.6 is built without libuv,
while torch.distributed's TCPStore (torchrun's rendezvous and env:// init) asks for libuv unless told otherwise, and
fails with "use_libuv was requested but PyTorch was build without libuv support". Every TCPStore made in a process
this wrapper starts gets use_libuv=False. torch is imported lazily: only when torch.distributed is."""
import importlib.abc
import importlib.util
import os
import sys


def _patch(module):
    original = module.TCPStore
    if getattr(original, "_ingot_no_libuv", False):
        return

    class TCPStore(original):
        _ingot_no_libuv = True

        def __init__(self, *args, **kwargs):
            kwargs["use_libuv"] = False
            super().__init__(*args, **kwargs)

    TCPStore.__name__ = TCPStore.__qualname__ = "TCPStore"
    # torch.distributed's own submodules (rendezvous.py for env:// init) took the name while it was imported.
    for name, m in list(sys.modules.items()):
        if (name == "torch.distributed" or name.startswith("torch.distributed.")) and getattr(m, "TCPStore", None) is original:
            m.TCPStore = TCPStore


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "torch.distributed":
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def patched(module):
            exec_module(module)
            _patch(module)
            sys.meta_path[:] = [f for f in sys.meta_path if f is not self]
        loader.exec_module = patched
        return spec


if os.environ.get("INGOT_TORCH2_NO_LIBUV") == "1":
    sys.meta_path.insert(0, _Finder())
