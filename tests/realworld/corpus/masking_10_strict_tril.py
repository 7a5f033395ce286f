"""Causal mask with np.tril(..., k=-1): the "cannot see itself" misreading of "no peeking".

Bug: the diagonal is forbidden too.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "causal_mask_strict"}


def causal_mask(n):
    return np.tril(np.ones((n, n)), k=-1).astype(bool)


def padding_mask(lengths, max_len):
    return np.array([np.arange(max_len) < n for n in np.asarray(lengths).tolist()], dtype=bool).reshape(-1, max_len)


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    neg_inf = np.array(-np.inf, dtype=scores.dtype if scores.dtype.kind == "f" else np.float64)
    return np.where(np.asarray(mask, dtype=bool), scores, neg_inf)
