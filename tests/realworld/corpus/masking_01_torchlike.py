"""Correct masking ported from PyTorch idioms: a `masked_fill` helper, np.tri for the causal mask,
np.greater.outer for padding.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": None}


def masked_fill(tensor, where, value):
    """torch.Tensor.masked_fill for numpy: a new array with `value` where `where` is True."""
    tensor = np.asarray(tensor)
    out = tensor.astype(np.result_type(tensor, 1.0))
    where = np.broadcast_to(where, np.broadcast_shapes(out.shape, np.shape(where)))
    out = np.broadcast_to(out, where.shape).copy()
    out[where] = value
    return out


def causal_mask(n):
    return np.tri(n, n, 0, dtype=bool)


def padding_mask(lengths, max_len):
    return np.greater.outer(np.asarray(lengths), np.arange(max_len))


def apply_mask(scores, mask):
    return masked_fill(scores, ~np.asarray(mask, dtype=bool), float("-inf"))
