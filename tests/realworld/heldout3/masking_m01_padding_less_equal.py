"""Held-out #3: a padding mask from a per-sequence comparison ``positions <= length`` (written thinking of the
last valid index as the length): one pad position per sequence stays visible."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "padding_mask_off_by_one"}


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths)
    positions = np.arange(max_len)
    return positions[None, :] <= lengths[:, None]


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
