"""Correct masking from index comparisons only (no tril), as in broadcasting-first tutorials."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": None}


def causal_mask(n):
    i = np.arange(n)
    return i[:, np.newaxis] >= i[np.newaxis, :]


def padding_mask(lengths, max_len):
    lengths = np.array(lengths).reshape(-1, 1)
    return np.arange(max_len).reshape(1, -1) < lengths


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    fill = np.array(-np.inf, dtype=scores.dtype if scores.dtype.kind == "f" else np.float64)
    return np.where(mask, scores, fill)
