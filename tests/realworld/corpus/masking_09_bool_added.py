"""apply_mask that adds the mask to the scores (`scores + mask`), the additive-mask recipe applied
to a boolean mask.

Bug: True adds 1 to the allowed scores and nothing is removed.
"""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "apply_mask_added"}


def causal_mask(n):
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, max_len):
    return np.greater.outer(np.asarray(lengths), np.arange(max_len))


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if not np.issubdtype(scores.dtype, np.floating):
        scores = scores.astype(float)
    return np.add(scores, mask, dtype=scores.dtype)
