"""Correct softmax through np.logaddexp.reduce (the log-partition computed by a ufunc reduction), with
the empty-slice case spelled out.
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": None}


def softmax(x, axis=-1):
    x = np.asarray(x)
    x = x if np.issubdtype(x.dtype, np.floating) else x.astype(np.float64)
    log_z = np.logaddexp.reduce(x, axis=axis, keepdims=True)   # -inf for a slice of -inf only
    with np.errstate(invalid="ignore"):
        p = np.exp(x - log_z)
    return np.where(np.isneginf(log_z), np.zeros_like(p), p)
