"""Held-out: apply_mask by boolean-index assignment on a copy, ``out[~mask] = -inf``: fine when the mask has the
scores' shape, an IndexError for a mask that only broadcasts (a causal (n, n) mask on batched scores)."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "error_index"}


def causal_mask(n):
    return np.tril(np.ones((n, n))).astype(bool)


def padding_mask(lengths, max_len):
    return np.arange(max_len) < np.asarray(lengths)[:, None]


def apply_mask(scores, mask):
    out = np.array(scores, dtype=np.result_type(np.asarray(scores), 1.0))
    out[~np.asarray(mask, dtype=bool)] = -np.inf
    return out
