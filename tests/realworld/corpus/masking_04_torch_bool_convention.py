"""Causal mask in the torch `attn_mask` boolean convention: True marks the positions NOT allowed
(np.triu(..., k=1)), as nn.MultiheadAttention expects.

Bug: the kit's convention is the opposite (True = may attend).
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "causal_mask_inverted"}


def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool), k=1)


def padding_mask(lengths, max_len):
    return np.arange(max_len)[None, :] < np.asarray(lengths)[:, None]


def apply_mask(scores, mask):
    s = np.asarray(scores)
    s = s if s.dtype.kind == "f" else s.astype(float)
    return np.where(np.asarray(mask, dtype=bool), s, -np.inf)
