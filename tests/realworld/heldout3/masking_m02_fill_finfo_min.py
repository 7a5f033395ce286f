"""Held-out #3: masked scores filled with ``np.finfo(dtype).min`` (the "most negative float" idiom of fp16-safe
model code) instead of -inf: a fully masked row is no longer -inf everywhere."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "apply_mask_large_negative"}


def causal_mask(n):
    rows = np.arange(n)[:, None]
    return np.arange(n)[None, :] <= rows


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths)
    return np.arange(max_len)[None, :] < lengths[:, None]


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return np.where(np.asarray(mask, dtype=bool), scores, np.finfo(scores.dtype).min)
