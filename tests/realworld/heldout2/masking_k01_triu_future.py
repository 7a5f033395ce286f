"""Held-out #2: a causal mask built the way torch code builds ``attn_mask`` to pass to masked_fill: the strict
upper triangle, True for the keys to hide (the kit's convention is True where attention is allowed)."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "causal_mask_triu"}


def causal_mask(n):
    return np.triu(np.ones((n, n)), k=1).astype(bool)


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths)
    return np.arange(max_len)[None, :] < lengths[:, None]


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
