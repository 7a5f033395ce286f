"""apply_mask ported from torch's in-place `masked_fill_`: np.copyto(scores, -inf, where=~mask).

Bug: the caller's float scores are overwritten (the returned values are right).
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "apply_mask_modifies_input"}


def causal_mask(n):
    return np.tril(np.full((n, n), True))


def padding_mask(lengths, max_len):
    return np.arange(max_len) < np.asarray(lengths)[:, np.newaxis]


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    np.copyto(scores, -np.inf, where=~np.asarray(mask, dtype=bool))
    return scores
