"""Held-out #2: ``apply_mask`` written with ``np.copyto(..., where=~mask)`` on the array it was given (a port of
torch's in-place ``masked_fill_``): a float caller's scores are overwritten."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "apply_mask_modifies_input"}


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, max_len):
    lengths = np.asarray(lengths)
    return np.arange(max_len)[None, :] < lengths[:, None]


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    np.copyto(scores, -np.inf, where=~np.asarray(mask, dtype=bool))
    return scores
