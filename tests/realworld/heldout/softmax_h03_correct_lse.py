"""Held-out, correct: softmax through log-sum-exp, exp(x - logsumexp(x)), with the all -inf slice handled."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": None}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isneginf(top), 0, top)
    with np.errstate(divide="ignore"):
        lse = top + np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True))
    out = np.exp(x - np.where(np.isneginf(lse), 0, lse))
    return np.where(np.isneginf(lse), 0, out).astype(x.dtype, copy=False)
