"""Softmax that computes in float32 "like on a GPU" and casts back to the input dtype.

Bug: float64 input gets float32 precision (about 1e-7 relative error).
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_float32_compute"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    out_dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    z = x.astype(np.float32)
    m = z.max(axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, np.float32(0))
    e = np.exp(z - m)
    s = e.sum(axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s > 0).astype(out_dtype)
