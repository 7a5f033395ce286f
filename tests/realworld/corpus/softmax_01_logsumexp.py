"""Correct softmax in the log-sum-exp style (scipy.special.softmax), with an explicit -inf guard.

Imitates: numerically minded course code that computes log(sum(exp)) once and returns exp(x - lse).
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": None}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(float)
    peak = np.amax(x, axis=axis, keepdims=True)
    peak[~np.isfinite(peak)] = 0  # a slice of -inf only: shift by nothing
    shifted = x - peak
    with np.errstate(divide="ignore"):
        lse = np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
    out = np.exp(shifted - lse)
    out[np.isnan(out)] = 0  # -inf - (-inf) for an all -inf slice
    return out
