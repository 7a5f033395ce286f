"""apply_mask as `scores * mask` (a mask of ones and zeros multiplied in, seen in beginner notebooks).

Bug: forbidden scores become 0, which still gets weight exp(0) after the softmax.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "apply_mask_zero"}


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, max_len):
    return np.arange(max_len)[None, :] < np.asarray(lengths)[:, None]


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return scores * np.asarray(mask, dtype=scores.dtype)
