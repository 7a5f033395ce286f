"""In-place softmax in the scikit-learn `inplace_softmax` style (`x -= max; np.exp(x, out=x); x /= sum`).

Bug: the caller's float array is overwritten with the result (the values returned are right).
"""
import numpy as np

EXPECTED = {"exercise": "softmax", "mistake": "softmax_modifies_input"}


def softmax(x, axis=-1):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    x -= top
    np.exp(x, out=x)
    total = x.sum(axis=axis, keepdims=True)
    np.divide(x, total, out=x, where=total > 0)
    x[np.broadcast_to(total == 0, x.shape)] = 0
    return x
