"""apply_mask with the classic `masked_fill(mask == 0, -1e9)` ported to numpy.

Bug: forbidden scores get -1e9 (finite), not -inf.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "apply_mask_large_negative"}


def causal_mask(n):
    return np.tril(np.ones((n, n))).astype(bool)


def padding_mask(lengths, max_len):
    return np.array([[t < length for t in range(max_len)] for length in lengths], dtype=bool).reshape(-1, max_len)


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return np.where(np.asarray(mask) == 0, -1e9, scores).astype(scores.dtype)
