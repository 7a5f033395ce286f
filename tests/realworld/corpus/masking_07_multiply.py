"""apply_mask as `scores * mask` (a mask of ones and zeros multiplied in, seen in beginner notebooks).

Bug: forbidden scores become 0, which still gets weight exp(0) after the softmax.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "apply_mask_zero"}


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths).reshape(-1, 1)
    return np.arange(max_len).reshape(1, max_len) < lengths


def apply_mask(scores, mask):
    """Zero out the scores the mask forbids."""
    out = np.array(scores, dtype=float) if np.asarray(scores).dtype.kind != "f" else np.array(scores)
    return out * np.asarray(mask)
