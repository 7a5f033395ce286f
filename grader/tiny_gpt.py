"""The tiny character-level GPT-2 shipped with the kit (``tiny_gpt.npz``, its card ``tiny_gpt.json``), and the one rule
that maps GPT-2's dotted parameter names onto the kit's parameter tree.

The rule (the same for a HuggingFace ``GPT2LMHeadModel.state_dict()``): drop the ``transformer.`` prefix, split at the
dots, integer parts index the list of blocks, no transpose; ``transformer.h.1.mlp.c_fc.weight`` ->
``params["h"][1]["mlp"]["c_fc"]["weight"]``. ``scripts/train_tiny_gpt.py`` trained the weights with the reference
``train``; the card records the seed, the settings, the text, the loss curve and a sample.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
WEIGHTS, CARD = HERE / "tiny_gpt.npz", HERE / "tiny_gpt.json"
PREFIX = "transformer."
MAX_KEYS = 4096   # a GPT-2 of 100 layers has about 1200 arrays


@dataclass(frozen=True)
class TinyGPT:
    """The shipped model: its parameter tree, head count and character vocabulary (id i is ``vocabulary[i]``)."""

    params: dict
    n_head: int
    vocabulary: str
    card: dict

    def encode(self, text: str) -> np.ndarray:
        """Character ids of ``text`` (lower-cased); raises ValueError naming the first character it cannot encode."""
        text = text.lower()
        unknown = sorted(set(text) - set(self.vocabulary))
        if unknown:
            raise ValueError(f"the tiny model knows only the characters {self.vocabulary!r}; {unknown[0]!r} is not "
                             "one of them")
        return np.array([self.vocabulary.index(c) for c in text], dtype=np.int64)

    def decode(self, ids) -> str:
        return "".join(self.vocabulary[int(i)] for i in ids)


def tree_from_dotted(arrays) -> dict:
    """The kit's parameter tree from ``{dotted name: array}``: keys that do not start with ``transformer.`` (the tied
    ``lm_head.weight``) are skipped; list indices must run 0, 1, 2... without gaps."""
    params: dict = {}
    for count, (key, value) in enumerate(arrays.items()):
        if count >= MAX_KEYS:
            raise ValueError(f"more than {MAX_KEYS} arrays; not a GPT-2 of a size the kit handles")
        if not key.startswith(PREFIX):
            continue
        *path, leaf = key[len(PREFIX):].split(".")
        node: Any = params
        for part, following in zip(path, path[1:] + [leaf]):
            if part.isdigit():
                if int(part) > len(node):
                    raise ValueError(f"{key}: block {part} comes before block {len(node)}")
                if int(part) == len(node):
                    node.append({})
                node = node[int(part)]
            else:
                node = node.setdefault(part, [] if following.isdigit() else {})
        node[leaf] = np.asarray(value)
    return params


def dotted_from_tree(params, prefix: str = PREFIX) -> dict:
    """The inverse of :func:`tree_from_dotted`: ``{dotted name: array}`` in the tree's own order."""
    out: dict = {}
    stack = [(prefix.rstrip("."), params)]
    while stack:
        name, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((f"{name}.{key}", value) for key, value in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((f"{name}.{index}", value) for index, value in reversed(list(enumerate(node))))
        else:
            out[name] = node
    return out


def digest(params) -> str:
    """sha256 of every array's name, dtype, shape and bytes, in name order: equal digests, equal weights bit for bit."""
    h = hashlib.sha256()
    for name, array in sorted(dotted_from_tree(params).items()):
        array = np.ascontiguousarray(array)
        h.update(f"{name}|{array.dtype.str}|{array.shape}|".encode())
        h.update(array.tobytes())
    return h.hexdigest()


def load(dtype=np.float64, weights: Path = WEIGHTS, card: Path = CARD) -> TinyGPT:
    """The shipped model, its arrays as ``dtype`` (they are stored as float32)."""
    info = json.loads(card.read_text(encoding="utf-8"))
    with np.load(weights, allow_pickle=False) as stored:
        params = tree_from_dotted({key: stored[key].astype(dtype) for key in stored.files})
    return TinyGPT(params, int(info["n_head"]), info["vocabulary"], info)
