"""Padding mask from a list comprehension with `<=` (one position too many counted as real).

Bug: position t == length is marked as a real token.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "padding_mask_off_by_one"}


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, max_len):
    rows = [[pos <= length for pos in range(max_len)] for length in np.asarray(lengths).tolist()]
    return np.array(rows, dtype=bool).reshape(len(rows), max_len)


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return np.where(mask, scores, -np.inf)
