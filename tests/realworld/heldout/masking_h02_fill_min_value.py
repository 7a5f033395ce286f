"""Held-out: masked scores filled with the dtype's most negative finite number (``np.finfo(dtype).min``), as
``torch.finfo(dtype).min`` is used in several model codebases."""
import numpy as np

EXPECTED = {"exercise": "masking", "mistake": "apply_mask_large_negative"}


def causal_mask(n):
    i = np.arange(n)
    return i[:, None] >= i[None, :]


def padding_mask(lengths, max_len):
    return np.array([[j < length for j in range(max_len)] for length in lengths], dtype=bool).reshape(-1, max_len)


def apply_mask(scores, mask):
    scores = np.asarray(scores)
    if scores.dtype.kind != "f":
        scores = scores.astype(np.float64)
    return np.where(mask, scores, np.finfo(scores.dtype).min)
