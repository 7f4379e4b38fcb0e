"""Training data: text files, folders of .txt, .jsonl with a "text" field, or pre-tokenized .npy/.pt token files;
tokenized with the model folder's tokenizer when transformers is importable, else byte by byte."""
import json
import os

import torch

BOS, EOS, PAD, UNK = 256, 257, 258, 259


class ByteTokenizer:
    vocab_size = 260

    def encode(self, text):
        return [BOS] + list(text.encode("utf-8")) + [EOS]


def load_tokenizer(model_folder):
    if model_folder:
        try:
            from transformers import AutoTokenizer  # noqa: F401 (optional)
            tok = AutoTokenizer.from_pretrained(model_folder)

            class Wrapped:
                vocab_size = len(tok)

                def encode(self, text):
                    return tok(text)["input_ids"]
            return Wrapped()
        except Exception:
            pass
    return ByteTokenizer()


def read_texts(path):
    if os.path.isdir(path):
        out = []
        for name in sorted(os.listdir(path)):
            if name.endswith(".txt"):
                with open(os.path.join(path, name), encoding="utf-8") as f:
                    out.append(f.read())
        return out
    if path.endswith(".jsonl"):
        out = []
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    obj = json.loads(line)
                    if "text" not in obj:
                        raise SystemExit(f"ingot_train: error: {path} line {n} has no \"text\" field")
                    out.append(obj["text"])
        return out
    with open(path, encoding="utf-8") as f:
        return [f.read()]


def token_stream(path, tokenizer):
    if path.endswith(".pt"):
        return torch.load(path).long().flatten()
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
            raise SystemExit(f"ingot_train: error: the data holds {len(tokens)} tokens, fewer than one block of {block_size}")
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
