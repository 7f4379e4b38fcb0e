"""Training data: text files, folders of .txt, .jsonl with a "text" field, or pre-tokenized .npy/.pt token files;
tokenized with the model folder's tokenizer when transformers is importable, else byte by byte."""
import json
import os

import torch

from .errors import TrainError

BOS, EOS, PAD, UNK = 256, 257, 258, 259


class ByteTokenizer:
    name = "bytes"
    vocab_size = 260

    def encode(self, text):
        return [BOS] + list(text.encode("utf-8")) + [EOS]


def load_tokenizer(model_folder):
    """(tokenizer, why): the model folder's own tokenizer through transformers when both exist, else bytes, with
    the reason when a folder's tokenizer could not be used."""
    has_own = model_folder and any(os.path.exists(os.path.join(model_folder, n))
                                   for n in ("tokenizer.json", "tokenizer.model", "tokenizer_config.json"))
    if not has_own:
        return ByteTokenizer(), None
    try:
        from transformers import AutoTokenizer  # optional: not in Debian 12
        tok = AutoTokenizer.from_pretrained(model_folder)
    except ImportError:
        return ByteTokenizer(), "transformers is not importable"
    except Exception as e:
        return ByteTokenizer(), f"transformers cannot load it ({type(e).__name__}: {e})"

    class Wrapped:
        name = "the model folder's (transformers)"
        vocab_size = len(tok)

        def encode(self, text):
            return tok(text)["input_ids"]
    return Wrapped(), None


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise TrainError(f"{path} is not UTF-8 text (byte {e.start})")
    except OSError as e:
        raise TrainError(f"cannot read {path}: {e.strerror}")


def read_texts(path):
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if n.endswith(".txt"))
        if not names:
            raise TrainError(f"the folder {path} has no .txt files")
        return [_read(os.path.join(path, n)) for n in names]
    if path.endswith(".jsonl"):
        out = []
        for n, line in enumerate(_read(path).split("\n"), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as e:
                raise TrainError(f"{path} line {n} is not JSON ({e.msg})")
            if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
                raise TrainError(f"{path} line {n} has no \"text\" field")
            out.append(obj["text"])
        return out
    return [_read(path)]


def token_stream(path, tokenizer):
    if path.endswith((".pt", ".npy")):
        try:
            if path.endswith(".npy"):
                import numpy
                t = torch.from_numpy(numpy.load(path, allow_pickle=False).astype("int64"))
            else:
                with open(path, "rb") as f:  # a file object: torch cannot open a name that is not UTF-8
                    t = torch.load(f, map_location="cpu")
        except Exception as e:
            raise TrainError(f"cannot read the token file {path}: {e}")
        if not isinstance(t, torch.Tensor) or t.is_floating_point() or t.is_complex():
            raise TrainError(f"{path} does not hold a tensor of integer token ids")
        return t.long().flatten()
    ids = []
    for t in read_texts(path):
        ids.extend(tokenizer.encode(t))
    return torch.tensor(ids, dtype=torch.long)


class Blocks:
    """Fixed-length blocks of the token stream, visited in a seeded order: position `i` of epoch `e` is the same
    block whatever the parallel layout, so runs are reproducible and resumable."""

    def __init__(self, tokens, block_size, seed):
        n = (len(tokens) - 1) // block_size
        if n < 1:
            raise TrainError(f"the data holds {len(tokens)} tokens, fewer than one block of {block_size}")
        self.blocks = tokens[: n * block_size + 1]
        self.block_size = block_size
        self.count = n
        self.seed = seed

    def order(self, epoch):
        if getattr(self, "_epoch", None) != epoch:  # one permutation per epoch, not per sample
            g = torch.Generator().manual_seed(self.seed + epoch)
            self._epoch, self._order = epoch, torch.randperm(self.count, generator=g)
        return self._order

    def batch(self, global_index, size):
        """`size` consecutive samples starting at sample number `global_index` (across epochs)."""
        out = []
        for i in range(global_index, global_index + size):
            epoch, pos = divmod(i, self.count)
            b = int(self.order(epoch)[pos])
            out.append(self.blocks[b * self.block_size: (b + 1) * self.block_size])
        return torch.stack(out)
