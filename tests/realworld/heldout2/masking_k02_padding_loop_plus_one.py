"""Held-out #2: a padding mask filled by a Python loop over the batch, slicing ``[:length + 1]`` (the length
treated as the index of the last real token)."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "padding_mask_off_by_one"}


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths)
    mask = np.zeros((len(lengths), max_len), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, : int(length) + 1] = True
    return mask


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
