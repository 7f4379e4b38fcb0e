"""Which engine trains: PyTorch/XLA (torch_xla; Neuron 2.29 and earlier) or native PyTorch (TorchNeuron from Neuron
2.30, CUDA, or CPU with gloo). Decided the same way on every rank, before any process group exists."""
import importlib.util


def _importable(name):
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def torch_version():
    import torch
    try:
        return tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2])
    except ValueError:
        return (0, 0)


def has_dtensor():
    """torch.distributed.tensor with parallelize_module's plans and DCP's state_dict helpers: torch 2.4 and later."""
    return torch_version() >= (2, 4) and _importable("torch.distributed.tensor")


def resolve_engine(choice):
    """(engine, why): CHOICE, or for auto xla when torch_xla is importable, else native when torch has DTensor,
    else xla (which is what runs on an older torch on CPU)."""
    import torch
    if choice == "native":
        return "native", "--engine native"
    if choice == "xla":
        return "xla", "--engine xla"
    if _importable("torch_xla"):
        return "xla", "auto: torch_xla is importable"
    if has_dtensor():
        return "native", f"auto: torch {torch.__version__} has torch.distributed.tensor and torch_xla is not importable"
    return "xla", f"auto: torch {torch.__version__} has no torch.distributed.tensor"
