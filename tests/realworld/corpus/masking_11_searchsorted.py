"""Correct masking in an unusual style: the causal mask as the transpose of np.triu, the padding mask
from np.indices, apply_mask through np.putmask on an explicit copy.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": None}


def causal_mask(n):
    return np.triu(np.ones((n, n), dtype=bool)).T


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths)
    _, t = np.indices((lengths.shape[0], max_len))
    return t < lengths[:, None]


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    keep = np.asarray(mask, dtype=bool)
    shape = np.broadcast_shapes(scores.shape, keep.shape)
    out = np.array(np.broadcast_to(scores, shape), dtype=scores.dtype if scores.dtype.kind == "f" else float)
    np.putmask(out, ~np.broadcast_to(keep, shape), -np.inf)
    return out
