"""Alternative masking: plain loops."""
import numpy as np


def causal_mask(n):
    mask = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(i + 1):
            mask[i, j] = True
    return mask


def padding_mask(lengths, max_len):
    lengths = list(lengths)
    mask = np.zeros((len(lengths), max_len), dtype=bool)
    for b, length in enumerate(lengths):
        mask[b, : int(length)] = True
    return mask


def apply_mask(scores, mask):
    scores = np.array(scores)  # a copy: the caller's scores stay untouched
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), scores.shape)
    out = scores.copy()
    out[~mask] = -np.inf
    return out
