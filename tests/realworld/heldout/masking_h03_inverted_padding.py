"""Held-out: padding mask in the "True marks padding" convention of key_padding_mask in torch (here True means a
real token)."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "padding_mask_inverted"}


def causal_mask(n):
    return np.tril(np.full((n, n), True))


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths).reshape(-1, 1)
    return np.arange(max_len).reshape(1, -1) >= lengths


def apply_mask(scores, mask):
    out = np.array(scores, dtype=np.result_type(np.asarray(scores), 1.0), copy=True)
    return np.where(np.asarray(mask, dtype=bool), out, -np.inf)
