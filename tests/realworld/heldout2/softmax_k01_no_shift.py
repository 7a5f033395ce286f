"""Held-out #2: the tutorial softmax ``exp(x) / sum(exp(x))`` written with the reduced axis kept, but without
subtracting the slice's maximum first (overflows for large scores)."""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_no_max_subtraction"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    e = np.exp(x)
    total = e.sum(axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)
