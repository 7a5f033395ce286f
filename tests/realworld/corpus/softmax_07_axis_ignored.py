"""Softmax hard-wired to the last axis (the `axis` parameter is accepted and forgotten).

Bug: softmax(x, axis=0) normalises the last axis anyway.
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_wrong_axis"}


def softmax(x, axis=-1):
    z = np.asarray(x)
    if z.dtype.kind != "f":
        z = z.astype(np.float64)
    m = z.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(z - m)
    s = e.sum(axis=-1, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0)
