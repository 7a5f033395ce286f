"""Held-out #3: a scratch softmax written for one column of logits (``e / e.sum(axis=0)``), kept when the logits
became a matrix of rows: every column is normalised instead of every row."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_wrong_axis"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    shifted = np.where(np.isfinite(shifted), shifted, -np.inf)
    e = np.exp(shifted)
    return e / np.sum(e, axis=0, keepdims=True)
