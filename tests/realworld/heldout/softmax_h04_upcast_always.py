"""Held-out: every input cast to float64 first (``np.asarray(x, dtype=np.float64)``), so float32 comes back
float64. Style: "be safe with precision" snippets."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_float64_always"}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m[~np.isfinite(m)] = 0.0
    e = np.exp(x - m)
    s = e.sum(axis=axis, keepdims=True)
    return np.divide(e, s, out=np.zeros_like(e), where=s != 0)
