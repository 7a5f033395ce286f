"""Causal mask with np.tril(..., k=-1): the "cannot see itself" misreading of "no peeking".

Bug: the diagonal is forbidden too.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "causal_mask_strict"}


def causal_mask(n):
    return np.tril(np.ones((n, n)), k=-1).astype(bool)


def padding_mask(lengths, max_len):
    return np.arange(max_len)[None, :] < np.asarray(lengths)[:, None]


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return np.where(mask, scores, -np.inf)
